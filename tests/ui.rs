//! Compile-time diagnostics of the macros (one `.stderr` snapshot per
//! diagnostic in `ui/fail`) and every supported form (`ui/pass`).
//! Regenerate snapshots with `TRYBUILD=overwrite cargo test -p microversion-tests --test ui`.

use std::path::Path;

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("ui/pass/*.rs");
    t.compile_fail("ui/fail/*.rs");
}

/// Cases whose error is a constant evaluation's, where rustc adds a note
/// ("erroneous constant encountered") at every use of the constant, which
/// no code of the framework can remove: a history written by hand with
/// `Microversion::new` (the guide points to `history!`, which has none),
/// and a typed client whose version is a type calling an operation that
/// version lacks (the check is a constant of the generated method).
/// Any other snapshot with such a note fails.
const CONST_EVALUATION_CASES: &[&str] =
    &["history_typo_hand_written.stderr", "client_operation_not_at_version.stderr"];

/// Cases of a route's argument or answer that a facade cannot take: the
/// unmet bound (`Extracts`, `Answers`, in the core's words, naming the type
/// and the facade) is reported where the facade registers the controller,
/// once for the controller's `Routes` impl and once for the registration
/// (twice on axum, whose `From` impl is generic over the router's state),
/// each with the notes that lead from `Routes` to the type: up to three
/// errors of up to 22 lines, all in the user's file. A version change
/// without the conversion a `#[change]` names is reported first at the
/// change, in its own words, then once at the registration, whose notes
/// lead through the change list (27 lines). A known cost of routes generic
/// over the facade, held here at this size until the registration can
/// report the bound at the type alone. Each case: its errors, and the
/// lines of its longest.
const REGISTRATION_CASES: &[(&str, usize, usize)] = &[
    ("not_an_extractor.stderr", 2, 22),
    ("not_a_responder.stderr", 2, 22),
    ("axum_not_an_extractor.stderr", 3, 22),
    ("change_without_conversion.stderr", 2, 27),
];

/// The most lines one error may take: its message, the user's line it
/// points at, rustc's help and notes. Above it, a newcomer stops reading.
const LINES_PER_ERROR: usize = 18;

/// Every fail snapshot is read as a newcomer reads it: each case declares
/// how many mistakes it makes on purpose (`// mistakes: N` on its first
/// line; a conflict between two places is reported on both sides and counts
/// as two), and its snapshot may hold no more errors than that (no cascade),
/// no error longer than [`LINES_PER_ERROR`], and no location outside the
/// user's own file (nothing from inside the framework, actix or rustc).
#[test]
fn diagnostics_read_well() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("ui/fail");
    let mut cases: Vec<_> = std::fs::read_dir(&dir)
        .expect("ui/fail exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "stderr"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 30, "expected every diagnostic to have a case, found {}", cases.len());
    let mut problems = Vec::new();
    for snapshot in &cases {
        let name = snapshot.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let source =
            std::fs::read_to_string(snapshot.with_extension("rs")).expect("a case for each snapshot");
        let stderr = std::fs::read_to_string(snapshot).expect("readable snapshot");
        let mistakes: Option<usize> = source
            .lines()
            .next()
            .and_then(|line| line.strip_prefix("// mistakes: "))
            .and_then(|n| n.trim().parse().ok());
        let Some(mistakes) = mistakes else {
            problems.push(format!("{name}: the case does not start with `// mistakes: N`"));
            continue;
        };
        let blocks = error_blocks(&stderr);
        let registration = REGISTRATION_CASES.iter().find(|(case, ..)| *case == name);
        let (mistakes, lines_per_error) = match registration {
            Some(&(_, errors, lines)) => (errors, lines),
            None => (mistakes, LINES_PER_ERROR),
        };
        if blocks.len() > mistakes {
            problems.push(format!("{name}: {} errors for {mistakes} mistakes", blocks.len()));
        }
        for block in &blocks {
            if block.len() > lines_per_error {
                problems.push(format!("{name}: an error of {} lines: {}", block.len(), block[0]));
            }
        }
        if stderr.contains("erroneous constant encountered")
            && !CONST_EVALUATION_CASES.contains(&name.as_str())
        {
            problems.push(format!("{name}: rustc's notes on an erroneous constant's uses"));
        }
        for line in stderr.lines() {
            let location = line.trim_start();
            let location = location.strip_prefix("-->").or_else(|| location.strip_prefix(":::"));
            if let Some(location) = location
                && !location.trim_start().starts_with("ui/")
            {
                problems.push(format!("{name}: points outside the user's file: {}", location.trim()));
            }
        }
    }
    assert!(problems.is_empty(), "diagnostics a newcomer cannot act on:\n{}", problems.join("\n"));
}

/// The lines of each error or warning, from its header to the next one.
fn error_blocks(stderr: &str) -> Vec<Vec<&str>> {
    let mut blocks: Vec<Vec<&str>> = Vec::new();
    for line in stderr.lines() {
        if line.starts_with("error") || line.starts_with("warning") {
            blocks.push(vec![line]);
        } else if let Some(block) = blocks.last_mut()
            && !line.is_empty()
        {
            block.push(line);
        }
    }
    blocks
}
