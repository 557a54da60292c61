//! A default version per client (docs/reference.md §3.6), on the whole
//! program as an operator runs it: `--pin-versions` pins a token's first
//! request naming no version to the served maximum, and the maximum moves
//! with `--cap-file` and SIGHUP while the token keeps its version, in the
//! answers and in discovery's `client_version`.

use super::FRAMEWORK;

use std::process::{Child, Command};
use std::time::{Duration, Instant};

use microversion_testkit::http::Request;
use microversion_testkit::process::start_listening;

/// The example's program, started `--framework` as the suite runs.
const NODE: &str = env!("CARGO_BIN_EXE_compute-node");

const TOKEN: &str = "X-Auth-Token";

/// The version a `GET /v2.1/flavors` gets with these headers.
fn served(url: &str, headers: &[(&str, &str)]) -> String {
    let mut request = Request::get("/v2.1/flavors");
    for (name, value) in headers {
        request = request.header(name, value);
    }
    let res = request.send(url);
    assert_eq!(res.status, 200, "{}", res.describe());
    res.header("OpenStack-API-Version").unwrap_or_else(|| panic!("no version\n{}", res.describe()))
}

/// Discovery's `version` and `client_version` for a request with `headers`.
fn discovered(url: &str, headers: &[(&str, &str)]) -> (String, Option<String>) {
    let mut request = Request::get("/v2.1/");
    for (name, value) in headers {
        request = request.header(name, value);
    }
    let doc = request.send(url).json();
    let text = |key: &str| doc["version"][key].as_str().map(str::to_owned);
    (text("version").expect("a served maximum"), text("client_version"))
}

struct Stop(Child);

impl Drop for Stop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_pinned_token_keeps_its_version_when_a_sighup_raises_the_maximum() {
    let dir =
        std::env::temp_dir().join(format!("microversion-pins-{}-{}", FRAMEWORK.name(), std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let (log, database, cap_file) = (dir.join("node.log"), dir.join("compute.sqlite3"), dir.join("cap"));
    std::fs::write(&cap_file, "2.50\n").expect("the cap file");
    let args = [
        "--framework".as_ref(),
        FRAMEWORK.name().as_ref(),
        "--pin-versions".as_ref(),
        "--cap-file".as_ref(),
        cap_file.as_os_str(),
        "--database".as_ref(),
        database.as_os_str(),
    ];
    let (child, url) = start_listening(NODE, &args, &log);
    let node = Stop(child);
    let (a, b) = ([(TOKEN, "token-a")], [(TOKEN, "token-b")]);

    // Token A's first request names no version: A is pinned to 2.50.
    assert_eq!(served(&url, &a), "compute 2.50");
    assert_eq!(discovered(&url, &a), ("2.50".into(), Some("2.50".into())));

    // The deployer raises the cap; the node reloads it on SIGHUP.
    std::fs::write(&cap_file, "2.60\n").expect("the cap file");
    let hangup = Command::new("kill").args(["-HUP", &node.0.id().to_string()]).status().expect("kill runs");
    assert!(hangup.success(), "SIGHUP sent");
    let deadline = Instant::now() + Duration::from_secs(30);
    while discovered(&url, &[]).0 != "2.60" {
        assert!(
            Instant::now() < deadline,
            "the cap never moved:\n{}",
            std::fs::read_to_string(&log).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(25));
    }

    // A keeps 2.50, in its answers and in discovery; a new token gets 2.60.
    assert_eq!(served(&url, &a), "compute 2.50");
    assert_eq!(discovered(&url, &a), ("2.60".into(), Some("2.50".into())));
    assert_eq!(served(&url, &b), "compute 2.60");
    // No token: the API's default, as for every client that names nothing.
    assert_eq!(served(&url, &[]), "compute 2.1");
    // A version named in the request wins over the pin, and does not move it.
    assert_eq!(
        served(&url, &[(TOKEN, "token-a"), ("OpenStack-API-Version", "compute 2.55")]),
        "compute 2.55"
    );
    assert_eq!(served(&url, &a), "compute 2.50");
    drop(node);
    let _ = std::fs::remove_dir_all(&dir);
}
