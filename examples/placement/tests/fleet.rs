//! A fleet on PostgreSQL (docs/16-placement.md, "A fleet"): three placement
//! processes on one database behind a real nginx, round-robin. Many
//! consumers claim resources of few providers at once, far past their
//! capacity, some claims spanning two providers in either order; one node
//! is killed with SIGKILL in the middle of the load and started again.
//! Afterwards, through every node:
//!
//! - no provider's usage exceeds `(total - reserved) * allocation_ratio`,
//!   neither at the end nor in any usage read during the load;
//! - every claim answered 2xx is there, exactly as claimed;
//! - a claim refused for capacity is not there; a claim that is there
//!   without a 2xx was cut off by the kill (its answer lost: a 502, a
//!   broken connection, or nginx's retry of it meeting the consumer it
//!   made), never refused;
//! - every provider's generation is one (its inventory) plus the number of
//!   claims on it that are there: each write moved it once, none twice.
//!
//! nginx and PostgreSQL missing are failures, not skips: `.ci/run`
//! installs them.

use std::collections::{BTreeMap, BTreeSet};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use microversion_testkit::http::{Request, Response};
use microversion_testkit::nginx::{self, free_port};
use serde_json::{Value, json};

const VERSION: (&str, &str) = ("OpenStack-API-Version", "placement 1.39");
const PROJECT: &str = "aaaaaaaa-0000-4000-8000-00000000000a";
const USER: &str = "bbbbbbbb-0000-4000-8000-00000000000b";
const PROVIDERS: usize = 4;
/// Each provider's VCPU: `(10 - 2) * 1.5 = 12` can be allocated.
const INVENTORY: (i64, i64, f64) = (10, 2, 1.5);
const CAPACITY: i64 = 12;
/// Claims of 1 to 3 VCPU: about 480 asked of 48.
const CLAIMS: usize = 240;
const CLIENTS: usize = 8;
const START_TIMEOUT: Duration = Duration::from_secs(30);

fn provider_uuid(i: usize) -> String {
    format!("f1ee7000-0000-4000-8000-{i:012}")
}

fn consumer_uuid(i: usize) -> String {
    format!("c1a10000-0000-4000-8000-{i:012}")
}

/// Claim `i`: its VCPU per provider. Every fifth spans two providers,
/// taken in opposite orders by neighbouring claims.
fn claim(i: usize) -> Vec<(usize, i64)> {
    let amount = (i % 3) as i64 + 1;
    let first = i % PROVIDERS;
    if i.is_multiple_of(5) {
        let second = (first + 1 + (i / 5) % (PROVIDERS - 1)) % PROVIDERS;
        if (i / 5).is_multiple_of(2) { vec![(first, 1), (second, 1)] } else { vec![(second, 1), (first, 1)] }
    } else {
        vec![(first, amount)]
    }
}

fn send(base: &str, method: &str, path: &str, body: Option<&Value>) -> Response {
    let request = Request::new(method, path).header(VERSION.0, VERSION.1);
    match body {
        Some(body) => request.json(body),
        None => request,
    }
    .send(base)
}

/// `send`, but a connection that breaks is an answer too (status 0).
fn try_send(base: &str, method: &str, path: &str, body: &Value) -> (u16, Value) {
    let request = Request::new(method, path).header(VERSION.0, VERSION.1).json(body);
    let raw = request.to_bytes(microversion_testkit::http::host_of(base));
    match microversion_testkit::http::send_raw(base, &raw) {
        Ok(res) => {
            let body = if res.body.is_empty() {
                Value::Null
            } else {
                serde_json::from_slice(&res.body).unwrap_or(Value::Null)
            };
            (res.status, body)
        }
        Err(_) => (0, Value::Null),
    }
}

/// A scratch directory of this test, removed at the end.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// One placement process (`placement-node`, the example's own program).
struct Node {
    port: u16,
    database: String,
    child: Child,
}

impl Node {
    fn start(port: u16, database: &str) -> Node {
        let child = Command::new(env!("CARGO_BIN_EXE_placement-node"))
            .args(["--listen", &format!("127.0.0.1:{port}"), "--database", database])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("placement-node starts");
        let mut node = Node { port, database: database.to_owned(), child };
        let addr: SocketAddr = ([127, 0, 0, 1], port).into();
        let deadline = Instant::now() + START_TIMEOUT;
        while TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_err() {
            if let Ok(Some(status)) = node.child.try_wait() {
                panic!("placement-node on {port} exited: {status}");
            }
            assert!(Instant::now() < deadline, "placement-node is not listening on {port}");
            std::thread::sleep(Duration::from_millis(20));
        }
        node
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// SIGKILL, then the same program on the same port again.
    fn kill_and_restart(&mut self) {
        self.child.kill().expect("SIGKILL");
        self.child.wait().expect("the killed node reaped");
        *self = Node::start(self.port, &self.database.clone());
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What one claim got.
struct Outcome {
    status: u16,
    code: Option<String>,
}

#[test]
fn fleet_on_postgres_survives_sigkill() {
    let pg = microversion_testkit::postgres::PgServer::start();
    let database = pg.create_database("fleet");
    let nodes: Vec<Node> = (0..3).map(|_| Node::start(free_port(), &database)).collect();
    let nodes = Mutex::new(nodes);
    let proxy_port = free_port();
    let upstreams: String = nodes
        .lock()
        .unwrap()
        .iter()
        .map(|n| format!("        server 127.0.0.1:{} max_fails=0;\n", n.port))
        .collect();
    let dir = Scratch(Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("fleet-{}", std::process::id())));
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
        }}
    }}
"
        ),
        &[proxy_port],
    );
    let base = format!("http://127.0.0.1:{proxy_port}");

    // The providers and their inventories, through the fleet.
    for p in 0..PROVIDERS {
        let uuid = provider_uuid(p);
        let res = send(
            &base,
            "POST",
            "/resource_providers",
            Some(&json!({"name": format!("fleet-{p}"), "uuid": uuid})),
        );
        assert_eq!(res.status, 200, "{}", res.describe());
        let (total, reserved, ratio) = INVENTORY;
        let body = json!({"resource_provider_generation": 0, "inventories": {
            "VCPU": {"total": total, "reserved": reserved, "allocation_ratio": ratio}}});
        let res = send(&base, "PUT", &format!("/resource_providers/{uuid}/inventories"), Some(&body));
        assert_eq!(res.status, 200, "{}", res.describe());
    }

    // The load: CLIENTS threads claiming, one reader of usages, and the
    // kill once a third of the claims are answered.
    let next = AtomicUsize::new(0);
    let answered = AtomicUsize::new(0);
    let loading = AtomicBool::new(true);
    let outcomes: Mutex<BTreeMap<usize, Outcome>> = Mutex::new(BTreeMap::new());
    let mut seen_usage = vec![0i64; PROVIDERS];
    let mut killed_at = 0;
    std::thread::scope(|scope| {
        let claimers: Vec<_> = (0..CLIENTS)
            .map(|_| {
                scope.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, Ordering::SeqCst);
                        if i >= CLAIMS {
                            break;
                        }
                        let allocations: serde_json::Map<String, Value> = claim(i)
                            .into_iter()
                            .map(|(p, vcpu)| (provider_uuid(p), json!({"resources": {"VCPU": vcpu}})))
                            .collect();
                        let body = json!({"allocations": allocations, "project_id": PROJECT, "user_id": USER,
                            "consumer_generation": null, "consumer_type": "INSTANCE"});
                        let (status, answer) =
                            try_send(&base, "PUT", &format!("/allocations/{}", consumer_uuid(i)), &body);
                        let code = answer["errors"][0]["code"].as_str().map(str::to_owned);
                        outcomes.lock().unwrap().insert(i, Outcome { status, code });
                        answered.fetch_add(1, Ordering::SeqCst);
                    }
                })
            })
            .collect();
        let reader = scope.spawn(|| {
            let mut highest = vec![0i64; PROVIDERS];
            while loading.load(Ordering::SeqCst) {
                for (p, high) in highest.iter_mut().enumerate() {
                    let (status, body) = try_send(
                        &base,
                        "GET",
                        &format!("/resource_providers/{}/usages", provider_uuid(p)),
                        &Value::Null,
                    );
                    if status == 200 {
                        *high = (*high).max(body["usages"]["VCPU"].as_i64().unwrap_or(0));
                    }
                }
            }
            highest
        });
        while answered.load(Ordering::SeqCst) < CLAIMS / 3 {
            std::thread::yield_now();
        }
        killed_at = answered.load(Ordering::SeqCst);
        nodes.lock().unwrap()[1].kill_and_restart();
        for claimer in claimers {
            claimer.join().expect("a claimer");
        }
        loading.store(false, Ordering::SeqCst);
        seen_usage = reader.join().expect("the reader");
    });
    let outcomes = outcomes.into_inner().unwrap();
    assert!(killed_at < CLAIMS, "the kill came before the load ended");

    // Placement's promises, read through each node directly.
    let acknowledged: BTreeSet<usize> =
        outcomes.iter().filter(|(_, o)| (200..300).contains(&o.status)).map(|(i, _)| *i).collect();
    let refused_for_capacity: BTreeSet<usize> = outcomes
        .iter()
        .filter(|(_, o)| o.status == 409 && o.code.as_deref() != Some("placement.concurrent_update"))
        .map(|(i, _)| *i)
        .collect();
    assert!(acknowledged.len() > 10, "some claims succeed: {}", acknowledged.len());
    assert!(
        refused_for_capacity.len() > CLAIMS / 2,
        "the load is far past capacity: {}",
        refused_for_capacity.len()
    );
    let nodes = nodes.into_inner().unwrap();
    let mut views = Vec::new();
    for node in &nodes {
        let url = node.url();
        let mut present = BTreeSet::new();
        for i in 0..CLAIMS {
            let res = send(&url, "GET", &format!("/allocations/{}", consumer_uuid(i)), None);
            assert_eq!(res.status, 200, "{}", res.describe());
            let allocations = &res.json()["allocations"];
            if allocations.as_object().is_some_and(|a| a.is_empty()) {
                continue;
            }
            present.insert(i);
            let got: BTreeMap<String, i64> = allocations
                .as_object()
                .expect("allocations")
                .iter()
                .map(|(rp, a)| (rp.clone(), a["resources"]["VCPU"].as_i64().expect("VCPU")))
                .collect();
            let claimed: BTreeMap<String, i64> =
                claim(i).into_iter().map(|(p, v)| (provider_uuid(p), v)).collect();
            assert_eq!(got, claimed, "claim {i} is there exactly as claimed");
        }
        for i in &acknowledged {
            assert!(present.contains(i), "claim {i} was acknowledged but is not there (node {url})");
        }
        for i in present.difference(&acknowledged) {
            let outcome = &outcomes[i];
            assert!(
                !refused_for_capacity.contains(i),
                "claim {i} was refused ({}) but is there",
                outcome.status
            );
            assert!(
                matches!(outcome.status, 0 | 409 | 500..=599),
                "claim {i} is there without a 2xx, but its answer was {} (not a cut-off)",
                outcome.status
            );
        }
        for p in 0..PROVIDERS {
            let uuid = provider_uuid(p);
            let res = send(&url, "GET", &format!("/resource_providers/{uuid}/usages"), None);
            let body = res.json();
            let used = body["usages"]["VCPU"].as_i64().expect("VCPU usage");
            let expected: i64 =
                present.iter().flat_map(|i| claim(*i)).filter(|(q, _)| *q == p).map(|(_, v)| v).sum();
            assert_eq!(used, expected, "provider {p}: usage is the sum of the claims there");
            assert!(used <= CAPACITY, "provider {p} is over capacity: {used} > {CAPACITY}");
            let changes = present.iter().filter(|i| claim(**i).iter().any(|(q, _)| *q == p)).count() as i64;
            assert_eq!(
                body["resource_provider_generation"].as_i64(),
                Some(1 + changes),
                "provider {p}: its generation is its inventory plus its {changes} claims"
            );
        }
        views.push(present);
    }
    assert!(views.windows(2).all(|w| w[0] == w[1]), "every node sees the same claims");
    for (p, seen) in seen_usage.iter().enumerate() {
        assert!(*seen <= CAPACITY, "provider {p} was seen over capacity during the load: {seen}");
    }
    let cut_off = views[0].difference(&acknowledged).count();
    let statuses: BTreeMap<u16, usize> = outcomes.values().fold(BTreeMap::new(), |mut m, o| {
        *m.entry(o.status).or_default() += 1;
        m
    });
    eprintln!(
        "fleet: {CLAIMS} claims, killed after {killed_at}; answers {statuses:?}; {} acknowledged, \
         {cut_off} there without an answer; highest usage seen {seen_usage:?} of {CAPACITY}",
        acknowledged.len()
    );
    drop(nodes);
    drop(nginx);
    drop(pg);
}
