//! The generated dispatchers and their hand-written twins select the same
//! variant at every version the API serves, so the dispatch benchmark
//! compares like with like. The generated ones serve every version from the
//! API's minimum on without a gap, so they return their value directly and
//! answer below the minimum with the first variant.

use microversion_actix::{UnservedVersion, Version};

include!(concat!(env!("OUT_DIR"), "/dispatch_generated.rs"));

fn check(
    n: u16,
    generated: impl Fn(Version) -> u64,
    by_match: impl Fn(Version) -> Result<u64, UnservedVersion>,
    by_if_chain: impl Fn(Version) -> Result<u64, UnservedVersion>,
) {
    let mut versions = vec![Version::new(3, 0), Version::new(3, 7)];
    versions.extend((1..=n + 2).map(|minor| Version::new(2, minor)));
    for v in versions {
        let expected = Ok(generated(v));
        assert_eq!(by_match(v), expected, "{n} variants, match, at {v}");
        assert_eq!(by_if_chain(v), expected, "{n} variants, if-chain, at {v}");
    }
    // Below the API's minimum the hand-written ones miss; the generated one answers with its first variant.
    for v in [Version::new(1, 0), Version::new(2, 0)] {
        assert!(by_match(v).is_err());
        assert_eq!(generated(v), generated(Version::new(2, 1)), "{n} variants at {v}");
    }
    let picked: std::collections::BTreeSet<u64> =
        (1..=n).map(|minor| generated(Version::new(2, minor))).collect();
    assert_eq!(picked.len(), usize::from(n), "every variant is reached");
}

macro_rules! equivalent {
    ($($ty:ident $n:expr),*) => {$(
        let op = $ty;
        check($n, |v| op.op(v, 7), |v| op.by_match(v, 7), |v| op.by_if_chain(v, 7));
    )*};
}

#[test]
fn generated_and_hand_written_select_alike() {
    equivalent!(Dispatch2 2, Dispatch8 8, Dispatch32 32, Dispatch128 128, Dispatch512 512);
}
