//! A store failure is a 5xx, never a lie: with the database broken under a
//! running server (a SQLite file whose pages are overwritten, a SQLite
//! file whose tables another connection drops, a PostgreSQL server
//! stopped), every read and every write answers 503 in Placement's API-SIG
//! format with a generic message and a request id, never a 404, a 409, an
//! empty list or a success, and never the database's text.

use std::io::{Seek, SeekFrom, Write};

mod common;

use common::Scratch;
use microversion_testkit::http::{Request, Response};
use placement::RunningServer;
use serde_json::{Value, json};

const VERSION: (&str, &str) = ("OpenStack-API-Version", "placement 1.39");
const PROVIDER: &str = "5e5e5e5e-0000-4000-8000-000000000001";
const CONSUMER: &str = "c0c0c0c0-0000-4000-8000-000000000001";
const PROJECT: &str = "aaaaaaaa-0000-4000-8000-00000000000a";
const USER: &str = "bbbbbbbb-0000-4000-8000-00000000000b";

fn send(base: &str, method: &str, path: &str, body: Option<&Value>) -> Response {
    let request = Request::new(method, path).header(VERSION.0, VERSION.1);
    match body {
        Some(body) => request.json(body),
        None => request,
    }
    .send(base)
}

/// A provider with inventory, a trait, an aggregate, a custom class and a
/// consumer's allocation: something for every read to find.
fn seed(base: &str) {
    let steps: [(&str, String, Option<Value>); 6] = [
        ("POST", "/resource_providers".into(), Some(json!({"name": "broken", "uuid": PROVIDER}))),
        (
            "PUT",
            format!("/resource_providers/{PROVIDER}/inventories"),
            Some(json!({"resource_provider_generation": 0, "inventories": {"VCPU": {"total": 8}}})),
        ),
        ("PUT", "/traits/CUSTOM_SEEDED".into(), None),
        ("POST", "/resource_classes".into(), Some(json!({"name": "CUSTOM_SEEDED"}))),
        (
            "PUT",
            format!("/resource_providers/{PROVIDER}/aggregates"),
            Some(json!({"resource_provider_generation": 1,
                        "aggregates": ["a9a9a9a9-0000-4000-8000-000000000001"]})),
        ),
        (
            "PUT",
            format!("/allocations/{CONSUMER}"),
            Some(json!({"allocations": {PROVIDER: {"resources": {"VCPU": 2}}},
                        "project_id": PROJECT, "user_id": USER, "consumer_generation": null,
                        "consumer_type": "INSTANCE"})),
        ),
    ];
    for (method, path, body) in steps {
        let res = send(base, method, &path, body.as_ref());
        assert!(res.status < 300, "seeding {method} {path}: {}", res.describe());
    }
}

/// Every kind of operation: reads (of what exists and of what does not)
/// and writes.
fn operations() -> Vec<(&'static str, String, Option<Value>)> {
    let other = "0f0f0f0f-0000-4000-8000-000000000002";
    vec![
        ("GET", "/resource_providers".into(), None),
        ("GET", format!("/resource_providers/{PROVIDER}"), None),
        ("GET", format!("/resource_providers/{other}"), None),
        ("GET", format!("/resource_providers/{PROVIDER}/inventories"), None),
        ("GET", format!("/resource_providers/{PROVIDER}/inventories/VCPU"), None),
        ("GET", format!("/resource_providers/{PROVIDER}/usages"), None),
        ("GET", format!("/resource_providers/{PROVIDER}/allocations"), None),
        ("GET", format!("/resource_providers/{PROVIDER}/traits"), None),
        ("GET", format!("/resource_providers/{PROVIDER}/aggregates"), None),
        ("GET", format!("/allocations/{CONSUMER}"), None),
        ("GET", format!("/allocations/{other}"), None),
        ("GET", "/allocation_candidates?resources=VCPU:1".into(), None),
        ("GET", format!("/usages?project_id={PROJECT}"), None),
        ("GET", "/traits".into(), None),
        ("GET", "/traits/CUSTOM_SEEDED".into(), None),
        ("GET", "/resource_classes".into(), None),
        ("GET", "/resource_classes/CUSTOM_SEEDED".into(), None),
        ("POST", "/resource_providers".into(), Some(json!({"name": "new", "uuid": other}))),
        ("PUT", format!("/resource_providers/{PROVIDER}"), Some(json!({"name": "renamed"}))),
        (
            "PUT",
            format!("/resource_providers/{PROVIDER}/inventories"),
            Some(json!({"resource_provider_generation": 3, "inventories": {"VCPU": {"total": 16}}})),
        ),
        (
            "PUT",
            format!("/allocations/{other}"),
            Some(json!({"allocations": {PROVIDER: {"resources": {"VCPU": 1}}},
                        "project_id": PROJECT, "user_id": USER, "consumer_generation": null,
                        "consumer_type": "INSTANCE"})),
        ),
        (
            "POST",
            "/allocations".into(),
            Some(json!({other: {"allocations": {PROVIDER: {"resources": {"VCPU": 1}}},
                        "project_id": PROJECT, "user_id": USER, "consumer_generation": null,
                        "consumer_type": "INSTANCE"}})),
        ),
        ("DELETE", format!("/allocations/{CONSUMER}"), None),
        ("PUT", "/traits/CUSTOM_NEW".into(), None),
        (
            "PUT",
            format!("/resource_providers/{PROVIDER}/traits"),
            Some(json!({"resource_provider_generation": 3, "traits": ["CUSTOM_SEEDED"]})),
        ),
        ("POST", "/resource_classes".into(), Some(json!({"name": "CUSTOM_NEW"}))),
        ("DELETE", "/resource_classes/CUSTOM_SEEDED".into(), None),
        ("DELETE", format!("/resource_providers/{PROVIDER}"), None),
    ]
}

/// What the database might say, which the answer must not.
const DATABASE_WORDS: [&str; 14] = [
    "select",
    "insert",
    "delete from",
    "sqlite",
    "sql",
    "malformed",
    "no such",
    "postgres",
    "db error",
    "connect",
    "table",
    "column",
    "disk image",
    "storage error",
];

/// Every operation answers 503 in Placement's format: a generic detail
/// naming the request id, which the body's `request_id` and
/// `X-OpenStack-Request-Id` repeat; none of the database's words.
fn every_operation_unavailable(base: &str, how: &str) {
    let mut failures = Vec::new();
    // All at once: each may wait for the store as long as the server lets
    // a request wait for a connection.
    let operations = operations();
    let answers: Vec<Response> = std::thread::scope(|scope| {
        let sent: Vec<_> = operations
            .iter()
            .map(|(method, path, body)| scope.spawn(move || send(base, method, path, body.as_ref())))
            .collect();
        sent.into_iter().map(|h| h.join().expect("a request")).collect()
    });
    for ((method, path, _), res) in operations.iter().zip(answers) {
        let text = res.text();
        let what = format!("{how}: {method} {path}: {}", res.describe());
        if res.status != 503 {
            failures.push(format!("{what}\n  expected 503"));
            continue;
        }
        assert!(res.header("content-type").is_some_and(|t| t.starts_with("application/json")), "{what}");
        let json: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{what}: not JSON: {e}"));
        let error = &json["errors"][0];
        assert_eq!(json["errors"].as_array().map(Vec::len), Some(1), "{what}");
        assert_eq!(error["status"], 503, "{what}");
        assert_eq!(error["title"], "Service Unavailable", "{what}");
        assert_eq!(error["code"], "placement.undefined_code", "{what}");
        let id = error["request_id"].as_str().unwrap_or_else(|| panic!("{what}: no request_id"));
        assert!(id.starts_with("req-"), "{what}");
        assert_eq!(res.header("x-openstack-request-id").as_deref(), Some(id), "{what}");
        let detail = error["detail"].as_str().unwrap_or_default();
        // webob's page: the 503's explanation, then the message.
        let message = detail
            .strip_prefix("The server is currently unavailable. Please try again at a later time.\n\n ")
            .unwrap_or_else(|| panic!("{what}: not webob's page: {detail:?}"));
        assert!(
            message.starts_with("The placement service cannot use its database at the moment")
                && message.contains(id),
            "{what}"
        );
        let lower = text.to_ascii_lowercase();
        for word in DATABASE_WORDS {
            assert!(!lower.contains(word), "{what}\n  the answer says {word:?}");
        }
    }
    assert!(
        failures.is_empty(),
        "{} operations did not answer 503:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // The server itself is still up.
    let res = send(base, "GET", "/", None);
    assert_eq!(res.status, 200, "{how}: GET / {}", res.describe());
}

/// Every page of the SQLite file but the schema's (page 1) and one of a
/// small table's is overwritten with garbage under the running server;
/// then another connection writes that table, so that the server's next
/// transaction sees a new database and reads the pages again.
#[test]
fn sqlite_pages_overwritten() {
    let (_scratch, path) = Scratch::database("store-failures-pages");
    let server = RunningServer::start(&path).expect("a server");
    seed(&server.url);
    let other = rusqlite::Connection::open(&path).expect("a second connection");
    other
        .execute_batch("CREATE TABLE poke (x INTEGER); PRAGMA wal_checkpoint(TRUNCATE);")
        .expect("a table of the test's own, everything in the main file");
    let page_size: u64 = other.query_row("PRAGMA page_size", [], |r| r.get(0)).expect("page size");
    let pages: u64 = other.query_row("PRAGMA page_count", [], |r| r.get(0)).expect("page count");
    let poke: u64 = other
        .query_row("SELECT rootpage FROM sqlite_schema WHERE name = 'poke'", [], |r| r.get(0))
        .expect("the table's page");
    assert!(pages > 5, "the seeded database has pages to break: {pages}");
    let mut file = std::fs::OpenOptions::new().write(true).open(&path).expect("the database file");
    for page in (2..=pages).filter(|&p| p != poke) {
        file.seek(SeekFrom::Start((page - 1) * page_size)).expect("seek");
        file.write_all(&vec![0xA5; page_size as usize]).expect("garbage written");
    }
    file.sync_all().expect("synced");
    other.execute("INSERT INTO poke (x) VALUES (1)", []).expect("another writer commits");
    every_operation_unavailable(&server.url, "pages overwritten");
}

/// Another connection drops every table under the running server.
#[test]
fn sqlite_tables_dropped() {
    let (_scratch, path) = Scratch::database("store-failures-dropped");
    let server = RunningServer::start(&path).expect("a server");
    seed(&server.url);
    let other = rusqlite::Connection::open(&path).expect("a second connection");
    let tables: Vec<String> = other
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table'")
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
        .expect("the tables");
    assert!(tables.len() >= 8, "{tables:?}");
    for table in tables {
        other.execute_batch(&format!("DROP TABLE {table}")).expect("dropped");
    }
    every_operation_unavailable(&server.url, "tables dropped");
}

/// The PostgreSQL server stops (immediate shutdown, as a crash would)
/// under the running server: its open connection is cut and new ones are
/// refused.
#[test]
fn postgres_stopped() {
    let pg = microversion_testkit::postgres::PgServer::start();
    let url = pg.create_database("failures");
    let server = RunningServer::start_at(&url).expect("a server on PostgreSQL");
    seed(&server.url);
    pg.stop();
    every_operation_unavailable(&server.url, "PostgreSQL stopped");
    drop(server);
    drop(pg);
}

/// A request that reached the fleet longer ago than its deadline (a node
/// frozen with it in its socket; here, a proxy's `X-Request-Start` far in
/// the past) is refused before anything reads the database: a 503 that
/// is an answer of the API like any other, in Placement's format with its
/// request id and version headers, saying when to try again, and that
/// writes nothing.
#[test]
fn a_request_past_its_deadline_is_refused_as_an_answer_of_the_api() {
    let (_scratch, path) = Scratch::database("store-failures-deadline");
    let server = RunningServer::start(&path).expect("a server");
    let base = server.url.clone();
    let stale = |method: &str, path: &str| {
        Request::new(method, path).header(VERSION.0, VERSION.1).header("X-Request-Start", "t=1000000000.000")
    };
    let created =
        stale("POST", "/resource_providers").json(&json!({"name": "late", "uuid": PROVIDER})).send(&base);
    for (what, res) in [("POST", created), ("GET", stale("GET", "/resource_providers").send(&base))] {
        let what = format!("{what}: {}", res.describe());
        assert_eq!(res.status, 503, "{what}");
        assert_eq!(res.header("retry-after").as_deref(), Some("1"), "{what}");
        assert_eq!(res.header("openstack-api-version").as_deref(), Some("placement 1.39"), "{what}");
        let json: Value =
            serde_json::from_str(&res.text()).unwrap_or_else(|e| panic!("{what}: not JSON: {e}"));
        let error = &json["errors"][0];
        assert_eq!(
            (error["status"].as_u64(), error["code"].as_str()),
            (Some(503), Some("placement.undefined_code"))
        );
        let id = error["request_id"].as_str().unwrap_or_else(|| panic!("{what}: no request_id"));
        assert_eq!(res.header("x-openstack-request-id").as_deref(), Some(id), "{what}");
        assert!(error["detail"].as_str().is_some_and(|d| d.contains("reached its deadline")), "{what}");
    }
    // Nothing was written; the same requests in time are served.
    let listed = send(&base, "GET", "/resource_providers", None);
    assert_eq!(serde_json::from_str::<Value>(&listed.text()).ok(), Some(json!({"resource_providers": []})));
    assert_eq!(
        send(&base, "POST", "/resource_providers", Some(&json!({"name": "late", "uuid": PROVIDER}))).status,
        200
    );
}
