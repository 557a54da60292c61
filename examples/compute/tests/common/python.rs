//! The OpenStack Python clients in a virtual environment, shared by the
//! tests that run them (interop.rs, fleet.rs).

#![allow(dead_code)]

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Longest a script may run.
pub(crate) const SCRIPT_TIMEOUT: Duration = Duration::from_secs(300);
/// Longest the virtual environment may take to make (pip downloads included).
pub(crate) const VENV_TIMEOUT: Duration = Duration::from_secs(600);

pub(crate) fn interop_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("interop")
}

/// What a finished (or killed) process printed, stdout and stderr interleaved.
pub(crate) struct Run {
    status: Option<ExitStatus>,
    output: String,
    elapsed: Duration,
}

impl Run {
    fn ok(&self) -> bool {
        self.status.is_some_and(|s| s.success())
    }

    fn describe(&self) -> String {
        let status = match self.status {
            Some(status) => format!("{status}"),
            None => "killed: timed out".to_owned(),
        };
        format!("{status} after {:.1} s; its output:\n{}", self.elapsed.as_secs_f64(), self.output)
    }
}

/// Runs `command` with its output in a pipe read by a thread, killing it
/// after `timeout`.
pub(crate) fn run(mut command: Command, timeout: Duration) -> std::io::Result<Run> {
    let (reader, writer) = std::io::pipe()?;
    command.stdin(Stdio::null()).stdout(writer.try_clone()?).stderr(writer);
    let started = Instant::now();
    let mut child = command.spawn()?;
    // The command holds the write ends: drop them so the reader sees EOF.
    drop(command);
    let collector = std::thread::spawn(move || {
        let mut reader = reader;
        let mut bytes = Vec::new();
        let _ = reader.read_to_end(&mut bytes);
        bytes
    });
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if started.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let elapsed = started.elapsed();
    // A grandchild still holding the pipe would keep the reader waiting: give
    // it a moment, then report what we have.
    let deadline = Instant::now() + Duration::from_secs(5);
    while !collector.is_finished() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = if collector.is_finished() {
        String::from_utf8_lossy(&collector.join().unwrap_or_default()).into_owned()
    } else {
        "(output unavailable: a child process still holds the pipe)".to_owned()
    };
    Ok(Run { status, output, elapsed })
}

/// FNV-1a, for a stable name of the venv: requirements and interpreter.
pub(crate) fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for byte in part.iter().chain(b"\0") {
            hash ^= u64::from(*byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

/// The python3 to make the venv with: `$INTEROP_PYTHON`, else `python3` on PATH.
pub(crate) fn base_python() -> Result<(String, String), String> {
    let python = std::env::var("INTEROP_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let mut command = Command::new(&python);
    command.args(["-c", "import sys, venv, ensurepip; print(sys.executable, sys.version.split()[0])"]);
    match run(command, Duration::from_secs(60)) {
        Err(e) => Err(format!(
            "the interop tests need CPython 3 with the venv module, but `{python}` could not be run ({e}). \
             Install it (Debian/Ubuntu: `apt-get install -y python3 python3-venv`) or point INTEROP_PYTHON \
             at a python3."
        )),
        Ok(run) if !run.ok() => Err(format!(
            "the interop tests need CPython 3 with the venv and ensurepip modules; `{python}` lacks them \
             (Debian/Ubuntu: `apt-get install -y python3-venv`): {}",
            run.describe()
        )),
        Ok(run) => Ok((python, run.output.trim().to_owned())),
    }
}

/// Makes (once per process; reused across runs) the venv with the pinned
/// clients and returns its python.
pub(crate) fn venv_python() -> &'static Path {
    static VENV: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    match VENV.get_or_init(make_venv) {
        Ok(python) => python,
        Err(message) => panic!("{message}"),
    }
}

pub(crate) fn make_venv() -> Result<PathBuf, String> {
    let requirements_path = interop_dir().join("requirements.txt");
    let requirements = std::fs::read(&requirements_path)
        .map_err(|e| format!("cannot read {}: {e}", requirements_path.display()))?;
    let (python, identity) = base_python()?;
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let name = format!("interop-venv-{:016x}", fnv1a(&[&requirements, identity.as_bytes()]));
    let venv = tmp.join(&name);
    let venv_python = venv.join("bin").join("python");
    let stamp = venv.join("interop-ready");
    if stamp.is_file() && venv_python.is_file() {
        eprintln!("interop: reusing {}", venv.display());
        return Ok(venv_python);
    }

    // Build beside the final place and rename into it, so that concurrent
    // test processes never see (or use) a half-made venv.
    let started = Instant::now();
    std::fs::create_dir_all(tmp).map_err(|e| format!("cannot create {}: {e}", tmp.display()))?;
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let building = tmp.join(format!("{name}.building-{}-{nanos}", std::process::id()));
    let mut command = Command::new(&python);
    command.args(["-m", "venv"]).arg(&building);
    let made = run(command, Duration::from_secs(120))
        .map_err(|e| format!("`{python} -m venv` failed to start: {e}"))?;
    if !made.ok() {
        let _ = std::fs::remove_dir_all(&building);
        return Err(format!(
            "`{python} -m venv` failed (Debian/Ubuntu: `apt-get install -y python3-venv`): {}",
            made.describe()
        ));
    }
    let mut command = Command::new(building.join("bin").join("python"));
    command
        .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-input", "-r"])
        .arg(&requirements_path)
        .env("PIP_DISABLE_PIP_VERSION_CHECK", "1");
    let installed = run(command, VENV_TIMEOUT).map_err(|e| format!("pip failed to start: {e}"))?;
    if !installed.ok() {
        let _ = std::fs::remove_dir_all(&building);
        return Err(format!(
            "`pip install -r {}` failed (the interop tests need PyPI): {}",
            requirements_path.display(),
            installed.describe()
        ));
    }
    std::fs::write(building.join("interop-ready"), &requirements)
        .map_err(|e| format!("cannot write the stamp: {e}"))?;
    match std::fs::rename(&building, &venv) {
        Ok(()) => {}
        // Another process finished first: use its venv.
        Err(_) if stamp.is_file() => {
            let _ = std::fs::remove_dir_all(&building);
        }
        Err(_) => {
            // A broken leftover without a stamp: replace it.
            let _ = std::fs::remove_dir_all(&venv);
            std::fs::rename(&building, &venv)
                .map_err(|e| format!("cannot move {} to {}: {e}", building.display(), venv.display()))?;
        }
    }
    eprintln!("interop: made {} in {:.1} s", venv.display(), started.elapsed().as_secs_f64());
    // Finished venvs of older requirements are of no further use.
    if let Ok(entries) = std::fs::read_dir(tmp) {
        for entry in entries.flatten() {
            let file_name = entry.file_name().to_string_lossy().into_owned();
            if file_name.starts_with("interop-venv-")
                && file_name != name
                && !file_name.contains(".building-")
            {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
    Ok(venv_python)
}

/// Runs `script` (in `interop/`) with the venv's python and `args`; panics
/// with the script's output unless it exits 0.
pub(crate) fn run_script(script: &str, args: &[&str]) {
    let python = venv_python();
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
