//! Compile-time diagnostics of `#[controller]` (one `.stderr` snapshot per
//! diagnostic in `ui/fail`) and every supported form (`ui/pass`).
//! Regenerate snapshots with `TRYBUILD=overwrite cargo test -p microversion-tests --test ui`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("ui/pass/*.rs");
    t.compile_fail("ui/fail/*.rs");
}
