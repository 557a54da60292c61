//! Nova's request id on every answer under `/v2.1` (`src/request_id.rs`):
//! a success, a client error, the negotiation's 400 and 406, a created
//! resource; both header names carry one `req-<uuid>`, new per request.
//! Against a running server over the raw client. A store failure's id is the one in
//! its message (`tests/store_failures.rs`).

use super::FRAMEWORK;

use std::collections::HashSet;

use common::{Request, Response};
use compute::RunningServer;
use microversion_testkit::http as common;
use serde_json::json;

const STANDARD: &str = "OpenStack-API-Version";

/// The id `res` names, after checking both headers name it in Nova's form.
fn request_id(res: &Response, context: &str) -> String {
    let id = res
        .header("x-openstack-request-id")
        .unwrap_or_else(|| panic!("{context}: no x-openstack-request-id\n{}", res.describe()));
    assert_eq!(res.header("x-compute-request-id"), Some(id.clone()), "{context}: Nova's older header");
    let uuid = id.strip_prefix("req-").unwrap_or_else(|| panic!("{context}: {id} is not req-<uuid>"));
    assert!(
        uuid.len() == 36 && uuid.chars().all(|c| c.is_ascii_hexdigit() || c == '-'),
        "{context}: {id} is not req-<uuid>"
    );
    id
}

#[test]
fn every_answer_under_the_api_names_a_new_request_id() {
    let server = RunningServer::start(FRAMEWORK).expect("the compute example starts");
    let flavor = json!({"flavor": {"name": "request-id", "ram": 256, "vcpus": 1, "disk": 1}});
    let cases = [
        ("a list", Request::get("/v2.1/flavors"), 200),
        ("a flavor at 2.61", Request::get("/v2.1/flavors/1").version("2.61"), 200),
        ("an unknown flavor", Request::get("/v2.1/flavors/no-such-flavor"), 404),
        ("a malformed version", Request::get("/v2.1/flavors").header(STANDARD, "compute 2.x"), 400),
        ("a version not served", Request::get("/v2.1/flavors").header(STANDARD, "compute 9.0"), 406),
        ("a new flavor", Request::new("POST", "/v2.1/flavors").json(&flavor), 200),
        (
            "a body its schema refuses",
            Request::new("POST", "/v2.1/flavors").json(&json!({"flavor": {}})),
            400,
        ),
        ("a method not allowed", Request::new("PATCH", "/v2.1/flavors"), 405),
    ];
    let mut seen = HashSet::new();
    for (context, request, status) in cases {
        let res = request.send(&server.url);
        assert_eq!(res.status, status, "{context}\n{}", res.describe());
        assert!(seen.insert(request_id(&res, context)), "{context}: an id given twice");
    }
    // The same request twice: two requests, two ids.
    let again = Request::get("/v2.1/flavors").send(&server.url);
    assert!(seen.insert(request_id(&again, "GET /v2.1/flavors again")), "an id given twice");
}
