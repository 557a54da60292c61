//! Answers as the real Placement gives them, where a side-by-side run found
//! the example differing; each test names the Placement function whose
//! behaviour it holds (placement/objects/resource_provider.py,
//! placement/handlers/resource_provider.py).

mod common;

use common::send;
use placement::RunningServer;
use serde_json::{Value, json};

const A: &str = "a0000000-0000-4000-8000-00000000000a";
const B: &str = "b0000000-0000-4000-8000-00000000000b";
const C: &str = "c0000000-0000-4000-8000-00000000000c";
const LONE: &str = "d0000000-0000-4000-8000-00000000000d";

fn server() -> RunningServer {
    RunningServer::start_at(":memory:").expect("a placement server")
}

fn create(base: &str, name: &str, uuid: &str, parent: Option<&str>) {
    let mut body = json!({"name": name, "uuid": uuid});
    if let Some(parent) = parent {
        body["parent_provider_uuid"] = json!(parent);
    }
    let res = send(base, "POST", "/resource_providers", Some(&body));
    assert_eq!(res.status, 200, "{}", res.describe());
}

fn listed(base: &str, query: &str) -> Vec<String> {
    let res = send(base, "GET", &format!("/resource_providers?{query}"), None);
    assert_eq!(res.status, 200, "?{query}: {}", res.describe());
    let mut names: Vec<String> = res.json()["resource_providers"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|p| p["name"].as_str().unwrap_or_default().to_owned())
        .collect();
    names.sort();
    names
}

/// Eight VCPU on provider `uuid`, its first inventory.
fn with_vcpu(base: &str, uuid: &str) {
    let inventory = json!({"resource_provider_generation": 0, "inventories": {"VCPU": {"total": 8}}});
    let res = send(base, "PUT", &format!("/resource_providers/{uuid}/inventories"), Some(&inventory));
    assert_eq!(res.status, 200, "{}", res.describe());
}

fn generation(base: &str, uuid: &str) -> i64 {
    send(base, "GET", &format!("/resource_providers/{uuid}"), None).json()["generation"]
        .as_i64()
        .expect("a generation")
}

/// `ResourceProvider.create`: "if not self.name: raise ObjectActionError",
/// which `create_resource_provider` answers with a 400; the schema alone
/// takes an empty name.
#[test]
fn a_provider_without_a_name_is_refused() {
    let server = server();
    let res = send(&server.url, "POST", "/resource_providers", Some(&json!({"name": "", "uuid": A})));
    assert_eq!(res.status, 400, "{}", res.describe());
    let detail = res.json()["errors"][0]["detail"].as_str().unwrap_or_default().to_owned();
    assert!(detail.contains(&format!("Unable to create resource provider \"\", {A}")), "{detail}");
    assert!(detail.contains("name is required"), "{detail}");
    assert_eq!(listed(&server.url, ""), Vec::<String>::new(), "nothing was made");
}

/// `_get_all_by_filters_from_db`: `if name:` and `if uuid:` filter only
/// when given a value; `in_tree` is the tree of the provider it names,
/// looked up on its own (`provider_ids_from_uuid`), and combines with the
/// other filters; an unknown tree lists nothing.
#[test]
fn list_filters_combine_as_placement_s() {
    let server = server();
    let base = server.url.as_str();
    create(base, "a", A, None);
    create(base, "b", B, Some(A));
    create(base, "c", C, Some(B));
    create(base, "lone", LONE, None);
    assert_eq!(listed(base, "name="), ["a", "b", "c", "lone"]);
    assert_eq!(listed(base, &format!("in_tree={B}&name=c")), ["c"]);
    assert_eq!(listed(base, &format!("in_tree={B}&uuid={C}")), ["c"]);
    assert_eq!(listed(base, &format!("in_tree={C}&name=a")), ["a"]);
    assert_eq!(listed(base, &format!("in_tree={LONE}&name=c")), Vec::<String>::new());
    assert_eq!(listed(base, &format!("in_tree={B}")), ["a", "b", "c"]);
    let unknown = "e0000000-0000-4000-8000-00000000000e";
    assert_eq!(listed(base, &format!("in_tree={unknown}")), Vec::<String>::new());
}

/// `_set_traits`: when neither a trait is added nor one removed, nothing is
/// written and the provider's generation stays, for `PUT` with the same
/// set and for `DELETE` on a provider without traits; a change moves it once.
#[test]
fn an_unchanged_trait_set_keeps_the_generation() {
    let server = server();
    let base = server.url.as_str();
    create(base, "a", A, None);
    let path = format!("/resource_providers/{A}/traits");
    let res = send(base, "DELETE", &path, None);
    assert_eq!(res.status, 204, "{}", res.describe());
    assert_eq!(generation(base, A), 0, "clearing no traits changes nothing");

    let set = |generation: i64, traits: &[&str]| {
        let body = json!({"resource_provider_generation": generation, "traits": traits});
        let res = send(base, "PUT", &path, Some(&body));
        assert_eq!(res.status, 200, "{}", res.describe());
        res.json()
    };
    let first = set(0, &["HW_CPU_X86_AVX2", "HW_CPU_X86_SSE"]);
    assert_eq!(first["resource_provider_generation"], 1);
    let same = set(1, &["HW_CPU_X86_SSE", "HW_CPU_X86_AVX2"]);
    assert_eq!(same["resource_provider_generation"], 1, "the same set, in another order: {same}");
    assert_eq!(generation(base, A), 1);
    // A stale generation is refused even when nothing would change.
    let body = json!({"resource_provider_generation": 0, "traits": ["HW_CPU_X86_SSE", "HW_CPU_X86_AVX2"]});
    assert_eq!(send(base, "PUT", &path, Some(&body)).status, 409);
    let fewer = set(1, &["HW_CPU_X86_SSE"]);
    assert_eq!(fewer["resource_provider_generation"], 2);
    let res = send(base, "DELETE", &path, None);
    assert_eq!(res.status, 204, "{}", res.describe());
    assert_eq!(generation(base, A), 3, "clearing a trait moves it once");
    let listed: Value = send(base, "GET", &path, None).json();
    assert_eq!(listed["traits"], json!([]));
}

fn send_at(base: &str, version: &str, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
    let request = microversion_testkit::http::Request::new(method, path)
        .header("OpenStack-API-Version", format!("placement {version}"));
    let res = match body {
        Some(body) => request.json(body),
        None => request,
    }
    .send(base);
    let json = if res.body.is_empty() { Value::Null } else { res.json() };
    (res.status, json)
}

/// `ALLOCATION_SCHEMA` has no `project_id` or `user_id` and no other key;
/// `ALLOCATION_SCHEMA_V1_8` adds them, required.
#[test]
fn owners_are_unknown_keys_before_1_8() {
    let server = server();
    let base = server.url.as_str();
    create(base, "a", A, None);
    with_vcpu(base, A);
    let consumer = "f0000000-0000-4000-8000-00000000000f";
    let allocations = json!([{"resource_provider": {"uuid": A}, "resources": {"VCPU": 1}}]);
    let owned = json!({"allocations": allocations, "project_id": "p", "user_id": "u"});
    let (status, body) = send_at(base, "1.7", "PUT", &format!("/allocations/{consumer}"), Some(&owned));
    assert_eq!(status, 400, "{body}");
    let (status, body) = send_at(base, "1.8", "PUT", &format!("/allocations/{consumer}"), Some(&owned));
    assert_eq!(status, 204, "{body}");
    let unowned = json!({"allocations": allocations});
    let (status, body) = send_at(base, "1.8", "PUT", &format!("/allocations/{consumer}"), Some(&unowned));
    assert_eq!(status, 400, "1.8 requires the owners: {body}");
}

/// `GET_USAGES_SCHEMA_V1_38`: `consumer_type` is a type as allocations
/// name them (`^[A-Z0-9_]+$`), `all` or `unknown`; anything else is a 400.
#[test]
fn usages_take_only_consumer_types_placement_knows() {
    let server = server();
    let base = server.url.as_str();
    for (consumer_type, status) in
        [("all", 200), ("unknown", 200), ("INSTANCE", 200), ("lower", 400), ("", 400)]
    {
        let path = format!("/usages?project_id=p&consumer_type={consumer_type}");
        let (got, body) = send_at(base, "1.38", "GET", &path, None);
        assert_eq!(got, status, "consumer_type={consumer_type:?}: {body}");
    }
}

/// Placement's request id middleware is outermost: the version
/// middleware's refusals (400 for a malformed version, 406 for one not
/// served) carry `x-openstack-request-id`, and name it in the body.
#[test]
fn version_refusals_carry_a_request_id() {
    let server = server();
    for (version, status) in [("placement 9.99", 406), ("placement 1.x", 400), ("placement 1", 400)] {
        let res = microversion_testkit::http::Request::new("GET", "/resource_providers")
            .header("OpenStack-API-Version", version)
            .send(&server.url);
        assert_eq!(res.status, status, "{version}: {}", res.describe());
        let id =
            res.header("x-openstack-request-id").unwrap_or_else(|| panic!("{version}: {}", res.describe()));
        assert!(id.starts_with("req-"), "{id}");
        assert_eq!(res.json()["errors"][0]["request_id"], id.as_str(), "{version}: {}", res.describe());
    }
}

/// `handle_405` names the methods the path declares: below the first
/// version of a path's operations (`POST /reshaper` from 1.30), a method
/// it does not have still gets an `Allow` that names them, never an empty one.
#[test]
fn a_405_names_the_path_s_methods_at_every_version() {
    let server = server();
    for version in ["1.29", "1.30", "1.39"] {
        let res = microversion_testkit::http::Request::new("GET", "/reshaper")
            .header("OpenStack-API-Version", format!("placement {version}"))
            .send(&server.url);
        assert_eq!(res.status, 405, "{version}: {}", res.describe());
        assert_eq!(res.header("allow").as_deref(), Some("POST"), "{version}: {}", res.describe());
    }
}

/// `json_error_formatter`: an error names its `code` only when the request
/// negotiated 1.23 or later; a refused version negotiated none.
#[test]
fn error_codes_from_1_23_only() {
    let server = server();
    let base = server.url.as_str();
    let path = format!("/resource_providers/{A}");
    let (status, body) = send_at(base, "1.22", "GET", &path, None);
    assert_eq!(status, 404, "{body}");
    assert!(body["errors"][0].get("code").is_none(), "{body}");
    assert!(body["errors"][0]["request_id"].is_string(), "{body}");
    let (status, body) = send_at(base, "1.23", "GET", &path, None);
    assert_eq!(status, 404, "{body}");
    assert_eq!(body["errors"][0]["code"], "placement.undefined_code", "{body}");
    let (status, body) = send_at(base, "9.99", "GET", &path, None);
    assert_eq!(status, 406, "{body}");
    assert!(body["errors"][0].get("code").is_none(), "{body}");
}

/// `update_inventory`: after the generation and capacity checks, the class
/// is looked up (`ResourceClassNotFound`, 404) before the provider's record
/// of it (`InventoryWithResourceClassNotFound`, 400).
#[test]
fn an_unknown_class_in_an_inventory_path_is_a_404() {
    let server = server();
    let base = server.url.as_str();
    create(base, "a", A, None);
    let body = json!({"resource_provider_generation": 0, "total": 8});
    let unknown =
        send(base, "PUT", &format!("/resource_providers/{A}/inventories/CUSTOM_NOWHERE"), Some(&body));
    assert_eq!(unknown.status, 404, "{}", unknown.describe());
    let detail = unknown.json()["errors"][0]["detail"].as_str().unwrap_or_default().to_owned();
    assert!(detail.contains("No such resource class CUSTOM_NOWHERE"), "{detail}");
    let known = send(base, "PUT", &format!("/resource_providers/{A}/inventories/VCPU"), Some(&body));
    assert_eq!(known.status, 400, "a known class the provider has no record of: {}", known.describe());
    let stale = json!({"resource_provider_generation": 7, "total": 8});
    let res = send(base, "PUT", &format!("/resource_providers/{A}/inventories/CUSTOM_NOWHERE"), Some(&stale));
    assert_eq!(res.status, 409, "the generation is checked first: {}", res.describe());
}

/// `_set_allocations_for_consumer` finds every provider while it builds the
/// allocations (400 for one that does not exist), `_check_capacity_exceeded`
/// resolves every class (400), and only then are capacities checked (409):
/// a request with an unknown provider or class and too much of another is
/// a 400, whatever the order of its keys.
#[test]
fn unknown_providers_and_classes_are_found_before_capacity() {
    let server = server();
    let base = server.url.as_str();
    create(base, "a", A, None);
    with_vcpu(base, A);
    // A new consumer per claim: a claim refused for an unknown provider
    // leaves its new consumer behind (see `a_refused_claim_may_leave_its_consumer`).
    let consumers = ["f0000000-0000-4000-8000-00000000000a", "f0000000-0000-4000-8000-00000000000b"];
    let consumer = "f0000000-0000-4000-8000-00000000000f";
    // Sorted either side of A, so that neither order of checking hides it.
    for (missing, consumer) in
        ["00000000-0000-4000-8000-000000000001", "ffffffff-0000-4000-8000-000000000001"]
            .into_iter()
            .zip(consumers)
    {
        let body = json!({"allocations": {A: {"resources": {"VCPU": 1000}},
                                          missing: {"resources": {"VCPU": 1}}},
                          "project_id": "p", "user_id": "u", "consumer_generation": null, "consumer_type": "INSTANCE"});
        let res = send(base, "PUT", &format!("/allocations/{consumer}"), Some(&body));
        assert_eq!(res.status, 400, "{}", res.describe());
        let detail = res.json()["errors"][0]["detail"].as_str().unwrap_or_default().to_owned();
        assert!(
            detail.contains(&format!("Allocation for resource provider '{missing}' that does not exist")),
            "{detail}"
        );
    }
    let body = json!({"allocations": {A: {"resources": {"VCPU": 1000, "CUSTOM_NOWHERE": 1}}},
                      "project_id": "p", "user_id": "u", "consumer_generation": null, "consumer_type": "INSTANCE"});
    let res = send(base, "PUT", &format!("/allocations/{consumer}"), Some(&body));
    assert_eq!(res.status, 400, "{}", res.describe());
    let detail = res.json()["errors"][0]["detail"].as_str().unwrap_or_default().to_owned();
    assert!(detail.contains("No such resource class CUSTOM_NOWHERE"), "{detail}");
    let body = json!({"allocations": {A: {"resources": {"VCPU": 1000}}},
                      "project_id": "p", "user_id": "u", "consumer_generation": null, "consumer_type": "INSTANCE"});
    assert_eq!(
        send(base, "PUT", &format!("/allocations/{consumer}"), Some(&body)).status,
        409,
        "too much alone is a 409"
    );
}

/// Placement's handlers create a new consumer (`ensure_consumer`, at
/// generation 0) before they look the providers up, and a claim refused
/// for an unknown provider leaves it; so does a claim of nothing (`{}`).
/// A later claim must then name generation 0, not null; a refused capacity
/// check, or another consumer of a `POST` refused, removes it again
/// (`_create_allocations`, `inspect_consumers`).
#[test]
fn a_refused_claim_may_leave_its_consumer() {
    let server = server();
    let base = server.url.as_str();
    create(base, "a", A, None);
    with_vcpu(base, A);
    let claim = |consumer: &str, provider: &str, vcpu: u64, generation: Value| {
        let body = json!({"allocations": {provider: {"resources": {"VCPU": vcpu}}},
                          "project_id": "p", "user_id": "u", "consumer_generation": generation});
        send_at(base, "1.28", "PUT", &format!("/allocations/{consumer}"), Some(&body)).0
    };
    let unknown = "00000000-0000-4000-8000-000000000001";
    let (left, removed) = ("f0000000-0000-4000-8000-000000000001", "f0000000-0000-4000-8000-000000000002");
    assert_eq!(claim(left, unknown, 1, Value::Null), 400);
    assert_eq!(claim(left, A, 1, Value::Null), 409, "the consumer is there, at generation 0");
    assert_eq!(claim(left, A, 1, json!(0)), 204);
    assert_eq!(claim(removed, A, 1000, Value::Null), 409, "too much");
    assert_eq!(claim(removed, A, 1, Value::Null), 204, "a refused capacity leaves no consumer");
    let empty = json!({"allocations": {}, "project_id": "p", "user_id": "u", "consumer_generation": null});
    let nothing = "f0000000-0000-4000-8000-000000000003";
    assert_eq!(send_at(base, "1.28", "PUT", &format!("/allocations/{nothing}"), Some(&empty)).0, 204);
    let (status, shown) = send_at(base, "1.28", "GET", &format!("/allocations/{nothing}"), None);
    assert_eq!(
        (status, shown),
        (200, json!({"allocations": {}})),
        "a consumer without allocations is not shown"
    );
    assert_eq!(claim(nothing, A, 1, Value::Null), 409, "but it is there, at generation 0");
}

/// A `POST /allocations` may name one consumer twice, in two spellings of
/// its uuid (the schema takes either case; a key without hyphens it
/// refuses, as Placement's `^[0-9a-fA-F-]{36}$` does): one
/// consumer, whose later claim stands, as a key written twice in a JSON
/// object does; its generation moves on once.
#[test]
fn a_consumer_named_twice_is_claimed_once() {
    let server = server();
    let base = server.url.as_str();
    create(base, "a", A, None);
    with_vcpu(base, A);
    let consumer = "f0000000-0000-4000-8000-0000000000aa";
    let shouted = consumer.to_uppercase();
    let claim = |vcpu: u64| json!({"allocations": {A: {"resources": {"VCPU": vcpu}}}, "project_id": "p", "user_id": "u"});
    let body = json!({consumer: claim(1), shouted: claim(2)});
    let (status, answer) = send_at(base, "1.27", "POST", "/allocations", Some(&body));
    assert_eq!(status, 204, "{answer}");
    let (status, shown) = send_at(base, "1.28", "GET", &format!("/allocations/{consumer}"), None);
    assert_eq!(status, 200, "{shown}");
    assert_eq!(shown["consumer_generation"], 1, "{shown}");
    assert_eq!(shown["allocations"][A]["resources"]["VCPU"], 2, "{shown}");
    let (status, usages) = send_at(base, "1.28", "GET", &format!("/resource_providers/{A}/usages"), None);
    assert_eq!(status, 200, "{usages}");
    assert_eq!(usages["usages"]["VCPU"], 2, "one claim, not two: {usages}");
}

/// Below 1.8 a claim's owner is the incomplete consumer's project and user
/// (`_set_allocations_for_consumer`), and `ensure_consumer` re-owns an
/// existing consumer to them: usages by project follow.
#[test]
fn a_claim_below_1_8_re_owns_its_consumer() {
    let server = server();
    let base = server.url.as_str();
    create(base, "a", A, None);
    with_vcpu(base, A);
    let consumer = format!("/allocations/{}", "f0000000-0000-4000-8000-00000000000f");
    let allocations = json!([{"resource_provider": {"uuid": A}, "resources": {"VCPU": 2}}]);
    let owned = json!({"allocations": allocations, "project_id": "p", "user_id": "u"});
    assert_eq!(send_at(base, "1.8", "PUT", &consumer, Some(&owned)).0, 204);
    let usage = |project: &str| send_at(base, "1.9", "GET", &format!("/usages?project_id={project}"), None).1;
    assert_eq!(usage("p")["usages"]["VCPU"], 2);
    assert_eq!(send_at(base, "1.7", "PUT", &consumer, Some(&json!({"allocations": allocations}))).0, 204);
    let incomplete = "00000000-0000-0000-0000-000000000000";
    assert_eq!(usage("p")["usages"], json!({}), "the consumer is no longer p's");
    assert_eq!(usage(incomplete)["usages"]["VCPU"], 2);
    let (_, body) = send_at(base, "1.12", "GET", &consumer, None);
    assert_eq!(body["project_id"], incomplete, "{body}");
}

/// microversion-parse, which Placement uses, reads each part of a version
/// with `int()`: `placement 1.05` is 1.5, and `-1.5` a version it does not
/// serve, refused with 406 as written (the API's `VersionSyntax`).
#[test]
fn a_padded_version_is_read_as_placement_reads_it() {
    let server = server();
    for asked in ["-1.5", "0.5", "1.099", "+1.99", "1.70000"] {
        let res = microversion_testkit::http::Request::new("GET", "/resource_providers")
            .header("OpenStack-API-Version", format!("placement {asked}"))
            .header("Accept", "application/json")
            .send(&server.url);
        assert_eq!(res.status, 406, "{asked}: {}", res.describe());
        let error = &res.json()["errors"][0];
        let detail = error["detail"].as_str().unwrap_or_default();
        let message = detail.lines().last().map(str::trim);
        assert_eq!(
            message,
            Some(format!("Invalid microversion: Unacceptable version header: {asked}").as_str())
        );
        assert_eq!(
            (&error["min_version"], &error["max_version"]),
            (&json!("1.0"), &json!("1.39")),
            "{asked}"
        );
    }
    for (asked, served) in [("placement 1.05", "placement 1.5"), ("placement 01.10", "placement 1.10")] {
        let res = microversion_testkit::http::Request::new("GET", "/resource_providers")
            .header("OpenStack-API-Version", asked)
            .send(&server.url);
        assert_eq!(res.status, 200, "{asked}: {}", res.describe());
        assert_eq!(res.header("openstack-api-version").as_deref(), Some(served), "{asked}");
    }
    let res = microversion_testkit::http::Request::new("GET", "/resource_providers")
        .header("OpenStack-API-Version", "placement 1.0x")
        .send(&server.url);
    assert_eq!(res.status, 400, "{}", res.describe());
}

/// An error's `detail` is webob's page as Placement's `json_error_formatter`
/// strips it (`webob.exc.strip_tags`): the status's explanation, a blank
/// line, then the message on one line with two trailing spaces; a 405's and
/// a 406's pages quote the method and the `Accept` header; the 413's title
/// is webob's. osc-placement prints the last line.
#[test]
fn details_are_webobs_pages() {
    let server = server();
    let base = server.url.as_str();
    let detail = |res: &microversion_testkit::http::Response| {
        res.json()["errors"][0]["detail"].as_str().unwrap_or_default().to_owned()
    };

    let missing = send(base, "GET", &format!("/resource_providers/{A}"), None);
    assert_eq!(missing.status, 404, "{}", missing.describe());
    assert_eq!(
        detail(&missing),
        format!("The resource could not be found.\n\n No resource provider with uuid {A} found  ")
    );
    assert_eq!(
        detail(&missing).lines().last(),
        Some(format!(" No resource provider with uuid {A} found  ").as_str())
    );

    let wrong_method = send(base, "PATCH", "/resource_providers", None);
    assert_eq!(wrong_method.status, 405, "{}", wrong_method.describe());
    assert!(
        detail(&wrong_method).starts_with("The method PATCH is not allowed for this resource. \n\n "),
        "{}",
        detail(&wrong_method)
    );

    let unserved = microversion_testkit::http::Request::new("GET", "/resource_providers")
        .header("OpenStack-API-Version", "placement 9.99")
        .header("Accept", "application/json")
        .send(base);
    assert_eq!(unserved.status, 406, "{}", unserved.describe());
    assert!(
        detail(&unserved).starts_with(
            "The resource could not be generated that was acceptable to your browser (content of type \
             application/json. \n\n "
        ),
        "{}",
        detail(&unserved)
    );

    // A message's own newlines and tags are flattened as the page's are.
    let bad = send(base, "POST", "/resource_providers", Some(&json!({"name": "rp", "uuid": "not-a-uuid"})));
    assert_eq!(bad.status, 400, "{}", bad.describe());
    let page = detail(&bad);
    assert!(page.ends_with("  ") && page.matches('\n').count() == 2, "{page:?}");
}

/// A path no route has is Placement's router's bare 404 (webob's sentence,
/// no message) without `Vary`; a `HEAD`, which no route has, is refused
/// with webob's own content type whatever the `Accept`.
#[test]
fn the_router_s_404_and_a_head_are_webob_s() {
    let server = server();
    let base = server.url.as_str();
    let res = microversion_testkit::http::Request::new("GET", "/resource_providers/x/nothing")
        .header("X-Auth-Token", "admin")
        .header("OpenStack-API-Version", "placement 1.5")
        .send(base);
    assert_eq!(res.status, 404, "{}", res.describe());
    assert_eq!(res.json()["errors"][0]["detail"], "The resource could not be found.\n\n   ");
    assert_eq!(res.header("openstack-api-version").as_deref(), Some("placement 1.5"));
    assert!(res.vary().is_empty(), "{}", res.describe());
    // By hand: a HEAD's answer has a length and no body.
    let address = base.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(address).expect("the server listens");
    let request = format!(
        "HEAD /resource_providers HTTP/1.0\r\nHost: {address}\r\nX-Auth-Token: admin\r\nAccept: application/json\r\n\r\n"
    );
    let mut answer = String::new();
    std::io::Write::write_all(&mut stream, request.as_bytes()).expect("the request is sent");
    std::io::Read::read_to_string(&mut stream, &mut answer).expect("an answer");
    let answer = answer.to_ascii_lowercase();
    assert!(answer.starts_with("http/1.0 405 ") || answer.starts_with("http/1.1 405 "), "{answer}");
    assert!(answer.contains("\r\ncontent-type: text/html; charset=utf-8\r\n"), "{answer}");
}

/// `update_resource_provider` (from 1.15): `Cache-Control: no-cache` and
/// `Last-Modified` set to the `updated_at` the provider was loaded with,
/// before the update, which webob leaves out when it is `None`: a provider
/// made under a parent has none until its row is changed (a root's is set
/// as it is made); a `PUT` that changes nothing changes no row.
#[test]
fn a_provider_update_sends_the_change_before_it() {
    let server = server();
    let base = server.url.as_str();
    create(base, "root", A, None);
    create(base, "child", B, Some(A));
    create(base, "grandchild", C, Some(B));
    let put = |uuid: &str, body: Value| {
        let res = send(base, "PUT", &format!("/resource_providers/{uuid}"), Some(&body));
        assert_eq!(res.status, 200, "{}", res.describe());
        assert_eq!(res.header("cache-control").as_deref(), Some("no-cache"), "{}", res.describe());
        res.header("last-modified")
    };
    assert!(put(A, json!({"name": "root"})).is_some(), "a root's row is changed as it is made");
    assert_eq!(
        put(B, json!({"name": "child", "parent_provider_uuid": A})),
        None,
        "nothing changed the child"
    );
    assert_eq!(
        put(B, json!({"name": "child", "parent_provider_uuid": A})),
        None,
        "the same name changes no row"
    );
    assert_eq!(
        put(B, json!({"name": "renamed", "parent_provider_uuid": A})),
        None,
        "its change was this one"
    );
    assert!(put(B, json!({"name": "renamed", "parent_provider_uuid": A})).is_some(), "renamed before");
    // A generation bump changes the row.
    with_vcpu(base, C);
    assert!(
        put(C, json!({"name": "grandchild", "parent_provider_uuid": B})).is_some(),
        "its inventory changed"
    );
    // `GET` picks the change or the creation: always a date.
    create(base, "lone child", LONE, Some(A));
    let res = send(base, "GET", &format!("/resource_providers/{LONE}"), None);
    assert!(res.header("last-modified").is_some(), "{}", res.describe());
    assert_eq!(put(LONE, json!({"name": "lone child", "parent_provider_uuid": A})), None);
    // A move changes the row of the provider moved, and of those below it
    // whose root changes; not of those whose root stays.
    assert_eq!(put(LONE, json!({"name": "lone child", "parent_provider_uuid": C})), None);
    assert!(put(LONE, json!({"name": "lone child", "parent_provider_uuid": C})).is_some(), "it moved");
    let below = "e0000000-0000-4000-8000-00000000000e";
    create(base, "below", below, Some(LONE));
    put(LONE, json!({"name": "lone child", "parent_provider_uuid": A}));
    assert_eq!(put(below, json!({"name": "below", "parent_provider_uuid": LONE})), None, "its root stayed");
    put(LONE, json!({"name": "lone child", "parent_provider_uuid": null}));
    assert!(put(below, json!({"name": "below", "parent_provider_uuid": LONE})).is_some(), "its root changed");
}
