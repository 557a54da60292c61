//! A fleet (docs/reference.md §13.4): three compute processes behind a real
//! nginx, round-robin, sharing one PostgreSQL database (a server of the
//! test's own, `microversion_testkit::postgres`); two started capped at
//! 2.60 (the old nodes of a rolling upgrade), one new whose cap comes from
//! the cap file, which holds 2.60 too.
//!
//! - A flavor created through one node is read through the others, and
//!   after a restart.
//! - The cap is raised to 2.96 on every node without a restart: the cap file
//!   says `2.96 at T`, each node gets a SIGHUP, and the test waits until each
//!   node's discovery says 2.96. Meanwhile a client going through nginx,
//!   asking for `latest` and reading discovery, never sees a version above
//!   the fleet's cap (2.60 before T) and never sees it go backwards.
//! - A cap file naming an undeclared version, or gone, leaves each node's cap
//!   as it was, and says why in the node's log.
//! - python-novaclient's flow (interop/novaclient_flow.py) passes through
//!   nginx against the fleet.
//!
//! nginx, PostgreSQL and python3 missing are failures, not skips: `.ci/run`
//! installs them.

use super::FRAMEWORK;

#[path = "../common/python.rs"]
mod python;

use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use microversion_core::{Version, lifecycle::Timestamp};
use microversion_testkit::http::{Request, STANDARD_HEADER};
use microversion_testkit::nginx::{self, free_port};

/// The example's program, started `--framework` as the suite runs.
const NODE: &str = env!("CARGO_BIN_EXE_compute-node");

const START_TIMEOUT: Duration = Duration::from_secs(30);

fn wait_listening(port: u16, what: &str, alive: &mut dyn FnMut() -> Result<(), String>) {
    let addr: SocketAddr = ([127, 0, 0, 1], port).into();
    let deadline = Instant::now() + START_TIMEOUT;
    while TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_err() {
        if let Err(why) = alive() {
            panic!("{what} exited: {why}");
        }
        assert!(Instant::now() < deadline, "{what} is not listening on {port}");
        std::thread::sleep(Duration::from_millis(25));
    }
}

/// A scratch directory of this test, removed at the end.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// One compute process (`compute-node`, the example's own program).
struct Node {
    name: &'static str,
    child: Child,
    port: u16,
    args: Vec<String>,
    log: PathBuf,
}

impl Node {
    fn start(name: &'static str, dir: &Path, port: u16, args: Vec<String>) -> Node {
        let log = dir.join(format!("{name}.log"));
        let file = std::fs::OpenOptions::new().create(true).append(true).open(&log).expect("the node log");
        let child = Command::new(NODE)
            .args(["--framework", FRAMEWORK.name(), "--listen", &format!("127.0.0.1:{port}")])
            .args(&args)
            .stdin(Stdio::null())
            .stdout(file.try_clone().expect("the node log"))
            .stderr(file)
            .spawn()
            .expect("compute-node starts");
        let mut node = Node { name, child, port, args, log };
        let (child, log) = (&mut node.child, node.log.clone());
        wait_listening(port, name, &mut || match child.try_wait() {
            Ok(Some(status)) => {
                Err(format!("{status}: {}", std::fs::read_to_string(&log).unwrap_or_default()))
            }
            _ => Ok(()),
        });
        node
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    fn hangup(&self) {
        let status =
            Command::new("kill").args(["-HUP", &self.child.id().to_string()]).status().expect("kill runs");
        assert!(status.success(), "kill -HUP {}", self.name);
    }

    fn restart(&mut self, dir: &Path) {
        self.stop();
        *self = Node::start(self.name, dir, self.port, self.args.clone());
    }

    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// The maximum this node's discovery announces.
    fn discovery_max(&self) -> String {
        max_of(&Request::get("/").send(&self.url()).json())
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        self.stop();
    }
}

fn max_of(doc: &serde_json::Value) -> String {
    doc["versions"][0]["max_version"].as_str().unwrap_or_default().to_owned()
}

/// nginx round-robin over the nodes, no cache.
struct Nginx {
    _process: nginx::Nginx,
    url: String,
}

fn start_nginx(dir: &Path, nodes: &[&Node]) -> Nginx {
    let port = free_port();
    let servers: String = nodes.iter().map(|n| format!("        server 127.0.0.1:{};\n", n.port)).collect();
    let http = format!(
        "    upstream fleet {{
{servers}    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://fleet;
            proxy_http_version 1.1;
            proxy_set_header Connection \"\";
            proxy_set_header Host $http_host;
        }}
    }}
"
    );
    Nginx {
        _process: nginx::Nginx::start(&dir.join("nginx"), &http, &[port]),
        url: format!("http://127.0.0.1:{port}"),
    }
}

fn now_millis() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

/// One thing a client saw through nginx: the version, and when the request
/// started and ended (Unix milliseconds).
#[derive(Debug, Clone, Copy)]
struct Seen {
    version: Version,
    started: i64,
    ended: i64,
}

/// Asks nginx for `latest` and for discovery, alternately, until `stop`.
fn observe(url: String, stop: Arc<AtomicBool>) -> Vec<Seen> {
    let mut seen = Vec::new();
    let mut discovery = false;
    while !stop.load(Ordering::Relaxed) {
        let started = now_millis();
        let text = if discovery {
            max_of(&Request::get("/").send(&url).json())
        } else {
            let res = Request::get("/v2.1/flavors").header(STANDARD_HEADER, "compute latest").send(&url);
            assert_eq!(res.status, 200, "{}", res.describe());
            let named = res.header(STANDARD_HEADER).unwrap_or_default();
            named.strip_prefix("compute ").unwrap_or_default().to_owned()
        };
        let version: Version = text.parse().unwrap_or_else(|e| panic!("{text:?}: {e}"));
        seen.push(Seen { version, started, ended: now_millis() });
        discovery = !discovery;
    }
    seen
}

fn wait_until(what: &str, timeout: Duration, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + timeout;
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting until {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_fleet_raises_its_cap_without_a_restart_and_shares_its_database() {
    let dir =
        std::env::temp_dir().join(format!("microversion-fleet-{}-{}", FRAMEWORK.name(), std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the scratch directory");
    let scratch = Scratch(dir.clone());
    let postgres = microversion_testkit::postgres::PgServer::start();
    let database = postgres.create_database("compute_fleet");
    let cap_file = dir.join("cap");
    std::fs::write(&cap_file, "2.60\n").expect("the cap file");
    let common = |capped: bool| {
        let mut args = vec![
            "--database".to_owned(),
            database.clone(),
            "--cap-file".to_owned(),
            cap_file.display().to_string(),
        ];
        if capped {
            args.extend(["--cap".to_owned(), "2.60".to_owned()]);
        }
        args
    };
    let old_a = Node::start("old-a", &dir, free_port(), common(true));
    let mut old_b = Node::start("old-b", &dir, free_port(), common(true));
    let new = Node::start("new", &dir, free_port(), common(false));
    let nginx = start_nginx(&dir, &[&old_a, &old_b, &new]);
    for node in [&old_a, &old_b, &new] {
        assert_eq!(node.discovery_max(), "2.60", "{}", node.name);
    }

    // One database: written through one node, read through the others.
    let flavor = serde_json::json!({"flavor": {"name": "fleet-flavor", "id": "fleet-1", "ram": 1024,
        "vcpus": 1, "disk": 10, "description": "made through one node"}});
    let res = Request::new("POST", "/v2.1/flavors").version("2.55").json(&flavor).send(&old_a.url());
    assert_eq!(res.status, 200, "{}", res.describe());
    for node in [&old_b, &new] {
        let res = Request::get("/v2.1/flavors/fleet-1").version("2.55").send(&node.url());
        assert_eq!(res.status, 200, "{}: {}", node.name, res.describe());
        assert_eq!(res.json()["flavor"]["description"], "made through one node");
    }

    // The raise: every node switches at the same instant T, read from one clock.
    // Far enough ahead for every node to get its signal first, even on a busy machine.
    let at = Timestamp::from_unix(now_millis() / 1000 + 5);
    std::fs::write(&cap_file, format!("2.96 at {at}\n")).expect("the cap file");
    let stop = Arc::new(AtomicBool::new(false));
    let clients: Vec<_> = (0..2)
        .map(|_| {
            let (url, stop) = (nginx.url.clone(), Arc::clone(&stop));
            std::thread::spawn(move || observe(url, stop))
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    for node in [&old_a, &old_b, &new] {
        node.hangup();
        std::thread::sleep(Duration::from_millis(200));
    }
    for node in [&old_a, &old_b, &new] {
        wait_until(&format!("{} announces 2.96", node.name), Duration::from_secs(15), || {
            node.discovery_max() == "2.96"
        });
        assert!(node.log().contains("SIGHUP: serving at most 2.96 from"), "{}", node.log());
    }
    std::thread::sleep(Duration::from_millis(300));
    stop.store(true, Ordering::Relaxed);
    let at_millis = at.unix_seconds() * 1000;
    for client in clients {
        let seen = client.join().expect("the client thread");
        assert!(seen.len() > 10, "the client saw too little: {seen:?}");
        let (v2_60, v2_96) = (Version::new(2, 60), Version::new(2, 96));
        for pair in seen.windows(2) {
            assert!(pair[0].version <= pair[1].version, "the version went back: {pair:?}");
        }
        for s in &seen {
            assert!(s.version == v2_60 || s.version == v2_96, "{s:?}");
            if s.ended < at_millis {
                assert_eq!(s.version, v2_60, "above the fleet's cap before {at}: {s:?}");
            }
            if s.started >= at_millis {
                assert_eq!(s.version, v2_96, "after {at}: {s:?}");
            }
        }
        assert!(seen.iter().any(|s| s.version == v2_60) && seen.iter().any(|s| s.version == v2_96));
    }

    // A bad cap file changes nothing and says why.
    std::fs::write(&cap_file, "2.97\n").expect("the cap file");
    old_a.hangup();
    wait_until("old-a says why", Duration::from_secs(10), || old_a.log().contains("keeping the cap at 2.96"));
    assert!(old_a.log().contains("not a declared version"), "{}", old_a.log());
    std::fs::remove_file(&cap_file).expect("the cap file goes");
    new.hangup();
    wait_until("new says why", Duration::from_secs(10), || new.log().contains("cannot read"));
    for node in [&old_a, &new] {
        assert_eq!(node.discovery_max(), "2.96", "{}", node.name);
    }

    // A restarted node reads what the fleet wrote.
    std::fs::write(&cap_file, "2.96\n").expect("the cap file");
    old_b.restart(&dir);
    assert_eq!(old_b.discovery_max(), "2.96");
    let res = Request::get("/v2.1/flavors/fleet-1").send(&old_b.url());
    assert_eq!((res.status, res.json()["flavor"]["name"].as_str()), (200, Some("fleet-flavor")));

    // python-novaclient, unmodified, through nginx against the fleet.
    python::run_script("novaclient_flow.py", &[&nginx.url]);
    drop((nginx, old_a, old_b, new));
    drop(scratch);
}
