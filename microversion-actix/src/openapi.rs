//! The API described: OpenAPI 3.1 documents built from the same declarations
//! the dispatch is built from (docs/reference.md §14), the core's, served
//! here by [`OpenApiService`].
//!
//! - [`ApiDescription::document`]: one document per version, with exactly
//!   the operations, parameters, bodies and responses live at that version;
//! - [`ApiDescription::history_document`]: one document for the whole
//!   history in OpenStack's encoding, the one OpenStack's SDK and CLI
//!   generators read;
//! - [`OpenApiService`]: serves them, each rendered once;
//! - [`check_released`]: fails when the document of a released version
//!   changes, against committed copies.
//!
//! ```
//! use microversion_actix::openapi::ApiDescription;
//! use microversion_actix::{Api, Json, Version, controller, history, error::NovaFaults};
//! use serde_json::{Value, json};
//!
//! const API: Api = Api::new("compute", history!["2.1" => "Initial.", "2.2" => "Renames."]);
//!
//! fn rename() -> Value {
//!     json!({"type": "object", "required": ["name"]})
//! }
//!
//! struct Servers;
//!
//! #[controller(api = API)]
//! impl Servers {
//!     #[put("/servers/{id}")]
//!     #[api_version("2.2")]
//!     #[schema(rename, "2.2")]
//!     #[response(200)]
//!     #[errors(404, 409)]
//!     async fn rename(&self, body: Json<Value>) -> Json<Value> {
//!         body
//!     }
//! }
//!
//! let description = ApiDescription::new(API).with_prefix("/v2.1").controller::<Servers>().with_error_format(&NovaFaults::default());
//! let at_2_1 = description.document(Version::lit("2.1"));
//! assert_eq!(at_2_1["paths"], json!({}));
//! let at_2_2 = description.document(Version::lit("2.2"));
//! assert_eq!(at_2_2["info"]["version"], "2.2");
//! let rename = &at_2_2["paths"]["/v2.1/servers/{id}"]["put"];
//! assert!(rename["requestBody"].is_object());
//! // The success status, what the framework answers (the version header,
//! // the body, 404 at 2.1, which has no rename), and the declared errors.
//! let statuses: Vec<&str> = rename["responses"].as_object().unwrap().keys().map(String::as_str).collect();
//! assert_eq!(statuses, ["200", "400", "404", "406", "408", "409", "413", "415", "500"]);
//! assert_eq!(rename["responses"]["409"]["content"]["application/json"]["schema"]["$ref"], "#/components/schemas/Error");
//! ```

use std::sync::Arc;

use actix_web::dev::{AppService, HttpServiceFactory};
use actix_web::http::header;
use actix_web::{HttpRequest, web};

use crate::header::ActixHeaders;

pub use microversion_core::openapi::*;

/// The settings of the API's documents as served, the core's
/// [`OpenApiSettings`](microversion_core::openapi::OpenApiSettings) over
/// actix's headers: every route, builder and default is documented there.
pub type OpenApiSettings = microversion_core::openapi::OpenApiSettings<ActixHeaders>;

/// The routes serving an [`OpenApiSettings`] on actix, beside
/// [`Discovery`](crate::Discovery): `App::new().service(OpenApiService::new(settings))`,
/// or `new(description)` for the defaults.
///
/// ```
/// use actix_web::{App, test};
/// use microversion_actix::openapi::{ApiDescription, OpenApiService, OpenApiSettings};
/// use microversion_actix::{Api, history};
///
/// const API: Api = Api::new("compute", history!["2.1" => "Initial.", "2.2" => "More."]);
///
/// # actix_web::rt::System::new().block_on(async {
/// let app = test::init_service(App::new().service(OpenApiService::new(ApiDescription::new(API)))).await;
/// let req = test::TestRequest::get().uri("/openapi.json?version=2.1").to_request();
/// let doc: serde_json::Value = test::call_and_read_body_json(&app, req).await;
/// assert_eq!(doc["info"]["version"], "2.1");
/// let res = test::call_service(&app, test::TestRequest::get().uri("/openapi.json?version=2.9").to_request()).await;
/// assert_eq!(res.status(), 406);
/// // With the reference pages.
/// let documents = OpenApiService::new(OpenApiSettings::new(ApiDescription::new(API)).with_reference());
/// let app = test::init_service(App::new().service(documents)).await;
/// let res = test::call_service(&app, test::TestRequest::get().uri("/docs/2.2").to_request()).await;
/// assert_eq!(res.status(), 200);
/// # });
/// ```
#[derive(Clone, Debug)]
pub struct OpenApiService(OpenApiSettings);

impl OpenApiService {
    /// The routes serving `settings`, or an [`ApiDescription`] with every default.
    pub fn new(settings: impl Into<OpenApiSettings>) -> OpenApiService {
        OpenApiService(settings.into())
    }
}

impl HttpServiceFactory for OpenApiService {
    fn register(self, config: &mut AppService) {
        let served = Arc::new(self.0.serve());
        let reference = served.serves_reference();
        // One route per path, each answering its kind of request.
        let route = |request: fn(&HttpRequest) -> DocumentRequest<'_>| {
            let served = Arc::clone(&served);
            web::get().to(move |req: HttpRequest| {
                let served = Arc::clone(&served);
                async move {
                    let if_none_match =
                        req.headers().get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok());
                    served.answer(request(&req), req.query_string(), if_none_match)
                }
            })
        };
        if reference {
            for path in ["/docs/", "/docs/{version}"] {
                web::resource(path)
                    .route(route(|req| DocumentRequest::Reference(req.match_info().get("version"))))
                    .register(config);
            }
            web::resource("/docs/{version}/changes")
                .route(route(|req| {
                    DocumentRequest::Changes(req.match_info().get("version").unwrap_or_default())
                }))
                .register(config);
            web::resource("/docs")
                .route(web::get().to(|| async { ServedDocuments::<ActixHeaders>::moved_to_docs() }))
                .register(config);
        }
        web::resource("/openapi.json").route(route(|_| DocumentRequest::Document)).register(config);
        web::resource("/openapi-history.json").route(route(|_| DocumentRequest::History)).register(config);
    }
}
