//! `OpenApiService`: the documents over HTTP, built once at start-up.

use std::sync::Arc;

use actix_web::dev::{AppService, HttpServiceFactory};
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, web};

use microversion_core::openapi::{DOCUMENT_CACHE_CONTROL, DocumentRefusal, Documents, RenderedDocument};

use super::ApiDescription;
use crate::ApiError;
use crate::error::{ErrorFormat, ErrorRenderer};

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

/// The answer of a rendered document: 304 when `If-None-Match` names it.
fn respond(document: &RenderedDocument, req: &HttpRequest) -> HttpResponse {
    let if_none_match = req.headers().get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok());
    let matches = document.matches(if_none_match);
    let mut res = if matches { HttpResponse::NotModified() } else { HttpResponse::Ok() };
    res.insert_header((header::ETAG, document.etag()))
        .insert_header((header::CACHE_CONTROL, HeaderValue::from_static(DOCUMENT_CACHE_CONTROL)));
    if matches { res.finish() } else { res.content_type("application/json").body(document.body().to_owned()) }
}

impl OpenApiService {
    /// Serves the documents of `description`, errors as API-SIG errors.
    pub fn new(description: ApiDescription) -> OpenApiService {
        let errors = ErrorRenderer::default().with_service(description.api().service_type());
        OpenApiService { description, errors }
    }

    /// Renders its 400 and 406 in `format` (the API's own), as on axum.
    pub fn with_error_format(mut self, format: impl ErrorFormat) -> OpenApiService {
        self.errors = ErrorRenderer::new(format).with_service(self.description.api().service_type());
        self
    }

    /// Renders its 400 and 406 with `errors` (the API's own renderer, whose
    /// version header names it keeps too).
    pub fn with_error_renderer(mut self, errors: ErrorRenderer) -> OpenApiService {
        self.errors = errors;
        self
    }
}

/// The answer to `GET /openapi.json?version=...`.
fn version_document(documents: &Documents, errors: &ErrorRenderer, req: &HttpRequest) -> HttpResponse {
    let query = crate::schema::query_to_json(req.query_string());
    let requested = query["version"].as_array().and_then(|v| v.last()).and_then(|v| v.as_str());
    match documents.at(requested) {
        Ok(document) => respond(document, req),
        Err(DocumentRefusal::Version(refusal)) => errors.render(&ApiError::from(refusal)),
        Err(DocumentRefusal::Missing(version)) => {
            errors.render(&ApiError::not_found(format!("No document for version {version}.")))
        }
    }
}

impl HttpServiceFactory for OpenApiService {
    fn register(self, config: &mut AppService) {
        let documents = Arc::new(Documents::new(self.description));
        let errors = Arc::new(self.errors);
        let one = Arc::clone(&documents);
        web::resource("/openapi.json")
            .route(web::get().to(move |req: HttpRequest| {
                let (documents, errors) = (Arc::clone(&one), Arc::clone(&errors));
                async move { version_document(&documents, &errors, &req) }
            }))
            .register(config);
        web::resource("/openapi-history.json")
            .route(web::get().to(move |req: HttpRequest| {
                let documents = Arc::clone(&documents);
                async move { respond(documents.history(), &req) }
            }))
            .register(config);
    }
}
