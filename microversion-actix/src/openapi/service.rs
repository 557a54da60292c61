//! `OpenApiService`: the documents over HTTP, built once at start-up.

use std::sync::Arc;

use actix_web::dev::{AppService, HttpServiceFactory};
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, web};

use microversion_core::openapi::{
    DOCUMENT_CACHE_CONTROL, DocumentRefusal, Documents, RenderedDocument, requested_version,
};

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
/// - `GET /openapi-history.json`: the whole history in OpenStack's encoding;
/// - with [`OpenApiService::with_reference`], `GET /docs/` and
///   `GET /docs/2.61`: the API reference of the newest and of that version
///   as one self-contained HTML page (docs/reference.md §14.8).
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
    reference: bool,
}

/// The answer of a rendered document: 304 when `If-None-Match` names it.
fn respond(document: &RenderedDocument, req: &HttpRequest) -> HttpResponse {
    respond_as(document, req, "application/json")
}

/// The answer of a rendered document of `content_type`.
fn respond_as(document: &RenderedDocument, req: &HttpRequest, content_type: &'static str) -> HttpResponse {
    let if_none_match = req.headers().get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok());
    let matches = document.matches(if_none_match);
    let mut res = if matches { HttpResponse::NotModified() } else { HttpResponse::Ok() };
    res.insert_header((header::ETAG, document.etag()))
        .insert_header((header::CACHE_CONTROL, HeaderValue::from_static(DOCUMENT_CACHE_CONTROL)));
    if matches { res.finish() } else { res.content_type(content_type).body(document.body().to_owned()) }
}

impl OpenApiService {
    /// Serves the documents of `description`, errors as API-SIG errors.
    pub fn new(description: ApiDescription) -> OpenApiService {
        let errors = ErrorRenderer::default().with_service(description.api().service_type());
        OpenApiService { description, errors, reference: false }
    }

    /// Serves the API reference too: `GET /docs/` (the newest served
    /// version, or `?version=`), `GET /docs/2.61`, and `/docs` sent on to
    /// `/docs/` (docs/reference.md §14.8).
    pub fn with_reference(mut self) -> OpenApiService {
        self.reference = true;
        self
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

/// The answer to `GET /docs/` (`?version=`) or `GET /docs/{version}`.
fn reference_page(documents: &Documents, errors: &ErrorRenderer, req: &HttpRequest) -> HttpResponse {
    let named = req.match_info().get("version").map(str::to_owned);
    let requested = named.or_else(|| requested_version(req.query_string()));
    match documents.reference_page(requested.as_deref()) {
        Ok(page) => respond_as(page, req, "text/html; charset=utf-8"),
        Err(refusal) => refused(refusal, errors),
    }
}

/// A version no document answers, refused as negotiation refuses it.
fn refused(refusal: DocumentRefusal, errors: &ErrorRenderer) -> HttpResponse {
    match refusal {
        DocumentRefusal::Version(refusal) => errors.render(&ApiError::from(refusal)),
        DocumentRefusal::Missing(version) => {
            errors.render(&ApiError::not_found(format!("No document for version {version}.")))
        }
    }
}

/// The answer to `GET /openapi.json?version=...`.
fn version_document(documents: &Documents, errors: &ErrorRenderer, req: &HttpRequest) -> HttpResponse {
    let requested = requested_version(req.query_string());
    match documents.at(requested.as_deref()) {
        Ok(document) => respond(document, req),
        Err(refusal) => refused(refusal, errors),
    }
}

impl HttpServiceFactory for OpenApiService {
    fn register(self, config: &mut AppService) {
        let documents = Arc::new(Documents::new(self.description));
        let errors = Arc::new(self.errors);
        let one = Arc::clone(&documents);
        if self.reference {
            for path in ["/docs/", "/docs/{version}"] {
                let (documents, errors) = (Arc::clone(&documents), Arc::clone(&errors));
                web::resource(path)
                    .route(web::get().to(move |req: HttpRequest| {
                        let (documents, errors) = (Arc::clone(&documents), Arc::clone(&errors));
                        async move { reference_page(&documents, &errors, &req) }
                    }))
                    .register(config);
            }
            web::resource("/docs")
                .route(web::get().to(|| async {
                    HttpResponse::PermanentRedirect().insert_header((header::LOCATION, "docs/")).finish()
                }))
                .register(config);
        }
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
