//! Reshapes naming the same providers and consumers in opposite orders,
//! sent at once, many times over: a reshape locks the rows it writes in a
//! claim's order (its consumers by uuid, then its providers by id), whatever
//! order its body names them in, so that two reshapes, or a reshape and a
//! claim, never wait for each other in a cycle (a deadlock, which
//! PostgreSQL breaks after a second, refusing one of them in words no
//! reshape of Placement's answers).
//!
//! On SQLite (one writer at a time: the rounds check the answers) and on
//! PostgreSQL (a server of the test's own, as `tests/claim_orders.rs`
//! starts it), where the server's own count of deadlocks must stay at 0 as
//! well.
//!
//! Each round reads the generations of two providers and two consumers,
//! then sends, at once, requests that all name those generations:
//! 1. two reshapes of the providers' inventories alone, in opposite orders;
//! 2. two reshapes of the inventories and of the consumers' allocations,
//!    the providers and the consumers in opposite orders;
//! 3. a reshape and a `POST /allocations` of the same consumers, in
//!    opposite orders;
//! 4. a reshape of both providers' inventories and a `PUT` of the second's
//!    (which locks the provider before its inventories, as a reshape does);
//! 5. a reshape of the first provider and of the first consumer's
//!    allocation there, and a `PUT /allocations/{consumer}` moving that
//!    consumer to the second provider: the reshape may find only the
//!    consumer's generation moved on, when it bumps it.
//!
//! Whatever order they run in, one of each pair succeeds and the other is
//! the 409 `placement.concurrent_update` Placement answers when it finds a
//! generation it was given moved on: the one it checks first (a provider's
//! or a consumer's), or the one it bumps in the write (a reshape's `update
//! conflict: ...`, a claim's `Inventory and/or allocations changed ...`,
//! an inventory's `resource provider generation conflict`).
//! Both succeeding would be a lost update: the later one wrote over
//! generations it was not given.

mod races;

use microversion_testkit::http::Response;
use microversion_testkit::postgres::PgServer;
use placement::RunningServer;
use races::{At, deadlocks, temp_database};
use serde_json::{Map, Value, json};

const AT: At = At("placement 1.30");
const ROUNDS: usize = 25;
const PROVIDERS: [&str; 2] = ["5e5a9e00-0000-4000-8000-00000000000a", "5e5a9e00-0000-4000-8000-00000000000b"];
const CONSUMERS: [&str; 2] = ["5e5a9e00-0000-4000-8000-0000000000c1", "5e5a9e00-0000-4000-8000-0000000000c2"];

/// The words of the 409s a reshape may answer when a generation it was
/// given moved on: Placement's reshaper handler checking a provider's,
/// `ensure_consumer` checking a consumer's, and the reshaper handler's
/// `update conflict` around `ResourceProviderConcurrentUpdateDetected` and
/// `ConcurrentUpdateDetected` (a bump in the write).
const RESHAPE_MOVED_ON: [&str; 4] = [
    "resource provider generation conflict for provider ",
    "consumer generation conflict - expected ",
    "update conflict: Another thread concurrently updated the resource provider data. Please retry your update",
    "update conflict: Another thread concurrently updated the data. Please retry your update",
];

/// The words of the 409s a claim may answer when a consumer's generation
/// it was given moved on (checked first, or bumped in the write).
const CLAIM_MOVED_ON: [&str; 2] = [
    "consumer generation conflict - expected ",
    "Inventory and/or allocations changed while attempting to allocate: ",
];

/// The words of the 409s of `PUT /resource_providers/{uuid}/inventories`
/// when the provider's generation it was given moved on (checked first, or
/// bumped in the write).
const INVENTORY_MOVED_ON: [&str; 1] = ["resource provider generation conflict"];

/// Two providers with room for every claim, and a consumer with an
/// allocation on each.
fn setup(url: &str) {
    for (i, uuid) in PROVIDERS.iter().enumerate() {
        let res = AT.send(
            url,
            "POST",
            "/resource_providers",
            Some(&json!({"name": format!("p{i}"), "uuid": uuid})),
        );
        assert_eq!(res.status, 200, "{}", res.describe());
        let res =
            AT.send(url, "PUT", &format!("/resource_providers/{uuid}/inventories"), Some(&inventories(0)));
        assert_eq!(res.status, 200, "{}", res.describe());
    }
    for (consumer, provider) in CONSUMERS.iter().zip(PROVIDERS) {
        let body = json!({"allocations": {provider: {"resources": {"VCPU": 1}}},
                          "project_id": "p", "user_id": "u", "consumer_generation": null});
        let res = AT.send(url, "PUT", &format!("/allocations/{consumer}"), Some(&body));
        assert_eq!(res.status, 204, "{}", res.describe());
    }
}

/// A provider's inventories, as `PUT .../inventories` and the reshaper take
/// them, from its `generation`.
fn inventories(generation: i64) -> Value {
    json!({"resource_provider_generation": generation, "inventories": {"VCPU": {"total": 100_000}}})
}

/// The generations of the providers and of the consumers, now.
fn generations(url: &str) -> ([i64; 2], [i64; 2]) {
    let provider = |uuid: &str| {
        let res = AT.send(url, "GET", &format!("/resource_providers/{uuid}"), None);
        assert_eq!(res.status, 200, "{}", res.describe());
        res.json()["generation"].as_i64().expect("a provider generation")
    };
    let consumer = |uuid: &str| {
        let res = AT.send(url, "GET", &format!("/allocations/{uuid}"), None);
        assert_eq!(res.status, 200, "{}", res.describe());
        res.json()["consumer_generation"].as_i64().expect("a consumer generation")
    };
    (PROVIDERS.map(provider), CONSUMERS.map(consumer))
}

/// The consumers' allocations, in `order` (indices into [`CONSUMERS`]),
/// each on the provider of its index, from their `generations`.
fn allocations(order: [usize; 2], generations: [i64; 2]) -> Value {
    let consumers: Map<String, Value> = order
        .into_iter()
        .map(|i| {
            let body = json!({"allocations": {PROVIDERS[i]: {"resources": {"VCPU": 1}}},
                              "project_id": "p", "user_id": "u", "consumer_generation": generations[i]});
            (CONSUMERS[i].to_owned(), body)
        })
        .collect();
    Value::Object(consumers)
}

/// A reshape of the providers in `order` (indices into [`PROVIDERS`]), from
/// their `generations`, with `allocations`.
fn reshape(order: [usize; 2], generations: [i64; 2], allocations: Value) -> Value {
    let inventories: Map<String, Value> =
        order.into_iter().map(|i| (PROVIDERS[i].to_owned(), inventories(generations[i]))).collect();
    json!({"inventories": inventories, "allocations": allocations})
}

/// A reshape of the first provider alone, from its `generation`, with
/// `allocations`.
fn reshape1(generation: i64, allocations: Value) -> Value {
    json!({"inventories": {PROVIDERS[0]: inventories(generation)}, "allocations": allocations})
}

/// The first consumer's allocation on the first provider, from its
/// `generation`.
fn allocations1(generation: i64) -> Value {
    json!({CONSUMERS[0]: {"allocations": {PROVIDERS[0]: {"resources": {"VCPU": 1}}},
                          "project_id": "p", "user_id": "u", "consumer_generation": generation}})
}

/// Whether `res` is a 409 `placement.concurrent_update` in one of `words`.
fn moved_on(res: &Response, words: &[&str]) -> bool {
    let text = res.text();
    res.status == 409
        && text.contains("placement.concurrent_update")
        && words.iter().any(|words| text.contains(words))
}

/// The rounds against the server at `url`; every answer they may not give.
fn rounds(url: &str) -> Vec<String> {
    setup(url);
    let mut wrong = Vec::new();
    let mut check = |round: usize, what: &str, answers: Vec<Response>, words: [&[&str]; 2]| {
        let succeeded = answers.iter().filter(|res| matches!(res.status, 200 | 204)).count();
        let refused = answers.iter().zip(words).filter(|(res, words)| moved_on(res, words)).count();
        if succeeded != 1 || refused != 1 {
            let answers: Vec<String> = answers.iter().map(Response::describe).collect();
            wrong.push(format!("round {round}, {what}:\n{}", answers.join("\n")));
        }
    };
    for round in 0..ROUNDS {
        let (providers, consumers) = generations(url);
        let answers = AT.at_once(
            url,
            [
                ("POST", "/reshaper".to_owned(), Some(reshape([0, 1], providers, json!({})))),
                ("POST", "/reshaper".to_owned(), Some(reshape([1, 0], providers, json!({})))),
            ],
        );
        check(round, "two reshapes of inventories", answers, [&RESHAPE_MOVED_ON, &RESHAPE_MOVED_ON]);

        let (providers, consumers_now) = generations(url);
        assert_eq!(consumers_now, consumers, "reshapes of inventories alone moved consumers on");
        let answers = AT.at_once(
            url,
            [
                (
                    "POST",
                    "/reshaper".to_owned(),
                    Some(reshape([0, 1], providers, allocations([0, 1], consumers))),
                ),
                (
                    "POST",
                    "/reshaper".to_owned(),
                    Some(reshape([1, 0], providers, allocations([1, 0], consumers))),
                ),
            ],
        );
        check(
            round,
            "two reshapes of inventories and allocations",
            answers,
            [&RESHAPE_MOVED_ON, &RESHAPE_MOVED_ON],
        );

        let (providers, consumers) = generations(url);
        let answers = AT.at_once(
            url,
            [
                (
                    "POST",
                    "/reshaper".to_owned(),
                    Some(reshape([1, 0], providers, allocations([1, 0], consumers))),
                ),
                ("POST", "/allocations".to_owned(), Some(allocations([0, 1], consumers))),
            ],
        );
        check(round, "a reshape and a claim", answers, [&RESHAPE_MOVED_ON, &CLAIM_MOVED_ON]);

        let (providers, _) = generations(url);
        let path = format!("/resource_providers/{}/inventories", PROVIDERS[1]);
        let answers = AT.at_once(
            url,
            [
                ("POST", "/reshaper".to_owned(), Some(reshape([0, 1], providers, json!({})))),
                ("PUT", path, Some(inventories(providers[1]))),
            ],
        );
        check(round, "a reshape and an inventory", answers, [&RESHAPE_MOVED_ON, &INVENTORY_MOVED_ON]);

        let (providers, consumers) = generations(url);
        let moved = json!({"allocations": {PROVIDERS[1]: {"resources": {"VCPU": 1}}},
                           "project_id": "p", "user_id": "u", "consumer_generation": consumers[0]});
        let answers = AT.at_once(
            url,
            [
                ("POST", "/reshaper".to_owned(), Some(reshape1(providers[0], allocations1(consumers[0])))),
                ("PUT", format!("/allocations/{}", CONSUMERS[0]), Some(moved)),
            ],
        );
        check(round, "a reshape and a claim of one consumer", answers, [&RESHAPE_MOVED_ON, &CLAIM_MOVED_ON]);
    }
    wrong
}

#[test]
fn reshapes_in_opposite_orders_on_sqlite() {
    let database = temp_database("reshape_orders", "sqlite");
    let server = RunningServer::start(&database).expect("a server");
    let wrong = rounds(&server.url);
    assert!(wrong.is_empty(), "answers Placement would not give:\n{}", wrong.join("\n"));
}

#[test]
fn reshapes_in_opposite_orders_on_postgres() {
    let pg = PgServer::start();
    let database = pg.create_database("reshape_orders");
    let server = RunningServer::start_at(&database).expect("a server");
    let wrong = rounds(&server.url);
    drop(server);
    let deadlocks = deadlocks(&database);
    assert!(
        wrong.is_empty(),
        "answers Placement would not give ({deadlocks} deadlocks):\n{}",
        wrong.join("\n")
    );
    assert_eq!(deadlocks, 0, "PostgreSQL broke deadlocks between the reshapes");
}
