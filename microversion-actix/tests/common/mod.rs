//! A small hand-written compute service (no macros) shared by the tests.
#![allow(dead_code, unreachable_pub)]

use std::sync::LazyLock;

use actix_web::dev::{Service, ServiceResponse};
use actix_web::http::StatusCode;
use actix_web::{App, HttpRequest, HttpResponse, test, web};
use microversion_actix::test::header;
use microversion_actix::{
    Api, ApiError, ApiVersion, Discovery, Error, Json, Microversion, Native, Version, VersionNegotiation,
    schema::{SchemaSource, VersionedSchemas},
    version::VersionRange,
};
use serde_json::{Value, json};

pub const LEGACY: &str = "X-OpenStack-Nova-API-Version";
pub const STD: &str = "OpenStack-API-Version";
pub const VARY: &str = "OpenStack-API-Version, X-OpenStack-Nova-API-Version";

static HISTORY: [Microversion; 10] = [
    Microversion::new("2.1", "Initial version."),
    Microversion::new("2.2", "Keypairs appear."),
    Microversion::new("2.3", "Servers show extended attributes."),
    Microversion::new("2.4", "Flavors take a description."),
    Microversion::new("2.5", "Flavor bodies are not validated."),
    Microversion::new("2.6", "Flavors require a description."),
    Microversion::new("2.7", "Nothing."),
    Microversion::new("2.8", "Nothing."),
    Microversion::new("2.9", "Nothing."),
    Microversion::new("2.10", "Keypairs gone again."),
];

pub const API: Api =
    Api::new("compute", &HISTORY).with_legacy_headers(&[LEGACY]).with_updated("2013-07-23T11:33:21Z");

pub const fn v(text: &str) -> Version {
    Version::lit(text)
}

/// Flavor bodies: 2.1-2.4 and 2.6+; 2.5 is deliberately not covered.
pub static FLAVOR_SCHEMAS: LazyLock<VersionedSchemas> = LazyLock::new(|| {
    VersionedSchemas::compile(&[
        SchemaSource {
            name: "flavor_v2_1",
            range: VersionRange::between(v("2.1"), v("2.4")),
            schema: || {
                json!({"type": "object", "required": ["flavor"], "additionalProperties": false,
                    "properties": {"flavor": {"type": "object", "required": ["name", "ram"],
                        "properties": {"name": {"type": "string", "minLength": 1},
                                       "ram": {"type": "integer", "minimum": 1}}}}})
            },
        },
        SchemaSource {
            name: "flavor_v2_6",
            range: VersionRange::from(v("2.6")),
            schema: || {
                json!({"type": "object", "required": ["flavor"],
                    "properties": {"flavor": {"type": "object", "required": ["name", "ram", "description"],
                        "properties": {"name": {"type": "string"}, "ram": {"type": "integer"},
                                       "description": {"type": "string"}}}}})
            },
        },
    ])
    .expect("flavor schemas compile")
});

pub static SEARCH_QUERY: LazyLock<VersionedSchemas> = LazyLock::new(|| {
    VersionedSchemas::compile(&[SchemaSource {
        name: "search_query",
        range: VersionRange::from(v("2.3")),
        schema: || {
            json!({"type": "object", "additionalProperties": false, "properties": {
                "limit": {"type": "array", "maxItems": 1, "items": {"type": "string", "pattern": "^[0-9]+$"}},
                "name": {"type": "array", "items": {"type": "string"}}}})
        },
    }])
    .expect("query schema compiles")
});

async fn list_servers(Native(version): Native<ApiVersion>) -> HttpResponse {
    HttpResponse::Ok().json(json!({"servers": [], "version": version.to_string(),
        "source": format!("{:?}", version.source())}))
}

async fn show_server(Native(version): Native<ApiVersion>, id: web::Path<u32>) -> HttpResponse {
    let mut server = json!({"id": id.into_inner()});
    // Nova style: a field appears from a version on.
    if version.matches(Some(v("2.3")), None) {
        server["OS-EXT-SRV-ATTR:host"] = json!("compute-1");
    }
    HttpResponse::Ok().json(json!({"server": server}))
}

/// Exists from 2.2 to 2.9 only; 404 outside like a missing Nova method.
async fn keypairs(Native(version): Native<ApiVersion>) -> Result<HttpResponse, Error> {
    if !version.matches(Some(v("2.2")), Some(v("2.9"))) {
        Err(ApiError::method_not_at_version(version.version(), StatusCode::NOT_FOUND))?;
    }
    Ok(HttpResponse::Ok().json(json!({"keypairs": [], "typed": version >= v("2.2")})))
}

async fn create_flavor(
    Native(version): Native<ApiVersion>,
    Native(body): Native<Json<Value>>,
) -> Result<HttpResponse, Error> {
    FLAVOR_SCHEMAS.validate(version.version(), &body)?;
    Ok(HttpResponse::Created().json(json!({"flavor": body["flavor"].clone()})))
}

async fn search(Native(version): Native<ApiVersion>, req: HttpRequest) -> Result<HttpResponse, Error> {
    let query = SEARCH_QUERY.validate_query(version.version(), req.query_string())?;
    Ok(HttpResponse::Ok().json(json!({"query": query})))
}

async fn locked() -> Result<HttpResponse, Error> {
    Err(ApiError::conflict("Server 7 is locked."))?
}

async fn db_down() -> Result<HttpResponse, actix_web::Error> {
    Err(actix_web::error::ErrorInternalServerError("database password is hunter2"))
}

async fn cached() -> HttpResponse {
    HttpResponse::Ok().insert_header(("Vary", "Accept-Encoding")).body("cached")
}

#[derive(serde::Deserialize)]
struct Rename {
    name: String,
}

async fn rename_actix(body: web::Json<Rename>) -> HttpResponse {
    HttpResponse::Ok().body(body.into_inner().name)
}

async fn rename_ours(Native(body): Native<Json<Rename>>) -> HttpResponse {
    HttpResponse::Ok().body(body.into_inner().name)
}

async fn query_actix(q: web::Query<std::collections::HashMap<String, u32>>) -> HttpResponse {
    HttpResponse::Ok().json(q.into_inner())
}

/// The routes of the versioned API, under whatever scope and middleware.
pub fn routes(cfg: &mut web::ServiceConfig) {
    // A resource (not `.route`) so that other methods get the router's 405.
    cfg.service(web::resource("/servers").route(web::get().to(list_servers)))
        .route("/servers/{id}", web::get().to(show_server))
        .route("/keypairs", web::get().to(keypairs))
        .route("/flavors", web::post().to(create_flavor))
        .route("/search", web::get().to(search))
        .route("/locked", web::post().to(locked))
        .route("/db", web::get().to(db_down))
        .route("/cached", web::get().to(cached))
        .route("/rename-actix", web::post().to(rename_actix))
        .route("/rename", web::post().to(rename_ours))
        .route("/query-actix", web::get().to(query_actix));
}

/// The whole service: discovery at the root, the API under `/v2.1`.
pub fn app_with(
    middleware: VersionNegotiation,
    discovery: Discovery,
) -> App<
    impl actix_web::dev::ServiceFactory<
        actix_web::dev::ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl actix_web::body::MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    App::new().service(discovery).service(web::scope("/v2.1").wrap(middleware).configure(routes))
}

pub async fn service() -> impl Service<
    actix_http::Request,
    Response = ServiceResponse<impl actix_web::body::MessageBody>,
    Error = actix_web::Error,
> {
    test::init_service(app_with(VersionNegotiation::new(API), Discovery::new(&[API]))).await
}

/// Asserts the headers of a response negotiated at `version`.
pub fn assert_version_headers<B>(res: &ServiceResponse<B>, version: &str) {
    assert_eq!(header(res, STD).as_deref(), Some(format!("compute {version}").as_str()), "standard header");
    assert_eq!(header(res, LEGACY).as_deref(), Some(version), "legacy header");
    assert_eq!(header(res, "Vary").as_deref(), Some(VARY), "Vary");
}

/// Asserts a response that negotiated nothing (400/406): Vary, no version headers.
pub fn assert_no_version_headers<B>(res: &ServiceResponse<B>) {
    assert_eq!(header(res, STD), None);
    assert_eq!(header(res, LEGACY), None);
    assert_eq!(header(res, "Vary").as_deref(), Some(VARY), "Vary");
}

pub fn body_str(value: &Value, pointer: &str) -> String {
    value
        .pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("no string at {pointer} in {value}"))
        .to_owned()
}
