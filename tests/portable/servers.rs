//! The controller every facade serves in the same-bytes tests
//! (tests/portable.rs, tests/third_framework.rs), the requests they send,
//! and what actix-web and axum answer to each.

#![allow(dead_code)]

use actix_web::App;
use axum::Router;
use microversion_actix::portable::{
    ApiError, ApiVersion, Json, JsonQuery, LinkRoot, Path, Query, Reply, StatusCode, Versioned,
};
use microversion_actix::test as on_actix;
use microversion_axum::test as on_axum;
use microversion_tests::{API, Pages};
use serde_json::{Value, json};

use microversion_actix::{VersionedModel, controller};

#[derive(VersionedModel)]
pub(crate) struct Server {
    id: u32,
    name: String,
    #[versioned(since = "2.3")]
    host: Option<String>,
}

/// A server created at 2.1 to 2.4: a name and a count of at least one.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct CreateServer {
    name: String,
    #[schemars(range(min = 1))]
    count: Option<u32>,
}

/// A server created from 2.5: a name and a description.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct CreateServerV2_5 {
    name: String,
    description: Option<String>,
}

/// What a creation answers.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub(crate) struct Created {
    name: String,
    servers: u32,
}

#[derive(serde::Deserialize)]
pub(crate) struct Page {
    limit: Option<u32>,
}

/// The flavor list's query at 2.1 to 2.4: a minimum of memory and tags,
/// each tag its own `tag=` key.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FlavorQuery {
    #[schemars(range(min = 1))]
    min_ram: Option<u32>,
    #[serde(default)]
    tag: Vec<String>,
}

/// From 2.5 it may also ask for public flavors only.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FlavorQueryV2_5 {
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

pub(crate) struct Servers;

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
            0 => Err(microversion_axum::ApiError::conflict("Server 0 is locked.")),
            id => Ok(Json(json!({"id": id, "touched": body.0}))),
        }
    }
}

/// One request: method, path, version, body.
pub(crate) type Case = (&'static str, &'static str, &'static str, Option<&'static str>);

/// What both facades must answer alike: the status, the headers a client
/// reads, and the body.
#[derive(Debug, PartialEq)]
pub(crate) struct Answer {
    pub(crate) status: u16,
    pub(crate) version: Option<String>,
    pub(crate) content_type: Option<String>,
    pub(crate) allow: Option<String>,
    pub(crate) body: Vec<u8>,
}

pub(crate) const CASES: &[Case] = &[
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
    pub(crate) fn status_and_json(&self) -> (u16, Value) {
        (self.status, serde_json::from_slice(&self.body).unwrap_or(Value::Null))
    }
}

/// What stands in front of the controller's routes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Front {
    /// The facade's negotiation (actix's middleware, axum's layer).
    Negotiation,
    /// No negotiation: the declaration registered with the app (actix's
    /// app data, axum's extension), which routes negotiate from.
    Registered,
    /// The facade's negotiation with errors in a format that reads the
    /// request ([`Pages`]), and requests that accept HTML first.
    Pages,
}

/// The `Accept` of requests sent to `front`.
pub(crate) fn accept(front: Front) -> Option<&'static str> {
    matches!(front, Front::Pages).then_some("text/html, application/json;q=0.9")
}

pub(crate) async fn on_actix(case: &Case) -> Answer {
    on_actix_behind(Front::Negotiation, case).await
}

pub(crate) async fn on_actix_behind(front: Front, case: &Case) -> Answer {
    match front {
        Front::Negotiation => {
            let app = App::new().wrap(microversion_actix::VersionNegotiation::new(API)).service(Servers);
            answer_of_actix(&actix_web::test::init_service(app).await, on_actix_request(case)).await
        }
        Front::Registered => {
            let app = App::new().app_data(API).service(Servers);
            answer_of_actix(&actix_web::test::init_service(app).await, on_actix_request(case)).await
        }
        Front::Pages => {
            let negotiation = microversion_actix::Negotiation::new(API).with_error_format(Pages);
            let app =
                App::new().wrap(microversion_actix::VersionNegotiation::new(negotiation)).service(Servers);
            let request = on_actix_request(case).insert_header(("Accept", accept(front).unwrap_or_default()));
            answer_of_actix(&actix_web::test::init_service(app).await, request).await
        }
    }
}

/// The request of `case` to an actix app.
fn on_actix_request(case: &Case) -> actix_web::test::TestRequest {
    let (method, uri, version, body) = case;
    let request = on_actix::versioned_request(&API, version)
        .method(actix_web::http::Method::from_bytes(method.as_bytes()).unwrap())
        .uri(uri)
        .insert_header(("Host", "cloud.example"));
    match body {
        Some(body) => request.insert_header(("Content-Type", "application/json")).set_payload(*body),
        None => request,
    }
}

/// The answer of an actix app to one request.
async fn answer_of_actix<S, B>(app: &S, request: actix_web::test::TestRequest) -> Answer
where
    S: actix_web::dev::Service<
            actix_http::Request,
            Response = actix_web::dev::ServiceResponse<B>,
            Error = actix_web::Error,
        >,
    B: actix_web::body::MessageBody,
{
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

pub(crate) async fn on_axum(case: &Case) -> Answer {
    on_axum_behind(Front::Negotiation, case).await
}

pub(crate) async fn on_axum_behind(front: Front, case: &Case) -> Answer {
    let app = match front {
        Front::Negotiation => Router::from(Servers).layer(microversion_axum::VersionNegotiation::new(API)),
        Front::Registered => Router::from(Servers).layer(axum::Extension(API)),
        Front::Pages => Router::from(Servers).layer(microversion_axum::VersionNegotiation::new(
            microversion_axum::Negotiation::new(API).with_error_format(Pages),
        )),
    };
    let (method, uri, version, body) = case;
    let mut request =
        on_axum::versioned_request(&API, version).method(*method).uri(*uri).header("Host", "cloud.example");
    if let Some(accept) = accept(front) {
        request = request.header("Accept", accept);
    }
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

pub(crate) fn text(body: &[u8]) -> String {
    String::from_utf8_lossy(body).into_owned()
}

/// The sizes of the route futures of [`Servers`] and of the requests they
/// hold, on actix and on axum (tests/portable.rs).
pub(crate) fn route_future_sizes() -> [(usize, usize); 2] {
    use microversion_actix::__private::Marker as Actix;
    use microversion_axum::__private::Marker as Axum;
    use microversion_core::operation::{RouteInput, Routes};
    use microversion_core::version::{VersionHeader, VersionSource};
    let negotiated = microversion_core::Negotiated {
        version: API.min(),
        source: VersionSource::Default,
        header: VersionHeader::None,
    };
    let (request, payload) = actix_web::test::TestRequest::get().to_http_parts();
    let input = RouteInput::<Actix>::new(request, payload, negotiated);
    let future = <Servers as Routes<Actix, _>>::route(std::sync::Arc::new(Servers), 0, input);
    let actix = (std::mem::size_of_val(&future), std::mem::size_of::<RouteInput<Actix>>());
    let (request, body) = axum::http::Request::get("/").body(axum::body::Body::empty()).unwrap().into_parts();
    let input = RouteInput::<Axum>::new(request, body, negotiated);
    let future = <Servers as Routes<Axum, _>>::route(std::sync::Arc::new(Servers), 0, input);
    let axum = (std::mem::size_of_val(&future), std::mem::size_of::<RouteInput<Axum>>());
    [actix, axum]
}
