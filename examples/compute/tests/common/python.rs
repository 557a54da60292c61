//! The OpenStack Python clients in a virtual environment, shared by the
//! tests that run them (interop.rs, fleet.rs).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

use microversion_testkit::python::{self, run};

/// Longest a script may print nothing: a bound for a hung script, not a
/// target. A script that makes progress is never ended: `openapi_tools.py`
/// fuzzes every released version, printing a line per document and tool,
/// and took 3 to 5 minutes on 2 busy cores (286 s beside two builds), and
/// over 600 s beside a build of the workspace, where a bound on its whole
/// run ended it.
pub(crate) const SCRIPT_TIMEOUT: Duration = Duration::from_secs(600);

pub(crate) fn interop_dir() -> PathBuf {
    compute_dir().join("interop")
}

/// Makes (once per process; reused across runs) the venv with the pinned
/// clients and returns its python.
pub(crate) fn venv_python() -> &'static Path {
    static VENV: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    venv_once(&VENV, "requirements.txt", false, "interop-venv")
}

/// Makes (once per process; reused across runs) the venv of tempest.lib's
/// compute clients, every package pinned in `requirements-tempest.txt` and
/// installed with `--no-deps`, and returns its python. A venv of its own:
/// tempest's pins never move the clients'.
pub(crate) fn tempest_venv_python() -> &'static Path {
    static VENV: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    venv_once(&VENV, "requirements-tempest.txt", true, "tempest-venv")
}

/// Makes (once per process; reused across runs) the venv of Selenium, which
/// drives Debian's chromium (`requirements-browser.txt`), and returns its python.
pub(crate) fn browser_venv_python() -> &'static Path {
    static VENV: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    venv_once(&VENV, "requirements-browser.txt", false, "browser-venv")
}

/// The python of the venv `name` made from `requirements` (in `interop/`,
/// with `--no-deps` if `no_deps`), made once into `cell`; panics saying why
/// it could not be made.
fn venv_once(
    cell: &'static OnceLock<Result<PathBuf, String>>,
    requirements: &str,
    no_deps: bool,
    name: &str,
) -> &'static Path {
    let made = cell.get_or_init(|| {
        let requirements = [(interop_dir().join(requirements), no_deps)];
        python::venv(Path::new(env!("CARGO_TARGET_TMPDIR")), name, &requirements)
    });
    match made {
        Ok(python) => python,
        Err(message) => panic!("{message}"),
    }
}

/// Runs `script` (in `interop/`) with the venv's python and `args`; panics
/// with the script's output unless it exits 0.
pub(crate) fn run_script(script: &str, args: &[&str]) {
    run_script_with(venv_python(), script, args);
}

/// [`run_script`] with another venv's `python`.
pub(crate) fn run_script_with(python: &Path, script: &str, args: &[&str]) {
    let path = interop_dir().join(script);
    let mut command = Command::new(python);
    command
        .arg(&path)
        .args(args)
        .current_dir(interop_dir())
        .env("PYTHONUNBUFFERED", "1")
        .env("PYTHONDONTWRITEBYTECODE", "1")
        // Loopback traffic never goes through a proxy the environment may name.
        .env("NO_PROXY", "127.0.0.1,localhost")
        .env("no_proxy", "127.0.0.1,localhost");
    let result = run(command, SCRIPT_TIMEOUT)
        .unwrap_or_else(|e| panic!("{} could not be started: {e}", path.display()));
    assert!(result.ok(), "{script} {} failed: {}", args.join(" "), result.describe());
    let summary = result.output.lines().rev().find(|l| l.contains(" checks, ")).unwrap_or_default();
    eprintln!("interop: {script} passed in {:.1} s ({summary})", result.elapsed.as_secs_f64());
    if std::env::var_os("INTEROP_VERBOSE").is_some() {
        eprintln!("{}", result.output);
    }
}

/// The compute example's directory.
pub(crate) fn compute_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}
