//! A consumer's `updated_at` moves on whenever its allocations are written
//! again and its generation is incremented, as in Placement: its
//! `Consumer.increment_generation` is an `UPDATE` of the consumers table,
//! whose `updated_at` (oslo.db's `TimestampMixin`) is set on every update
//! (`onupdate=timeutils.utcnow`). The example sets it when it re-owns each
//! consumer it found (`store::consumers::reown`), in the transaction that
//! then bumps its generation. No answer shows it (a consumer's
//! `Last-Modified` is that of its allocations), so the test reads the
//! SQLite file with a connection of its own, which also moves the column
//! back to 0 so that no second has to pass.

mod races;

use std::path::Path;

use placement::RunningServer;
use races::{At, temp_database};
use serde_json::{Value, json};

const AT: At = At("placement 1.38");
const PROVIDER: &str = "0c0c0c0c-0000-4000-8000-00000000000a";
const CONSUMER: &str = "0c0c0c0c-0000-4000-8000-0000000000c1";

/// The consumer's generation and `updated_at`, as the database has them.
fn row(database: &Path) -> (i64, i64) {
    let connection = rusqlite::Connection::open(database).expect("a second connection");
    connection
        .query_row("SELECT generation, updated_at FROM consumers WHERE uuid = ?1", [CONSUMER], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .expect("the consumer's row")
}

/// Moves the consumer's `updated_at` back to 0.
fn age(database: &Path) {
    let connection = rusqlite::Connection::open(database).expect("a second connection");
    connection
        .execute("UPDATE consumers SET updated_at = 0 WHERE uuid = ?1", [CONSUMER])
        .expect("the consumer aged");
}

fn claim(generation: Option<i64>, amount: i64) -> Value {
    json!({"allocations": {PROVIDER: {"resources": {"VCPU": amount}}},
           "project_id": "p", "user_id": "u", "consumer_generation": generation,
           "consumer_type": "INSTANCE"})
}

#[test]
fn a_consumer_whose_allocations_are_written_again_is_updated() {
    let database = temp_database("consumer_updated_at", "sqlite");
    let server = RunningServer::start(&database).expect("a server");
    let url = &server.url;
    let res = AT.send(url, "POST", "/resource_providers", Some(&json!({"name": "p", "uuid": PROVIDER})));
    assert_eq!(res.status, 200, "{}", res.describe());
    let inventory = json!({"resource_provider_generation": 0, "inventories": {"VCPU": {"total": 8}}});
    let res = AT.send(url, "PUT", &format!("/resource_providers/{PROVIDER}/inventories"), Some(&inventory));
    assert_eq!(res.status, 200, "{}", res.describe());
    let path = format!("/allocations/{CONSUMER}");
    let res = AT.send(url, "PUT", &path, Some(&claim(None, 1)));
    assert_eq!(res.status, 204, "{}", res.describe());
    assert_eq!(row(&database).0, 1);

    // Written again by `PUT /allocations/{consumer}`, by `POST /allocations`
    // and by `POST /reshaper`, the same owner each time: the generation is
    // incremented, and `updated_at` is the time of the write.
    let writes: [(&str, &str, Value); 3] = [
        ("PUT", &path, claim(Some(1), 2)),
        ("POST", "/allocations", json!({CONSUMER: claim(Some(2), 3)})),
        (
            "POST",
            "/reshaper",
            json!({"inventories": {PROVIDER: {"resource_provider_generation": 4,
                                               "inventories": {"VCPU": {"total": 8}}}},
                   "allocations": {CONSUMER: claim(Some(3), 4)}}),
        ),
    ];
    for (i, (method, target, body)) in writes.iter().enumerate() {
        age(&database);
        let before = placement::store::now();
        let res = AT.send(url, method, target, Some(body));
        assert_eq!(res.status, 204, "{method} {target}: {}", res.describe());
        let (generation, updated_at) = row(&database);
        assert_eq!(generation, i as i64 + 2, "{method} {target}");
        assert!(
            updated_at >= before,
            "{method} {target}: updated_at {updated_at}, the write began at {before}"
        );
    }

    // A write refused (a generation the consumer no longer has) changes
    // nothing.
    age(&database);
    let res = AT.send(url, "PUT", &path, Some(&claim(Some(1), 5)));
    assert_eq!(res.status, 409, "{}", res.describe());
    assert_eq!(row(&database), (4, 0));
}
