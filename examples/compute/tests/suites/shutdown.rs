//! A server told to stop (SIGTERM, as a rolling restart does) lets the
//! request in flight finish, then exits cleanly: the whole program, as an
//! operator runs it. The axum build's server stops as actix's does
//! (`SHUTDOWN_TIMEOUT`).

use super::FRAMEWORK;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::time::{Duration, Instant};

use microversion_testkit::http::{self as common, host_of};
use microversion_testkit::process::start_listening;

/// The example's program, started `--framework` as the suite runs.
const NODE: &str = env!("CARGO_BIN_EXE_compute-node");

/// Reads from `stream` until `want` has arrived or the stream ends.
fn read_until(stream: &mut TcpStream, want: &str) -> String {
    let mut seen = Vec::new();
    let mut buf = [0; 4096];
    while !String::from_utf8_lossy(&seen).contains(want) {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => seen.extend_from_slice(&buf[..n]),
            Err(e) => panic!("reading for {want:?}: {e}; got {:?}", String::from_utf8_lossy(&seen)),
        }
    }
    String::from_utf8_lossy(&seen).into_owned()
}

#[test]
fn sigterm_lets_the_request_in_flight_finish_then_exits() {
    let dir = std::env::temp_dir().join(format!(
        "microversion-shutdown-{}-{}",
        FRAMEWORK.name(),
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let (log, database) = (dir.join("node.log"), dir.join("compute.sqlite3"));
    let args =
        ["--framework".as_ref(), FRAMEWORK.name().as_ref(), "--database".as_ref(), database.as_os_str()];
    let (mut child, url) = start_listening(NODE, &args, &log);
    let said = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(said.contains(&format!("served by {}", FRAMEWORK.name())), "{said}");

    // A request whose head the server has read: it asked for the body
    // (`100 Continue`), which has not come yet.
    let body = r#"{"flavor": {"name": "in-flight", "ram": 256, "vcpus": 1, "disk": 1}}"#;
    let mut stream = TcpStream::connect(host_of(&url)).expect("a connection");
    stream.set_read_timeout(Some(common::IO_TIMEOUT)).expect("a read timeout");
    let head = format!(
        "POST /v2.1/flavors HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n",
        host_of(&url),
        body.len()
    );
    stream.write_all(head.as_bytes()).expect("the head");
    assert!(read_until(&mut stream, "\r\n\r\n").starts_with("HTTP/1.1 100"), "no 100 Continue");

    // Stop the server, then send the body: the request still completes.
    let pid = child.id().to_string();
    let killed = Command::new("kill").args(["-TERM", &pid]).status().expect("kill runs");
    assert!(killed.success(), "SIGTERM sent");
    stream.write_all(body.as_bytes()).expect("the body");
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let res = common::parse_response(&answer).expect("an HTTP answer to the request in flight");
    assert_eq!(res.status, 200, "{}", res.describe());
    assert_eq!(res.json()["flavor"]["name"], "in-flight", "{}", res.describe());

    // Then the program ends, cleanly, well within its shutdown deadline.
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().expect("the child's status") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("still running after SIGTERM:\n{}", std::fs::read_to_string(&log).unwrap_or_default());
        }
        std::thread::sleep(Duration::from_millis(25));
    };
    let output = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(status.success(), "exit {status} after SIGTERM:\n{output}");
    let _ = std::fs::remove_dir_all(&dir);
}
