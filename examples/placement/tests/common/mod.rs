//! What the fleet tests share: placement processes, scratch directories,
//! requests at the newest version.

#![allow(dead_code, unreachable_pub)]

use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use microversion_testkit::http::{Request, Response};
use microversion_testkit::nginx::{self, Nginx, free_port};
use serde_json::Value;

pub const VERSION: (&str, &str) = ("OpenStack-API-Version", "placement 1.39");
pub const START_TIMEOUT: Duration = Duration::from_secs(30);

/// How long past a node's deadline its answer may come on a loaded
/// machine: a `COMMIT` sent before the deadline is waited for a second
/// more, and the machine runs other suites.
pub const ANSWER_SLACK: Duration = Duration::from_secs(3);

/// How long `GET /`, which needs no database, may take on a loaded machine:
/// well below a deadline, which is what a wait for a connection would take.
pub const AT_ONCE: Duration = Duration::from_secs(2);

/// `GET /` straight to `url`: a 200 within [`AT_ONCE`].
pub fn root_at_once(url: &str) {
    let started = Instant::now();
    let res = send(url, "GET", "/", None);
    let took = started.elapsed();
    assert_eq!(res.status, 200, "GET / on {url}: {}", res.describe());
    assert!(took <= AT_ONCE, "GET / on {url} took {took:?}: it needs no database");
}

/// `GET path` straight to `url`, answered within `deadline` (and
/// [`ANSWER_SLACK`]): a 200, or a 503 in Placement's format that says when
/// to try again. The answer.
pub fn read_in_time(url: &str, path: &str, deadline: Duration) -> Response {
    read_with_left(url, path, deadline, deadline)
}

/// [`read_in_time`], the request stamped as a proxy stamps it
/// (`X-Request-Start`) `deadline - left` ago: it must be answered within
/// `left`.
pub fn read_with_left(url: &str, path: &str, deadline: Duration, left: Duration) -> Response {
    let reached_proxy = std::time::SystemTime::now() - (deadline - left);
    let stamp = reached_proxy.duration_since(std::time::UNIX_EPOCH).expect("after 1970").as_secs_f64();
    let request =
        Request::get(path).header(VERSION.0, VERSION.1).header("X-Request-Start", format!("t={stamp:.3}"));
    let started = Instant::now();
    let res = request.send(url);
    let took = started.elapsed();
    assert!(took <= left + ANSWER_SLACK, "GET {path} on {url} took {took:?}, its deadline {left:?} away");
    match res.status {
        200 => {}
        503 => {
            assert_eq!(
                res.header("retry-after").as_deref(),
                Some("1"),
                "a 503 says when: {}",
                res.describe()
            );
            assert_eq!(res.json()["errors"][0]["status"], 503, "Placement's format: {}", res.describe());
        }
        _ => panic!("GET {path} on {url}: {}", res.describe()),
    }
    res
}

pub fn send(base: &str, method: &str, path: &str, body: Option<&Value>) -> Response {
    let request = Request::new(method, path).header(VERSION.0, VERSION.1);
    match body {
        Some(body) => request.json(body),
        None => request,
    }
    .send(base)
}

/// A scratch directory of a test, removed at the end.
pub struct Scratch(pub PathBuf);

impl Scratch {
    /// `name` under the tests' temp dir, for this process.
    pub fn new(name: &str) -> Scratch {
        Scratch(
            std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}", std::process::id())),
        )
    }

    /// A new scratch directory `name`, made, and the path of a SQLite
    /// database in it: keep the directory until the server on it is
    /// stopped (declared before it, it is dropped after).
    pub fn database(name: &str) -> (Scratch, PathBuf) {
        let dir = Scratch::new(name);
        let _ = std::fs::remove_dir_all(&dir.0);
        std::fs::create_dir_all(&dir.0).expect("a scratch dir");
        let database = dir.0.join("placement.sqlite");
        (dir, database)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The lines a node wrote to its standard error, as they come.
#[derive(Clone, Default)]
pub struct Log(Arc<(Mutex<Vec<String>>, Condvar)>);

impl Log {
    /// Reads `stderr` into the log on a thread of its own, until it closes.
    fn follow(stderr: impl std::io::Read + Send + 'static) -> Log {
        let log = Log::default();
        let writer = log.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                let (lines, written) = &*writer.0;
                lines.lock().expect("the log").push(line);
                written.notify_all();
            }
        });
        log
    }

    /// Every line so far.
    pub fn lines(&self) -> Vec<String> {
        self.0.0.lock().expect("the log").clone()
    }

    /// Waits until `count` lines satisfy `wanted`, or `timeout` passes; the
    /// lines that do.
    pub fn wait_for(&self, count: usize, timeout: Duration, wanted: impl Fn(&str) -> bool) -> Vec<String> {
        let (lines, written) = &*self.0;
        let deadline = Instant::now() + timeout;
        let mut guard = lines.lock().expect("the log");
        loop {
            let found: Vec<String> = guard.iter().filter(|l| wanted(l)).cloned().collect();
            let left = deadline.saturating_duration_since(Instant::now());
            if found.len() >= count || left.is_zero() {
                return found;
            }
            guard = written.wait_timeout(guard, left).expect("the log").0;
        }
    }
}

/// One placement process (`placement-node`, the example's own program).
pub struct Node {
    pub port: u16,
    pub database: String,
    args: Vec<String>,
    pub child: Child,
    /// What it wrote to its standard error.
    pub log: Log,
}

impl Node {
    /// The program on `port` over `database`, listening when this returns.
    pub fn start(port: u16, database: &str) -> Node {
        Node::start_with(port, database, &[])
    }

    /// [`Node::start`] with more arguments (`--request-deadline 1`).
    pub fn start_with(port: u16, database: &str, args: &[&str]) -> Node {
        let mut node = Node::spawn(port, database, args);
        node.wait_listening();
        node
    }

    /// The program started, not waited for.
    pub fn spawn(port: u16, database: &str, args: &[&str]) -> Node {
        let mut child = Command::new(env!("CARGO_BIN_EXE_placement-node"))
            .args(["--listen", &format!("127.0.0.1:{port}"), "--database", database])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("placement-node starts");
        let log = Log::follow(child.stderr.take().expect("its stderr"));
        let args = args.iter().map(|a| a.to_string()).collect();
        Node { port, database: database.to_owned(), args, child, log }
    }

    /// Waits until it serves `GET /` (which needs no database: it may still
    /// wait for one); its exit is a failure.
    pub fn wait_listening(&mut self) {
        let addr: SocketAddr = ([127, 0, 0, 1], self.port).into();
        let deadline = Instant::now() + START_TIMEOUT;
        let serves = |url: &str| {
            TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok()
                && microversion_testkit::http::send_raw(url, &Request::get("/").to_bytes("127.0.0.1"))
                    .is_ok_and(|res| res.status == 200)
        };
        while !serves(&self.url()) {
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("placement-node on {} exited: {status}\n{}", self.port, self.log.lines().join("\n"));
            }
            assert!(Instant::now() < deadline, "placement-node is not listening on {}", self.port);
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// SIGKILL, then the same program on the same port again, listening
    /// when this returns.
    pub fn kill_and_restart(&mut self) {
        self.kill_and_spawn();
        self.wait_listening();
    }

    /// SIGKILL, then the same program on the same port again, not waited
    /// for (on a crowded server it waits for a connection to start).
    pub fn kill_and_spawn(&mut self) {
        self.kill_and_spawn_after(|| ());
    }

    /// [`Node::kill_and_spawn`], doing `meanwhile` once it is dead.
    pub fn kill_and_spawn_after(&mut self, meanwhile: impl FnOnce()) {
        self.child.kill().expect("SIGKILL");
        self.child.wait().expect("the killed node reaped");
        meanwhile();
        let args: Vec<String> = self.args.clone();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        *self = Node::spawn(self.port, &self.database.clone(), &args);
    }

    /// Sends `signal` (`STOP`, `CONT`) to the process.
    pub fn signal(&self, signal: &str) {
        let status =
            Command::new("kill").args([&format!("-{signal}"), &self.child.id().to_string()]).status();
        assert!(status.is_ok_and(|s| s.success()), "kill -{signal}");
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        // A stopped process does not die of SIGKILL until it runs again.
        let _ =
            Command::new("kill").args(["-CONT", &self.child.id().to_string()]).stderr(Stdio::null()).status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// nginx in front of the nodes on `ports`, round robin (a failed node is
/// kept in the rotation), with `location` lines of the test's own; the
/// proxy and its URL.
pub fn proxy(dir: &Scratch, ports: &[u16], location: &str) -> (Nginx, String) {
    let upstreams: String =
        ports.iter().map(|port| format!("        server 127.0.0.1:{port} max_fails=0;\n")).collect();
    let proxy_port = free_port();
    let nginx = nginx::Nginx::start(
        &dir.0.join("nginx"),
        &format!(
            "    upstream placement {{\n{upstreams}    }}
    server {{
        listen 127.0.0.1:{proxy_port};
        location / {{
            proxy_pass http://placement;
            proxy_http_version 1.1;
            proxy_set_header Connection \"\";
{location}        }}
    }}
"
        ),
        &[proxy_port],
    );
    (nginx, format!("http://127.0.0.1:{proxy_port}"))
}
