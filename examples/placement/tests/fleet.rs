//! A fleet on PostgreSQL under faults (docs/16-placement.md, "A fleet"):
//! three placement processes on one database behind a real nginx,
//! round-robin. Many consumers claim resources of few providers at once,
//! far past their capacity, some claims spanning two providers in either
//! order, and delete some of their claims; in the middle of the load one
//! fault strikes, a fresh database for each: a node SIGKILLed and started
//! again, every node SIGKILLed, PostgreSQL restarted (`fast` and
//! `immediate`), PostgreSQL down for a few seconds, a node SIGSTOPped for
//! longer than nginx waits for it (nginx then retries its requests on the
//! others, as it does by default), and a node restarted on a server with
//! fewer connections than the three pools could ask for (twice: 12
//! connections, and a full server of 20, where the restarted node must
//! answer within its deadline while it has no connection). No node is
//! restarted to recover. Right after the load, every node answers a read
//! within its deadline and, within a bound, a 200. Afterwards, through
//! every node:
//!
//! - no provider's usage exceeds `(total - reserved) * allocation_ratio`,
//!   neither at the end nor in any usage read during the load;
//! - every claim answered 2xx is there, exactly as claimed, unless its
//!   client deleted it; a deletion answered 2xx took it away;
//! - a claim refused for capacity, or answered 503 "not carried out", is
//!   not there; a claim that is there without a 2xx was cut off by the
//!   fault (its answer lost: a 502, a broken connection, a 503 that says
//!   the outcome is unknown, or nginx's retry of it meeting the consumer
//!   it made), never refused;
//! - every provider's generation is one (its inventory) plus one per claim
//!   made, deleted since or not (a deletion moves no generation, as in
//!   Placement): each claim moved it once, none twice;
//! - no answer is a 500, every 503 is Placement's JSON.
//!
//! nginx and PostgreSQL missing are failures, not skips: `.ci/run`
//! installs them.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use common::{ANSWER_SLACK, Node, Scratch, VERSION, read_in_time, read_with_left, root_at_once, send};
use microversion_testkit::http::Request;
use microversion_testkit::nginx::free_port;
use microversion_testkit::postgres::PgServer;
use serde_json::{Value, json};

const PROJECT: &str = "aaaaaaaa-0000-4000-8000-00000000000a";
const USER: &str = "bbbbbbbb-0000-4000-8000-00000000000b";
const PROVIDERS: usize = 4;
/// Each provider's VCPU: `(10 - 2) * 1.5 = 12` can be allocated.
const INVENTORY: (i64, i64, f64) = (10, 2, 1.5);
const CAPACITY: i64 = 12;
/// Claims of 1 to 3 VCPU: about 480 asked of 48.
const CLAIMS: usize = 240;
/// How often a client tries a claim no node answered, and how long it
/// pauses in between.
const CLIENT_TRIES: usize = 100;
const CLIENT_PAUSE: Duration = Duration::from_millis(100);
/// How long a node may take, once the load is over, to answer again.
const NODE_RECOVERY: Duration = Duration::from_secs(60);
/// How long a node restarted on a full server may take, once the load is
/// over, to answer a 200: a quiet node's idle connections go back to the
/// server within 6 s (twice the pools' idle timeout, 3 s), and the
/// restarted node tries for one every second.
const QUIET_RECOVERY: Duration = Duration::from_secs(15);

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

/// What one claim got, and its deletion if its client deleted it.
struct Outcome {
    status: u16,
    code: Option<String>,
    /// A 503 that says the request was not carried out.
    not_carried_out: bool,
    deleted: Option<u16>,
    /// How many times it was sent.
    tries: usize,
}

/// What the load saw: every claim's outcome, the highest usage read of
/// each provider, the longest answer, and how long after the fault the
/// first claim was decided (made, or refused for capacity).
struct Load {
    outcomes: BTreeMap<usize, Outcome>,
    seen_usage: Vec<i64>,
    slowest: Duration,
    fault_at: usize,
    recovered_in: Option<Duration>,
}

/// Clears its flag when dropped: at the end of the load, or when a fault
/// panics.
struct StopWhenDropped<'a>(&'a AtomicBool);

impl Drop for StopWhenDropped<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::SeqCst);
    }
}

/// The statuses no fault excuses: a 500, or a 503 that is not Placement's JSON.
fn check_answer(status: u16, answer: &Value, context: &str) {
    assert_ne!(status, 500, "{context}: {answer}");
    if status == 503 {
        assert_eq!(answer["errors"][0]["status"], 503, "{context}: a 503 in Placement's format: {answer}");
    }
}

/// The load of `clients` at once, with `fault` striking once a third of the
/// claims are answered.
fn load_under(base: &str, clients: usize, fault: impl FnOnce()) -> Load {
    let next = AtomicUsize::new(0);
    let answered = AtomicUsize::new(0);
    let loading = AtomicBool::new(true);
    let fault_over: Mutex<Option<Instant>> = Mutex::new(None);
    let first_after: Mutex<Option<Instant>> = Mutex::new(None);
    let slowest = Mutex::new(Duration::ZERO);
    let outcomes: Mutex<BTreeMap<usize, Outcome>> = Mutex::new(BTreeMap::new());
    let timed = |method: &str, path: &str, body: &Value| {
        let started = Instant::now();
        let (status, answer) = try_send(base, method, path, body);
        let took = started.elapsed();
        let mut slowest = slowest.lock().unwrap();
        *slowest = (*slowest).max(took);
        check_answer(status, &answer, &format!("{method} {path}"));
        (status, answer)
    };
    let mut fault_at = 0;
    let seen_usage = std::thread::scope(|scope| {
        let claimers: Vec<_> = (0..clients)
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
                        let path = format!("/allocations/{}", consumer_uuid(i));
                        // A client tries again while no node answers (nginx's 502, or
                        // nginx itself unreachable), as a real one would, pausing a little.
                        let mut tries = 0;
                        let (status, answer) = loop {
                            let (status, answer) = timed("PUT", &path, &body);
                            tries += 1;
                            if !matches!(status, 0 | 502) || tries == CLIENT_TRIES {
                                break (status, answer);
                            }
                            std::thread::sleep(CLIENT_PAUSE);
                        };
                        let code = answer["errors"][0]["code"].as_str().map(str::to_owned);
                        let detail = answer["errors"][0]["detail"].as_str().unwrap_or_default();
                        let not_carried_out = status == 503 && detail.contains("not carried out");
                        // Every seventh acknowledged claim is deleted by its client.
                        let deleted = ((200..300).contains(&status) && i.is_multiple_of(7))
                            .then(|| timed("DELETE", &path, &Value::Null).0);
                        // Decided by the database (made, or refused for capacity): recovered.
                        let decided = (200..300).contains(&status) || status == 409;
                        if decided && fault_over.lock().unwrap().is_some() {
                            first_after.lock().unwrap().get_or_insert_with(Instant::now);
                        }
                        outcomes
                            .lock()
                            .unwrap()
                            .insert(i, Outcome { status, code, not_carried_out, deleted, tries });
                        answered.fetch_add(1, Ordering::SeqCst);
                    }
                })
            })
            .collect();
        let reader = scope.spawn(|| {
            let mut highest = vec![0i64; PROVIDERS];
            while loading.load(Ordering::SeqCst) {
                for (p, high) in highest.iter_mut().enumerate() {
                    let path = format!("/resource_providers/{}/usages", provider_uuid(p));
                    let (status, body) = timed("GET", &path, &Value::Null);
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
        fault_at = answered.load(Ordering::SeqCst);
        // A fault that panics still ends the load, so that its panic is
        // reported rather than the reader going on for ever.
        let stop_reading = StopWhenDropped(&loading);
        fault();
        *fault_over.lock().unwrap() = Some(Instant::now());
        for claimer in claimers {
            claimer.join().expect("a claimer");
        }
        drop(stop_reading);
        reader.join().expect("the reader")
    });
    let over = fault_over.into_inner().unwrap();
    let recovered_in = first_after.into_inner().unwrap().zip(over).map(|(first, over)| first - over);
    Load {
        outcomes: outcomes.into_inner().unwrap(),
        seen_usage,
        slowest: slowest.into_inner().unwrap(),
        fault_at,
        recovered_in,
    }
}

/// How a fleet is set up: its nodes' own arguments and deadline, lines of
/// nginx's `location`, how many clients load it, and how long after the
/// load a node may take to answer a 200 again.
struct Setup {
    node_args: &'static [&'static str],
    deadline: Duration,
    location: &'static str,
    clients: usize,
    recovery: Duration,
    /// Whether every answer of the load, through nginx, must come within
    /// the deadline.
    answers_in_time: bool,
}

/// The nodes' defaults behind nginx's, eight clients.
const PLAIN: Setup = Setup {
    node_args: &[],
    deadline: placement::deadline::DEFAULT,
    location: "",
    clients: 8,
    recovery: NODE_RECOVERY,
    answers_in_time: false,
};

/// Deadlines of 1 s counted from when nginx took the request, below its
/// read timeout of 2 s, after which it tries the next node (nginx's
/// default `proxy_next_upstream error timeout`).
const DEADLINES: Setup = Setup {
    node_args: &["--request-deadline", "1"],
    deadline: Duration::from_secs(1),
    location: "            proxy_set_header X-Request-Start \"t=${msec}\";\n            proxy_read_timeout 2s;\n",
    ..PLAIN
};

/// An operator's fleet: the nodes' defaults, twelve clients, every answer
/// within its deadline, and a node with no connection answers 200s again
/// soon after the load.
const OPERATED: Setup = Setup { clients: 12, recovery: QUIET_RECOVERY, answers_in_time: true, ..PLAIN };

/// Three nodes on a fresh database of `pg` behind nginx, the providers
/// made, the load run with `fault` striking in its middle, then
/// Placement's promises checked through each node.
fn fleet_under(name: &str, pg: &PgServer, setup: &Setup, fault: impl FnOnce(&Mutex<Vec<Node>>)) {
    let database = pg.create_database(name);
    let nodes: Vec<Node> =
        (0..3).map(|_| Node::start_with(free_port(), &database, setup.node_args)).collect();
    let nodes = Mutex::new(nodes);
    let ports: Vec<u16> = nodes.lock().unwrap().iter().map(|n| n.port).collect();
    let dir = Scratch::new(&format!("fleet-{name}"));
    let (nginx, base) = common::proxy(&dir, &ports, setup.location);

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

    let Load { outcomes, seen_usage, slowest, fault_at, recovered_in } =
        load_under(&base, setup.clients, || fault(&nodes));
    assert!(fault_at < CLAIMS, "{name}: the fault came before the load ended");
    if setup.answers_in_time {
        assert!(slowest <= setup.deadline + ANSWER_SLACK, "{name}: an answer took {slowest:?}");
    }

    // Placement's promises, read through each node directly.
    let acknowledged: BTreeSet<usize> =
        outcomes.iter().filter(|(_, o)| (200..300).contains(&o.status)).map(|(i, _)| *i).collect();
    let deleted: BTreeSet<usize> = outcomes
        .iter()
        .filter(|(_, o)| o.deleted.is_some_and(|s| (200..300).contains(&s)))
        .map(|(i, _)| *i)
        .collect();
    let refused: BTreeSet<usize> = outcomes
        .iter()
        .filter(|(_, o)| {
            o.not_carried_out || (o.status == 409 && o.code.as_deref() != Some("placement.concurrent_update"))
        })
        .map(|(i, _)| *i)
        .collect();
    assert!(acknowledged.len() > 10, "{name}: some claims succeed: {}", acknowledged.len());
    let mut nodes = nodes.into_inner().unwrap();
    // Each node recovers by itself: answering within its deadline all the
    // while, it answers a read 200 within the setup's recovery (a node
    // that got no connection on a crowded server does once a quiet one
    // gives its idle connections back).
    let usages = format!("/resource_providers/{}/usages", provider_uuid(0));
    let mut waited = vec![Duration::ZERO; nodes.len()];
    let load_over = Instant::now();
    for (n, node) in nodes.iter_mut().enumerate() {
        node.wait_listening();
        while read_in_time(&node.url(), &usages, setup.deadline).status != 200 {
            waited[n] = load_over.elapsed();
            assert!(
                waited[n] < setup.recovery,
                "{name}: node {n} answers no 200 {:?} after the load",
                waited[n]
            );
        }
    }
    // Once answering, a node may still meet a busy server now and then.
    let read = |n: usize, path: &str| {
        let started = Instant::now();
        loop {
            let res = read_in_time(&nodes[n].url(), path, setup.deadline);
            if res.status != 503 || started.elapsed() >= setup.recovery {
                return res;
            }
        }
    };
    let mut views = Vec::new();
    for (n, node) in nodes.iter().enumerate() {
        let url = node.url();
        let mut present = BTreeSet::new();
        for i in 0..CLAIMS {
            let res = read(n, &format!("/allocations/{}", consumer_uuid(i)));
            assert_eq!(res.status, 200, "{name}: {}", res.describe());
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
            assert_eq!(got, claimed, "{name}: claim {i} is there exactly as claimed");
        }
        for i in &deleted {
            let o = &outcomes[i];
            assert!(
                !present.contains(i),
                "{name}: claim {i} was deleted (2xx) but is there (node {url}; claimed {} in {} tries)",
                o.status,
                o.tries
            );
        }
        // Acknowledged and gone: its deletion was carried out, answered or not.
        let made_and_deleted: BTreeSet<usize> = acknowledged.difference(&present).copied().collect();
        for i in &made_and_deleted {
            assert!(
                outcomes[i].deleted.is_some(),
                "{name}: claim {i} was acknowledged but is not there (node {url})"
            );
        }
        for i in present.difference(&acknowledged) {
            let outcome = &outcomes[i];
            assert!(!refused.contains(i), "{name}: claim {i} was refused ({}) but is there", outcome.status);
            assert!(
                matches!(outcome.status, 0 | 409 | 502..=599),
                "{name}: claim {i} is there without a 2xx, but its answer was {} (not a cut-off)",
                outcome.status
            );
        }
        for p in 0..PROVIDERS {
            let uuid = provider_uuid(p);
            let res = read(n, &format!("/resource_providers/{uuid}/usages"));
            let body = res.json();
            let used = body["usages"]["VCPU"].as_i64().expect("VCPU usage");
            let on_p = |i: &&usize| claim(**i).iter().any(|(q, _)| *q == p);
            let expected: i64 =
                present.iter().flat_map(|i| claim(*i)).filter(|(q, _)| *q == p).map(|(_, v)| v).sum();
            assert_eq!(used, expected, "{name}: provider {p}: usage is the sum of the claims there");
            assert!(used <= CAPACITY, "{name}: provider {p} is over capacity: {used} > {CAPACITY}");
            // A claim moves its providers' generations; its deletion does not.
            let writes = present.iter().filter(on_p).count() + made_and_deleted.iter().filter(on_p).count();
            assert_eq!(
                body["resource_provider_generation"].as_i64(),
                Some(1 + writes as i64),
                "{name}: provider {p}: its generation is its inventory plus its {writes} writes \
                 ({} there, {} made and deleted, {} acknowledged)",
                present.iter().filter(on_p).count(),
                made_and_deleted.iter().filter(on_p).count(),
                acknowledged.iter().filter(on_p).count()
            );
        }
        views.push(present);
    }
    assert!(views.windows(2).all(|w| w[0] == w[1]), "{name}: every node sees the same claims");
    for (p, seen) in seen_usage.iter().enumerate() {
        assert!(*seen <= CAPACITY, "{name}: provider {p} was seen over capacity during the load: {seen}");
    }
    let recovered_in = recovered_in.unwrap_or_else(|| panic!("{name}: no claim was decided after the fault"));
    let cut_off = views[0].difference(&acknowledged).count();
    let statuses: BTreeMap<u16, usize> = outcomes.values().fold(BTreeMap::new(), |mut m, o| {
        *m.entry(o.status).or_default() += 1;
        m
    });
    eprintln!(
        "fleet, {name}: {CLAIMS} claims, the fault after {fault_at}; answers {statuses:?}; {} acknowledged, \
         {} deleted, {cut_off} there without an answer; highest usage seen {seen_usage:?} of {CAPACITY}; \
         slowest answer {slowest:?}; first claim decided {recovered_in:?} after the fault; the wait per \
         node for a 200 after the load {waited:?}",
        acknowledged.len(),
        deleted.len(),
    );
    drop(nodes);
    drop(nginx);
}

#[test]
fn a_node_sigkilled_and_started_again() {
    let pg = PgServer::start();
    fleet_under("sigkill", &pg, &PLAIN, |nodes| nodes.lock().unwrap()[1].kill_and_restart());
}

#[test]
fn every_node_sigkilled_at_once() {
    let pg = PgServer::start();
    fleet_under("sigkill_all", &pg, &PLAIN, |nodes| {
        let mut nodes = nodes.lock().unwrap();
        for node in nodes.iter_mut() {
            let _ = node.child.kill();
        }
        for node in nodes.iter_mut() {
            node.kill_and_restart();
        }
    });
}

#[test]
fn postgres_restarted_fast_and_immediate() {
    let pg = PgServer::start();
    fleet_under("restart_fast", &pg, &PLAIN, |_| pg.restart("fast"));
    fleet_under("restart_immediate", &pg, &PLAIN, |_| pg.restart("immediate"));
}

#[test]
fn postgres_down_for_seconds() {
    let pg = PgServer::start();
    fleet_under("outage", &pg, &PLAIN, |_| {
        pg.stop();
        // The outage itself: nothing waits on it but the load.
        std::thread::sleep(Duration::from_secs(3));
        pg.start_again(400);
    });
}

#[test]
fn a_node_sigstopped_longer_than_nginx_waits() {
    let pg = PgServer::start();
    fleet_under("sigstop", &pg, &DEADLINES, |nodes| {
        let nodes = nodes.lock().unwrap();
        nodes[1].signal("STOP");
        // The fault itself: frozen past nginx's read timeout and every
        // deadline, so that what it holds was retried on the others
        // (answered there 503, "not carried out"), and it wakes to
        // requests it must refuse.
        std::thread::sleep(Duration::from_secs(5));
        nodes[1].signal("CONT");
    });
}

#[test]
fn a_node_restarted_on_a_crowded_server() {
    // Fewer connections than three pools may open (3 × 16): the nodes
    // share 12. The restarted node waits for one to start (the others may
    // hold them all while the load lasts), and the load goes on meanwhile.
    let pg = PgServer::start_with_max_connections(12);
    fleet_under("crowded", &pg, &PLAIN, |nodes| nodes.lock().unwrap()[1].kill_and_spawn());
}

#[test]
fn a_node_restarted_on_a_full_server_answers_within_its_deadline() {
    // Three pools of 16 on a server of 20 connections, twelve clients: the
    // two nodes left may hold every slot while the load lasts, which idle
    // sessions make certain here (they take every slot the two leave). The
    // restarted node answers all the same, within its deadline: `GET /` at
    // once, what needs the database a 503 that says when to try again.
    let pg = PgServer::start_with_max_connections(20);
    fleet_under("full", &pg, &OPERATED, |nodes| {
        let mut nodes = nodes.lock().unwrap();
        let database = nodes[1].database.clone();
        let mut sessions = Vec::new();
        nodes[1].kill_and_spawn_after(|| {
            // Until the server refuses three in a row: a session of the
            // killed node lives until PostgreSQL notices its end.
            let mut refused = 0;
            while refused < 3 {
                match pg.session(&database) {
                    Some(session) => (sessions.push(session), refused = 0).1,
                    None => refused += 1,
                }
                assert!(sessions.len() <= 20, "the server takes more than its max_connections");
            }
        });
        let node = &mut nodes[1];
        node.wait_listening();
        let usages = format!("/resource_providers/{}/usages", provider_uuid(0));
        // While it has no connection: `GET /` at once, and a read stamped
        // by the proxy so that little of its deadline is left refused (503)
        // within what is left. The two nodes left give idle connections
        // back within seconds, which the restarted node may then take.
        root_at_once(&node.url());
        let left = Duration::from_millis(300);
        let first = read_with_left(&node.url(), &usages, OPERATED.deadline, left).status;
        let held = sessions.len();
        assert_eq!(first, 503, "the restarted node got a connection on a full server ({held} sessions)");
        // The slots go back to the server, for the two others to take
        // while the load lasts, and for the restarted node. Every answer of
        // the load, through nginx, comes within its deadline (the setup
        // checks it), and after the load each node answers 200s again
        // within seconds.
        drop(sessions);
        let waits = node.log.lines().iter().filter(|line| line.contains("is not ready")).count();
        eprintln!(
            "fleet, full: the restarted node's read while the server was full ({held} idle sessions): {first} \
             with {left:?} left; {waits} log lines that it waits for the database so far"
        );
    });
}
