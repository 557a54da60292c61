//! Placement's answers in Placement's order: objects keyed by provider,
//! consumer or resource class come in the order the real Placement gives
//! them (its rows by id), not sorted by uuid or name. Clients turn them
//! into lists and compare.
//!
//! The providers' uuids sort the other way round from their creation, the
//! bodies list providers and classes in neither order, and the order is
//! read from the raw text of each answer.

mod common;

use common::Scratch;
use microversion_testkit::http::{Request, Response};
use placement::RunningServer;

const VERSION: (&str, &str) = ("OpenStack-API-Version", "placement 1.39");
const PROJECT: &str = "aaaaaaaa-0000-4000-8000-00000000000a";
const USER: &str = "bbbbbbbb-0000-4000-8000-00000000000b";

/// Made in this order; their uuids sort the other way.
const FIRST: &str = "cccccccc-0000-4000-8000-000000000001";
const SECOND: &str = "bbbbbbbb-0000-4000-8000-000000000002";
const THIRD: &str = "aaaaaaaa-0000-4000-8000-000000000003";

fn send(base: &str, method: &str, path: &str, body: Option<&str>) -> Response {
    let request = Request::new(method, path).header(VERSION.0, VERSION.1);
    let request = match body {
        Some(body) => request.header("Content-Type", "application/json").body(body.as_bytes().to_vec()),
        None => request,
    };
    let res = request.send(base);
    assert!(res.status < 300, "{method} {path}: {}", res.describe());
    res
}

/// The keys of the JSON object that starts at `at` in `text`, in the order
/// the text has them (read with a parser of the test's own, so that no
/// map type can reorder them).
fn keys_at(text: &str, at: usize) -> Vec<String> {
    let bytes = text.as_bytes();
    assert_eq!(bytes[at], b'{', "an object at {at}: {text}");
    let mut keys = Vec::new();
    let (mut depth, mut i, mut expect_key) = (0usize, at, false);
    while i < bytes.len() {
        match bytes[i] {
            b'{' => {
                depth += 1;
                expect_key = depth == 1;
            }
            b'[' => depth += 1,
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            b',' if depth == 1 => expect_key = true,
            b'"' => {
                let start = i + 1;
                i += 1;
                while bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                if depth == 1 && expect_key {
                    keys.push(text[start..i].to_owned());
                    expect_key = false;
                }
            }
            _ => {}
        }
        i += 1;
    }
    keys
}

/// Where the value of the first `"key":` after `from` starts.
fn value_of(text: &str, from: usize, key: &str) -> usize {
    let needle = format!("\"{key}\":");
    let at = text[from..].find(&needle).unwrap_or_else(|| panic!("{key} after {from}: {text}")) + from;
    at + needle.len() + text[at + needle.len()..].len() - text[at + needle.len()..].trim_start().len()
}

/// The keys of the object under the path of keys `path` (each looked up
/// after the previous one).
fn keys(text: &str, path: &[&str]) -> Vec<String> {
    let mut at = 0;
    for key in path {
        at = value_of(text, at, key);
    }
    keys_at(text, at)
}

fn providers(base: &str) {
    for (uuid, name) in [(FIRST, "first"), (SECOND, "second"), (THIRD, "third")] {
        send(
            base,
            "POST",
            "/resource_providers",
            Some(&format!(r#"{{"name": "{name}", "uuid": "{uuid}"}}"#)),
        );
        send(
            base,
            "PUT",
            &format!("/resource_providers/{uuid}/inventories"),
            Some(
                r#"{"resource_provider_generation": 0, "inventories": {
                    "DISK_GB": {"total": 100}, "VCPU": {"total": 8}, "MEMORY_MB": {"total": 4096}}}"#,
            ),
        );
    }
}

/// A consumer's allocations as `PUT /allocations/{consumer}` takes them,
/// and as `POST /allocations` takes each consumer's.
fn consumer_body(generation: &str, allocations: &str) -> String {
    format!(
        r#"{{"allocations": {allocations}, "project_id": "{PROJECT}", "user_id": "{USER}",
            "consumer_generation": {generation}, "consumer_type": "INSTANCE"}}"#
    )
}

fn allocate(base: &str, consumer: &str, generation: &str, allocations: &str) {
    send(base, "PUT", &format!("/allocations/{consumer}"), Some(&consumer_body(generation, allocations)));
}

#[test]
fn allocations_in_the_order_written() {
    let (_scratch, database) = Scratch::database("answer-order-allocations");
    let server = RunningServer::start(&database).expect("a server");
    let base = &server.url;
    providers(base);
    // Providers in creation order, each one's classes in neither
    // alphabetical nor class id order.
    let one = "ffffffff-0000-4000-8000-000000000001";
    allocate(
        base,
        one,
        "null",
        &format!(
            r#"{{"{FIRST}": {{"resources": {{"MEMORY_MB": 512, "VCPU": 1}}}},
                "{SECOND}": {{"resources": {{"MEMORY_MB": 256, "DISK_GB": 10}}}},
                "{THIRD}": {{"resources": {{"DISK_GB": 5}}}}}}"#
        ),
    );
    // Providers in neither creation nor uuid order.
    let two = "11111111-0000-4000-8000-000000000002";
    allocate(
        base,
        two,
        "null",
        &format!(
            r#"{{"{SECOND}": {{"resources": {{"VCPU": 2}}}},
                "{THIRD}": {{"resources": {{"VCPU": 1}}}},
                "{FIRST}": {{"resources": {{"DISK_GB": 1}}}}}}"#
        ),
    );

    // GET /allocations/{consumer}: Placement's rows by id, the order the
    // allocations were written (the body's), `resources` before
    // `generation`.
    let text = send(base, "GET", &format!("/allocations/{one}"), None).text();
    assert_eq!(keys(&text, &["allocations"]), [FIRST, SECOND, THIRD], "{text}");
    assert_eq!(keys(&text, &["allocations", FIRST]), ["resources", "generation"], "{text}");
    assert_eq!(keys(&text, &["allocations", FIRST, "resources"]), ["MEMORY_MB", "VCPU"], "{text}");
    assert_eq!(keys(&text, &["allocations", SECOND, "resources"]), ["MEMORY_MB", "DISK_GB"], "{text}");
    assert_eq!(
        keys(&text, &[]),
        ["allocations", "project_id", "user_id", "consumer_generation", "consumer_type"],
        "{text}"
    );
    let text = send(base, "GET", &format!("/allocations/{two}"), None).text();
    assert_eq!(keys(&text, &["allocations"]), [SECOND, THIRD, FIRST], "{text}");

    // GET /resource_providers/{uuid}/allocations: the consumers by row id.
    let text = send(base, "GET", &format!("/resource_providers/{FIRST}/allocations"), None).text();
    assert_eq!(keys(&text, &[]), ["allocations", "resource_provider_generation"], "{text}");
    assert_eq!(keys(&text, &["allocations"]), [one, two], "{text}");
    assert_eq!(keys(&text, &["allocations", one]), ["resources", "consumer_generation"], "{text}");
    assert_eq!(keys(&text, &["allocations", one, "resources"]), ["MEMORY_MB", "VCPU"], "{text}");
    let json: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(json["allocations"][one]["consumer_generation"], 1, "{text}");
    let res = Request::get(&format!("/resource_providers/{FIRST}/allocations"))
        .header(VERSION.0, "placement 1.27")
        .send(base);
    let text = res.text();
    assert_eq!(keys(&text, &["allocations", one]), ["resources"], "before 1.28: {text}");
    // A consumer written again comes after the others.
    allocate(base, one, "1", &format!(r#"{{"{FIRST}": {{"resources": {{"VCPU": 1}}}}}}"#));
    let text = send(base, "GET", &format!("/resource_providers/{FIRST}/allocations"), None).text();
    assert_eq!(keys(&text, &["allocations"]), [two, one], "{text}");

    // POST /allocations writes the consumers and providers in the body's order.
    let three = "33333333-0000-4000-8000-000000000003";
    let four = "22222222-0000-4000-8000-000000000004";
    send(
        base,
        "POST",
        "/allocations",
        Some(&format!(
            r#"{{"{three}": {{"allocations": {{"{THIRD}": {{"resources": {{"VCPU": 1}}}},
                                              "{FIRST}": {{"resources": {{"VCPU": 1}}}}}},
                            "project_id": "{PROJECT}", "user_id": "{USER}",
                            "consumer_generation": null, "consumer_type": "INSTANCE"}},
                "{four}": {{"allocations": {{"{FIRST}": {{"resources": {{"VCPU": 1}}}}}},
                            "project_id": "{PROJECT}", "user_id": "{USER}",
                            "consumer_generation": null, "consumer_type": "INSTANCE"}}}}"#
        )),
    );
    let text = send(base, "GET", &format!("/allocations/{three}"), None).text();
    assert_eq!(keys(&text, &["allocations"]), [THIRD, FIRST], "{text}");
    let text = send(base, "GET", &format!("/resource_providers/{FIRST}/allocations"), None).text();
    assert_eq!(keys(&text, &["allocations"]), [two, one, three, four], "{text}");

    // Usages by resource class id (Placement groups its rows by it), not
    // by name; at 1.38 `consumer_count` where the first class set it.
    let text = send(base, "GET", &format!("/resource_providers/{FIRST}/usages"), None).text();
    assert_eq!(keys(&text, &[]), ["resource_provider_generation", "usages"], "{text}");
    assert_eq!(keys(&text, &["usages"]), ["VCPU", "MEMORY_MB", "DISK_GB"], "{text}");
    let text = send(base, "GET", &format!("/usages?project_id={PROJECT}"), None).text();
    assert_eq!(keys(&text, &["usages", "INSTANCE"]), ["VCPU", "consumer_count", "DISK_GB"], "{text}");
    let res =
        Request::get(&format!("/usages?project_id={PROJECT}")).header(VERSION.0, "placement 1.37").send(base);
    let text = res.text();
    assert_eq!(keys(&text, &["usages"]), ["VCPU", "DISK_GB"], "{text}");
}

#[test]
fn candidates_in_placement_order() {
    let (_scratch, database) = Scratch::database("answer-order-candidates");
    let server = RunningServer::start(&database).expect("a server");
    let base = &server.url;
    providers(base);
    // Provider summaries by provider id (creation), each one's resources
    // by resource class id (VCPU, MEMORY_MB, DISK_GB), not by name.
    let text = send(base, "GET", "/allocation_candidates?resources=VCPU:1", None).text();
    assert_eq!(keys(&text, &["provider_summaries"]), [FIRST, SECOND, THIRD], "{text}");
    for uuid in [FIRST, SECOND, THIRD] {
        assert_eq!(
            keys(&text, &["provider_summaries", uuid, "resources"]),
            ["VCPU", "MEMORY_MB", "DISK_GB"],
            "{text}"
        );
        assert_eq!(
            keys(&text, &["provider_summaries", uuid]),
            ["resources", "traits", "parent_provider_uuid", "root_provider_uuid"],
            "{text}"
        );
    }
    assert_eq!(keys(&text, &[]), ["allocation_requests", "provider_summaries"], "{text}");

    // A tree: the root (made first, its uuid first too) has the disk, its
    // child the VCPUs. A candidate's allocations name providers in the
    // order of its resources, by class id: the child's VCPU first.
    let (_scratch, database) = Scratch::database("answer-order-tree");
    let server = RunningServer::start(&database).expect("a server");
    let base = &server.url;
    let root = "11111111-0000-4000-8000-000000000001";
    let child = "22222222-0000-4000-8000-000000000002";
    send(base, "POST", "/resource_providers", Some(&format!(r#"{{"name": "root", "uuid": "{root}"}}"#)));
    send(
        base,
        "POST",
        "/resource_providers",
        Some(&format!(r#"{{"name": "child", "uuid": "{child}", "parent_provider_uuid": "{root}"}}"#)),
    );
    for (uuid, class) in [(root, "DISK_GB"), (child, "VCPU")] {
        send(
            base,
            "PUT",
            &format!("/resource_providers/{uuid}/inventories"),
            Some(&format!(
                r#"{{"resource_provider_generation": 0, "inventories": {{"{class}": {{"total": 10}}}}}}"#
            )),
        );
    }
    let text = send(base, "GET", "/allocation_candidates?resources=DISK_GB:1,VCPU:1", None).text();
    let at = value_of(&text, value_of(&text, 0, "allocation_requests"), "allocations");
    assert_eq!(keys_at(&text, at), [child, root], "{text}");
    assert_eq!(keys(&text, &["provider_summaries"]), [root, child], "{text}");
}

#[test]
fn the_key_reader_reads_keys_in_order() {
    let text = r#"{"b": {"y": [1, {"q": 2}], "x": "a,\"}"}, "a": 1}"#;
    assert_eq!(keys_at(text, 0), ["b", "a"]);
    assert_eq!(keys(text, &["b"]), ["y", "x"]);
}

/// A provider with no inventory of any class the allocations name is a
/// 409 naming those classes as the real Placement does: with the classes
/// of a consumer whose allocations the same request empties (Placement
/// checks them, at 0), in the order of a Python set of their ids (here
/// 1, 2 and 10000 iterate as 10000, 1, 2), not in the body's order, the
/// ids' or the names' (found against the real Placement by
/// `differential.rs`, seed 3867616255).
#[test]
fn a_conflict_names_the_classes_as_placement_does() {
    let (_scratch, database) = Scratch::database("answer-order-conflict");
    let server = RunningServer::start(&database).expect("a server");
    let base = &server.url;
    providers(base);
    let emptied = "ffffffff-0000-4000-8000-00000000000e";
    allocate(base, emptied, "null", &format!(r#"{{"{FIRST}": {{"resources": {{"MEMORY_MB": 512}}}}}}"#));
    send(base, "POST", "/resource_classes", Some(r#"{"name": "CUSTOM_LATE"}"#));
    let bare = "dddddddd-0000-4000-8000-00000000000d";
    send(base, "POST", "/resource_providers", Some(&format!(r#"{{"name": "bare", "uuid": "{bare}"}}"#)));
    let new = consumer_body(
        "null",
        &format!(r#"{{"{bare}": {{"resources": {{"DISK_GB": 2, "CUSTOM_LATE": 4}}}}}}"#),
    );
    let body = format!(
        r#"{{"{emptied}": {}, "ffffffff-0000-4000-8000-00000000000f": {new}}}"#,
        consumer_body("1", "{}")
    );
    let res = Request::new("POST", "/allocations")
        .header(VERSION.0, VERSION.1)
        .header("Content-Type", "application/json")
        .body(body.into_bytes())
        .send(base);
    assert_eq!(res.status, 409, "{}", res.describe());
    let expected =
        format!("Inventory for 'CUSTOM_LATE, MEMORY_MB, DISK_GB' on resource provider '{bare}' invalid.");
    assert!(res.text().contains(&expected), "{}", res.describe());
    // Nothing was written: the emptied consumer keeps its allocation.
    let kept = send(base, "GET", &format!("/allocations/{emptied}"), None);
    assert!(
        kept.text().contains("\"MEMORY_MB\": 512") || kept.text().contains("\"MEMORY_MB\":512"),
        "{}",
        kept.describe()
    );
}
