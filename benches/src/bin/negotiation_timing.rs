//! The Rust half of `scripts/negotiation_vs_parse.sh`: negotiates every
//! request of a header set (a JSON array of requests, each an array of
//! `[name, value]` pairs) against the benchmarks' compute API (2.1 to 2.96,
//! legacy header included), as the middleware does, and prints the median
//! over `ROUNDS` rounds of the time per negotiation in ns.
//!
//! `negotiation_timing HEADERS.json [ITERATIONS] [ROUNDS]`: each round
//! negotiates the whole set `ITERATIONS` times (10 000 by default, 7 rounds).

use std::hint::black_box;
use std::time::Instant;

use microversion_benches::server::COMPUTE;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(file) = args.next() else {
        eprintln!("usage: negotiation_timing HEADERS.json [ITERATIONS] [ROUNDS]");
        std::process::exit(2);
    };
    let number =
        |text: Option<String>, default: usize| text.map_or(default, |t| t.parse().expect("a number"));
    let (iterations, rounds) = (number(args.next(), 10_000), number(args.next(), 7));
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
    let requests: Vec<Vec<(String, String)>> =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{file}: {e}"));

    // The outcome of each request, so the work cannot be dropped and the
    // Python side can be checked against it.
    for headers in &requests {
        let got = COMPUTE.negotiate(headers.iter().map(|(n, v)| (n.as_str(), v.as_str())));
        match got {
            Ok(n) => eprintln!("{}", n.version),
            Err(e) => eprintln!("error {}", e.status()),
        }
    }
    let mut per_call = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        let start = Instant::now();
        for _ in 0..iterations {
            for headers in &requests {
                let got = COMPUTE.negotiate(black_box(headers).iter().map(|(n, v)| (n.as_str(), v.as_str())));
                black_box(got.map(|n| n.version).ok());
            }
        }
        per_call.push(start.elapsed().as_nanos() as f64 / (iterations * requests.len()) as f64);
    }
    per_call.sort_by(f64::total_cmp);
    println!("{:.1}", per_call[per_call.len() / 2]);
}
