//! The load server's API on axum (`FACADE=axum scripts/instructions.sh`):
//! the answers of [`crate::server`], served plain under `/plain` (axum
//! routes, no versions) and through `microversion-axum` under `/v2.1` (the
//! layer, a `#[controller]` with the same variants), each a router of its
//! own. There is no hand-written side: the contract by hand is measured on
//! actix.
//!
//! ```
//! use axum::body::Body;
//! use microversion_benches::axum_server::{plain, versioned};
//! use microversion_benches::server::{COMPUTE, VERSION_HEADER};
//! use tower::ServiceExt as _;
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! for (app, prefix) in [(plain(), "/plain"), (versioned(COMPUTE), "/v2.1")] {
//!     for path in ["servers/42", "servers/42/model", "servers/detail"] {
//!         let req = http::Request::get(format!("{prefix}/{path}"))
//!             .header(VERSION_HEADER.0, VERSION_HEADER.1)
//!             .body(Body::empty())
//!             .unwrap();
//!         let res = app.clone().oneshot(req).await.unwrap();
//!         assert!(res.status().is_success(), "{prefix}/{path}");
//!     }
//! }
//! # });
//! ```

use axum::Router;
use axum::extract::Path;
use axum::routing::get;
use microversion_axum::{Api, VersionNegotiation, Versioned, controller};
use serde_json::Value;

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

/// The plain routes, under `/plain`.
pub fn plain() -> Router {
    let routes = Router::new()
        .route("/servers/detail", get(|| async { axum::Json(servers_detail_json()) }))
        .route("/servers/{id}", get(|Path(id): Path<u32>| async move { axum::Json(server_json(id)) }))
        .route("/servers/{id}/model", get(|Path(id): Path<u32>| async move { axum::Json(plain_server(id)) }));
    Router::new().nest("/plain", routes)
}

/// The framework routes under `/v2.1`, negotiated against `api`.
pub fn versioned(api: Api) -> Router {
    Router::new().nest("/v2.1", Router::from(AxumServers).layer(VersionNegotiation::new(api)))
}
