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
//! - a node started while PostgreSQL refuses connections (every slot
//!   taken) waits and says why, without printing its password, and serves
//!   once a slot frees.
//!
//! nginx and PostgreSQL missing are failures, not skips: `.ci/run`
//! installs them.

mod common;

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

/// `future` run to its end on a runtime of its own, as a process runs it.
fn run<F: std::future::Future>(future: F) -> F::Output {
    actix_web::rt::System::new().block_on(future)
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
    let refused = frozen.log.wait_for(held, Duration::from_secs(30), |line| line.contains(REFUSED_LATE));
    assert_eq!(refused.len(), held, "the woken node refuses what it held: {:?}", frozen.log.lines());

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
                    .tx(async |tx| {
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
        assert!(other.is_ok(), "{:?}", other.err().map(|e| e.detail().to_owned()));
        assert!(!woke.load(Ordering::SeqCst), "the lock was released only when the process woke");
        let stalled = stalled.join().expect("the frozen thread");
        let error = stalled.expect_err("a transaction past its deadline does not commit");
        assert_eq!(error.status().as_u16(), 503, "{}", error.detail());
    });
    let kept = run(async {
        let store = placement::Store::connect(&database).await.expect("the store");
        store
            .read(async |tx| {
                tx.query_row("SELECT updated_at FROM resource_classes WHERE id = 0", &[], |r| r.get::<i64>(0))
                    .await
            })
            .await
    });
    assert_eq!(kept.ok(), Some(2), "the other node's write stands, the frozen one's does not");
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
    let said = node.log.wait_for(1, Duration::from_secs(30), |line| line.contains("refused a connection"));
    let line = said.first().unwrap_or_else(|| panic!("no line says why: {:?}", node.log.lines()));
    assert!(line.contains("too many clients"), "{line}");
    assert!(line.contains("microversion:***@"), "{line}");
    assert!(node.child.try_wait().ok().flatten().is_none(), "the node waits, it does not exit");
    // A slot frees: the node starts and serves.
    sessions.pop();
    node.wait_listening();
    drop(sessions);
    let res = send(&node.url(), "GET", "/resource_providers", None);
    assert_eq!(res.status, 200, "{}", res.describe());
    assert_eq!(res.json()["resource_providers"], Value::Array(Vec::new()));
    for line in node.log.lines() {
        assert!(!line.contains("s3cr3t"), "a log line prints the password: {line}");
    }
}
