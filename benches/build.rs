//! Generates the dispatch benchmark's controllers: for each variant count,
//! one `#[controller]` operation and the same selection written by hand
//! (a `match` and an if-chain), all calling the same tiny body. The file is
//! included by the crate that calls them (`benches/dispatch.rs` and the
//! equivalence test), as a service's own handlers would be, so no call
//! crosses a crate boundary that a real service would not have.

use std::fmt::Write as _;
use std::path::PathBuf;

/// The variant counts benchmarked (the declared history has 512 versions).
const VARIANT_COUNTS: [u16; 5] = [2, 8, 32, 128, 512];

fn main() {
    let mut out = String::new();
    for n in VARIANT_COUNTS {
        controller(&mut out, n);
    }
    let dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(dir.join("dispatch_generated.rs"), out).expect("OUT_DIR is writable");
    println!("cargo::rerun-if-changed=build.rs");
}

/// `DispatchN`: variant `i` (0-based) serves exactly `2.(i+1)`, the last
/// one serves `2.N` and later.
fn controller(out: &mut String, n: u16) {
    let name = format!("Dispatch{n}");
    let _ = writeln!(
        out,
        "/// An operation with {n} variants: one per version from 2.1 to 2.{}, the last from 2.{n} on.",
        n - 1
    );
    let _ = writeln!(out, "#[derive(Clone, Copy, Debug, Default)]\npub struct {name};\n");
    let _ = writeln!(
        out,
        "#[::microversion_actix::controller(api = ::microversion_benches::dispatch::DISPATCH_API)]"
    );
    let _ = writeln!(out, "impl {name} {{");
    for i in 0..n {
        let minor = i + 1;
        let range =
            if minor == n { format!("\"2.{minor}\"") } else { format!("\"2.{minor}\", \"2.{minor}\"") };
        let _ = writeln!(out, "    #[api_version({range})]");
        let _ = writeln!(
            out,
            "    pub fn op(&self, x: u64) -> u64 {{ ::microversion_benches::dispatch::work(x, {i}) }}"
        );
    }
    let _ = writeln!(out, "}}\n");

    let _ = writeln!(out, "impl {name} {{");
    let _ = writeln!(out, "    /// The selection of `op` written by hand as a `match` on the version.");
    let _ = writeln!(
        out,
        "    pub fn by_match(&self, version: ::microversion_actix::Version, x: u64) \
         -> ::core::result::Result<u64, ::microversion_actix::UnservedVersion> {{"
    );
    let _ = writeln!(out, "        match (version.major(), version.minor()) {{");
    for i in 0..n - 1 {
        let _ = writeln!(
            out,
            "            (2, {}) => Ok(::microversion_benches::dispatch::work(x, {i})),",
            i + 1
        );
    }
    let _ = writeln!(
        out,
        "            (2, {n}..) | (3.., _) => Ok(::microversion_benches::dispatch::work(x, {})),",
        n - 1
    );
    let _ = writeln!(
        out,
        "            _ => Err(::microversion_actix::UnservedVersion {{ operation: \"op\", version }}),"
    );
    let _ = writeln!(out, "        }}\n    }}\n");
    let _ = writeln!(
        out,
        "    /// The selection of `op` written by hand as an if-chain from the newest \
         version down, the way Nova handlers test `matches`."
    );
    let _ = writeln!(
        out,
        "    pub fn by_if_chain(&self, version: ::microversion_actix::Version, x: u64) \
         -> ::core::result::Result<u64, ::microversion_actix::UnservedVersion> {{"
    );
    for i in (0..n).rev() {
        let keyword = if i == n - 1 { "        if" } else { " else if" };
        let _ = write!(
            out,
            "{keyword} version >= ::microversion_actix::Version::new(2, {}) {{ Ok(::microversion_benches::dispatch::work(x, {i})) }}",
            i + 1
        );
    }
    let _ = writeln!(
        out,
        " else {{ Err(::microversion_actix::UnservedVersion {{ operation: \"op\", version }}) }}"
    );
    let _ = writeln!(out, "    }}\n}}\n");
}
