//! Seed 000's patterns written with `#[controller]`, driven end to end through
//! actix: variant selection at every boundary, 404 (or the configured status)
//! outside the ranges, versioned helpers, schemas selected by version, and
//! per-variant extractors.

use actix_web::http::StatusCode;
use actix_web::test as actix_test;
use actix_web::{App, web};
use microversion_actix::{
    ApiVersion, Json, JsonQuery, Version, VersionNegotiation, controller,
    operation::{Controller, UnservedVersion},
};
use microversion_tests::API;
use serde::Deserialize;
use serde_json::{Value, json};

struct Testable {
    greeting: String,
}

#[derive(Deserialize)]
struct Filter {
    colour: Option<String>,
}

fn dummy() -> Value {
    json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]})
}

fn dummy2() -> Value {
    json!({
        "type": "object",
        "properties": {"name": {"type": "string", "maxLength": 5}, "size": {"type": "integer", "minimum": 1}},
        "required": ["name", "size"],
        "additionalProperties": false
    })
}

/// Any query up to 2.5; from 2.6 only `limit`, as digits.
fn lenient_query() -> Value {
    json!({"type": "object", "properties": {"limit": {"type": "array", "items": {"type": "string"}}}})
}

fn strict_query() -> Value {
    json!({
        "type": "object",
        "properties": {"limit": {"type": "array", "items": {"type": "string", "pattern": "^[0-9]+$"}}},
        "additionalProperties": false
    })
}

#[controller(api = API, scope = "/testable")]
impl Testable {
    /// Query strings validated by version, like bodies; the handler reads
    /// the object the schema accepted.
    #[get("/list")]
    #[schema(query = lenient_query, "2.2", "2.5")]
    #[schema(query = strict_query, "2.6")]
    async fn list(&self, query: JsonQuery) -> String {
        format!("limit {}", query.last("limit").unwrap_or("none"))
    }

    /// Seed 000: only from 2.4; 404 before.
    #[get("/new")]
    #[api_version("2.4")]
    async fn my_api_method(&self) -> String {
        format!("{} from 2.4", self.greeting)
    }

    /// A second method of `/new`, from 2.6: `Allow` names it from then on.
    #[put("/new")]
    #[api_version("2.6")]
    async fn replace_new(&self) -> &'static str {
        "replaced"
    }

    /// Seed 000: only up to 2.4; 404 from 2.5.
    #[get("/old")]
    #[api_version("2.1", "2.4")]
    async fn old_method(&self) -> &'static str {
        "until 2.4"
    }

    /// Seed 000: method_1 for 2.1-2.3, method_2 from 2.4, each with its own extractors.
    #[get("/items/{id}")]
    #[api_version("2.1", "2.3")]
    async fn show(&self, id: web::Path<u32>) -> String {
        format!("method_1 {id}")
    }

    #[get("/items/{id}")]
    #[api_version("2.4")]
    async fn show(&self, id: web::Path<u32>, filter: web::Query<Filter>) -> String {
        format!("method_2 {id} {}", filter.colour.as_deref().unwrap_or("none"))
    }

    /// Seed 000: a private helper with two versions, called from shared code.
    #[api_version("2.1", "2.4")]
    fn version_specific_func(&self, arg: &str) -> String {
        format!("old {arg}")
    }

    #[api_version("2.5")]
    fn version_specific_func(&self, arg: &str) -> String {
        format!("new {arg}")
    }

    #[get("/common")]
    async fn common(&self, version: ApiVersion) -> String {
        // The variants serve every version from the API's minimum on: the value comes back directly.
        let specific = self.version_specific_func(version, "foo");
        format!("common stuff, {specific}, common stuff")
    }

    /// Seed 000: schema `dummy` from 2.3 to 2.8, `dummy2` from 2.9, none before 2.3.
    #[put("/update")]
    #[api_version("2.1")]
    #[schema(dummy, "2.3", "2.8")]
    #[schema(dummy2, "2.9")]
    async fn update(&self, body: Json<Value>) -> Json<Value> {
        body
    }

    /// Nova-style: an API removed at 2.6 answers 410 Gone, naming that version.
    #[get("/gone")]
    #[api_version("2.3", "2.5", missing = 410)]
    async fn gone(&self) -> &'static str {
        "still here"
    }

    /// Placement-style: a method that no longer exists answers 405 after 2.2.
    #[delete("/retired")]
    #[api_version("2.1", "2.2", missing = 405)]
    async fn retired(&self) -> &'static str {
        "still here"
    }

    /// Seed 000: checks inside one handler.
    #[get("/index")]
    async fn index(version: ApiVersion) -> &'static str {
        if version.matches(Some(Version::lit("2.1")), Some(Version::lit("2.5"))) {
            "stuff"
        } else if version.matches(Some(Version::lit("2.6")), Some(Version::lit("2.10"))) {
            "other stuff"
        } else if version > Version::lit("2.10") {
            "more stuff"
        } else {
            unreachable!("every served version is covered")
        }
    }
}

async fn call(
    method: &str,
    path: &str,
    version: &str,
    body: Option<&str>,
) -> (StatusCode, String, Option<String>) {
    let app = actix_test::init_service(
        App::new().wrap(VersionNegotiation::new(API)).service(Testable { greeting: "hello".into() }),
    )
    .await;
    let mut req = actix_test::TestRequest::default()
        .method(method.parse().expect("method"))
        .uri(path)
        .insert_header(("OpenStack-API-Version", format!("compute {version}")));
    if let Some(body) = body {
        req = req.insert_header(("Content-Type", "application/json")).set_payload(body.to_owned());
    }
    let resp = actix_test::call_service(&app, req.to_request()).await;
    let status = resp.status();
    let header =
        resp.headers().get("OpenStack-API-Version").map(|v| v.to_str().unwrap_or_default().to_owned());
    let body = String::from_utf8_lossy(&actix_test::read_body(resp).await).into_owned();
    (status, body, header)
}

#[actix_web::test]
async fn new_method_exists_from_its_version_only() {
    assert_eq!(call("GET", "/testable/new", "2.3", None).await.0, StatusCode::NOT_FOUND);
    let (status, body, header) = call("GET", "/testable/new", "2.4", None).await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, "hello from 2.4"));
    assert_eq!(header.as_deref(), Some("compute 2.4"));
    assert_eq!(call("GET", "/testable/new", "2.12", None).await.0, StatusCode::OK);
}

/// Without the middleware, a controller's routes negotiate from the `Api`
/// registered as app data (as the `ApiVersion` extractor does), and with
/// neither they answer a 500 that says what to add, for every operation.
#[actix_web::test]
async fn without_the_middleware_routes_negotiate_from_app_data_or_say_what_to_add() {
    let get = |path: &str, version: &str| {
        actix_test::TestRequest::get()
            .uri(path)
            .insert_header(("OpenStack-API-Version", format!("compute {version}")))
            .to_request()
    };
    let app =
        actix_test::init_service(App::new().app_data(API).service(Testable { greeting: "hi".into() })).await;
    for (path, version, status, body) in [
        ("/testable/items/7?colour=red", "2.3", StatusCode::OK, "method_1 7"),
        ("/testable/items/7?colour=red", "2.4", StatusCode::OK, "method_2 7 red"),
        ("/testable/new", "2.4", StatusCode::OK, "hi from 2.4"),
    ] {
        let res = actix_test::call_service(&app, get(path, version)).await;
        assert_eq!(res.status(), status, "{path} at {version}");
        assert_eq!(actix_test::read_body(res).await, body.as_bytes(), "{path} at {version}");
    }
    let res = actix_test::call_service(&app, get("/testable/new", "2.3")).await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    let res = actix_test::call_service(&app, get("/testable/new", "2.99")).await;
    assert_eq!(
        res.status(),
        StatusCode::NOT_ACCEPTABLE,
        "an unserved version is refused as by the middleware"
    );

    let bare = actix_test::init_service(App::new().service(Testable { greeting: "hi".into() })).await;
    for path in ["/testable/new", "/testable/items/7"] {
        let res = actix_test::call_service(&bare, get(path, "2.4")).await;
        assert_eq!(res.status(), StatusCode::INTERNAL_SERVER_ERROR, "{path}");
        let body: Value = actix_test::read_body_json(res).await;
        let detail = body["errors"][0]["detail"].as_str().unwrap_or_default();
        assert!(detail.contains("VersionNegotiation::new(API)") && detail.contains(path), "{path}: {detail}");
    }
}

#[actix_web::test]
async fn old_method_disappears_after_its_max() {
    assert_eq!(call("GET", "/testable/old", "2.4", None).await.0, StatusCode::OK);
    let (status, body, header) = call("GET", "/testable/old", "2.5", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body.contains("2.5"), "the 404 names the version: {body}");
    assert_eq!(header.as_deref(), Some("compute 2.5"), "a 404 at a version still carries the version");
}

#[actix_web::test]
async fn two_variants_switch_at_the_boundary_with_their_own_extractors() {
    assert_eq!(call("GET", "/testable/items/7", "2.1", None).await.1, "method_1 7");
    assert_eq!(call("GET", "/testable/items/7?colour=red", "2.3", None).await.1, "method_1 7");
    assert_eq!(call("GET", "/testable/items/7?colour=red", "2.4", None).await.1, "method_2 7 red");
    assert_eq!(call("GET", "/testable/items/7", "2.12", None).await.1, "method_2 7 none");
    assert_eq!(call("GET", "/testable/items/x", "2.4", None).await.0, StatusCode::NOT_FOUND);
}

#[actix_web::test]
async fn private_helper_dispatches_by_version() {
    assert_eq!(call("GET", "/testable/common", "2.4", None).await.1, "common stuff, old foo, common stuff");
    assert_eq!(call("GET", "/testable/common", "2.5", None).await.1, "common stuff, new foo, common stuff");
    let controller = Testable { greeting: String::new() };
    assert_eq!(controller.version_specific_func(Version::lit("2.1"), "x"), "old x");
    assert_eq!(controller.version_specific_func(Version::lit("2.4"), "x"), "old x");
    assert_eq!(controller.version_specific_func(Version::lit("2.5"), "x"), "new x");
    assert_eq!(controller.version_specific_func(Version::lit("9.0"), "x"), "new x");
    // Below the API's minimum, where no request is negotiated, the first variant answers.
    assert_eq!(controller.version_specific_func(Version::lit("1.9"), "x"), "old x");
    // A helper with gaps answers an error value where no variant serves.
    assert_eq!(
        Gapped.pick(Version::lit("2.2")),
        Err(UnservedVersion { operation: "pick", version: Version::lit("2.2") })
    );
}

#[actix_web::test]
async fn schemas_are_selected_by_version() {
    let nameless = r#"{"size": 3}"#;
    // 2.1 and 2.2: no schema, anything JSON goes through.
    assert_eq!(call("PUT", "/testable/update", "2.2", Some(nameless)).await.0, StatusCode::OK);
    // 2.3 to 2.8: dummy requires a name.
    let (status, body, header) = call("PUT", "/testable/update", "2.3", Some(nameless)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body.contains("name"), "{body}");
    assert_eq!(header.as_deref(), Some("compute 2.3"));
    assert_eq!(
        call("PUT", "/testable/update", "2.8", Some(r#"{"name": "long name"}"#)).await.0,
        StatusCode::OK
    );
    // 2.9 on: dummy2 requires a short name and a size, and nothing else.
    let (status, body, _) = call("PUT", "/testable/update", "2.9", Some(r#"{"name": "long name"}"#)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body.contains("size") && body.contains("/name"), "every violation is listed: {body}");
    let (status, body, _) =
        call("PUT", "/testable/update", "2.9", Some(r#"{"name": "ok", "size": 2}"#)).await;
    assert_eq!(
        (status, serde_json::from_str::<Value>(&body).ok()),
        (StatusCode::OK, Some(json!({"name": "ok", "size": 2})))
    );
    assert_eq!(call("PUT", "/testable/update", "2.9", Some("{not json")).await.0, StatusCode::BAD_REQUEST);
}

#[actix_web::test]
async fn configured_missing_status() {
    assert_eq!(call("DELETE", "/testable/retired", "2.2", None).await.0, StatusCode::OK);
    let (status, body, header) = call("DELETE", "/testable/retired", "2.3", None).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(header.as_deref(), Some("compute 2.3"));
    assert!(body.contains("removed in API version 2.3"), "{body}");
    // Removed at 2.6: 410 naming that version; before it was added, the plain 410 message.
    assert_eq!(call("GET", "/testable/gone", "2.5", None).await.0, StatusCode::OK);
    let (status, body, _) = call("GET", "/testable/gone", "2.9", None).await;
    assert_eq!(status, StatusCode::GONE);
    assert!(
        body.contains("This method was removed in API version 2.6; version 2.9 does not have it."),
        "{body}"
    );
    let (status, body, _) = call("GET", "/testable/gone", "2.2", None).await;
    assert_eq!(status, StatusCode::GONE);
    assert!(body.contains("API version 2.2 is not supported on this method."), "{body}");
}

#[actix_web::test]
async fn in_handler_checks_at_their_boundaries() {
    for (version, expected) in [
        ("2.1", "stuff"),
        ("2.5", "stuff"),
        ("2.6", "other stuff"),
        ("2.10", "other stuff"),
        ("2.11", "more stuff"),
    ] {
        assert_eq!(call("GET", "/testable/index", version, None).await.1, expected, "{version}");
    }
}

#[actix_web::test]
async fn query_schemas_are_selected_by_version() {
    // 2.1: no query schema, nothing is validated.
    let (status, body, _) = call("GET", "/testable/list?limit=x&sort=name", "2.1", None).await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, "limit x"));
    // 2.5: the lenient schema, the last value wins.
    let (status, body, _) = call("GET", "/testable/list?limit=1&limit=ten&sort=name", "2.5", None).await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, "limit ten"));
    // 2.6: unknown keys and non-digits are refused, every violation listed with its path.
    let (status, body, header) = call("GET", "/testable/list?limit=ten&sort=name", "2.6", None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(header.as_deref(), Some("compute 2.6"));
    let error: Value = serde_json::from_str(&body).expect("a JSON error");
    let paths: Vec<&str> = error["errors"][0]["violations"]
        .as_array()
        .expect("violations")
        .iter()
        .filter_map(|v| v["path"].as_str())
        .collect();
    assert!(paths.contains(&"/limit/0") && paths.contains(&""), "{body}");
    let (status, body, _) = call("GET", "/testable/list?limit=12", "2.12", None).await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, "limit 12"));
}

#[test]
fn controller_lists_its_operations() {
    let ops = Testable::OPERATIONS;
    let update = ops.iter().find(|op| op.name == "update").expect("update listed");
    assert_eq!((update.http_method, update.path), (Some("PUT"), Some("/testable/update")));
    assert_eq!(update.variants[0].schemas.len(), 2);
    assert!(update.variants[0].query_schemas.is_empty());
    let list = ops.iter().find(|op| op.name == "list").expect("list listed");
    let queries: Vec<(&str, String)> =
        list.variants[0].query_schemas.iter().map(|s| (s.name, s.range.to_string())).collect();
    assert_eq!(
        queries,
        [("lenient_query", "2.2 to 2.5".to_owned()), ("strict_query", "2.6 and later".to_owned())]
    );
    let show = ops.iter().find(|op| op.name == "show").expect("show listed");
    assert_eq!(
        show.variants.iter().map(|v| v.range.to_string()).collect::<Vec<_>>(),
        ["2.1 to 2.3", "2.4 and later"]
    );
    let helper = ops.iter().find(|op| op.name == "version_specific_func").expect("helper listed");
    assert_eq!(helper.http_method, None);
    assert_eq!(ops.iter().find(|op| op.name == "retired").map(|op| op.missing_status), Some(405));
    assert!(Testable::check_schemas().is_ok());
}

/// A literal route declared after a parameter route at the same position.
struct Volumes;

#[controller(api = API, scope = "/volumes")]
impl Volumes {
    #[get("/{id}")]
    async fn show(&self, id: web::Path<String>) -> String {
        format!("volume {id}")
    }

    #[get("/summary")]
    #[api_version("2.3")]
    async fn summary(&self) -> &'static str {
        "summary"
    }
}

#[actix_web::test]
async fn a_literal_route_wins_over_a_parameter_whatever_the_declaration_order() {
    let app = actix_test::init_service(App::new().wrap(VersionNegotiation::new(API)).service(Volumes)).await;
    let get = |uri: &'static str, version: &'static str| {
        actix_test::TestRequest::get()
            .uri(uri)
            .insert_header(("OpenStack-API-Version", format!("compute {version}")))
            .to_request()
    };
    let res = actix_test::call_service(&app, get("/volumes/summary", "2.3")).await;
    assert_eq!(actix_test::read_body(res).await, "summary");
    let res = actix_test::call_service(&app, get("/volumes/7", "2.3")).await;
    assert_eq!(actix_test::read_body(res).await, "volume 7");
    // Before 2.3 the literal route does not exist: 404, not a lookup of volume "summary".
    let res = actix_test::call_service(&app, get("/volumes/summary", "2.2")).await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
}

/// A path parameter with a pattern matches several segments, so a literal
/// path of another length can share its requests: declared after it, the
/// literal still wins.
struct Files;

#[controller(api = API, scope = "/files")]
impl Files {
    #[get("/{path:.*}")]
    #[api_version("2.1")]
    async fn file(&self, path: web::Path<String>) -> String {
        format!("file {path}")
    }

    #[get("/readme/raw")]
    #[api_version("2.1")]
    async fn raw_readme(&self) -> &'static str {
        "raw readme"
    }
}

#[actix_web::test]
async fn a_literal_route_wins_over_a_parameter_spanning_segments() {
    let app = actix_test::init_service(App::new().wrap(VersionNegotiation::new(API)).service(Files)).await;
    let get = |uri: &'static str| actix_test::TestRequest::get().uri(uri).to_request();
    let res = actix_test::call_service(&app, get("/files/readme/raw")).await;
    assert_eq!(actix_test::read_body(res).await, "raw readme");
    let res = actix_test::call_service(&app, get("/files/docs/guide.md")).await;
    assert_eq!(actix_test::read_body(res).await, "file docs/guide.md");
}

/// Many variants with gaps between them: the generated decision tree must
/// agree with a brute-force range check at every version.
struct Gapped;

#[controller(api = API)]
impl Gapped {
    #[api_version("2.1", "2.1")]
    fn pick(&self) -> u8 {
        0
    }
    #[api_version("2.3", "2.4")]
    fn pick(&self) -> u8 {
        1
    }
    #[api_version("2.5", "2.5")]
    fn pick(&self) -> u8 {
        2
    }
    #[api_version("2.7", "2.9")]
    fn pick(&self) -> u8 {
        3
    }
    #[api_version("2.10", "2.10")]
    fn pick(&self) -> u8 {
        4
    }
    #[api_version("2.12")]
    fn pick(&self) -> u8 {
        5
    }
}

#[test]
fn decision_tree_agrees_with_brute_force() {
    let ranges = [
        ("2.1", Some("2.1")),
        ("2.3", Some("2.4")),
        ("2.5", Some("2.5")),
        ("2.7", Some("2.9")),
        ("2.10", Some("2.10")),
        ("2.12", None),
    ];
    for major in 1..=3u16 {
        for minor in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 99, u16::MAX] {
            let version = Version::new(major, minor);
            let expected = ranges.iter().position(|(lo, hi)| {
                version >= Version::lit(lo) && hi.is_none_or(|hi| version <= Version::lit(hi))
            });
            assert_eq!(Gapped.pick(version).ok().map(usize::from), expected, "{version}");
        }
    }
}

/// A 405 names in `Allow` the methods served at the request's version
/// (docs/reference.md §4.2): a method whose operation starts later or was
/// removed is not allowed there, and the error is in the API's format.
#[actix_web::test]
async fn allow_names_the_methods_of_the_version() {
    let allow = |version: &'static str, method: &'static str, path: &'static str| async move {
        let app = actix_test::init_service(
            App::new().wrap(VersionNegotiation::new(API)).service(Testable { greeting: "hello".into() }),
        )
        .await;
        let req = actix_test::TestRequest::default()
            .method(method.parse().expect("method"))
            .uri(path)
            .insert_header(("OpenStack-API-Version", format!("compute {version}")))
            .to_request();
        let res = actix_test::call_service(&app, req).await;
        let allow = res.headers().get("allow").map(|v| v.to_str().expect("ascii").to_owned());
        let status = res.status();
        let body: Value = actix_test::read_body_json(res).await;
        (status, allow, body)
    };
    // `DELETE /testable/retired` is served at 2.1-2.2 only, with `missing = 405`.
    let (status, allowed, body) = allow("2.2", "PATCH", "/testable/retired").await;
    assert_eq!((status, allowed.as_deref()), (StatusCode::METHOD_NOT_ALLOWED, Some("DELETE")));
    assert_eq!(body["errors"][0]["code"], "compute.method-not-allowed", "{body}");
    assert_eq!(body["errors"][0]["detail"], "The method PATCH is not allowed for this resource.");
    let (status, allowed, _) = allow("2.3", "PATCH", "/testable/retired").await;
    assert_eq!((status, allowed.as_deref()), (StatusCode::METHOD_NOT_ALLOWED, Some("")));
    // The operation's own 405 after its removal names what the path still serves: nothing.
    let (status, allowed, body) = allow("2.3", "DELETE", "/testable/retired").await;
    assert_eq!((status, allowed.as_deref()), (StatusCode::METHOD_NOT_ALLOWED, Some("")), "{body}");
    // `/testable/new`: GET from 2.4, PUT from 2.6.
    for (version, expected) in
        [("2.1", ""), ("2.4", "GET"), ("2.5", "GET"), ("2.6", "GET, PUT"), ("2.9", "GET, PUT")]
    {
        let (status, allowed, _) = allow(version, "POST", "/testable/new").await;
        assert_eq!(
            (status, allowed.as_deref()),
            (StatusCode::METHOD_NOT_ALLOWED, Some(expected)),
            "{version}"
        );
    }
    // Without a version header: the oldest version's methods.
    let app = actix_test::init_service(
        App::new().wrap(VersionNegotiation::new(API)).service(Testable { greeting: "hello".into() }),
    )
    .await;
    let req =
        actix_test::TestRequest::default().method(actix_web::http::Method::PATCH).uri("/testable/retired");
    let res = actix_test::call_service(&app, req.to_request()).await;
    assert_eq!(res.headers().get("allow").map(|v| v.to_str().unwrap()), Some("DELETE"));
}
