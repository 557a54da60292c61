//! The Rust half of `scripts/dispatch_instructions.sh`: dispatches one
//! operation of the dispatch bench (`benches/benches/dispatch.rs`, the same
//! generated controllers and hand-written `match`es) over its workload of
//! 1 024 versions, `PASSES` times, and prints the sum so no call is dropped.
//! Run under callgrind with two pass counts, the difference is the cost of
//! the dispatches alone, start-up cancelled out.
//!
//! `dispatch_count VARIANTS fixed|mixed generated|hand_match PASSES`

use std::hint::black_box;

use microversion_actix::{Version, operation::UnservedVersion};
use microversion_benches::dispatch::workload;

include!(concat!(env!("OUT_DIR"), "/dispatch_generated.rs"));

/// Calls per pass, as in the bench.
const CALLS: usize = 1024;

/// One pass over `versions`, never inlined, so every build lays out the
/// loop alike and callgrind counts the dispatches it calls.
#[inline(never)]
fn pass(versions: &[Version], f: &dyn Fn(Version, u64) -> Result<u64, UnservedVersion>) -> u64 {
    let mut acc = 0u64;
    for (i, v) in versions.iter().enumerate() {
        acc = acc.wrapping_add(f(*v, i as u64).unwrap_or(0));
    }
    acc
}

macro_rules! run {
    ($ty:ident, $versions:expr, $side:expr, $passes:expr) => {{
        let op = $ty;
        let generated = |v: Version, x: u64| Ok(op.op(v, x));
        let by_match = |v: Version, x: u64| op.by_match(v, x);
        let f: &dyn Fn(Version, u64) -> Result<u64, UnservedVersion> =
            if $side == "generated" { &generated } else { &by_match };
        (0..$passes).fold(0u64, |acc, _| acc.wrapping_add(pass(black_box(&$versions), f)))
    }};
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [variants, shape, side, passes] = args.as_slice() else {
        eprintln!("usage: dispatch_count VARIANTS fixed|mixed generated|hand_match PASSES");
        std::process::exit(2);
    };
    let number = |text: &str| text.parse::<u16>().unwrap_or_else(|_| panic!("not a number: {text}"));
    let (variants, passes) = (number(variants), number(passes));
    assert!(matches!(side.as_str(), "generated" | "hand_match"), "side: generated or hand_match");
    let versions = workload(variants, CALLS, shape == "mixed");
    let sum = match variants {
        2 => run!(Dispatch2, versions, side, passes),
        8 => run!(Dispatch8, versions, side, passes),
        32 => run!(Dispatch32, versions, side, passes),
        128 => run!(Dispatch128, versions, side, passes),
        512 => run!(Dispatch512, versions, side, passes),
        other => panic!("no operation of {other} variants: 2, 8, 32, 128 or 512"),
    };
    println!("{sum}");
}
