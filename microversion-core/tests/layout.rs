//! The core's layout (docs/reference.md §15): its root holds its modules,
//! one per part, and the few names every part speaks of; what only the
//! facades and the macros' expansions call is hidden.

use std::path::Path;

/// The names `lib.rs` makes public at the root and does not hide, read
/// from its `pub mod` and `pub use` items.
fn root_names() -> Vec<String> {
    let lib = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs"))
        .expect("src/lib.rs");
    let mut names = Vec::new();
    let (mut hidden, mut item) = (false, String::new());
    // Items at the root start at the line's start; a module's are indented.
    for raw in lib.lines() {
        let line = raw.trim();
        if raw.starts_with("#[doc(hidden)]") {
            hidden = true;
            continue;
        }
        if item.is_empty() && !(raw.starts_with("pub mod ") || raw.starts_with("pub use ")) {
            if !raw.starts_with("#[") {
                hidden = false;
            }
            continue;
        }
        item.push_str(line);
        item.push(' ');
        if !(line.ends_with(';') || line.ends_with('{')) {
            continue;
        }
        if !hidden {
            let body = item.trim_end_matches([';', '{', ' ']);
            if let Some(module) = body.strip_prefix("pub mod ") {
                names.push(module.to_owned());
            } else if let Some((_, list)) = body.split_once('{') {
                names.extend(
                    list.trim_end_matches('}')
                        .split(',')
                        .map(str::trim)
                        .filter(|n| !n.is_empty())
                        .map(|n| n.rsplit("::").next().unwrap_or(n).to_owned()),
                );
            } else {
                names.push(body.rsplit("::").next().unwrap_or(body).to_owned());
            }
        }
        (hidden, item) = (false, String::new());
    }
    names
}

#[test]
fn the_root_holds_at_most_25_names() {
    let names = root_names();
    // The reading finds what is there: the declaration and the parts.
    for expected in ["Api", "Version", "exchange", "discovery", "openapi", "portable"] {
        assert!(names.iter().any(|n| n == expected), "{expected} not read at the root: {names:?}");
    }
    // Nothing only the facades call is read as public.
    assert!(!names.iter().any(|n| n.starts_with("__") || n == "facade" || n == "observe"), "{names:?}");
    assert!(names.len() <= 25, "{} names at the root: {names:?}", names.len());
}
