//! Validation errors in Placement's words, over real HTTP on loopback
//! (docs/reference.md §5.3): `JSON does not validate: <Python jsonschema's
//! message>`, then the failed keyword and where it is in the schema, then
//! the instance path and the value, as Python's `str(ValidationError)`
//! writes them; a query string's the same after `Invalid query string
//! parameters:`.

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
             Failed validating 'format' in schema['properties']['uuid']\n\n\
             On instance['uuid']:\n    'not-a-uuid'"
        )
    );
    let res = send("POST", "/resource_providers", json!({"name": ["rp"]}));
    assert_eq!(
        detail(&res),
        flat(
            "JSON does not validate: ['rp'] is not of type 'string'\n\n\
             Failed validating 'type' in schema['properties']['name']\n\n\
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
    assert!(
        message.ends_with(&flat("On instance:\n    {'colour': 'red', 'resources': 'VCPU:1'}"))
            || message.ends_with(&flat("On instance:\n    {'resources': 'VCPU:1', 'colour': 'red'}")),
        "{message}"
    );
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
