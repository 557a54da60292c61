//! The fleet under faults (docs/16-placement.md, "Deadlines"), on a
//! PostgreSQL server and a real nginx of the test's own:
//!
//! - a node frozen (SIGSTOP) with requests in its socket, for longer than
//!   nginx's read timeout: nginx gives up on it; when the node wakes, it
//!   refuses those requests as past their deadline (counted from nginx's
//!   `X-Request-Start`) and writes nothing, so a claim its client has
//!   since deleted does not come back;
//! - a process frozen in the middle of a transaction: PostgreSQL ends its
//!   session at the request's deadline, so its locks are released while it
//!   is still frozen and it cannot commit when it wakes;
//! - a client that closes its connection while its claim waits for a
//!   lock: the claim is dropped with its transaction, and does not land
//!   when the lock is released;
//! - a node started while PostgreSQL refuses connections (every slot
//!   taken) says why, without printing its password, answers meanwhile
//!   (`GET /` at once, what needs the database a 503 within its deadline),
//!   and serves all once a slot frees;
//! - a `COMMIT` whose answer is lost with its connection (a relay cuts it)
//!   answers a 503 that says the outcome is unknown, not "not carried out":
//!   the change was kept.
//!
//! nginx and PostgreSQL missing are failures, not skips: `.ci/run`
//! installs them.

mod common;

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use common::{Node, Scratch, send};
use microversion_testkit::nginx::free_port;
use microversion_testkit::postgres::PgServer;
use serde_json::{Value, json};

const PROVIDER: &str = "fa017000-0000-4000-8000-000000000001";
const PROJECT: &str = "aaaaaaaa-0000-4000-8000-00000000000a";
const USER: &str = "bbbbbbbb-0000-4000-8000-00000000000b";
/// What the log says of a request refused for its age.
const REFUSED_LATE: &str = "refused: it reached the fleet more than";
/// What the log says of a request dropped because its client went away.
const CLIENT_GONE: &str = placement::deadline::CLIENT_GONE;

/// `future` run to its end on a runtime of its own, as a process runs it.
fn run<F: std::future::Future>(future: F) -> F::Output {
    actix_web::rt::System::new().block_on(future)
}

/// The stamp the tests write on one row (VCPU's class), read back by a
/// store of its own.
fn stamp(database: &str) -> Option<i64> {
    run(async {
        let store = placement::Store::connect(database).await.expect("the store");
        store
            .read(async |tx| {
                tx.query_row("SELECT updated_at FROM resource_classes WHERE id = 0", &[], |r| r.get::<i64>(0))
                    .await
            })
            .await
            .ok()
    })
}

fn consumer(i: usize) -> String {
    format!("c0f10000-0000-4000-8000-{i:012}")
}

fn claim(base: &str, i: usize) -> microversion_testkit::http::Response {
    let body = json!({"allocations": {PROVIDER: {"resources": {"VCPU": 2}}},
                      "project_id": PROJECT, "user_id": USER, "consumer_generation": null,
                      "consumer_type": "INSTANCE"});
    send(base, "PUT", &format!("/allocations/{}", consumer(i)), Some(&body))
}

#[test]
fn a_frozen_node_does_not_carry_out_requests_nginx_gave_up_on() {
    let pg = PgServer::start();
    let database = pg.create_database("frozen");
    // Deadlines of 1 s, below nginx's read timeout of 2 s.
    let nodes: Vec<Node> =
        (0..2).map(|_| Node::start_with(free_port(), &database, &["--request-deadline", "1"])).collect();
    let (frozen, running) = (&nodes[0], &nodes[1]);
    let dir = Scratch::new("faults-frozen");
    let location =
        "            proxy_set_header X-Request-Start \"t=${msec}\";\n            proxy_read_timeout 2s;\n";
    let (_nginx, base) = common::proxy(&dir, &[frozen.port, running.port], location);
    let direct = running.url();
    let res =
        send(&direct, "POST", "/resource_providers", Some(&json!({"name": "frozen", "uuid": PROVIDER})));
    assert_eq!(res.status, 200, "{}", res.describe());
    let body = json!({"resource_provider_generation": 0, "inventories": {"VCPU": {"total": 64}}});
    let res = send(&direct, "PUT", &format!("/resource_providers/{PROVIDER}/inventories"), Some(&body));
    assert_eq!(res.status, 200, "{}", res.describe());

    frozen.signal("STOP");
    // Round robin: about half of the claims go to the frozen node first.
    // nginx waits 2 s for it, then tries the running node, which refuses
    // the request as older than its deadline.
    let mut held = 0;
    for i in 0..6 {
        let started = Instant::now();
        let res = claim(&base, i);
        if started.elapsed() >= Duration::from_secs(2) {
            held += 1;
            assert_eq!(res.status, 503, "a claim nginx retried late: {}", res.describe());
            let detail = res.json()["errors"][0]["detail"].as_str().unwrap_or_default().to_owned();
            assert!(detail.contains("was not carried out"), "{detail}");
        } else {
            assert_eq!(res.status, 204, "a claim the running node served: {}", res.describe());
        }
        // The client moves on: it deletes its claim, whatever it was told.
        let res = send(&direct, "DELETE", &format!("/allocations/{}", consumer(i)), None);
        assert!(matches!(res.status, 204 | 404), "{}", res.describe());
    }
    assert!(held >= 1, "no claim reached the frozen node");

    frozen.signal("CONT");
    // The woken node refuses what it held as late. A held request whose
    // connection nginx closed before the node read it may never reach the
    // service, and one whose session PostgreSQL ended is refused by the
    // database: none is carried out, which is what the reads below check.
    let refused = frozen.log.wait_for(1, Duration::from_secs(30), |line| line.contains(REFUSED_LATE));
    assert!(
        !refused.is_empty() && refused.len() <= held,
        "the woken node refuses what it held ({held}): {:?}",
        frozen.log.lines()
    );
    let res = send(&frozen.url(), "GET", "/", None);
    assert_eq!(res.status, 200, "the woken node serves again: {}", res.describe());

    // Nothing came back, through either node.
    for node in &nodes {
        for i in 0..6 {
            let res = send(&node.url(), "GET", &format!("/allocations/{}", consumer(i)), None);
            assert_eq!(res.json()["allocations"], json!({}), "consumer {i} through {}", node.url());
        }
        let res = send(&node.url(), "GET", &format!("/resource_providers/{PROVIDER}/usages"), None);
        assert_eq!(res.json()["usages"]["VCPU"], 0, "{}", res.describe());
    }
}

#[test]
fn postgres_ends_the_transaction_of_a_frozen_process() {
    let pg = PgServer::start();
    let database = pg.create_database("stalled");
    let frozen_for = Duration::from_secs(4);
    let woke = AtomicBool::new(false);

    let (locked_tx, locked_rx) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        let stalled = scope.spawn(|| {
            run(async {
                let store = placement::Store::connect(&database).await.expect("the store");
                let store = store.with_deadline(Duration::from_millis(500));
                store
                    .tx(async |tx| -> Result<_, placement::db::StoreError> {
                        tx.execute("UPDATE resource_classes SET updated_at = 1 WHERE id = 0", &[]).await?;
                        let _ = locked_tx.send(());
                        // The whole process frozen, its runtime included: nothing
                        // of it runs, as under SIGSTOP.
                        std::thread::sleep(frozen_for);
                        woke.store(true, Ordering::SeqCst);
                        Ok(())
                    })
                    .await
            })
        });
        locked_rx.recv().expect("the frozen transaction holds its lock");
        // Another node writes the same row: it waits for the lock only until
        // PostgreSQL ends the frozen session, well before the process wakes.
        let other = run(async {
            let store = placement::Store::connect(&database).await.expect("the store");
            store
                .tx(async |tx| {
                    tx.execute("UPDATE resource_classes SET updated_at = 2 WHERE id = 0", &[]).await
                })
                .await
        });
        assert!(other.is_ok(), "{:?}", other.err());
        assert!(!woke.load(Ordering::SeqCst), "the lock was released only when the process woke");
        let stalled = stalled.join().expect("the frozen thread");
        // Not carried out: the deadline passed, or PostgreSQL ended the
        // session first; never an unknown outcome.
        let error = microversion_actix::ApiError::from(
            stalled.expect_err("a transaction past its deadline does not commit"),
        );
        assert_eq!(error.status().as_u16(), 503, "{}", error.detail());
        assert!(error.detail().contains("not carried out"), "{}", error.detail());
    });
    let kept = stamp(&database);
    assert_eq!(kept, Some(2), "the other node's write stands, the frozen one's does not");
}

/// How many sessions of the server wait for a lock.
async fn waiting_for_locks(observer: &placement::Store) -> i64 {
    let sql = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'";
    observer
        .read(async |tx| tx.query_row(sql, &[], |r| r.get::<i64>(0)).await)
        .await
        .expect("pg_stat_activity")
}

#[test]
fn a_client_that_goes_away_cancels_its_claim() {
    let pg = PgServer::start();
    let database = pg.create_database("departed");
    // A deadline far away: only the client's going can end the claim early.
    let node = Node::start_with(free_port(), &database, &["--request-deadline", "60"]);
    let base = node.url();
    let res =
        send(&base, "POST", "/resource_providers", Some(&json!({"name": "departed", "uuid": PROVIDER})));
    assert_eq!(res.status, 200, "{}", res.describe());
    let body = json!({"resource_provider_generation": 0, "inventories": {"VCPU": {"total": 64}}});
    let res = send(&base, "PUT", &format!("/resource_providers/{PROVIDER}/inventories"), Some(&body));
    assert_eq!(res.status, 200, "{}", res.describe());

    let (locked_tx, locked_rx) = std::sync::mpsc::channel();
    let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|scope| {
        run(async {
            // Connected before the row is held (connecting creates the schema).
            let observer = placement::Store::connect(&database).await.expect("the observer's store");
            // Another transaction holds the provider's row: the claim, which
            // bumps the provider's generation, waits for it.
            let held_at = database.as_str();
            let holder = scope.spawn(move || {
                run(async {
                    let store = placement::Store::connect(held_at).await.expect("the store");
                    let store = store.with_deadline(Duration::from_secs(60));
                    store
                        .tx(async |tx| -> Result<_, placement::db::StoreError> {
                            let sql = "UPDATE resource_providers SET updated_at = updated_at WHERE uuid = $1";
                            tx.execute(sql, &[PROVIDER.into()]).await?;
                            let _ = locked_tx.send(());
                            let _ = release_rx.recv_timeout(Duration::from_secs(60));
                            Ok(())
                        })
                        .await
                })
            });
            locked_rx.recv().expect("the row is held");
            let claim = json!({"allocations": {PROVIDER: {"resources": {"VCPU": 2}}},
                               "project_id": PROJECT, "user_id": USER, "consumer_generation": null,
                               "consumer_type": "INSTANCE"})
            .to_string();
            let mut client = TcpStream::connect(("127.0.0.1", node.port)).expect("connects");
            let request = format!(
                "PUT /allocations/{} HTTP/1.1\r\nHost: 127.0.0.1\r\nOpenStack-API-Version: placement 1.39\r\n\
                 Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{claim}",
                consumer(0),
                claim.len()
            );
            client.write_all(request.as_bytes()).expect("sends the claim");
            let waiting = Instant::now();
            while waiting_for_locks(&observer).await < 1 {
                assert!(waiting.elapsed() < Duration::from_secs(30), "the claim never waited for the row");
                std::thread::sleep(Duration::from_millis(20));
            }
            drop(client);
            let gone = node.log.wait_for(1, Duration::from_secs(30), |line| line.contains(CLIENT_GONE));
            assert_eq!(gone.len(), 1, "the node drops the claim: {:?}", node.log.lines());
            release_tx.send(()).expect("the holder waits");
            let held = holder.join().expect("the holder's thread");
            assert!(held.is_ok(), "{:?}", held.err());
        })
    });
    // The row released, the dropped claim did not land.
    let res = send(&base, "GET", &format!("/allocations/{}", consumer(0)), None);
    assert_eq!(res.json()["allocations"], json!({}), "{}", res.describe());
    let res = send(&base, "GET", &format!("/resource_providers/{PROVIDER}/usages"), None);
    assert_eq!(res.json()["usages"]["VCPU"], 0, "{}", res.describe());
    // And the node serves on, its pool whole: a claim now succeeds.
    let res = claim(&base, 1);
    assert_eq!(res.status, 204, "{}", res.describe());
}

#[test]
fn a_node_waits_for_a_crowded_server_and_never_prints_its_password() {
    let pg = PgServer::start_with_max_connections(6);
    let database = pg.create_database("crowded");
    let with_password = database.replacen("postgres://microversion@", "postgres://microversion:s3cr3t@", 1);
    assert_ne!(with_password, database);
    // Every slot taken.
    let mut sessions = Vec::new();
    while let Some(session) = pg.session(&database) {
        sessions.push(session);
        assert!(sessions.len() <= 6, "the server takes more than its max_connections");
    }
    let mut node = Node::spawn(free_port(), &with_password, &[]);
    let said = node.log.wait_for(1, Duration::from_secs(30), |line| line.contains("is not ready"));
    let line = said.first().unwrap_or_else(|| panic!("no line says why: {:?}", node.log.lines()));
    assert!(line.contains("too many clients"), "{line}");
    assert!(line.contains("microversion:***@"), "{line}");
    assert!(node.child.try_wait().ok().flatten().is_none(), "the node waits, it does not exit");
    // It answers meanwhile: `GET /` at once, a read a 503 within its
    // deadline, saying when to try again.
    node.wait_listening();
    common::root_at_once(&node.url());
    let res = common::read_in_time(&node.url(), "/resource_providers", placement::deadline::DEFAULT);
    assert_eq!(res.status, 503, "no connection to be had: {}", res.describe());
    // A slot frees: the node prepares its store and serves.
    sessions.pop();
    let serving = Instant::now() + Duration::from_secs(30);
    let res = loop {
        let res = common::read_in_time(&node.url(), "/resource_providers", placement::deadline::DEFAULT);
        if res.status == 200 || Instant::now() > serving {
            break res;
        }
    };
    drop(sessions);
    assert_eq!(res.status, 200, "{}", res.describe());
    assert_eq!(res.json()["resource_providers"], Value::Array(Vec::new()));
    for line in node.log.lines() {
        assert!(!line.contains("s3cr3t"), "a log line prints the password: {line}");
    }
}

/// A relay between the store and PostgreSQL that, once armed, cuts the
/// connection that sends `COMMIT` after the server has it and before its
/// answer comes back: the commit is carried out, its answer lost.
struct CommitCutter {
    port: u16,
    armed: Arc<AtomicBool>,
}

impl CommitCutter {
    fn start(postgres_port: u16) -> CommitCutter {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a relay port");
        let port = listener.local_addr().expect("its address").port();
        let armed = Arc::new(AtomicBool::new(false));
        let arming = Arc::clone(&armed);
        std::thread::spawn(move || {
            for client in listener.incoming().map_while(Result::ok) {
                let Ok(server) = TcpStream::connect(("127.0.0.1", postgres_port)) else { continue };
                let cut = Arc::new(AtomicBool::new(false));
                let (client_in, server_out) =
                    (client.try_clone().expect("a clone"), server.try_clone().expect("a clone"));
                let (armed, cutting) = (Arc::clone(&arming), Arc::clone(&cut));
                // Client to server: a COMMIT statement (its text ends with the
                // protocol's NUL, unlike `READ COMMITTED`), once armed, marks
                // the connection cut before it goes on.
                std::thread::spawn(move || {
                    relay(client_in, server_out, |chunk| {
                        if armed.load(Ordering::SeqCst) && chunk.windows(7).any(|w| w == b"COMMIT\0") {
                            armed.store(false, Ordering::SeqCst);
                            cutting.store(true, Ordering::SeqCst);
                        }
                        true
                    })
                });
                // Server to client: nothing more once cut.
                std::thread::spawn(move || relay(server, client, |_| !cut.load(Ordering::SeqCst)));
            }
        });
        CommitCutter { port, armed }
    }
}

/// Copies `from` to `to` while `pass` lets each chunk through, then closes both.
fn relay(mut from: TcpStream, mut to: TcpStream, pass: impl Fn(&[u8]) -> bool) {
    let mut buffer = [0u8; 16 * 1024];
    while let Ok(n @ 1..) = from.read(&mut buffer) {
        if !pass(&buffer[..n]) || to.write_all(&buffer[..n]).is_err() {
            break;
        }
    }
    let _ = from.shutdown(Shutdown::Both);
    let _ = to.shutdown(Shutdown::Both);
}

#[test]
fn a_commit_whose_answer_is_lost_says_the_outcome_is_unknown() {
    let pg = PgServer::start();
    let database = pg.create_database("cut");
    let cutter = CommitCutter::start(pg.port());
    let relayed = database.replace(&format!(":{}/", pg.port()), &format!(":{}/", cutter.port));
    assert_ne!(relayed, database);
    let answer = run(async {
        let store = placement::Store::connect(&relayed).await.expect("the store");
        cutter.armed.store(true, Ordering::SeqCst);
        store
            .tx(async |tx| tx.execute("UPDATE resource_classes SET updated_at = 3 WHERE id = 0", &[]).await)
            .await
    });
    let error = answer.expect_err("the commit's answer was lost");
    assert!(matches!(error, placement::db::StoreError::OutcomeUnknown(_)), "{error:?}");
    let error = microversion_actix::ApiError::from(error);
    assert_eq!(error.status().as_u16(), 503, "{}", error.detail());
    assert!(error.detail().contains("may or may not have been carried out"), "{}", error.detail());
    assert!(error.detail().contains("GET /allocations/{consumer}"), "{}", error.detail());
    // It was carried out: saying "not carried out" would have been false.
    let kept = stamp(&database);
    assert_eq!(kept, Some(3));
}
