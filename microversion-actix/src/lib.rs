//! OpenStack-style API microversions for actix-web.
//!
//! Every change to an API's contract gets a new `X.Y` version; a client asks
//! for one per request (`OpenStack-API-Version: compute 2.27`) and gets
//! exactly that version's behaviour, and a client that asks for nothing
//! keeps the oldest behaviour. This crate is the actix-web layer over
//! [`microversion-core`](microversion_core) (re-exported here):
//!
//! - [`VersionNegotiation`]: the middleware that negotiates each request, answers
//!   400 and 406 itself, and puts `OpenStack-API-Version`, the legacy headers
//!   and `Vary` on every response of its scope, errors included;
//! - [`ApiVersion`]: the negotiated version as a handler argument, with
//!   [`ApiVersion::matches`] and comparisons against [`Version`]s;
//! - [`ApiError`]: the error type, rendered as API-SIG errors by default or
//!   through any [`ErrorFormat`](crate::error::ErrorFormat) ([`NovaFaults`](crate::error::NovaFaults) for Nova's shape);
//! - [`Discovery`]: `GET /` and `GET /v2.1/`, generated from the declaration;
//!   [`PublicUrl`](crate::discovery::PublicUrl): where the scheme and host of links come from;
//! - [`VersionedSchemas`](crate::schema::VersionedSchemas): JSON Schemas keyed by version ranges, compiled
//!   once; [`read_json_body`](crate::body::read_json_body) and [`Json`] read a body once;
//! - [`test`](mod@test): helpers to call a service at a version in tests;
//! - [`controller`], [`api_version`], [`schema`](macro@schema): same-named methods with
//!   version ranges, expanded into one dispatch table and checked at
//!   compile time; [`VersionedModel`]: structs whose fields have versions.
//!
//! The guide (`docs/` in the repository) explains every piece.
//!
//! # A complete service
//!
//! ```
//! use actix_web::{App, test, web};
//! use microversion_actix::test::{call_at, read_json};
//! use microversion_actix::{
//!     Api, Discovery, Json, Microversion, VersionNegotiation, Versioned, VersionedModel, controller,
//! };
//! use serde_json::{Value, json};
//!
//! const COMPUTE: Api = Api::new("compute", &[
//!     Microversion::new("2.1", "Initial version."),
//!     Microversion::new("2.2", "Servers show their host."),
//!     Microversion::new("2.3", "Servers can be renamed."),
//! ])
//! .with_legacy_headers(&["X-OpenStack-Nova-API-Version"]);
//!
//! /// One struct for every version: `host` exists from 2.2.
//! #[derive(VersionedModel)]
//! #[versioned(api = COMPUTE)]
//! struct Server {
//!     id: u32,
//!     name: String,
//!     #[versioned(since = "2.2")]
//!     host: Option<String>,
//! }
//!
//! fn rename_v2_3() -> Value {
//!     json!({"type": "object", "required": ["name"], "additionalProperties": false,
//!            "properties": {"name": {"type": "string", "minLength": 1}}})
//! }
//!
//! struct Servers;
//!
//! #[controller(api = COMPUTE, scope = "/servers")]
//! impl Servers {
//!     #[get("/{id}")]
//!     async fn show(&self, id: web::Path<u32>) -> Versioned<Server> {
//!         Versioned::ok(Server { id: *id, name: "vm".into(), host: Some("compute-1".into()) })
//!     }
//!
//!     /// New at 2.3: 404 before, as in Nova; the body is validated first.
//!     #[put("/{id}")]
//!     #[api_version("2.3")]
//!     #[schema(rename_v2_3, "2.3")]
//!     async fn rename(&self, id: web::Path<u32>, body: Json<Value>) -> Versioned<Server> {
//!         let name = body["name"].as_str().unwrap_or_default().to_owned();
//!         Versioned::ok(Server { id: *id, name, host: None })
//!     }
//! }
//!
//! # actix_web::rt::System::new().block_on(async {
//! let app = test::init_service(
//!     App::new()
//!         .service(Discovery::new(&[COMPUTE]))
//!         .service(web::scope("/v2.1").wrap(VersionNegotiation::new(COMPUTE)).service(Servers)),
//! )
//! .await;
//!
//! let res = call_at(&app, &COMPUTE, "2.1", test::TestRequest::get().uri("/v2.1/servers/7")).await;
//! assert_eq!(read_json(res).await, json!({"id": 7, "name": "vm"}));
//! let res = call_at(&app, &COMPUTE, "2.2", test::TestRequest::get().uri("/v2.1/servers/7")).await;
//! assert_eq!(read_json(res).await["host"], "compute-1");
//!
//! let rename = || test::TestRequest::put().uri("/v2.1/servers/7").set_json(json!({"name": "db"}));
//! assert_eq!(call_at(&app, &COMPUTE, "2.2", rename()).await.status(), 404);
//! assert_eq!(read_json(call_at(&app, &COMPUTE, "2.3", rename()).await).await["name"], "db");
//!
//! let root = test::call_service(&app, test::TestRequest::get().uri("/").to_request()).await;
//! assert_eq!(read_json(root).await["versions"][0]["version"], "2.3");
//! # });
//! ```
//!
//! # By hand, without the macros
//!
//! ```
//! use std::sync::LazyLock;
//!
//! use actix_web::{test, web, App, HttpResponse};
//! use actix_web::http::StatusCode;
//! use microversion_actix::{
//!     Api, ApiError, ApiVersion, Discovery, Microversion, Version,
//!     Json, VersionNegotiation, schema::{SchemaSource, VersionedSchemas},
//!     version::VersionRange,
//! };
//! use serde_json::json;
//!
//! // 1. The API, declared once: service type, legacy header, version history.
//! const COMPUTE: Api = Api::new("compute", &[
//!     Microversion::new("2.1", "Initial version."),
//!     Microversion::new("2.2", "Keypairs gain a type."),
//!     Microversion::new("2.3", "Servers show their host."),
//! ])
//! .with_legacy_headers(&["X-OpenStack-Nova-API-Version"]);
//!
//! const V2_2: Version = Version::lit("2.2");
//! const V2_3: Version = Version::lit("2.3");
//!
//! // 2. A handler whose answer depends on the version (Nova's `req.api_version_request.matches`).
//! async fn show_server(version: ApiVersion, id: web::Path<u32>) -> HttpResponse {
//!     let mut server = json!({"id": *id});
//!     if version.matches(Some(V2_3), None) {
//!         server["host"] = json!("compute-1");
//!     }
//!     HttpResponse::Ok().json(json!({"server": server}))
//! }
//!
//! // An operation that does not exist before 2.2 answers 404, as in Nova.
//! async fn keypair_types(version: ApiVersion) -> Result<HttpResponse, ApiError> {
//!     if version < V2_2 {
//!         return Err(ApiError::method_not_at_version(version.version(), StatusCode::NOT_FOUND));
//!     }
//!     Ok(HttpResponse::Ok().json(json!({"types": ["ssh", "x509"]})))
//! }
//!
//! // 3. A schema-validated handler: schemas per version range, compiled once.
//! static CREATE_SERVER: LazyLock<VersionedSchemas> = LazyLock::new(|| {
//!     VersionedSchemas::compile(&[SchemaSource {
//!         name: "create_server_v2_1",
//!         range: VersionRange::from(Version::lit("2.1")),
//!         schema: || json!({
//!             "type": "object", "required": ["server"],
//!             "properties": {"server": {"type": "object", "required": ["name"],
//!                 "properties": {"name": {"type": "string", "minLength": 1}}}}
//!         }),
//!     }])
//!     .expect("server schemas are valid")
//! });
//!
//! async fn create_server(version: ApiVersion, body: Json<serde_json::Value>) -> Result<HttpResponse, ApiError> {
//!     CREATE_SERVER.validate(version.version(), &body)?;
//!     Ok(HttpResponse::Accepted().json(json!({"server": {"name": body["server"]["name"]}})))
//! }
//!
//! // 4. The app: discovery at the root (registered first, outside the
//! //    middleware), the versioned API in its own scope.
//! fn app() -> App<impl actix_web::dev::ServiceFactory<
//!     actix_web::dev::ServiceRequest, Config = (), Error = actix_web::Error, InitError = (),
//!     Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>,
//! >> {
//!     LazyLock::force(&CREATE_SERVER); // an invalid schema stops start-up, not a request
//!     App::new()
//!         .service(Discovery::new(&[COMPUTE]))
//!         .service(
//!             web::scope("/v2.1")
//!                 .wrap(VersionNegotiation::new(COMPUTE))
//!                 .route("/servers/{id}", web::get().to(show_server))
//!                 .route("/servers", web::post().to(create_server))
//!                 .route("/os-keypair-types", web::get().to(keypair_types)),
//!         )
//! }
//!
//! # actix_web::rt::System::new().block_on(async {
//! use microversion_actix::test::{call_at, header, read_json};
//! let app = test::init_service(app()).await;
//!
//! let res = call_at(&app, &COMPUTE, "2.3", test::TestRequest::get().uri("/v2.1/servers/1")).await;
//! assert_eq!(header(&res, "OpenStack-API-Version").as_deref(), Some("compute 2.3"));
//! assert_eq!(header(&res, "X-OpenStack-Nova-API-Version").as_deref(), Some("2.3"));
//! assert_eq!(read_json(res).await["server"]["host"], "compute-1");
//!
//! let res = call_at(&app, &COMPUTE, "2.1", test::TestRequest::get().uri("/v2.1/os-keypair-types")).await;
//! assert_eq!(res.status(), StatusCode::NOT_FOUND);
//!
//! let res = call_at(&app, &COMPUTE, "2.9", test::TestRequest::get().uri("/v2.1/servers/1")).await;
//! assert_eq!(res.status(), StatusCode::NOT_ACCEPTABLE);
//! assert_eq!(read_json(res).await["errors"][0]["detail"],
//!            "Version 2.9 is not supported by the API. Minimum is 2.1 and maximum is 2.3.");
//!
//! let bad = test::TestRequest::post().uri("/v2.1/servers").set_json(json!({"server": {"name": ""}}));
//! let res = call_at(&app, &COMPUTE, "2.2", bad).await;
//! assert_eq!(res.status(), StatusCode::BAD_REQUEST);
//! assert_eq!(read_json(res).await["errors"][0]["violations"][0]["path"], "/server/name");
//!
//! let doc = read_json(test::call_service(&app, test::TestRequest::get().uri("/").to_request()).await).await;
//! assert_eq!(doc["versions"][0]["version"], "2.3");
//! # });
//! ```
//!
//! # Notes
//!
//! - Wrap the API's scope, not the whole app: discovery ignores version
//!   headers and must stay outside the middleware.
//! - Without the middleware, [`ApiVersion`] negotiates from an [`Api`] in app
//!   data (`.app_data(API)`), but then no response carries version headers.
//! - A deployer cap ([`Api::capped_at`] or [`VersionNegotiation::capped_at`]) lowers the
//!   served maximum; 406, `latest` and discovery follow it.
//!
//! # Features
//!
//! None is on by default.
//!
//! | feature | what it adds |
//! | --- | --- |
//! | `openapi` | the [`openapi`] module: an OpenAPI 3.1 document per served version and one for the whole history, served and checked against committed copies |
//! | `metrics` | per-version request counts (`microversion_requests_total`) through the `metrics` facade |
//! | `tracing` | a span per request carrying the negotiated version |
//!
//! Requires Rust 1.95 or later.

#![cfg_attr(docsrs, feature(doc_cfg))]

mod api_version;
pub mod body;
pub mod client;
mod client_default;
pub mod discovery;
pub mod error;
mod format;
pub mod header;
pub mod lifecycle;
pub mod middleware;
pub mod model;
#[cfg(feature = "openapi")]
pub mod openapi;
pub mod operation;
pub mod params;
mod public_url;
mod response_validation;
mod route;
pub mod schema;
pub mod test;
pub mod version;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;
// Named here so that rustc's diagnostics about a route's argument or
// answer name the trait by its bare name, not by the hidden module.
#[doc(hidden)]
pub use __private::{RouteArgument, RouteResponse};

pub use api_version::ApiVersion;
pub use body::{Json, JsonQuery};
pub use discovery::Discovery;
pub use error::ApiError;
/// The arguments and answers of a controller that every facade serves
/// (docs/reference.md §4.8).
pub use microversion_core::portable;
pub use microversion_core::{Api, Microversion, Version};
pub use middleware::VersionNegotiation;
pub use model::{Versioned, VersionedModel};

/// ```
/// use microversion_actix::{Api, Microversion, controller};
///
/// const API: Api = Api::new("compute", &[Microversion::new("2.1", "a"), Microversion::new("2.2", "b")]);
/// struct Flavors;
///
/// #[controller(api = API)]
/// impl Flavors {
///     #[get("/flavors")]
///     #[api_version("2.1", "2.1")]
///     async fn list(&self) -> &'static str { "[]" }
///
///     #[get("/flavors")]
///     #[api_version("2.2")]
///     async fn list(&self) -> &'static str { "[ ]" }
/// }
/// # let _ = actix_web::App::new().service(Flavors);
/// ```
#[doc(inline)]
pub use microversion_macros::controller;

#[doc(inline)]
pub use microversion_macros::{VersionedModel, api_version, schema};

/// ```
/// use microversion_actix::{Api, Version, history};
///
/// const VOLUME: Api = Api::new("volume", history![
///     "3.0" => "Initial version.",
///     "3.1" => "Volumes show their type.",
/// ]);
/// assert_eq!(VOLUME.max(), Version::lit("3.1"));
/// ```
///
/// ```compile_fail
/// use microversion_actix::{Api, history};
///
/// // error: invalid version "3.O" in the history: a version must be MAJOR.MINOR: ...
/// const VOLUME: Api = Api::new("volume", history!["3.0" => "Initial.", "3.O" => "Types."]);
/// ```
#[doc(inline)]
pub use microversion_macros::history;

/// The guide in `docs/`, compiled as doctests so that its snippets stay true.
#[cfg(doctest)]
mod guide {
    macro_rules! chapters {
        ($($name:ident = $file:literal),* $(,)?) => {$(
            #[doc = include_str!(concat!("../../docs/", $file))]
            struct $name;
        )*};
    }
    #[doc = include_str!("../../README.md")]
    struct Readme;

    chapters! {
        GettingStarted = "01-getting-started.md",
        DeclaringAnApi = "02-declaring-an-api.md",
        Controllers = "03-controllers.md",
        VersionedHelpers = "04-versioned-helpers.md",
        InHandlerChecks = "05-in-handler-checks.md",
        Schemas = "06-schemas.md",
        Models = "07-models.md",
        Errors = "08-errors.md",
        Discovery = "09-discovery.md",
        ClientNegotiation = "10-client-negotiation.md",
        Testing = "11-testing.md",
        Deploying = "12-deploying.md",
        NeedAMicroversion = "13-do-i-need-a-microversion.md",
        FromNova = "14-from-nova.md",
        Diagnostics = "15-diagnostics.md",
        DescribingTheApi = "17-describing-the-api.md",
        VersionsLife = "18-a-versions-life.md",
    }
}
