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
    std::fs::write(dir.join("dispatch_shapes.rs"), shapes()).expect("OUT_DIR is writable");
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
         -> ::core::result::Result<u64, ::microversion_actix::operation::UnservedVersion> {{"
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
        "            _ => Err(::microversion_actix::operation::UnservedVersion {{ operation: \"op\", version }}),"
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
         -> ::core::result::Result<u64, ::microversion_actix::operation::UnservedVersion> {{"
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
        " else {{ Err(::microversion_actix::operation::UnservedVersion {{ operation: \"op\", version }}) }}"
    );
    let _ = writeln!(out, "    }}\n}}\n");
}

/// The versions of `SHAPES_API` (`microversion_benches::dispatch`), oldest first.
fn shape_versions() -> Vec<(u16, u16)> {
    let majors: [(u16, u16); 3] = [(1, 20), (2, 30), (3, 6)];
    majors.iter().flat_map(|&(major, last)| (0..=last).map(move |minor| (major, minor))).collect()
}

/// `SHAPES` operations of random shapes over `SHAPES_API` (the same every
/// build): gaps, ranges across major versions, open or bounded last
/// variants, one to ten variants; and `shapes()`, each shape's variants
/// described and its dispatch as an `Option` of the variant chosen, for
/// the dispatch test to hold against the declared ranges.
fn shapes() -> String {
    const SHAPES: usize = 48;
    let versions = shape_versions();
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move |bound: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % bound
    };
    let mut out = String::new();
    let mut table = String::new();
    for k in 0..SHAPES {
        let wanted = 1 + next(10) as usize;
        let mut ranges: Vec<(usize, Option<usize>)> = Vec::new();
        let mut at = 0;
        while ranges.len() < wanted {
            if next(3) == 0 {
                at += next(3) as usize;
            }
            if at >= versions.len() {
                break;
            }
            let end = (at + next(8) as usize).min(versions.len() - 1);
            let last = ranges.len() + 1 == wanted || end + 1 == versions.len();
            ranges.push((at, if last && next(2) == 0 { None } else { Some(end) }));
            at = end + 1;
            if at >= versions.len() {
                break;
            }
        }
        // The macro's rule: variants that follow one another minor by minor
        // to an open end serve every version, so they must start at the
        // API's minimum and return their value directly.
        let successive = ranges.windows(2).all(|pair| {
            pair[0].1.is_some_and(|end| {
                let ((a, b), (c, d)) = (versions[end], versions[pair[1].0]);
                a == c && b + 1 == d
            })
        });
        let total = successive && ranges.last().is_some_and(|r| r.1.is_none());
        if total {
            ranges[0].0 = 0;
        }
        let name = format!("Shape{k}");
        let _ = writeln!(out, "struct {name};\n");
        let _ = writeln!(
            out,
            "#[::microversion_actix::controller(api = ::microversion_benches::dispatch::SHAPES_API)]"
        );
        let _ = writeln!(out, "impl {name} {{");
        for (i, (start, end)) in ranges.iter().enumerate() {
            let (a, b) = versions[*start];
            let range = match end {
                Some(end) => format!("\"{a}.{b}\", \"{}.{}\"", versions[*end].0, versions[*end].1),
                None => format!("\"{a}.{b}\""),
            };
            let _ = writeln!(out, "    #[api_version({range})]\n    fn op(&self) -> usize {{ {i} }}");
        }
        let _ = writeln!(out, "}}\n");
        let call = if total { format!("Some({name}.op(v))") } else { format!("{name}.op(v).ok()") };
        let _ = writeln!(
            table,
            "        (\"{name}\", {total}, <{name} as ::microversion_actix::operation::Controller>::OPERATIONS, |v| {call}),"
        );
    }
    let _ = writeln!(
        out,
        "/// A shape: name, whether it serves every version, its description, its dispatch.\n\
         type Shape = (&'static str, bool, &'static [::microversion_actix::operation::Operation], \
         fn(::microversion_actix::Version) -> Option<usize>);\n\
         /// Every shape.\n\
         pub(super) fn shapes() -> Vec<Shape> {{\n    vec![\n{table}    ]\n}}"
    );
    out
}
