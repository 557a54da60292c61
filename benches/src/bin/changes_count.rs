//! The Rust half of `scripts/changes_instructions.sh`: sends `N` requests
//! at version `1.MINOR` to one of the version-change bench's controllers
//! (`walked`: a head handler and ten version changes; `variants`: a
//! same-named variant per version), in process, and prints the bytes
//! answered so that no request is dropped. Run under callgrind with two
//! counts, the difference is the cost of the requests alone.
//!
//! `changes_count walked|variants MINOR N`

use microversion_benches::changes::{Variants, Walked, answer, router};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [side, minor, n] = args.as_slice() else {
        eprintln!("usage: changes_count walked|variants MINOR N");
        std::process::exit(2);
    };
    let number = |text: &str| text.parse::<u16>().unwrap_or_else(|_| panic!("not a number: {text}"));
    let (minor, n) = (number(minor), number(n));
    let router = match side.as_str() {
        "walked" => router(Walked),
        "variants" => router(Variants),
        other => panic!("walked or variants, not {other}"),
    };
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    let bytes: usize = runtime.block_on(async {
        let mut bytes = 0;
        for _ in 0..n {
            bytes += answer(&router, minor).await.1.len();
        }
        bytes
    });
    println!("{bytes}");
}
