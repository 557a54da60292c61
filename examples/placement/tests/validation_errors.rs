//! Validation errors in Placement's words, over real HTTP on loopback
//! (docs/reference.md §5.3): `JSON does not validate: <Python jsonschema's
//! message>`, then the failed keyword, where it is in the schema and that
//! part of the schema, then the instance path and the value, as Python's
//! `str(ValidationError)` writes them (Placement 16.0.0's texts); a query
//! string's the same after `Invalid query string parameters:`.

use microversion_testkit::http::Request;
use placement::RunningServer;
use serde_json::json;

/// The message of a 400's `detail`, which is webob's page as Placement
/// writes it: the 400's explanation, a blank line, then the message with its
/// newlines turned into spaces and two trailing spaces.
fn detail(res: &microversion_testkit::http::Response) -> String {
    assert_eq!(res.status, 400, "{}", res.describe());
    let page = res.json()["errors"][0]["detail"].as_str().expect("a detail").to_owned();
    let explanation = "The server could not comply with the request since it is either malformed or otherwise incorrect.\n\n ";
    let message = page.strip_prefix(explanation).and_then(|rest| rest.strip_suffix("  "));
    message.unwrap_or_else(|| panic!("not webob's page: {page:?}")).to_owned()
}

/// Python's message as webob's page flattens it: newlines become spaces.
fn flat(message: &str) -> String {
    message.replace('\n', " ")
}

#[test]
fn bodies_and_query_strings_fail_in_placements_words() {
    let dir =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("validation-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a database directory");
    let server = RunningServer::start(&dir.join("placement.sqlite")).expect("the placement example starts");
    let send = |method: &str, path: &str, body: serde_json::Value| {
        Request::new(method, path)
            .header("X-Auth-Token", "admin")
            .header("OpenStack-API-Version", "placement 1.39")
            .json(&body)
            .send(&server.url)
    };

    let res = send("POST", "/resource_providers", json!({"name": "rp", "uuid": "not-a-uuid"}));
    assert_eq!(
        detail(&res),
        flat(
            "JSON does not validate: 'not-a-uuid' is not a 'uuid'\n\n\
             Failed validating 'format' in schema['properties']['uuid']:\n    \
             {'type': 'string', 'format': 'uuid'}\n\n\
             On instance['uuid']:\n    'not-a-uuid'"
        )
    );
    let res = send("POST", "/resource_providers", json!({"name": ["rp"]}));
    assert_eq!(
        detail(&res),
        flat(
            "JSON does not validate: ['rp'] is not of type 'string'\n\n\
             Failed validating 'type' in schema['properties']['name']:\n    \
             {'type': 'string', 'maxLength': 200}\n\n\
             On instance['name']:\n    ['rp']"
        )
    );
    // The provider first: Placement looks it up before it reads the body.
    let provider = json!({"name": "with inventory", "uuid": "4e8e5957-649f-477b-9e5b-f1f75b21c03c"});
    assert_eq!(send("POST", "/resource_providers", provider).status, 200);
    let res = send(
        "PUT",
        "/resource_providers/4e8e5957-649f-477b-9e5b-f1f75b21c03c/inventories",
        json!({
            "resource_provider_generation": 0, "inventories": {"VCPU": {"total": 0}}
        }),
    );
    assert!(
        detail(&res).starts_with(&flat("JSON does not validate: 0 is less than the minimum of 1\n\n")),
        "{}",
        detail(&res)
    );

    let res = Request::new("GET", "/allocation_candidates?resources=VCPU:1&colour=red")
        .header("X-Auth-Token", "admin")
        .header("OpenStack-API-Version", "placement 1.39")
        .send(&server.url);
    let message = detail(&res);
    assert!(
        message.starts_with(
            "Invalid query string parameters: 'colour' does not match any of the regexes: '^in_tree"
        ),
        "{message}"
    );
    // The schema as Python's pprint writes it (width 72, keys in the
    // schema's order), then the query as `dict(req.GET)` holds it.
    assert!(
        message.ends_with(&flat(
            "Failed validating 'additionalProperties' in schema:\n    \
             {'type': 'object',\n     \
             'properties': {'limit': {'type': ['integer', 'string'],\n                              \
             'pattern': '^[1-9][0-9]*$',\n                              \
             'minimum': 1,\n                              \
             'minLength': 1},\n                    \
             'group_policy': {'type': 'string',\n                                     \
             'enum': ['none', 'isolate']},\n                    \
             'root_required': {'type': ['string']},\n                    \
             'same_subtree': {'type': ['string']}},\n     \
             'additionalProperties': False,\n     \
             'patternProperties': {'^resources([a-zA-Z0-9_-]{1,64})?$': {'type': 'string'},\n                           \
             '^required([a-zA-Z0-9_-]{1,64})?$': {'type': 'string'},\n                           \
             '^member_of([a-zA-Z0-9_-]{1,64})?$': {'type': 'string'},\n                           \
             '^in_tree([a-zA-Z0-9_-]{1,64})?$': {'type': 'string'}}}\n\n\
             On instance:\n    {'resources': 'VCPU:1', 'colour': 'red'}"
        )),
        "{message}"
    );
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The schemas' `integer` (JSON Schema 2020-12, as Placement's `jsonschema`
/// reads it) takes `4.0`: Placement stores the integer it is, and compares
/// a generation so written as the integer it is. The generation is
/// compared before any record is read.
#[test]
fn integral_floats_are_the_integers_they_are() {
    let dir =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("integers-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a database directory");
    let server = RunningServer::start(&dir.join("placement.sqlite")).expect("the placement example starts");
    let send = |method: &str, path: &str, body: Option<serde_json::Value>| {
        let req = Request::new(method, path)
            .header("X-Auth-Token", "admin")
            .header("OpenStack-API-Version", "placement 1.39");
        match body {
            Some(body) => req.json(&body),
            None => req,
        }
        .send(&server.url)
    };
    let uuid = "7ff7e1d4-4c3a-4b2f-9d0e-3c5f9a8b1e2d";
    let path = format!("/resource_providers/{uuid}/inventories");
    assert_eq!(send("POST", "/resource_providers", Some(json!({"name": "rp", "uuid": uuid}))).status, 200);

    let whole = json!({"resource_provider_generation": 0.0,
                       "inventories": {"VCPU": {"total": 4.0, "max_unit": 2e0}}});
    let res = send("PUT", &path, Some(whole));
    assert_eq!(res.status, 200, "{}", res.describe());
    let inventory = &res.json()["inventories"]["VCPU"];
    assert_eq!(
        (inventory["total"].as_i64(), inventory["max_unit"].as_i64()),
        (Some(4), Some(2)),
        "{inventory}"
    );

    // A stale generation is a conflict first, whatever records the schema
    // leaves unchecked hold.
    let stale = json!({"resource_provider_generation": 99,
                       "inventories": {"VCPU": {"total": 4.0}, "vcpu": 5}});
    assert_eq!(send("PUT", &path, Some(stale)).status, 409);
    // A record the schema leaves unchecked (its key is no class name) and
    // that is no object is refused, naming it.
    let odd = json!({"resource_provider_generation": 1, "inventories": {"vcpu": 5}});
    let res = send("PUT", &path, Some(odd));
    assert_eq!(res.status, 400, "{}", res.describe());
    let detail = res.json()["errors"][0]["detail"].as_str().unwrap_or_default().to_owned();
    assert!(detail.contains("Unable to read the inventory of vcpu"), "{detail}");

    let one = json!({"resource_provider_generation": 1.0, "total": 8.0, "reserved": 1e0});
    let res = send("PUT", &format!("{path}/VCPU"), Some(one));
    assert_eq!(res.status, 200, "{}", res.describe());
    assert_eq!((res.json()["total"].as_i64(), res.json()["reserved"].as_i64()), (Some(8), Some(1)));

    // An allocation's amount, likewise.
    let consumer = "/allocations/5d4c3b2a-1f0e-4d9c-8b7a-6e5f4d3c2b1a";
    let claim = json!({"allocations": {uuid: {"resources": {"VCPU": 2.0}}}, "consumer_generation": null,
                       "project_id": "p", "user_id": "u", "consumer_type": "INSTANCE"});
    let res = send("PUT", consumer, Some(claim));
    assert_eq!(res.status, 204, "{}", res.describe());
    let res = send("GET", consumer, None);
    assert_eq!(res.json()["allocations"][uuid]["resources"]["VCPU"].as_i64(), Some(2), "{}", res.describe());
    let _ = std::fs::remove_dir_all(&dir);
}
