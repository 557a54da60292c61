//! Validation errors in Nova's words, over real HTTP on loopback
//! (docs/reference.md §5.3): the fault names the field, echoes the value
//! and says what is wrong as Nova's `validators.py` does; a query
//! parameter is named as a query parameter; `Allow` on a 405 names the
//! methods of the version (§4.2).

use super::FRAMEWORK;

use compute::RunningServer;
use microversion_testkit::http::Request;
use serde_json::{Value, json};

fn bad_request_message(res: &microversion_testkit::http::Response) -> String {
    assert_eq!(res.status, 400, "{}", res.describe());
    let body = res.json();
    body["badRequest"]["message"].as_str().unwrap_or_else(|| panic!("a badRequest fault: {body}")).to_owned()
}

#[test]
fn bodies_and_query_strings_fail_in_novas_words() {
    let server = RunningServer::start(FRAMEWORK).expect("the compute example starts");
    let create = |flavor: Value| {
        Request::new("POST", "/v2.1/flavors")
            .header("OpenStack-API-Version", "compute 2.60")
            .header("X-Auth-Token", "admin")
            .json(&json!({"flavor": flavor}))
            .send(&server.url)
    };
    let cases = [
        (
            json!({"name": "m1", "ram": true, "vcpus": 1, "disk": 1}),
            "Invalid input for field/attribute ram. Value: True. True is not of type 'integer', 'string'",
        ),
        (
            // Keys in sorted order: the message shows the object in the order it was sent.
            json!({"disk": 1, "ram": 512, "vcpus": 1}),
            "Invalid input for field/attribute flavor. Value: {'disk': 1, 'ram': 512, 'vcpus': 1}. \
             'name' is a required property",
        ),
    ];
    for (flavor, expected) in cases {
        assert_eq!(bad_request_message(&create(flavor)), expected);
    }
    // Nova's `flavor_param_positive` bounds a number; a digit string is
    // bounded by `flavors.create` (oslo's `validate_integer`, then the
    // factor), in that order and in its words.
    let flavor = |extra: Value| {
        let mut flavor = json!({"name": "m1", "ram": 512, "vcpus": 1, "disk": 1});
        flavor.as_object_mut().expect("an object").extend(extra.as_object().expect("an object").clone());
        flavor
    };
    let cases = [
        (
            json!({"ram": 0}),
            "Invalid input for field/attribute ram. Value: 0. 0 is less than the minimum of 1",
        ),
        (json!({"ram": "0", "vcpus": "0"}), "Invalid input received: ram must be >= 1"),
        (json!({"vcpus": "0"}), "Invalid input received: vcpus must be >= 1"),
        (json!({"disk": "99999999999999999999999"}), "Invalid input received: disk must be <= 2147483647"),
        (
            json!({"OS-FLV-EXT-DATA:ephemeral": "2147483648"}),
            "Invalid input received: ephemeral must be <= 2147483647",
        ),
        (json!({"ram": ""}), "Invalid input for field/attribute ram. Value: . '' does not match '^[0-9]+$'"),
        (
            json!({"rxtx_factor": 0, "swap": "1"}),
            "Invalid input received: 'rxtx_factor' argument must be a float between 0 and 3.40282e+38",
        ),
        (
            json!({"rxtx_factor": "0.0", "swap": "x"}),
            "Invalid input for field/attribute swap. Value: x. 'x' does not match '^[0-9]+$'",
        ),
    ];
    for (extra, expected) in cases {
        assert_eq!(bad_request_message(&create(flavor(extra.clone()))), expected, "{extra}");
    }
    let res = Request::new("GET", "/v2.1/flavors?limit=ten")
        .header("OpenStack-API-Version", "compute 2.60")
        .send(&server.url);
    let message = bad_request_message(&res);
    // Nova's `non_negative_integer`, in the words of its `_SchemaValidator`.
    assert_eq!(
        message,
        "Invalid input for query parameters limit. Value: ten. 'ten' does not match '^[0-9]*$'"
    );
    let res = Request::new("POST", "/v2.1/os-keypairs")
        .header("OpenStack-API-Version", "compute 2.60")
        .json(&json!({"keypair": {"name": "x y!"}}))
        .send(&server.url);
    assert_eq!(
        bad_request_message(&res),
        "Invalid input for field/attribute name. Value: x y!. 'x y!' does not match '^[a-zA-Z0-9 _-]+$'"
    );
}

#[test]
fn allow_follows_the_version() {
    let server = RunningServer::start(FRAMEWORK).expect("the compute example starts");
    for (version, allow) in [("2.1", "GET, DELETE"), ("2.54", "GET, DELETE"), ("2.55", "GET, PUT, DELETE")] {
        for method in ["OPTIONS", "PATCH", "POST"] {
            let res = Request::new(method, "/v2.1/flavors/1")
                .header("OpenStack-API-Version", format!("compute {version}"))
                .send(&server.url);
            assert_eq!(res.status, 405, "{}", res.describe());
            assert_eq!(res.header("allow").as_deref(), Some(allow), "{method} at {version}");
            assert_eq!(res.json()["badMethod"]["code"], 405, "{}", res.describe());
        }
    }
}
