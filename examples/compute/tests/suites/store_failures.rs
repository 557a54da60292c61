//! A store failure is a 5xx, never a lie (docs/08-errors.md, `store::Unavailable`).
//!
//! Each test runs the example's own program (`compute-node`) on a SQLite
//! file, creates a flavor with an extra spec and a keypair, then breaks the
//! real database under the running server from outside, as a disk or an
//! operator would, with no mock: the file's pages are overwritten with
//! garbage (and another connection commits, as a second node of a fleet
//! would, so that the server reads the pages again), or the tables are
//! dropped by another connection. Every operation must then answer 503 in
//! Nova's fault format with a generic message and a request id (in the
//! message and in `X-OpenStack-Request-Id`/`X-Compute-Request-Id`), never a
//! 200 with an empty list, a 404 for a flavor or keypair that exists, or a
//! 409 "already exists"; the server's log names each request id with the
//! database's own error.

use super::FRAMEWORK;

use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process::Child;
use std::time::{SystemTime, UNIX_EPOCH};

use microversion_testkit::http::{Request, Response, nova_fault};
use microversion_testkit::process::start_listening;
use serde_json::{Value, json};

/// The example's program, started `--framework` as the suite runs.
const NODE: &str = env!("CARGO_BIN_EXE_compute-node");

/// The example's program on a database file, its output in a log file.
struct Node {
    child: Child,
    url: String,
    dir: PathBuf,
    log: PathBuf,
}

impl Node {
    fn start(name: &str) -> Node {
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
            "store-failures-{name}-{}-{}-{nanos}",
            FRAMEWORK.name(),
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        let (log, database) = (dir.join("node.log"), dir.join("compute.sqlite3"));
        let args =
            ["--framework".as_ref(), FRAMEWORK.name().as_ref(), "--database".as_ref(), database.as_os_str()];
        let (child, url) = start_listening(NODE, &args, &log);
        Node { child, url, dir, log }
    }

    fn database(&self) -> PathBuf {
        self.dir.join("compute.sqlite3")
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    fn send(&self, (method, path, version, body): &Call) -> Response {
        let mut request = Request::new(method, path).version(version);
        if let Some(body) = body {
            request = request.json(body);
        }
        request.send(&self.url)
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Method, path, version, body.
type Call = (&'static str, &'static str, &'static str, Option<Value>);

/// What exists before the failure: a flavor with an extra spec, a keypair.
fn seed(node: &Node) {
    let flavor = json!({"flavor": {"name": "kept", "id": "42", "ram": 512, "vcpus": 1, "disk": 1}});
    let setup: [Call; 3] = [
        ("POST", "/v2.1/flavors", "2.1", Some(flavor)),
        (
            "POST",
            "/v2.1/flavors/42/os-extra_specs",
            "2.1",
            Some(json!({"extra_specs": {"hw:cpu_policy": "dedicated"}})),
        ),
        ("POST", "/v2.1/os-keypairs", "2.2", Some(json!({"keypair": {"name": "kept"}}))),
    ];
    for call in &setup {
        let res = node.send(call);
        assert!(matches!(res.status, 200 | 201), "{} {}: {}", call.0, call.1, res.describe());
    }
}

/// Every operation, each on something that exists (or, for creates, does
/// not): what a lying store answered is in the comment.
fn every_operation() -> Vec<Call> {
    vec![
        ("GET", "/v2.1/flavors", "2.1", None),         // 200 {"flavors": []}
        ("GET", "/v2.1/flavors/detail", "2.61", None), // 200 {"flavors": []}
        ("GET", "/v2.1/flavors/42", "2.1", None),      // 404
        (
            "POST",
            "/v2.1/flavors",
            "2.55",
            Some(json!({"flavor": {"name": "new", "id": "43", "ram": 512, "vcpus": 1, "disk": 1}})),
        ), // 409
        ("PUT", "/v2.1/flavors/42", "2.55", Some(json!({"flavor": {"description": "d"}}))), // 404
        ("DELETE", "/v2.1/flavors/42", "2.1", None),   // 404
        ("GET", "/v2.1/flavors/42/os-extra_specs", "2.1", None), // 404
        ("POST", "/v2.1/flavors/42/os-extra_specs", "2.1", Some(json!({"extra_specs": {"k": "v"}}))), // 404
        ("GET", "/v2.1/flavors/42/os-extra_specs/hw:cpu_policy", "2.1", None), // 404
        (
            "PUT",
            "/v2.1/flavors/42/os-extra_specs/hw:cpu_policy",
            "2.1",
            Some(json!({"hw:cpu_policy": "shared"})),
        ), // 404
        ("DELETE", "/v2.1/flavors/42/os-extra_specs/hw:cpu_policy", "2.1", None), // 404
        ("GET", "/v2.1/os-keypairs", "2.35", None),    // 200 {"keypairs": []}
        ("GET", "/v2.1/os-keypairs/kept", "2.10", None), // 404
        ("POST", "/v2.1/os-keypairs", "2.2", Some(json!({"keypair": {"name": "new"}}))), // 409
        ("DELETE", "/v2.1/os-keypairs/kept", "2.2", None), // 404
    ]
}

/// Every operation answers a 503 fault with a generic message naming its
/// request id; the log has each id with `cause`, the database's own words.
fn every_operation_is_503(node: &Node, cause: &str) {
    let mut ids = Vec::new();
    for call in every_operation() {
        let res = node.send(&call);
        let what = format!("{} {} at {} after the store broke", call.0, call.1, call.2);
        assert_eq!(res.status, 503, "{what}: never 200 empty, 404 or 409\n{}", res.describe());
        nova_fault(&res).unwrap_or_else(|e| panic!("{what}: {e}\n{}", res.describe()));
        let fault = &res.json()["serviceUnavailable"];
        let message =
            fault["message"].as_str().unwrap_or_else(|| panic!("{what}: a serviceUnavailable fault"));
        let id = res.header("x-openstack-request-id").unwrap_or_else(|| panic!("{what}: a request id"));
        assert!(id.starts_with("req-"), "{what}: {id}");
        assert_eq!(res.header("x-compute-request-id").as_ref(), Some(&id), "{what}: Nova's older header");
        assert!(message.contains(&id), "{what}: the message names the request id: {message}");
        for secret in [cause, "sqlite", "SQL", "table", "database disk"] {
            assert!(!message.contains(secret), "{what}: the message hides the cause ({secret}): {message}");
        }
        assert!(res.header("openstack-api-version").is_some(), "{what}: versioned\n{}", res.describe());
        ids.push(id);
    }
    let log = node.log();
    for id in &ids {
        assert!(
            log.lines().any(|line| line.contains(id.as_str()) && line.contains(cause)),
            "the log names {id} with the cause {cause:?}:\n{log}"
        );
    }
}

#[test]
fn a_corrupt_database_file_is_503_never_a_lie() {
    let node = Node::start("corrupt");
    seed(&node);
    let db = rusqlite::Connection::open(node.database()).expect("the database opens");
    // Everything into the main file, then every page after the first overwritten.
    db.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(())).expect("checkpoint");
    let size = std::fs::metadata(node.database()).expect("the database file").len();
    assert!(size > 4096, "more than one page: {size}");
    let mut file = std::fs::OpenOptions::new().write(true).open(node.database()).expect("the file opens");
    file.seek(SeekFrom::Start(4096)).expect("seek");
    file.write_all(&vec![0xde; (size - 4096) as usize]).expect("garbage written");
    file.sync_all().expect("synced");
    // Another writer commits, as another node of a fleet does: the server
    // reads the pages again instead of answering from its cache.
    db.pragma_update(None, "user_version", 7).expect("a commit on the first page");
    every_operation_is_503(&node, "malformed");
}

#[test]
fn tables_dropped_under_a_running_server_are_503_never_a_lie() {
    let node = Node::start("dropped");
    seed(&node);
    let db = rusqlite::Connection::open(node.database()).expect("the database opens");
    db.execute_batch("DROP TABLE flavors; DROP TABLE key_pairs;").expect("the tables dropped");
    every_operation_is_503(&node, "no such table");
}
