//! osc-placement's own functional tests (all 160 of osc-placement 4.9.1,
//! from its package, unmodified) against this example, as Placement's
//! drop-in replacement: `interop/osc_functional.py` serves Placement's
//! `PlacementFixture`, which the tests start for each test, by a
//! `placement-node` process over a fresh in-memory database, and runs the
//! `openstack` CLI in-process as they always do.
//!
//! A virtual environment with osc-placement, the openstack CLI and the
//! fixtures' packages (`interop/requirements-osc.txt`) is made once under
//! the cargo target directory and reused while that file is unchanged.
//! `python3` with `venv` and access to PyPI are required. Set
//! `OSC_TESTS=test_allocation,test_trait` to run the tests whose names
//! hold one of those words.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use microversion_testkit::python;

const RUN_TIMEOUT: Duration = Duration::from_secs(900);

/// The lines of the output shown when a test fails: unittest's report of
/// each failure comes last.
const SHOWN_ON_FAILURE: usize = 300;

fn interop_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("interop")
}

#[test]
fn osc_placements_functional_tests_pass_in_full() {
    let requirements = [(interop_dir().join("requirements-osc.txt"), false)];
    let python = python::venv(Path::new(env!("CARGO_TARGET_TMPDIR")), "osc-placement-venv", &requirements)
        .unwrap_or_else(|message| panic!("{message}"));
    let mut driver = Command::new(&python);
    driver
        .arg(interop_dir().join("osc_functional.py"))
        .env("PLACEMENT_NODE", env!("CARGO_BIN_EXE_placement-node"));
    if let Ok(tests) = std::env::var("OSC_TESTS") {
        driver.args(tests.split(',').filter(|t| !t.is_empty()));
    }
    let run = python::run(driver, RUN_TIMEOUT).expect("the driver runs");
    let lines: Vec<&str> = run.output.lines().collect();
    let summary = lines.iter().rev().find(|line| line.starts_with("osc-placement: ")).copied();
    if !run.ok() {
        let tail = lines[lines.len().saturating_sub(SHOWN_ON_FAILURE)..].join("\n");
        panic!("osc-placement's functional tests failed ({summary:?}), the end of their output:\n{tail}");
    }
    let summary = summary.expect("the driver's summary line");
    println!("{summary}");
    // The whole suite, unless a subset was asked for.
    if std::env::var_os("OSC_TESTS").is_none() {
        assert!(summary.starts_with("osc-placement: 160 run, 0 failed, 0 errors, 0 skipped"), "{summary}");
    }
}
