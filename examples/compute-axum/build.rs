//! Where the compute example's interop scripts and committed documents are,
//! for its suites built here.

fn main() {
    let here = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    println!("cargo::rustc-env=COMPUTE_EXAMPLE_DIR={here}/../compute");
}
