//! One controller source served by both facades (docs/reference.md §4.8):
//! a controller written with the core's portable types and registered
//! with actix-web and axum (`#[controller(api = API, actix, axum)]`)
//! answers every request the same on both, byte for byte in its bodies:
//! route parameters, query strings, bodies checked by a schema, the
//! negotiated version, links, versioned models, hand-built replies, errors
//! in the API's format, and the answers at versions no variant serves.

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

#[derive(serde::Deserialize)]
struct Page {
    limit: Option<u32>,
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

    #[delete("/servers/{id}")]
    #[api_version("2.1", "2.5")]
    async fn delete(&self, _id: Path<u32>) -> Reply {
        Reply::empty(StatusCode::NO_CONTENT)
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
    ("PATCH", "/v2.1/servers/7", "2.3", None),
    ("GET", "/v2.1/servers", "2.13", None),
];

async fn on_actix(case: &Case) -> Answer {
    let app = actix_web::test::init_service(
        App::new().wrap(microversion_actix::VersionNegotiation::new(API)).service(Servers),
    )
    .await;
    let (method, uri, version, body) = case;
    let mut request = on_actix::versioned_request(&API, version)
        .method(actix_web::http::Method::from_bytes(method.as_bytes()).unwrap())
        .uri(uri)
        .insert_header(("Host", "cloud.example"));
    if let Some(body) = body {
        request = request.insert_header(("Content-Type", "application/json")).set_payload(*body);
    }
    let response = actix_web::test::call_service(&app, request.to_request()).await;
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
    let app = Router::from(Servers).layer(microversion_axum::VersionNegotiation::new(API));
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

#[actix_web::test]
async fn portable_arguments_and_answers_read_and_write_what_the_facades_own_do() {
    let answer = async |case: Case| {
        let answer = on_axum(&case).await;
        (answer.status, serde_json::from_slice::<Value>(&answer.body).unwrap_or(Value::Null))
    };
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
}

fn text(body: &[u8]) -> String {
    String::from_utf8_lossy(body).into_owned()
}
