//! Helpers for testing a versioned service in-process with `actix_web::test`.
//!
//! ```
//! use actix_web::{test, web, App, HttpResponse};
//! use microversion_actix::test::{call_at, header, read_json, versioned_request};
//! use microversion_actix::{Api, ApiVersion, Microversion, Native, VersionNegotiation};
//!
//! const API: Api = Api::new("compute", &[
//!     Microversion::new("2.1", "Initial version."),
//!     Microversion::new("2.2", "Keypairs gain a type."),
//! ]);
//!
//! async fn show(Native(version): Native<ApiVersion>) -> HttpResponse {
//!     HttpResponse::Ok().json(serde_json::json!({"at": version.to_string()}))
//! }
//!
//! # actix_web::rt::System::new().block_on(async {
//! let app = test::init_service(
//!     App::new().service(web::scope("/v2.1").wrap(VersionNegotiation::new(API)).route("/x", web::get().to(show))),
//! ).await;
//!
//! let res = test::call_service(&app, versioned_request(&API, "2.2").uri("/v2.1/x").to_request()).await;
//! assert_eq!(header(&res, "OpenStack-API-Version").as_deref(), Some("compute 2.2"));
//! assert_eq!(read_json(res).await["at"], "2.2");
//!
//! let res = call_at(&app, &API, "2.1", test::TestRequest::get().uri("/v2.1/x")).await;
//! assert_eq!(read_json(res).await["at"], "2.1");
//! # });
//! ```

use actix_web::body::MessageBody;
use actix_web::dev::{Service, ServiceResponse};
use actix_web::test::TestRequest;

use crate::{Api, header::STANDARD_HEADER};

/// Adds the version header to an `actix_web::test::TestRequest`.
pub trait TestRequestExt {
    /// Asks for `version` (a version or `latest`) of `api` with the standard
    /// header: `OpenStack-API-Version: <service> <version>`.
    fn api_version(self, api: &Api, version: &str) -> TestRequest;
}

impl TestRequestExt for TestRequest {
    fn api_version(self, api: &Api, version: &str) -> TestRequest {
        self.insert_header((STANDARD_HEADER, format!("{} {version}", api.service_type())))
    }
}

/// A GET request asking for `version` of `api`; set the method, URI and
/// body on the result as usual.
pub fn versioned_request(api: &Api, version: &str) -> TestRequest {
    TestRequest::get().api_version(api, version)
}

/// Sends `request` to `app` at `version` of `api` and returns the response.
/// Panics if the service fails (this is a test helper).
pub async fn call_at<S, B, E>(app: &S, api: &Api, version: &str, request: TestRequest) -> ServiceResponse<B>
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = E>,
    E: std::fmt::Debug,
{
    actix_web::test::call_service(app, request.api_version(api, version).to_request()).await
}

/// The values of header `name`, joined with `", "`, or `None` if absent or not text.
pub fn header<B>(response: &ServiceResponse<B>, name: &str) -> Option<String> {
    let values: Option<Vec<&str>> = response.headers().get_all(name).map(|v| v.to_str().ok()).collect();
    values.filter(|v| !v.is_empty()).map(|v| v.join(", "))
}

/// The body of `response` parsed as JSON. Panics with the body text if it
/// is not JSON (this is a test helper).
pub async fn read_json<B: MessageBody>(response: ServiceResponse<B>) -> serde_json::Value {
    let bytes = actix_web::test::read_body(response).await;
    serde_json::from_slice(&bytes)
        .unwrap_or_else(|e| panic!("the body is not JSON ({e}): {:?}", String::from_utf8_lossy(&bytes)))
}
