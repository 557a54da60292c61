//! The load server's API on axum (`FACADE=axum scripts/instructions.sh`):
//! the answers of [`crate::server`], served plain under `/plain` (axum
//! routes, no versions) and through `microversion-axum` under `/v2.1` (a
//! `#[controller]` with the same variants, the negotiation around its
//! router), each an app of its own, under `/hand` with the framework's
//! contract written by hand ([`crate::hand`]) in plain axum handlers, and
//! under `/floor` with the contract's least cost ([`floor`]).
//!
//! ```
//! use axum::body::Body;
//! use microversion_benches::axum_server::{hand, plain, versioned};
//! use microversion_benches::server::{COMPUTE, VERSION_HEADER};
//! use tower::ServiceExt as _;
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! for path in ["servers/42", "servers/42/model", "servers/detail"] {
//!     let req = |prefix| {
//!         http::Request::get(format!("{prefix}/{path}"))
//!             .header(VERSION_HEADER.0, VERSION_HEADER.1)
//!             .body(Body::empty())
//!             .unwrap()
//!     };
//!     for (app, prefix) in [(plain(), "/plain"), (hand(), "/hand")] {
//!         assert!(app.oneshot(req(prefix)).await.unwrap().status().is_success(), "{prefix}/{path}");
//!     }
//!     let res = versioned(COMPUTE).oneshot(req("/v2.1")).await.unwrap();
//!     assert!(res.status().is_success(), "/v2.1/{path}");
//! }
//! # });
//! ```

use axum::Router;
use axum::extract::Path;
use axum::http::StatusCode;
use axum::http::header::{HeaderMap, HeaderName, HeaderValue, VARY};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use microversion_axum::middleware::VersionNegotiationService;
use microversion_axum::{Api, VersionNegotiation, Versioned, controller};
use serde_json::Value;

use crate::hand::{
    FLOOR_HEADERS, HandVersion, NotText, REFUSAL_HEADERS, Refusal, hand_server, negotiate, show_variant,
    version_headers,
};
use crate::server::{ServerModel, plain_server, server_json, server_model, servers_detail_json};

/// The framework side: the variants of [`crate::server::Servers`].
#[derive(Clone, Copy, Debug, Default)]
pub struct AxumServers;

#[controller(api = crate::server::COMPUTE, axum)]
impl AxumServers {
    #[get("/servers/detail")]
    #[api_version("2.1")]
    async fn detail(&self) -> axum::Json<Value> {
        axum::Json(servers_detail_json())
    }

    #[get("/servers/{id}")]
    #[api_version("2.1", "2.46")]
    async fn show(&self, id: Path<u32>) -> axum::Json<Value> {
        axum::Json(server_json(id.0))
    }

    #[get("/servers/{id}")]
    #[api_version("2.47")]
    async fn show(&self, id: Path<u32>) -> axum::Json<Value> {
        axum::Json(server_json(id.0))
    }

    #[get("/servers/{id}/model")]
    #[api_version("2.1")]
    async fn model(&self, id: Path<u32>) -> Versioned<ServerModel> {
        Versioned::ok(server_model(id.0))
    }
}

/// `GET /servers/{id}` with the contract's least cost, under `/floor`: the
/// version header read, [`FLOOR_HEADERS`] written; and the same under
/// `/layered`, behind a layer that adds nothing (`Router::layer` of the
/// identity), for what axum's layering of a route costs by itself.
pub fn floor() -> Router {
    const fn header(i: usize) -> (HeaderName, HeaderValue) {
        (HeaderName::from_static(FLOOR_HEADERS[i].0), HeaderValue::from_static(FLOOR_HEADERS[i].1))
    }
    const HEADERS: [(HeaderName, HeaderValue); 3] = [header(0), header(1), header(2)];
    const ASKED: HeaderName = HeaderName::from_static("openstack-api-version");
    let show = |Path(id): Path<u32>, req: axum::extract::Request| async move {
        let mut res = axum::Json(server_json(id)).into_response();
        if req.headers().contains_key(ASKED) {
            for (name, value) in HEADERS {
                res.headers_mut().insert(name, value);
            }
        }
        res
    };
    let route = || Router::new().route("/servers/{id}", get(show));
    Router::new()
        .nest("/floor", route())
        .nest("/layered", route().layer(tower::layer::layer_fn(|route| route)))
}

/// The plain routes, under `/plain`.
pub fn plain() -> Router {
    let routes = Router::new()
        .route("/servers/detail", get(|| async { axum::Json(servers_detail_json()) }))
        .route("/servers/{id}", get(|Path(id): Path<u32>| async move { axum::Json(server_json(id)) }))
        .route("/servers/{id}/model", get(|Path(id): Path<u32>| async move { axum::Json(plain_server(id)) }));
    Router::new().nest("/plain", routes)
}

/// The framework routes under `/v2.1`, negotiated against `api` before
/// they are routed, as an app that is one API installs the negotiation
/// (docs/19-axum.md).
pub fn versioned(api: Api) -> VersionNegotiationService<Router> {
    VersionNegotiation::new(api).around(Router::new().nest("/v2.1", Router::from(AxumServers)))
}

/// The request's header `name`, as [`negotiate`] reads it.
fn hand_header<'a>(headers: &'a HeaderMap, name: &str) -> Option<Result<&'a str, NotText>> {
    headers.get(name).map(|value| value.to_str().map_err(|_| NotText))
}

fn hand_refusal(refusal: Refusal) -> Response {
    let (status, document) = refusal.answer();
    let mut res = (StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST), axum::Json(document))
        .into_response();
    for (name, value) in REFUSAL_HEADERS {
        res.headers_mut().insert(name, HeaderValue::from_static(value));
    }
    res
}

/// The version headers and `Vary` of a negotiated response.
fn hand_headers(res: impl IntoResponse, version: HandVersion) -> Response {
    let mut res = res.into_response();
    let headers = res.headers_mut();
    for (name, value) in version_headers(version) {
        if let Ok(value) = HeaderValue::try_from(value) {
            headers.insert(HeaderName::from_static(name), value);
        }
    }
    headers.append(VARY, HeaderValue::from_static(crate::hand::VARY));
    res
}

async fn hand_detail(headers: HeaderMap) -> Response {
    match negotiate(|name| hand_header(&headers, name)) {
        Ok(version) => hand_headers(axum::Json(servers_detail_json()), version),
        Err(refusal) => hand_refusal(refusal),
    }
}

async fn hand_show(headers: HeaderMap, Path(id): Path<u32>) -> Response {
    let version = match negotiate(|name| hand_header(&headers, name)) {
        Ok(version) => version,
        Err(refusal) => return hand_refusal(refusal),
    };
    let res = match show_variant(version) {
        2 => axum::Json(server_json(id)),
        _ => axum::Json(server_json(id)),
    };
    hand_headers(res, version)
}

async fn hand_model(headers: HeaderMap, Path(id): Path<u32>) -> Response {
    match negotiate(|name| hand_header(&headers, name)) {
        Ok(version) => hand_headers(axum::Json(hand_server(id, version)), version),
        Err(refusal) => hand_refusal(refusal),
    }
}

/// The hand-written routes, under `/hand`.
pub fn hand() -> Router {
    let routes = Router::new()
        .route("/servers/detail", get(hand_detail))
        .route("/servers/{id}", get(hand_show))
        .route("/servers/{id}/model", get(hand_model));
    Router::new().nest("/hand", routes)
}
