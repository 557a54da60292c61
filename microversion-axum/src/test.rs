//! Helpers for testing a versioned service in-process, with the same names
//! as `microversion_actix::test`: a request at a version, a call at a
//! version, a header, a JSON body.
//!
//! ```
//! use axum::{Router, routing::get};
//! use microversion_axum::test::{call_at, header, read_json, versioned_request};
//! use microversion_axum::{Api, ApiVersion, Microversion, Native, VersionNegotiation};
//!
//! const API: Api = Api::new("compute", &[
//!     Microversion::new("2.1", "Initial version."),
//!     Microversion::new("2.2", "Keypairs gain a type."),
//! ]);
//!
//! async fn show(Native(version): Native<ApiVersion>) -> axum::Json<serde_json::Value> {
//!     axum::Json(serde_json::json!({"at": version.to_string()}))
//! }
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let app = Router::new().route("/v2.1/x", get(show)).layer(VersionNegotiation::new(API));
//!
//! let res = call_at(&app, &API, "2.2", versioned_request(&API, "2.1").uri("/v2.1/x")).await;
//! assert_eq!(header(&res, "OpenStack-API-Version").as_deref(), Some("compute 2.2"));
//! assert_eq!(read_json(res).await["at"], "2.2");
//! # });
//! ```

use axum::body::Body;
use axum::response::Response;
use http::request::Builder;
use http_body_util::BodyExt as _;
use tower::ServiceExt as _;

use crate::{Api, header::STANDARD_HEADER};

/// Adds the version header to an `http::request::Builder`.
pub trait TestRequestExt {
    /// Asks for `version` (a version or `latest`) of `api` with the standard
    /// header: `OpenStack-API-Version: <service> <version>`, replacing one
    /// set before.
    fn api_version(self, api: &Api, version: &str) -> Builder;
}

impl TestRequestExt for Builder {
    fn api_version(mut self, api: &Api, version: &str) -> Builder {
        let value = format!("{} {version}", api.service_type());
        if let Some(headers) = self.headers_mut() {
            headers.remove(STANDARD_HEADER);
        }
        self.header(STANDARD_HEADER, value)
    }
}

/// A GET request asking for `version` of `api`; set the method, URI and
/// headers on the result as usual.
pub fn versioned_request(api: &Api, version: &str) -> Builder {
    http::Request::get("/").api_version(api, version)
}

/// Sends `request` (without a body) to `app` at `version` of `api` and
/// returns the answer. Panics if the request cannot be built (this is a
/// test helper).
pub async fn call_at(app: &impl crate::serve::App, api: &Api, version: &str, request: Builder) -> Response {
    let request = request.api_version(api, version).body(Body::empty()).expect("a valid test request");
    app.clone().oneshot(request).await.unwrap_or_else(|infallible| match infallible {})
}

/// The values of header `name`, joined with `", "`, or `None` if absent or not text.
pub fn header(response: &Response, name: &str) -> Option<String> {
    let values: Option<Vec<&str>> =
        response.headers().get_all(name).iter().map(|v| v.to_str().ok()).collect();
    values.filter(|v| !v.is_empty()).map(|v| v.join(", "))
}

/// The body of `response` parsed as JSON. Panics with the body text if it
/// is not JSON, or cannot be read (this is a test helper).
pub async fn read_json(response: Response) -> serde_json::Value {
    let bytes = response.into_body().collect().await.expect("a readable body").to_bytes();
    serde_json::from_slice(&bytes)
        .unwrap_or_else(|e| panic!("the body is not JSON ({e}): {:?}", String::from_utf8_lossy(&bytes)))
}
