//! The generated dispatchers and their hand-written twins select the same
//! variant at every version the API serves, so the dispatch benchmark
//! compares like with like. The generated ones serve every version from the
//! API's minimum on without a gap, so they return their value directly and
//! answer below the minimum with the first variant.

use microversion_actix::{Version, operation::UnservedVersion};

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

mod shapes {
    include!(concat!(env!("OUT_DIR"), "/dispatch_shapes.rs"));
}

/// Operations of random shapes (gaps, ranges across major versions, open
/// and bounded ends; `build.rs`) choose, at every declared version and at
/// versions between and beyond them, the variant whose declared range holds
/// the version, and miss where none does: the generated dispatch (its
/// tables and its trees) against the ranges the controller describes.
#[test]
fn generated_dispatch_follows_the_declared_ranges() {
    use microversion_benches::dispatch::SHAPES_API;

    let mut probes: Vec<Version> = SHAPES_API.history().iter().map(|m| m.version).collect();
    probes.extend(
        [(0, 5), (1, 21), (1, 900), (2, 31), (3, 7), (4, 0), (9, 9)].map(|(a, b)| Version::new(a, b)),
    );
    let mut tables = 0;
    for (name, total, operations, dispatch) in shapes::shapes() {
        let variants = operations[0].variants;
        for &v in &probes {
            // A helper serving every version answers below the API's minimum with its first variant.
            if total && v < SHAPES_API.min() {
                continue;
            }
            let declared = variants.iter().position(|variant| variant.range.contains(v));
            assert_eq!(
                dispatch(v),
                declared,
                "{name} at {v}: ranges {:?}",
                variants.iter().map(|x| x.range).collect::<Vec<_>>()
            );
        }
        let listable = variants
            .iter()
            .filter(|x| x.range.min().zip(x.range.max()).is_some_and(|(a, b)| a.major() == b.major()))
            .count();
        tables += usize::from(listable >= 2);
    }
    assert!(tables >= 10, "the shapes exercise the dispatch table ({tables} shapes do)");
}
