//! The compute example's sources, built on axum: `cfg(compute_on_axum)`
//! chooses the framework in `examples/compute/src/web.rs`.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(compute_on_axum)");
    println!("cargo::rustc-cfg=compute_on_axum");
    // Where the sources, the interop scripts and the committed documents are.
    let here = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    println!("cargo::rustc-env=COMPUTE_EXAMPLE_DIR={here}/../compute");
}
