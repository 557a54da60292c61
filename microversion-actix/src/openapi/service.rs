//! `OpenApiService`: the documents over HTTP, built once at start-up.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use actix_web::dev::{AppService, HttpServiceFactory};
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, web};

use super::ApiDescription;
use crate::{ApiError, Version, error::ErrorRenderer, version::NegotiationError};

/// The API's documents, served beside [`Discovery`](crate::Discovery):
///
/// - `GET /openapi.json`: the document of the newest served version (the cap
///   included);
/// - `GET /openapi.json?version=2.61`: the document of that version; a
///   malformed version answers 400 and one the API does not serve 406,
///   exactly as negotiation answers them;
/// - `GET /openapi-history.json`: the whole history in OpenStack's encoding.
///
/// Every document is rendered once, on its first request, and kept: an API
/// of 1,000 versions does not pay for 1,000 documents at start-up. Each has
/// a strong `ETag` (a request with a matching `If-None-Match` gets 304) and
/// `Cache-Control: public, max-age=300`.
///
/// ```
/// use actix_web::{App, test};
/// use microversion_actix::openapi::{ApiDescription, OpenApiService};
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
/// # });
/// ```
#[derive(Clone, Debug)]
pub struct OpenApiService {
    description: ApiDescription,
    errors: ErrorRenderer,
}

/// A rendered document and its entity tag.
struct Rendered {
    body: web::Bytes,
    etag: String,
}

impl Rendered {
    fn new(document: &serde_json::Value) -> Rendered {
        let body = web::Bytes::from(document.to_string());
        // FNV-1a: stable across runs and builds, unlike the std hasher.
        let hash = body
            .iter()
            .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3));
        Rendered { body, etag: format!("\"{hash:016x}\"") }
    }

    fn respond(&self, req: &HttpRequest) -> HttpResponse {
        let matches = req
            .headers()
            .get(header::IF_NONE_MATCH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|tags| tags.split(',').any(|t| t.trim() == self.etag || t.trim() == "*"));
        let mut res = if matches { HttpResponse::NotModified() } else { HttpResponse::Ok() };
        res.insert_header((header::ETAG, self.etag.as_str()))
            .insert_header((header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=300")));
        if matches { res.finish() } else { res.content_type("application/json").body(self.body.clone()) }
    }
}

struct Documents {
    by_version: BTreeMap<Version, OnceLock<Rendered>>,
    history: OnceLock<Rendered>,
    description: ApiDescription,
    errors: ErrorRenderer,
}

impl OpenApiService {
    /// Serves the documents of `description`, errors as API-SIG errors.
    pub fn new(description: ApiDescription) -> OpenApiService {
        let errors = ErrorRenderer::default().with_service(description.api().service_type());
        OpenApiService { description, errors }
    }

    /// Renders its 400 and 406 with `errors` (the API's own renderer).
    pub fn with_errors(mut self, errors: ErrorRenderer) -> OpenApiService {
        self.errors = errors;
        self
    }
}

impl Documents {
    fn version(&self, req: &HttpRequest) -> HttpResponse {
        let query = crate::schema::query_to_json(req.query_string());
        let api = self.description.api();
        let requested = query["version"].as_array().and_then(|v| v.last()).and_then(|v| v.as_str());
        let version = match requested {
            None | Some("latest") => api.max(),
            Some(text) => match text.parse::<Version>() {
                Ok(version) if api.serves(version) => version,
                Ok(version) => {
                    let error = NegotiationError::NotAcceptable {
                        requested: version,
                        min: api.min(),
                        max: api.max(),
                    };
                    return self.errors.render(&ApiError::from(error));
                }
                Err(_) => {
                    let shown: String = text.chars().take(crate::header::MAX_ECHOED_BYTES).collect();
                    let error =
                        NegotiationError::Malformed { requested: shown, min: api.min(), max: api.max() };
                    return self.errors.render(&ApiError::from(error));
                }
            },
        };
        match self.by_version.get(&version) {
            Some(cell) => {
                cell.get_or_init(|| Rendered::new(&self.description.document(version))).respond(req)
            }
            None => self.errors.render(&ApiError::not_found(format!("No document for version {version}."))),
        }
    }
}

impl HttpServiceFactory for OpenApiService {
    fn register(self, config: &mut AppService) {
        let description = self.description;
        let by_version = description.versions().map(|v| (v, OnceLock::new())).collect();
        let documents =
            Arc::new(Documents { by_version, history: OnceLock::new(), description, errors: self.errors });
        let one = Arc::clone(&documents);
        web::resource("/openapi.json")
            .route(web::get().to(move |req: HttpRequest| {
                let documents = Arc::clone(&one);
                async move { documents.version(&req) }
            }))
            .register(config);
        web::resource("/openapi-history.json")
            .route(web::get().to(move |req: HttpRequest| {
                let documents = Arc::clone(&documents);
                async move {
                    let history = documents
                        .history
                        .get_or_init(|| Rendered::new(&documents.description.history_document()));
                    history.respond(&req)
                }
            }))
            .register(config);
    }
}
