//! Python in a virtual environment of a test's own, with pinned packages
//! from PyPI: the interop clients of the compute example and the gabbi
//! runner of the Placement example. `python3` with the `venv` module
//! (Debian: `python3-venv`) and access to PyPI are required; without them
//! the tests fail saying what to install, they never skip.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Longest a virtual environment may take to make (pip downloads included).
pub const VENV_TIMEOUT: Duration = Duration::from_secs(600);

/// What a finished (or killed) process printed, stdout and stderr interleaved.
pub struct Run {
    /// How it ended; `None` when it was killed for printing nothing too long.
    pub status: Option<ExitStatus>,
    /// What it printed, stdout and stderr interleaved.
    pub output: String,
    /// How long it ran.
    pub elapsed: Duration,
}

impl Run {
    /// Whether it exited 0.
    pub fn ok(&self) -> bool {
        self.status.is_some_and(|s| s.success())
    }

    /// Its status, time and output, for a failure message.
    pub fn describe(&self) -> String {
        let status = match self.status {
            Some(status) => format!("{status}"),
            None => "killed: it printed nothing for too long".to_owned(),
        };
        format!("{status} after {:.1} s; its output:\n{}", self.elapsed.as_secs_f64(), self.output)
    }
}

/// Runs `command` with its output in a pipe read by a thread, killing it
/// when it has printed nothing for `silence`: a process that hangs is
/// ended, one that is slow because the machine is busy (a suite beside a
/// build on two cores) is not, as long as it makes progress. It runs in a
/// process group of its own, killed whole when it is ended so, or when it
/// has exited but what it started still holds the pipe: a script's workers
/// (Python's `multiprocessing` pools) never outlive it to take the
/// machine's cores from the next tests. A daemon it starts with its output
/// elsewhere (`pg_ctl start -l log`) is left running.
pub fn run(mut command: Command, silence: Duration) -> std::io::Result<Run> {
    let (reader, writer) = std::io::pipe()?;
    command.stdin(Stdio::null()).stdout(writer.try_clone()?).stderr(writer);
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let started = Instant::now();
    let mut child = command.spawn()?;
    // The command holds the write ends: drop them so the reader sees EOF.
    drop(command);
    // Milliseconds from the start to the last output read.
    let last_output = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let heard = std::sync::Arc::clone(&last_output);
    let collector = std::thread::spawn(move || {
        let (mut reader, mut bytes, mut chunk) = (reader, Vec::new(), [0u8; 8192]);
        while let Ok(read @ 1..) = reader.read(&mut chunk) {
            bytes.extend_from_slice(&chunk[..read]);
            let at = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
            heard.store(at, std::sync::atomic::Ordering::Relaxed);
        }
        bytes
    });
    let quiet = || {
        let last = Duration::from_millis(last_output.load(std::sync::atomic::Ordering::Relaxed));
        started.elapsed().saturating_sub(last)
    };
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if quiet() > silence {
            kill_group(child.id());
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let elapsed = started.elapsed();
    // A grandchild still holding the pipe would keep the reader waiting: give
    // it a moment, then end its group and report what we have.
    let deadline = Instant::now() + Duration::from_secs(5);
    while !collector.is_finished() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    if !collector.is_finished() {
        kill_group(child.id());
        let deadline = Instant::now() + Duration::from_secs(2);
        while !collector.is_finished() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    let output = if collector.is_finished() {
        String::from_utf8_lossy(&collector.join().unwrap_or_default()).into_owned()
    } else {
        "(output unavailable: a child process still holds the pipe)".to_owned()
    };
    Ok(Run { status, output, elapsed })
}

/// Kills what is left of the process group `leader` led (its leader has
/// exited or been killed); nothing when none is left.
fn kill_group(leader: u32) {
    if cfg!(unix) {
        let group = format!("-{leader}");
        let _ = Command::new("kill")
            .args(["-KILL", "--", &group])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}

/// FNV-1a, for a stable name of the venv: requirements and interpreter.
pub fn fnv1a(parts: &[&[u8]]) -> u64 {
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
pub fn base_python() -> Result<(String, String), String> {
    let python = std::env::var("INTEROP_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let mut command = Command::new(&python);
    command.args(["-c", "import sys, venv, ensurepip; print(sys.executable, sys.version.split()[0])"]);
    match run(command, Duration::from_secs(60)) {
        Err(e) => Err(format!(
            "these tests need CPython 3 with the venv module, but `{python}` could not be run ({e}). \
             Install it (Debian/Ubuntu: `apt-get install -y python3 python3-venv`) or point INTEROP_PYTHON \
             at a python3."
        )),
        Ok(run) if !run.ok() => Err(format!(
            "these tests need CPython 3 with the venv and ensurepip modules; `{python}` lacks them \
             (Debian/Ubuntu: `apt-get install -y python3-venv`): {}",
            run.describe()
        )),
        Ok(run) => Ok((python, run.output.trim().to_owned())),
    }
}

/// Makes, or finds again, a virtual environment under `tmp` named
/// `{prefix}-<hash>` with the packages of each requirements file installed
/// (with `--no-deps` where its flag says so), and returns its python. The
/// hash covers the files and the interpreter, so a changed pin makes a new
/// one; it is built beside its final place and renamed into it, so that
/// concurrent test processes never see a half-made one; older ones of the
/// same prefix are removed.
pub fn venv(tmp: &Path, prefix: &str, requirements: &[(PathBuf, bool)]) -> Result<PathBuf, String> {
    let mut contents = Vec::new();
    for (path, _) in requirements {
        contents.push(std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?);
    }
    let (python, identity) = base_python()?;
    let mut parts: Vec<&[u8]> = contents.iter().map(Vec::as_slice).collect();
    parts.push(identity.as_bytes());
    let name = format!("{prefix}-{:016x}", fnv1a(&parts));
    let venv = tmp.join(&name);
    let venv_python = venv.join("bin").join("python");
    let stamp = venv.join("venv-ready");
    if stamp.is_file() && venv_python.is_file() {
        eprintln!("python: reusing {}", venv.display());
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
    for (path, no_deps) in requirements {
        let mut command = Command::new(building.join("bin").join("python"));
        command.args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-input"]);
        if *no_deps {
            command.arg("--no-deps");
        }
        command.arg("-r").arg(path).env("PIP_DISABLE_PIP_VERSION_CHECK", "1");
        let installed = run(command, VENV_TIMEOUT).map_err(|e| format!("pip failed to start: {e}"))?;
        if !installed.ok() {
            let _ = std::fs::remove_dir_all(&building);
            return Err(format!(
                "`pip install -r {}` failed (these tests need PyPI): {}",
                path.display(),
                installed.describe()
            ));
        }
    }
    std::fs::write(building.join("venv-ready"), b"").map_err(|e| format!("cannot write the stamp: {e}"))?;
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
    eprintln!("python: made {} in {:.1} s", venv.display(), started.elapsed().as_secs_f64());
    // Finished venvs of older requirements are of no further use.
    if let Ok(entries) = std::fs::read_dir(tmp) {
        for entry in entries.flatten() {
            let file_name = entry.file_name().to_string_lossy().into_owned();
            if file_name.starts_with(&format!("{prefix}-"))
                && file_name != name
                && !file_name.contains(".building-")
            {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
    Ok(venv_python)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shell(script: &str) -> Command {
        let mut command = Command::new("sh");
        command.args(["-c", script]);
        command
    }

    #[test]
    fn a_process_that_keeps_printing_runs_past_its_silence() {
        // Two seconds of a line every tenth of one, with a second of silence allowed.
        let run =
            run(shell("for i in $(seq 20); do echo $i; sleep 0.1; done"), Duration::from_secs(1)).unwrap();
        assert!(run.ok(), "{}", run.describe());
        assert_eq!(run.output.lines().count(), 20);
    }

    #[test]
    fn a_process_that_prints_nothing_is_ended_after_its_silence() {
        let run = run(shell("echo started; sleep 60"), Duration::from_millis(500)).unwrap();
        assert_eq!(run.status, None, "{}", run.describe());
        assert!(run.elapsed < Duration::from_secs(30), "ended long before its sleep: {:?}", run.elapsed);
        assert_eq!(run.output, "started\n");
    }
}
