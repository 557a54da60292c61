//! The API described (docs/reference.md §14): the core's OpenAPI documents,
//! served on axum by [`OpenApiService`] as the actix facade serves them.

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use axum::response::Response;
use axum::routing::get;
use http::StatusCode;
use http::header::{self, HeaderName, HeaderValue};
pub use microversion_core::openapi::{
    ApiDescription, BLESS_VARIABLE, CONVERSION_NOTE, Change, DocumentAnswer, DocumentRefusal,
    DocumentRequest, Documents, OPENAPI_3_0, OpenApiVersion, RenderedDocument, check_released,
    check_released_as, check_released_blessing, classify_changes, requested_version, to_openapi_3_0,
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

/// The core's answer to `request` (docs/reference.md §14), as axum's: the
/// document, a 304, or the refusal in `format`.
fn answer(
    documents: &Documents,
    format: &dyn ErrorFormat,
    req: &Request,
    request: DocumentRequest<'_>,
) -> Response {
    let if_none_match = req.headers().get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok());
    let service_type = documents.description().api().service_type();
    match documents.answer(request, req.uri().query().unwrap_or_default(), if_none_match) {
        Ok(answer) => {
            let mut res =
                Response::new(answer.body().map_or_else(Body::empty, |body| Body::from(body.to_owned())));
            *res.status_mut() = StatusCode::from_u16(answer.status()).unwrap_or(StatusCode::OK);
            for (name, value) in answer.headers() {
                if let Ok(value) = HeaderValue::from_str(value) {
                    res.headers_mut().insert(HeaderName::from_static(name), value);
                }
            }
            res
        }
        Err(refusal) => ApiError::from(refusal).render(format, Some(service_type)),
    }
}

impl<S: Clone + Send + Sync + 'static> From<OpenApiService> for Router<S> {
    fn from(service: OpenApiService) -> Router<S> {
        let documents = Arc::new(Documents::new(service.description));
        let format = service.format;
        // One route per path, each answering its kind of request.
        let route = |request: fn(&Request) -> DocumentRequest<'_>| {
            let (documents, format) = (Arc::clone(&documents), Arc::clone(&format));
            get(move |req: Request| async move { answer(&documents, &*format, &req, request(&req)) })
        };
        let router = Router::new()
            .route("/openapi.json", route(|_| DocumentRequest::Document))
            .route("/openapi-history.json", route(|_| DocumentRequest::History));
        if !service.reference {
            return router;
        }
        let page = route(|req| DocumentRequest::Reference(req.uri().path().strip_prefix("/docs/")));
        let moved = || async {
            let mut res = Response::new(Body::empty());
            *res.status_mut() = StatusCode::PERMANENT_REDIRECT;
            res.headers_mut().insert(header::LOCATION, HeaderValue::from_static("docs/"));
            res
        };
        router.route("/docs", get(moved)).route("/docs/", page.clone()).route("/docs/{version}", page)
    }
}
