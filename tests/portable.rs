//! One controller source served by both facades (docs/reference.md §4.8):
//! a controller written with the core's portable types and registered
//! with actix-web and axum (`#[controller(api = API, actix, axum)]`)
//! answers every request the same on both, byte for byte in its bodies:
//! route parameters, query strings, bodies checked by a schema, the
//! negotiated version, links, versioned models, hand-built replies, errors
//! in the API's format, and the answers at versions no variant serves.
//! Request bodies typed by `schemars` (`#[schema(json_schema = T)]`) are
//! validated by their type's schema at the negotiated version and
//! described by it in the OpenAPI documents; query strings typed the same
//! way (`#[schema(query_json_schema = T)]`) are read by their type's types
//! (integers, booleans, a repeated key as a list) and validated by it.

use actix_web::App;
use axum::Router;
use microversion_actix::portable::{
    ApiError, ApiVersion, Json, JsonQuery, LinkRoot, Path, Query, Reply, StatusCode, Versioned,
};
use microversion_actix::test as on_actix;
use microversion_axum::test as on_axum;
use microversion_tests::API;
use serde_json::{Value, json};

use microversion_actix::{VersionedModel, controller};

#[derive(VersionedModel)]
struct Server {
    id: u32,
    name: String,
    #[versioned(since = "2.3")]
    host: Option<String>,
}

/// A server created at 2.1 to 2.4: a name and a count of at least one.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct CreateServer {
    name: String,
    #[schemars(range(min = 1))]
    count: Option<u32>,
}

/// A server created from 2.5: a name and a description.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct CreateServerV2_5 {
    name: String,
    description: Option<String>,
}

/// What a creation answers.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Created {
    name: String,
    servers: u32,
}

#[derive(serde::Deserialize)]
struct Page {
    limit: Option<u32>,
}

/// The flavor list's query at 2.1 to 2.4: a minimum of memory and tags,
/// each tag its own `tag=` key.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct FlavorQuery {
    #[schemars(range(min = 1))]
    min_ram: Option<u32>,
    #[serde(default)]
    tag: Vec<String>,
}

/// From 2.5 it may also ask for public flavors only.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct FlavorQueryV2_5 {
    #[schemars(range(min = 1))]
    min_ram: Option<u32>,
    #[serde(default)]
    tag: Vec<String>,
    public: Option<bool>,
}

fn rename_schema() -> Value {
    json!({
        "type": "object",
        "properties": {"name": {"type": "string", "minLength": 1}},
        "required": ["name"],
        "additionalProperties": false,
    })
}

fn list_query() -> Value {
    json!({"type": "object", "properties": {"name": {"type": "array"}}, "additionalProperties": false})
}

struct Servers;

#[controller(api = API, scope = "/v2.1", actix, axum)]
impl Servers {
    #[get("/servers")]
    #[api_version("2.1")]
    #[schema(query = list_query, "2.1")]
    async fn list(&self, root: LinkRoot, query: JsonQuery, version: ApiVersion) -> Reply {
        let names: Vec<&str> = query.values("name").collect();
        Reply::json(
            StatusCode::OK,
            &json!({"at": version.to_string(), "names": names, "root": root.as_str()}),
        )
    }

    #[get("/servers/{id}")]
    #[api_version("2.1")]
    async fn show(&self, id: Path<u32>, page: Query<Page>) -> Result<Versioned<Server>, ApiError> {
        match *id {
            0 => Err(ApiError::not_found("Server 0 could not be found.")),
            id => Ok(Versioned::ok(Server {
                id,
                name: format!("s{id}"),
                host: Some(format!("h{:?}", page.limit)),
            })),
        }
    }

    #[get("/flavors")]
    #[api_version("2.1", "2.4")]
    #[schema(query_json_schema = FlavorQuery)]
    async fn flavors(&self, query: Query<FlavorQuery>) -> Reply {
        Reply::json(StatusCode::OK, &json!({"min_ram": query.min_ram, "tags": query.tag}))
    }

    #[get("/flavors")]
    #[api_version("2.5")]
    #[schema(query_json_schema = FlavorQueryV2_5)]
    async fn flavors(&self, query: Query<FlavorQueryV2_5>, all: JsonQuery) -> Reply {
        let Query(FlavorQueryV2_5 { min_ram, tag, public }) = query;
        Reply::json(
            StatusCode::OK,
            &json!({"min_ram": min_ram, "tags": tag, "public": public, "query": all.0}),
        )
    }

    #[put("/servers/{id}")]
    #[api_version("2.2")]
    #[schema(rename_schema, "2.2")]
    async fn rename(&self, id: Path<u32>, body: Json<Value>) -> Result<Reply, ApiError> {
        match body["name"].as_str() {
            Some("taken") => Err(ApiError::conflict(format!("Server {} cannot take that name.", *id))),
            Some(name) => Ok(Reply::json(StatusCode::OK, &json!({"id": *id, "name": name}))),
            None => Ok(Reply::empty(StatusCode::NO_CONTENT)),
        }
    }

    #[post("/servers")]
    #[api_version("2.1", "2.4")]
    #[schema(json_schema = CreateServer)]
    #[response(201, json_schema = Created)]
    async fn create(&self, body: Json<CreateServer>) -> Reply {
        let Json(CreateServer { name, count }) = body;
        Reply::json(StatusCode::CREATED, &Created { name, servers: count.unwrap_or(1) })
    }

    #[post("/servers")]
    #[api_version("2.5")]
    #[schema(json_schema = CreateServerV2_5, "2.5")]
    #[response(201, json_schema = Created)]
    async fn create(&self, body: Json<CreateServerV2_5>) -> Reply {
        let name = match &body.description {
            Some(description) => format!("{} ({description})", body.name),
            None => body.name.clone(),
        };
        Reply::json(StatusCode::CREATED, &Created { name, servers: 1 })
    }

    #[delete("/servers/{id}")]
    #[api_version("2.1", "2.5")]
    async fn delete(&self, id: Path<u32>) -> Reply {
        match *id {
            0 => Reply::empty(StatusCode::NOT_FOUND),
            1 => Reply::empty(StatusCode::SERVICE_UNAVAILABLE),
            _ => Reply::empty(StatusCode::NO_CONTENT),
        }
    }

    #[patch("/servers/{id}")]
    #[api_version("2.1")]
    async fn touch(&self, id: Path<u32>, body: Json<Value>) -> Result<Json<Value>, ApiError> {
        match *id {
            0 => Err(microversion_axum::ApiError::conflict("Server 0 is locked.").into()),
            id => Ok(Json(json!({"id": id, "touched": body.0}))),
        }
    }
}

/// One request: method, path, version, body.
type Case = (&'static str, &'static str, &'static str, Option<&'static str>);

/// What both facades must answer alike: the status, the headers a client
/// reads, and the body.
#[derive(Debug, PartialEq)]
struct Answer {
    status: u16,
    version: Option<String>,
    content_type: Option<String>,
    allow: Option<String>,
    body: Vec<u8>,
}

const CASES: &[Case] = &[
    ("GET", "/v2.1/flavors?min_ram=512&tag=a&tag=b%20c", "2.4", None),
    ("GET", "/v2.1/flavors?min_ram=512&tag=a&public=true", "2.5", None),
    ("GET", "/v2.1/flavors?public=true", "2.4", None),
    ("GET", "/v2.1/flavors?min_ram=0", "2.5", None),
    ("GET", "/v2.1/flavors?min_ram=lots", "2.5", None),
    ("GET", "/v2.1/flavors?min_ram=1&min_ram=2", "2.5", None),
    ("GET", "/v2.1/servers", "2.1", None),
    ("GET", "/v2.1/servers?name=a&name=b", "2.7", None),
    ("GET", "/v2.1/servers?flavor=x", "2.1", None),
    ("GET", "/v2.1/servers/7?limit=3", "2.1", None),
    ("GET", "/v2.1/servers/7", "2.3", None),
    ("GET", "/v2.1/servers/0", "2.3", None),
    ("GET", "/v2.1/servers/seven", "2.3", None),
    ("GET", "/v2.1/servers/7?limit=many", "2.3", None),
    ("PUT", "/v2.1/servers/7", "2.2", Some(r#"{"name":"web"}"#)),
    ("PUT", "/v2.1/servers/7", "2.9", Some(r#"{"name":"taken"}"#)),
    ("PUT", "/v2.1/servers/7", "2.2", Some(r#"{"name":""}"#)),
    ("PUT", "/v2.1/servers/7", "2.2", Some(r#"{"name":"web","size":1}"#)),
    ("PUT", "/v2.1/servers/7", "2.1", Some(r#"{"name":"web"}"#)),
    ("DELETE", "/v2.1/servers/7", "2.5", None),
    ("DELETE", "/v2.1/servers/7", "2.6", None),
    ("POST", "/v2.1/servers/7", "2.3", None),
    ("DELETE", "/v2.1/servers/0", "2.5", None),
    ("DELETE", "/v2.1/servers/1", "2.5", None),
    ("PATCH", "/v2.1/servers/7", "2.3", Some(r#"{"a":[1,2]}"#)),
    ("PATCH", "/v2.1/servers/0", "2.3", Some(r#"{"a":1}"#)),
    ("PATCH", "/v2.1/servers/7", "2.3", Some(r#"{"a":"#)),
    ("PATCH", "/v2.1/servers/7", "2.3", Some("")),
    ("PATCH", "/v2.1/servers/7", "2.3", None),
    ("GET", "/v2.1/servers", "2.13", None),
    ("POST", "/v2.1/servers", "2.1", Some(r#"{"name":"web","count":3}"#)),
    ("POST", "/v2.1/servers", "2.4", Some(r#"{"name":"web","count":0}"#)),
    ("POST", "/v2.1/servers", "2.4", Some(r#"{"name":"web","description":"d"}"#)),
    ("POST", "/v2.1/servers", "2.5", Some(r#"{"name":"web","description":"d"}"#)),
    ("POST", "/v2.1/servers", "2.5", Some(r#"{"name":"web","count":3}"#)),
    ("POST", "/v2.1/servers", "2.5", Some(r#"{"description":"d"}"#)),
    ("POST", "/v2.1/servers", "2.5", Some(r#"{"name":7}"#)),
];

impl Answer {
    /// The status and the body as JSON (null when it is not JSON).
    fn status_and_json(&self) -> (u16, Value) {
        (self.status, serde_json::from_slice(&self.body).unwrap_or(Value::Null))
    }
}

/// What stands in front of the controller's routes.
#[derive(Clone, Copy, Debug)]
enum Front {
    /// The facade's negotiation (actix's middleware, axum's layer).
    Negotiation,
    /// No negotiation: the declaration registered with the app (actix's
    /// app data, axum's extension), which routes negotiate from.
    Registered,
}

async fn on_actix(case: &Case) -> Answer {
    on_actix_behind(Front::Negotiation, case).await
}

async fn on_actix_behind(front: Front, case: &Case) -> Answer {
    match front {
        Front::Negotiation => {
            let app = App::new().wrap(microversion_actix::VersionNegotiation::new(API)).service(Servers);
            answer_of_actix(&actix_web::test::init_service(app).await, case).await
        }
        Front::Registered => {
            let app = App::new().app_data(API).service(Servers);
            answer_of_actix(&actix_web::test::init_service(app).await, case).await
        }
    }
}

/// The answer of an actix app to one request.
async fn answer_of_actix<S, B>(app: &S, case: &Case) -> Answer
where
    S: actix_web::dev::Service<
            actix_http::Request,
            Response = actix_web::dev::ServiceResponse<B>,
            Error = actix_web::Error,
        >,
    B: actix_web::body::MessageBody,
{
    let (method, uri, version, body) = case;
    let mut request = on_actix::versioned_request(&API, version)
        .method(actix_web::http::Method::from_bytes(method.as_bytes()).unwrap())
        .uri(uri)
        .insert_header(("Host", "cloud.example"));
    if let Some(body) = body {
        request = request.insert_header(("Content-Type", "application/json")).set_payload(*body);
    }
    let response = actix_web::test::call_service(app, request.to_request()).await;
    let header = |name: &str| on_actix::header(&response, name);
    let (status, version, content_type, allow) = (
        response.status().as_u16(),
        header("OpenStack-API-Version"),
        header("Content-Type"),
        header("Allow"),
    );
    let body = actix_web::test::read_body(response).await.to_vec();
    Answer { status, version, content_type, allow, body }
}

async fn on_axum(case: &Case) -> Answer {
    on_axum_behind(Front::Negotiation, case).await
}

async fn on_axum_behind(front: Front, case: &Case) -> Answer {
    let app = match front {
        Front::Negotiation => Router::from(Servers).layer(microversion_axum::VersionNegotiation::new(API)),
        Front::Registered => Router::from(Servers).layer(axum::Extension(API)),
    };
    let (method, uri, version, body) = case;
    let mut request =
        on_axum::versioned_request(&API, version).method(*method).uri(*uri).header("Host", "cloud.example");
    let body = match body {
        Some(body) => {
            request = request.header("Content-Type", "application/json");
            axum::body::Body::from(*body)
        }
        None => axum::body::Body::empty(),
    };
    let response = tower_service_call(app, request.body(body).unwrap()).await;
    let header = |name: &str| on_axum::header(&response, name);
    let (status, version, content_type, allow) = (
        response.status().as_u16(),
        header("OpenStack-API-Version"),
        header("Content-Type"),
        header("Allow"),
    );
    let body = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap().to_vec();
    Answer { status, version, content_type, allow, body }
}

/// The router's answer to one request, as a server would get it.
async fn tower_service_call(
    app: Router,
    request: axum::http::Request<axum::body::Body>,
) -> axum::response::Response {
    use tower::ServiceExt as _;
    app.oneshot(request).await.unwrap_or_else(|never| match never {})
}

#[actix_web::test]
async fn one_controller_source_answers_alike_on_actix_and_axum() {
    for case in CASES {
        let (actix, axum) = (on_actix(case).await, on_axum(case).await);
        assert_eq!(actix, axum, "{case:?}: actix {} / axum {}", text(&actix.body), text(&axum.body));
    }
}

/// Without the negotiation in front, routes negotiate from the declaration
/// the app registered, alike on both: the variant of the version asked
/// for, 400 and 406 in the API-SIG format, the missing variant and the 405
/// at that version; and no answer is stamped.
#[actix_web::test]
async fn outside_the_negotiation_routes_negotiate_alike_from_a_registered_declaration() {
    let cases: &[Case] = &[
        ("GET", "/v2.1/servers/7", "2.3", None),
        ("GET", "/v2.1/servers/7", "2.2", None),
        ("GET", "/v2.1/servers/7", "9.9", None),
        ("GET", "/v2.1/servers/7", "2.x", None),
        ("PUT", "/v2.1/servers/7", "2.1", Some(r#"{"name":"web"}"#)),
        ("POST", "/v2.1/servers/7", "2.3", None),
        ("DELETE", "/v2.1/servers/7", "2.6", None),
    ];
    for case in cases {
        let actix = on_actix_behind(Front::Registered, case).await;
        let axum = on_axum_behind(Front::Registered, case).await;
        assert_eq!(actix, axum, "{case:?}: actix {} / axum {}", text(&actix.body), text(&axum.body));
        assert_eq!(actix.version, None, "{case:?}: nothing stamps the answer");
    }
    let at =
        async |version| on_axum_behind(Front::Registered, &("GET", "/v2.1/servers/7", version, None)).await;
    assert_eq!(at("2.2").await.status_and_json(), (200, json!({"id": 7, "name": "s7"})));
    assert_eq!(at("9.9").await.status, 406);
    assert_eq!(at("2.x").await.status, 400);
}

#[actix_web::test]
async fn portable_arguments_and_answers_read_and_write_what_the_facades_own_do() {
    let answer = async |case: Case| on_axum(&case).await.status_and_json();
    let (status, body) = answer(("GET", "/v2.1/servers?name=a&name=b", "2.7", None)).await;
    assert_eq!((status, &body["at"], &body["names"]), (200, &json!("2.7"), &json!(["a", "b"])));
    assert_eq!(body["root"], "http://cloud.example");
    let (_, below) = answer(("GET", "/v2.1/servers/7?limit=3", "2.2", None)).await;
    let (_, above) = answer(("GET", "/v2.1/servers/7?limit=3", "2.3", None)).await;
    assert_eq!(below, json!({"id": 7, "name": "s7"}), "the model at 2.2 has no host");
    assert_eq!(above, json!({"id": 7, "name": "s7", "host": "hSome(3)"}));
    let (status, error) = answer(("PUT", "/v2.1/servers/7", "2.2", Some(r#"{"name":"taken"}"#))).await;
    assert_eq!(status, 409);
    assert_eq!(error["errors"][0]["code"], "compute.conflict", "{error}");
    let (status, _) = answer(("PUT", "/v2.1/servers/7", "2.2", Some(r#"{"size":1}"#))).await;
    assert_eq!(status, 400, "the schema of 2.2 requires a name");
    let (status, _) = answer(("DELETE", "/v2.1/servers/7", "2.6", None)).await;
    assert_eq!(status, 404, "delete ends at 2.5");
    let (status, error) = answer(("DELETE", "/v2.1/servers/0", "2.5", None)).await;
    assert_eq!((status, &error["errors"][0]["detail"]), (404, &json!("The resource could not be found.")));
    let (status, error) = answer(("DELETE", "/v2.1/servers/1", "2.5", None)).await;
    assert_eq!(status, 503);
    assert_eq!(error["errors"][0]["code"], "compute.service-unavailable", "a bodiless error is rendered");
    let (status, touched) = answer(("PATCH", "/v2.1/servers/7", "2.3", Some(r#"{"a":[1,2]}"#))).await;
    assert_eq!((status, touched), (200, json!({"id": 7, "touched": {"a": [1, 2]}})));
    let (status, error) = answer(("PATCH", "/v2.1/servers/0", "2.3", Some(r#"{"a":1}"#))).await;
    assert_eq!((status, &error["errors"][0]["detail"]), (409, &json!("Server 0 is locked.")));
}

#[actix_web::test]
async fn typed_bodies_are_validated_by_their_types_schema_at_each_version() {
    let answer = async |case: Case| on_actix(&case).await.status_and_json();
    let (status, created) =
        answer(("POST", "/v2.1/servers", "2.4", Some(r#"{"name":"web","count":3}"#))).await;
    assert_eq!((status, created), (201, json!({"name": "web", "servers": 3})));
    let (status, refused) =
        answer(("POST", "/v2.1/servers", "2.4", Some(r#"{"name":"web","count":0}"#))).await;
    let detail = refused["errors"][0]["detail"].as_str().unwrap_or_default().to_owned();
    assert_eq!(status, 400, "{refused}");
    assert!(detail.contains("count") && detail.contains("less than the minimum of 1"), "{detail}");
    let body = Some(r#"{"name":"web","description":"d"}"#);
    let (below, _) = answer(("POST", "/v2.1/servers", "2.4", body)).await;
    let (from, created) = answer(("POST", "/v2.1/servers", "2.5", body)).await;
    assert_eq!((below, from), (400, 201), "a description is accepted from 2.5 only");
    assert_eq!(created["name"], "web (d)");
    let (status, refused) = answer(("POST", "/v2.1/servers", "2.5", Some(r#"{"description":"d"}"#))).await;
    assert_eq!(status, 400);
    assert!(
        refused["errors"][0]["detail"].as_str().unwrap_or_default().contains("'name' is a required property")
    );
}

#[actix_web::test]
async fn typed_queries_are_read_and_validated_by_their_types_schema_at_each_version() {
    let answer = async |case: Case| on_axum(&case).await.status_and_json();
    let (status, read) = answer(("GET", "/v2.1/flavors?min_ram=512&tag=a&tag=b%20c", "2.4", None)).await;
    assert_eq!((status, read), (200, json!({"min_ram": 512, "tags": ["a", "b c"]})));
    let (status, read) = answer(("GET", "/v2.1/flavors?public=false&tag=x", "2.5", None)).await;
    assert_eq!(status, 200, "{read}");
    assert_eq!(
        (&read["min_ram"], &read["tags"], &read["public"]),
        (&Value::Null, &json!(["x"]), &json!(false))
    );
    assert_eq!(read["query"], json!({"public": false, "tag": ["x"]}), "JsonQuery holds what was validated");
    let refusal = async |query: &'static str, version: &'static str| {
        let (status, body) = answer(("GET", query, version, None)).await;
        assert_eq!(status, 400, "{query} at {version}: {body}");
        body["errors"][0]["detail"].as_str().unwrap_or_default().to_owned()
    };
    let detail = refusal("/v2.1/flavors?public=true", "2.4").await;
    assert!(detail.contains("Additional properties are not allowed ('public' was unexpected)"), "{detail}");
    let detail = refusal("/v2.1/flavors?min_ram=0", "2.5").await;
    assert!(detail.contains("min_ram") && detail.contains("less than the minimum of 1"), "{detail}");
    let detail = refusal("/v2.1/flavors?min_ram=lots", "2.5").await;
    assert!(detail.contains("'lots' is not of type"), "{detail}");
    let detail = refusal("/v2.1/flavors?public=yes", "2.5").await;
    assert!(detail.contains("'yes' is not of type"), "{detail}");
    let detail = refusal("/v2.1/flavors?min_ram=1&min_ram=2", "2.5").await;
    assert!(detail.contains("min_ram"), "a key given twice for one value: {detail}");
}

#[test]
fn typed_queries_are_described_as_parameters_of_their_types() {
    use microversion_axum::openapi::ApiDescription;
    let description = ApiDescription::new(API).with_prefix("").controller::<Servers>();
    let parameters = |version: &str| {
        let document = description.document(microversion_axum::Version::lit(version));
        let parameters = document["paths"]["/v2.1/flavors"]["get"]["parameters"].as_array().cloned();
        let parameters = parameters.unwrap_or_default().into_iter();
        parameters
            .filter(|p| p["in"] == "query")
            .map(|p| (p["name"].as_str().unwrap().to_owned(), p))
            .collect::<Vec<_>>()
    };
    let at_2_4 = parameters("2.4");
    let names: Vec<&str> = at_2_4.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, ["min_ram", "tag"]);
    assert_eq!(at_2_4[0].1["schema"]["minimum"], 1);
    assert!(at_2_4[0].1["schema"]["type"].to_string().contains("integer"), "{}", at_2_4[0].1);
    assert_eq!(at_2_4[1].1["schema"]["type"], "array");
    assert_eq!((&at_2_4[1].1["style"], &at_2_4[1].1["explode"]), (&json!("form"), &json!(true)));
    let names: Vec<String> = parameters("2.5").into_iter().map(|(name, _)| name).collect();
    assert_eq!(names, ["min_ram", "public", "tag"], "2.5 adds public");
}

#[test]
fn typed_bodies_and_answers_are_described_by_their_types_schema() {
    use microversion_axum::openapi::ApiDescription;
    use microversion_axum::schema::json_schema_of;
    let description = ApiDescription::new(API).with_prefix("").controller::<Servers>();
    let body_at = |version: &str| {
        let document = description.document(microversion_axum::Version::lit(version));
        let create = &document["paths"]["/v2.1/servers"]["post"];
        let schema = |content: &Value| content["content"]["application/json"]["schema"].clone();
        (schema(&create["requestBody"]), schema(&create["responses"]["201"]))
    };
    let (request, response) = body_at("2.1");
    assert_eq!(request, json_schema_of::<CreateServer>(), "2.1 is described by CreateServer");
    assert_eq!(response, json_schema_of::<Created>());
    assert_eq!(body_at("2.7").0, json_schema_of::<CreateServerV2_5>(), "2.7 by CreateServerV2_5");
    assert_eq!(json_schema_of::<CreateServer>()["properties"]["count"]["minimum"], 1);
}

fn text(body: &[u8]) -> String {
    String::from_utf8_lossy(body).into_owned()
}

/// Every request of a controller is answered by one future type, which
/// each framework boxes per request: it holds the request once (the
/// route function's `Either` tree adds no copy, each operation's block
/// owns the request it is given) and no body reader, a check of an answer
/// or a refused extraction's answer, each boxed on its own when it runs. On
/// this controller, whose routes read bodies, validate them by schema and
/// check their answers, the future was 968 bytes on actix (on axum, the
/// load server's controller's was 1,272, over glibc's per-thread cache of
/// 1,032 bytes: every request took the allocator's slow path); it is 184
/// on actix and 392 on axum.
#[actix_web::test]
async fn a_route_future_holds_the_request_once_and_nothing_that_reads_a_body() {
    const ROOM: usize = 256;
    let (request, payload) = actix_web::test::TestRequest::get().to_http_parts();
    let input = microversion_actix::__private::OperationInput { request, payload, version: API.min() };
    let future = Servers::__mv_routes(std::rc::Rc::new(Servers), 0, input);
    let (size, request) = (
        std::mem::size_of_val(&future),
        std::mem::size_of::<microversion_actix::__private::OperationInput>(),
    );
    assert!(size <= request + ROOM, "actix: a future of {size} bytes for a request of {request}");

    let (request, body) = axum::http::Request::get("/").body(axum::body::Body::empty()).unwrap().into_parts();
    let input =
        microversion_axum::__private::OperationInput { request, payload: Some(body), version: API.min() };
    let future = Servers::__mv_1_routes(std::sync::Arc::new(Servers), 0, input);
    let (size, request) =
        (std::mem::size_of_val(&future), std::mem::size_of::<microversion_axum::__private::OperationInput>());
    assert!(size <= request + ROOM, "axum: a future of {size} bytes for a request of {request}");
}
