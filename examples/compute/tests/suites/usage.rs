//! Who uses what (docs/reference.md §13.5): a compute process started with
//! `--metrics-listen` counts its requests per version, per header that
//! chose it and per outcome; the test sends a known mix, scrapes
//! `/metrics` and reads it with a Prometheus text parser
//! (`prometheus-parse`).

use super::FRAMEWORK;

use std::collections::BTreeMap;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use microversion_testkit::http::{LEGACY_HEADER, Request, STANDARD_HEADER};

/// The example's program, started `--framework` as the suite runs.
const NODE: &str = env!("CARGO_BIN_EXE_compute-node");

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

fn wait_listening(port: u16, child: &mut std::process::Child) {
    let addr: SocketAddr = ([127, 0, 0, 1], port).into();
    let deadline = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_err() {
        if let Ok(Some(status)) = child.try_wait() {
            panic!("compute-node exited: {status}");
        }
        assert!(Instant::now() < deadline, "compute-node is not listening on {port}");
        std::thread::sleep(Duration::from_millis(25));
    }
}

/// `(version, chosen_by, outcome)` → count, for `service="compute"`.
type Counts = BTreeMap<(String, String, String), f64>;

fn scrape(url: &str) -> Counts {
    let res = Request::get("/metrics").send(url);
    assert_eq!(res.status, 200, "{}", res.describe());
    let text = res.text();
    let scrape =
        prometheus_parse::Scrape::parse(text.lines().map(|l| Ok(l.to_owned()))).expect("Prometheus text");
    let mut counts = Counts::new();
    for sample in scrape.samples.iter().filter(|s| s.metric == "microversion_requests_total") {
        let value = match sample.value {
            prometheus_parse::Value::Counter(v) | prometheus_parse::Value::Untyped(v) => v,
            ref other => panic!("not a counter: {other:?}"),
        };
        assert_eq!(sample.labels.get("service"), Some("compute"));
        let label = |name: &str| sample.labels.get(name).unwrap_or_default().to_owned();
        counts.insert((label("version"), label("chosen_by"), label("outcome")), value);
    }
    counts
}

#[test]
fn requests_are_counted_per_version_and_scraped_as_prometheus_text() {
    let (port, metrics_port) = (free_port(), free_port());
    let dir =
        std::env::temp_dir().join(format!("microversion-usage-{}-{}", FRAMEWORK.name(), std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let mut child = Command::new(NODE)
        .args(["--framework", FRAMEWORK.name(), "--listen", &format!("127.0.0.1:{port}")])
        .arg("--database")
        .arg(dir.join("compute.sqlite3"))
        .args(["--metrics-listen", &format!("127.0.0.1:{metrics_port}")])
        .args(["--cap", "2.90"])
        // Tokens pinned to a version: their requests are chosen by `client`.
        .arg("--pin-versions")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("compute-node starts");
    struct Kill(std::process::Child);
    impl Drop for Kill {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    wait_listening(port, &mut child);
    wait_listening(metrics_port, &mut child);
    let _child = Kill(child);
    let (api, metrics) = (format!("http://127.0.0.1:{port}"), format!("http://127.0.0.1:{metrics_port}"));

    // The known mix: who still uses the versions below 2.60?
    let send = |n: usize, request: Request| {
        for _ in 0..n {
            request.send(&api);
        }
    };
    send(3, Request::get("/v2.1/flavors"));
    send(2, Request::get("/v2.1/flavors").header(STANDARD_HEADER, "compute 2.1"));
    send(4, Request::get("/v2.1/flavors").header(LEGACY_HEADER, "2.59"));
    send(5, Request::get("/v2.1/flavors").header(STANDARD_HEADER, "compute 2.60"));
    send(1, Request::get("/v2.1/flavors/nope").header(STANDARD_HEADER, "compute 2.60"));
    send(2, Request::get("/v2.1/flavors").header(STANDARD_HEADER, "compute latest"));
    send(1, Request::get("/v2.1/flavors").header(STANDARD_HEADER, "compute bogus"));
    send(3, Request::get("/v2.1/flavors").header(LEGACY_HEADER, "2.96"));
    send(1, Request::get("/v2.1/flavors").header(STANDARD_HEADER, "compute 3.0"));
    send(2, Request::get("/"));
    send(2, Request::get("/v2.1/flavors").header("X-Auth-Token", "a-token"));

    let key = |v: &str, by: &str, outcome: &str| (v.to_owned(), by.to_owned(), outcome.to_owned());
    let expected: Counts = [
        (key("2.1", "none", "2xx"), 3.0),
        (key("2.1", "standard", "2xx"), 2.0),
        (key("2.59", "legacy", "2xx"), 4.0),
        (key("2.60", "standard", "2xx"), 5.0),
        (key("2.60", "standard", "4xx"), 1.0),
        (key("2.90", "standard", "2xx"), 2.0),
        (key("invalid", "standard", "400"), 1.0),
        (key("2.96", "legacy", "406"), 3.0),
        (key("undeclared", "standard", "406"), 1.0),
        (key("2.90", "client", "2xx"), 2.0),
    ]
    .into_iter()
    .collect();
    assert_eq!(scrape(&metrics), expected);

    // The question before a sunset: who still asks for a version below 2.60?
    let below: f64 = scrape(&metrics)
        .iter()
        .filter(|((v, _, _), _)| v.parse::<compute::Version>().is_ok_and(|v| v < "2.60".parse().unwrap()))
        .map(|(_, n)| n)
        .sum();
    assert_eq!(below, 9.0);
    drop(_child);
    let _ = std::fs::remove_dir_all(&dir);
}
