//! A server process of a test's own, on a port the kernel gives it. The
//! process is told `--listen 127.0.0.1:0` and its address is read from the
//! line it prints once bound (`… listening on http://127.0.0.1:PORT`), so
//! two tests running at once never pick the same port: a port chosen by the
//! test, then bound by the process, could be taken by another test's
//! process in between, and that test would then talk to the wrong server.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long a process may take to print where it listens.
const START_TIMEOUT: Duration = Duration::from_secs(30);

/// Starts `program` with `args` after `--listen 127.0.0.1:0`, its output
/// (both streams) in the new file `log`, and returns it with the URL it
/// listens on ([`listening_url`]).
pub fn start_listening(program: &str, args: &[&std::ffi::OsStr], log: &Path) -> (Child, String) {
    let file = std::fs::File::create(log).expect("the server's log");
    let mut child = Command::new(program)
        .args(["--listen", "127.0.0.1:0"])
        .args(args)
        .stdin(Stdio::null())
        .stdout(file.try_clone().expect("the server's log"))
        .stderr(file)
        .spawn()
        .unwrap_or_else(|e| panic!("{program} starts: {e}"));
    let url = listening_url(&mut child, log);
    (child, url)
}

/// The URL (`http://127.0.0.1:PORT`) that `child`, whose output goes to
/// `log`, prints it is listening on. Panics with the log when the process
/// exits first or prints nothing within 30 seconds.
pub fn listening_url(child: &mut Child, log: &Path) -> String {
    let deadline = Instant::now() + START_TIMEOUT;
    loop {
        let output = std::fs::read_to_string(log).unwrap_or_default();
        let found = output.lines().find_map(|line| {
            let url = line.split(" listening on ").nth(1)?.split_whitespace().next()?;
            url.starts_with("http://").then(|| url.to_owned())
        });
        if let Some(url) = found {
            return url;
        }
        if let Ok(Some(status)) = child.try_wait() {
            panic!("the server exited ({status}) before listening:\n{output}");
        }
        assert!(
            Instant::now() < deadline,
            "the server printed no address within {START_TIMEOUT:?}:\n{output}"
        );
        std::thread::sleep(Duration::from_millis(25));
    }
}
