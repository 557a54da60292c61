//! Claims naming the same consumers in opposite orders, sent at once, many
//! times over: each claim takes the rows it writes in one order (its
//! consumers by uuid, then their allocations, then the providers by id),
//! whatever order its body names them in, so that no two claims ever wait
//! for each other in a cycle (a deadlock, which PostgreSQL breaks after a
//! second, a 409 to one of them).
//!
//! On SQLite (one writer at a time: the rounds check the answers) and on
//! PostgreSQL (a server of the test's own, `PgServer`, as `tests/fleet.rs`
//! and `tests/faults.rs` start theirs), where the server's own count of
//! deadlocks must stay at 0 as well.
//!
//! Each round, with consumers of its own:
//! 1. two `POST /allocations` name them, new, in opposite orders, each
//!    claiming from a provider of its own: both succeed (the later takes
//!    the consumers over; no consumer generation before 1.28);
//! 2. two more name them, existing now, in opposite orders: each succeeds,
//!    or is the 409 of a consumer generation the other moved on meanwhile
//!    (Placement's `_increment_consumer_generation` expects the generation
//!    its `ensure_consumer` read, at any version), never another;
//! 3. `PUT /allocations/{consumer}` and `DELETE /allocations/{consumer}`
//!    of the first: the `PUT` succeeds or is that 409, the `DELETE`
//!    succeeds or finds nothing left to delete.

mod races;

use microversion_testkit::http::Response;
use microversion_testkit::postgres::PgServer;
use placement::RunningServer;
use races::{At, deadlocks, temp_database};
use serde_json::{Value, json};

const AT: At = At("placement 1.27");
const ROUNDS: usize = 25;
const CONSUMERS: usize = 4;
const PROVIDERS: [&str; 2] = ["0dde0dde-0000-4000-8000-00000000000a", "0dde0dde-0000-4000-8000-00000000000b"];
/// The words of the 409 a claim answers when a consumer's generation moved
/// on after it read it.
const CONSUMER_MOVED_ON: &str = "Inventory and/or allocations changed while attempting to allocate";

/// Two providers with room for every round's claims.
fn make_providers(url: &str) {
    for (i, uuid) in PROVIDERS.iter().enumerate() {
        let res = AT.send(
            url,
            "POST",
            "/resource_providers",
            Some(&json!({"name": format!("p{i}"), "uuid": uuid})),
        );
        assert_eq!(res.status, 200, "{}", res.describe());
        let inventory =
            json!({"resource_provider_generation": 0, "inventories": {"VCPU": {"total": 100_000}}});
        let res = AT.send(url, "PUT", &format!("/resource_providers/{uuid}/inventories"), Some(&inventory));
        assert_eq!(res.status, 200, "{}", res.describe());
    }
}

/// One consumer's claim of a VCPU on `provider`.
fn one_claim(provider: &str) -> Value {
    json!({"allocations": {provider: {"resources": {"VCPU": 1}}}, "project_id": "p", "user_id": "u"})
}

/// A `POST /allocations` body naming `consumers` in the order given
/// (serde_json keeps it), each claiming from `provider`.
fn claims<'a>(provider: &str, consumers: impl Iterator<Item = &'a String>) -> Value {
    Value::Object(consumers.map(|consumer| (consumer.clone(), one_claim(provider))).collect())
}

/// The rounds against the server at `url`; every answer they may not give.
fn rounds(url: &str) -> Vec<String> {
    make_providers(url);
    let mut wrong = Vec::new();
    for round in 0..ROUNDS {
        let consumers: Vec<String> =
            (0..CONSUMERS).map(|i| format!("0dde0dde-0000-4000-8000-{round:06}{i:06}")).collect();
        let opposite = || {
            [
                ("POST", "/allocations".to_owned(), Some(claims(PROVIDERS[0], consumers.iter()))),
                ("POST", "/allocations".to_owned(), Some(claims(PROVIDERS[1], consumers.iter().rev()))),
            ]
        };
        for res in AT.at_once(url, opposite()) {
            if res.status != 204 {
                wrong.push(format!("round {round}, new consumers: {}", res.describe()));
            }
        }
        for res in AT.at_once(url, opposite()) {
            if res.status != 204 && !(res.status == 409 && res.text().contains(CONSUMER_MOVED_ON)) {
                wrong.push(format!("round {round}, existing consumers: {}", res.describe()));
            }
        }
        let path = format!("/allocations/{}", consumers[0]);
        let [put, delete]: [Response; 2] = AT
            .at_once(url, [("PUT", path.clone(), Some(one_claim(PROVIDERS[1]))), ("DELETE", path, None)])
            .try_into()
            .expect("two answers");
        if put.status != 204 && !(put.status == 409 && put.text().contains(CONSUMER_MOVED_ON)) {
            wrong.push(format!("round {round}, PUT beside DELETE: {}", put.describe()));
        }
        if delete.status != 204 && delete.status != 404 {
            wrong.push(format!("round {round}, DELETE beside PUT: {}", delete.describe()));
        }
    }
    wrong
}

#[test]
fn claims_in_opposite_orders_on_sqlite() {
    let database = temp_database("claim_orders", "sqlite");
    let server = RunningServer::start(&database).expect("a server");
    let wrong = rounds(&server.url);
    assert!(wrong.is_empty(), "answers no claim may give:\n{}", wrong.join("\n"));
}

#[test]
fn claims_in_opposite_orders_on_postgres() {
    let pg = PgServer::start();
    let database = pg.create_database("claim_orders");
    let server = RunningServer::start_at(&database).expect("a server");
    let wrong = rounds(&server.url);
    drop(server);
    let deadlocks = deadlocks(&database);
    assert!(wrong.is_empty(), "answers no claim may give ({deadlocks} deadlocks):\n{}", wrong.join("\n"));
    assert_eq!(deadlocks, 0, "PostgreSQL broke deadlocks between the claims");
}
