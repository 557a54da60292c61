//! The API described (docs/reference.md §14): the core's OpenAPI documents,
//! served on axum by [`OpenApiService`] as the actix facade serves them.

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use axum::response::Response;
use axum::routing::get;
use http::StatusCode;
use http::header::{self, HeaderValue};
use microversion_core::openapi::DOCUMENT_CACHE_CONTROL;
pub use microversion_core::openapi::{
    ApiDescription, BLESS_VARIABLE, CONVERSION_NOTE, Change, DocumentRefusal, Documents, OPENAPI_3_0,
    OpenApiVersion, RenderedDocument, check_released, check_released_as, check_released_blessing,
    classify_changes, requested_version, to_openapi_3_0,
};
use microversion_core::{ApiSigErrors, ErrorFormat};

use crate::ApiError;

/// The API's documents as an axum `Router`, beside discovery:
///
/// - `GET /openapi.json`: the newest served version's document;
///   `?version=2.61` that version's (400 for a malformed version, 406 for
///   one the API does not serve, as negotiation answers them);
/// - `GET /openapi-history.json`: the whole history in OpenStack's encoding;
/// - with [`OpenApiService::with_reference`], `GET /docs/` and
///   `GET /docs/2.61`: the API reference of the newest and of that version
///   as one self-contained HTML page (docs/reference.md §14.8).
///
/// Each document is rendered once, on its first request, with a strong
/// `ETag` (a matching `If-None-Match` gets 304) and `Cache-Control: public,
/// max-age=300`.
///
/// ```
/// use axum::Router;
/// use microversion_axum::openapi::{ApiDescription, OpenApiService};
/// use microversion_axum::{Api, Microversion, error::NovaFaults};
///
/// const API: Api = Api::new("compute", &[Microversion::new("2.1", "Initial."), Microversion::new("2.2", "More.")]);
/// let documents = OpenApiService::new(ApiDescription::new(API)).with_error_format(NovaFaults::default());
/// let app: Router = Router::from(documents);
/// ```
#[derive(Clone)]
pub struct OpenApiService {
    description: ApiDescription,
    format: Arc<dyn ErrorFormat>,
    reference: bool,
}

impl std::fmt::Debug for OpenApiService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenApiService").field("api", self.description.api()).finish_non_exhaustive()
    }
}

impl OpenApiService {
    /// Serves the documents of `description`, errors as API-SIG errors.
    pub fn new(description: ApiDescription) -> OpenApiService {
        OpenApiService { description, format: Arc::new(ApiSigErrors), reference: false }
    }

    /// Serves the API reference too: `GET /docs/` (the newest served
    /// version, or `?version=`), `GET /docs/2.61`, and `/docs` sent on to
    /// `/docs/` (docs/reference.md §14.8).
    pub fn with_reference(mut self) -> OpenApiService {
        self.reference = true;
        self
    }

    /// Renders its 400 and 406 in `format` (the API's own).
    pub fn with_error_format(mut self, format: impl ErrorFormat) -> OpenApiService {
        self.format = Arc::new(format);
        self
    }
}

/// The answer of a rendered document: 304 when `If-None-Match` names it.
fn respond(document: &RenderedDocument, req: &Request) -> Response {
    respond_as(document, req, "application/json")
}

/// The answer of a rendered document of `content_type`.
fn respond_as(document: &RenderedDocument, req: &Request, content_type: &'static str) -> Response {
    let if_none_match = req.headers().get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok());
    let matches = document.matches(if_none_match);
    let mut res = if matches {
        let mut res = Response::new(Body::empty());
        *res.status_mut() = StatusCode::NOT_MODIFIED;
        res
    } else {
        let mut res = Response::new(Body::from(document.body().to_owned()));
        res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
        res
    };
    let headers = res.headers_mut();
    if let Ok(etag) = HeaderValue::from_str(document.etag()) {
        headers.insert(header::ETAG, etag);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(DOCUMENT_CACHE_CONTROL));
    res
}

/// A version no document answers, refused as negotiation refuses it.
fn refused(refusal: DocumentRefusal) -> ApiError {
    match refusal {
        DocumentRefusal::Version(refusal) => ApiError::from(refusal),
        DocumentRefusal::Missing(version) => {
            ApiError::not_found(format!("No document for version {version}."))
        }
    }
}

impl<S: Clone + Send + Sync + 'static> From<OpenApiService> for Router<S> {
    fn from(service: OpenApiService) -> Router<S> {
        let service_type = service.description.api().service_type();
        let documents = Arc::new(Documents::new(service.description));
        let format = service.format;
        let (one, pages, page_format) = (Arc::clone(&documents), Arc::clone(&documents), Arc::clone(&format));
        let router = Router::new()
            .route(
                "/openapi.json",
                get(move |req: Request| async move {
                    match one.at(requested_version(req.uri().query().unwrap_or_default()).as_deref()) {
                        Ok(document) => respond(document, &req),
                        Err(refusal) => refused(refusal).render(&*format, Some(service_type)),
                    }
                }),
            )
            .route(
                "/openapi-history.json",
                get(move |req: Request| async move { respond(documents.history(), &req) }),
            );
        if !service.reference {
            return router;
        }
        let page = move |req: Request| async move {
            let named = req.uri().path().strip_prefix("/docs/").filter(|v| !v.is_empty()).map(str::to_owned);
            let requested = named.or_else(|| requested_version(req.uri().query().unwrap_or_default()));
            match pages.reference_page(requested.as_deref()) {
                Ok(page) => respond_as(page, &req, "text/html; charset=utf-8"),
                Err(refusal) => refused(refusal).render(&*page_format, Some(service_type)),
            }
        };
        let moved = || async {
            let mut res = Response::new(Body::empty());
            *res.status_mut() = StatusCode::PERMANENT_REDIRECT;
            res.headers_mut().insert(header::LOCATION, HeaderValue::from_static("docs/"));
            res
        };
        router
            .route("/docs", get(moved))
            .route("/docs/", get(page.clone()))
            .route("/docs/{version}", get(page))
    }
}
