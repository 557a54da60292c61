//! The real Placement and this example, side by side: the same stateful
//! random request sequences to both, answer by answer
//! (`interop/differential.py`, which documents what it compares and the
//! declared freedoms it forgives).
//!
//! The real Placement is the `openstack-placement` release that the gabbi
//! tests read (`interop/requirements-real.txt`, with its dependencies and
//! gunicorn), installed once into a virtual environment under the cargo
//! target directory, served by gunicorn on 127.0.0.1 over a fresh SQLite
//! database with `auth_strategy = noauth2` and the policy of Placement's
//! own functional tests (`enforce_new_defaults = False`, so that the admin
//! may reshape, as in the example); the example runs in-process over
//! another. `python3` with `venv` and access to PyPI are required.
//!
//! Each run draws a new seed, printed first; `DIFFERENTIAL_SEED=N` replays
//! one, `DIFFERENTIAL_SEQUENCES` and `DIFFERENTIAL_LENGTH` size the run (20
//! sequences of 150 requests by default). A difference fails the test and
//! prints the shrunk sequence that shows it, with both answers.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use microversion_testkit::python;
use placement::RunningServer;

const RUN_TIMEOUT: Duration = Duration::from_secs(1500);

/// How long the example waits here before it gives up on a request (its
/// deadline) or on a client sending one (actix's request head timeout):
/// longer than the driver waits for an answer (30 s). Both are 5 s by
/// default and the real Placement has neither, so on a loaded machine a
/// request the example's process was descheduled through for 5 s would be
/// its 503 (or 408) and Placement's 200: a difference of the clock, not of
/// the API. With this, a stall that long fails the run as a server that
/// did not answer.
const EXAMPLE_WAIT: Duration = Duration::from_secs(60);

fn interop_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("interop")
}

/// The real Placement, served by gunicorn until dropped.
struct RealPlacement {
    url: String,
    child: Child,
}

impl RealPlacement {
    /// Syncs a fresh SQLite database in `dir` and serves it on a free port.
    fn start(python: &Path, dir: &Path) -> RealPlacement {
        let config = dir.join("placement.conf");
        let database = dir.join("real.sqlite");
        std::fs::write(
            &config,
            format!(
                "[DEFAULT]\ndebug = False\n[api]\nauth_strategy = noauth2\n\
                 [oslo_policy]\nenforce_new_defaults = False\n\
                 [placement_database]\nconnection = sqlite:///{}\n",
                database.display()
            ),
        )
        .expect("the configuration is written");
        // Through the venv's python: its scripts name the directory the
        // venv was built in (`python::venv` renames it into place).
        let mut sync = Command::new(python);
        sync.args(["-c", "import sys; from placement.cmd.manage import main; sys.exit(main())"])
            .args(["--config-file"])
            .arg(&config)
            .args(["db", "sync"])
            .env("OS_PLACEMENT_CONFIG_DIR", dir);
        let synced = python::run(sync, Duration::from_secs(300)).expect("placement-manage runs");
        assert!(synced.ok(), "placement-manage db sync failed: {}", synced.describe());
        let port = free_port();
        let log = std::fs::File::create(dir.join("gunicorn.log")).expect("a log file");
        let child = Command::new(python)
            .args(["-m", "gunicorn", "--workers", "1", "--bind", &format!("127.0.0.1:{port}")])
            .arg("placement.wsgi.api:application")
            .env("OS_PLACEMENT_CONFIG_DIR", dir)
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("gunicorn starts");
        let real = RealPlacement { url: format!("http://127.0.0.1:{port}"), child };
        real.wait_until_it_answers(dir);
        real
    }

    /// Waits for `GET /` to answer 200 (gunicorn listens before the
    /// application is loaded).
    fn wait_until_it_answers(&self, dir: &Path) {
        let started = Instant::now();
        let address = self.url.trim_start_matches("http://").to_owned();
        while started.elapsed() < Duration::from_secs(120) {
            if let Ok(mut stream) = TcpStream::connect(&address) {
                let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
                let request = format!("GET / HTTP/1.0\r\nHost: {address}\r\nX-Auth-Token: admin\r\n\r\n");
                let mut answer = String::new();
                if stream.write_all(request.as_bytes()).is_ok()
                    && stream.read_to_string(&mut answer).is_ok()
                    && answer.split_whitespace().nth(1) == Some("200")
                {
                    return;
                }
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        let log = std::fs::read_to_string(dir.join("gunicorn.log")).unwrap_or_default();
        panic!("the real Placement did not answer within 120 s; its log:\n{log}");
    }
}

impl Drop for RealPlacement {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A port nothing listens on now.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port()
}

fn run_dir() -> PathBuf {
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("differential-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a run directory");
    dir
}

#[test]
fn every_answer_is_the_real_placements() {
    let requirements = [(interop_dir().join("requirements-real.txt"), false)];
    let python = python::venv(Path::new(env!("CARGO_TARGET_TMPDIR")), "placement-real-venv", &requirements)
        .unwrap_or_else(|message| panic!("{message}"));
    let dir = run_dir();
    let real = RealPlacement::start(&python, &dir);
    let ours =
        RunningServer::start_unhurried(&dir.join("ours.sqlite"), EXAMPLE_WAIT).expect("the example starts");

    let mut driver = Command::new(&python);
    driver.arg(interop_dir().join("differential.py")).arg(&real.url).arg(&ours.url);
    for (variable, flag) in [
        ("DIFFERENTIAL_SEED", "--seed"),
        ("DIFFERENTIAL_SEQUENCES", "--sequences"),
        ("DIFFERENTIAL_LENGTH", "--length"),
    ] {
        if let Ok(value) = std::env::var(variable) {
            driver.arg(flag).arg(value);
        }
    }
    let run = python::run(driver, RUN_TIMEOUT).expect("the driver runs");
    drop(ours);
    drop(real);
    assert!(run.ok(), "the example answered otherwise than the real Placement: {}", run.describe());
    println!("{}", run.output);
    let _ = std::fs::remove_dir_all(&dir);
}
