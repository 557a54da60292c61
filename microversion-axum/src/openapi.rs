//! The API described (docs/reference.md §14): the core's OpenAPI documents,
//! served on axum by [`OpenApiService`] as the actix facade serves them.

use std::sync::Arc;

use axum::Router;
use axum::extract::Request;
use axum::routing::get;
use http::header;

use crate::header::AxumHeaders;

pub use microversion_core::openapi::*;

/// The settings of the API's documents as served, the core's
/// [`OpenApiSettings`](microversion_core::openapi::OpenApiSettings) over
/// axum's headers: every route, builder and default is documented there.
pub type OpenApiSettings = microversion_core::openapi::OpenApiSettings<AxumHeaders>;

/// The routes serving an [`OpenApiSettings`] on axum, beside
/// [`Discovery`](crate::Discovery): `Router::from(OpenApiService::new(settings))`,
/// or `new(description)` for the defaults.
///
/// ```
/// use axum::Router;
/// use microversion_axum::openapi::{ApiDescription, OpenApiService, OpenApiSettings};
/// use microversion_axum::{Api, Microversion, error::NovaFaults};
///
/// const API: Api = Api::new("compute", &[Microversion::new("2.1", "Initial."), Microversion::new("2.2", "More.")]);
/// let settings = OpenApiSettings::new(ApiDescription::new(API)).with_error_format(NovaFaults::default());
/// let app: Router = Router::from(OpenApiService::new(settings));
/// ```
#[derive(Clone, Debug)]
pub struct OpenApiService(OpenApiSettings);

impl OpenApiService {
    /// The routes serving `settings`, or an [`ApiDescription`] with every default.
    pub fn new(settings: impl Into<OpenApiSettings>) -> OpenApiService {
        OpenApiService(settings.into())
    }
}

impl<S: Clone + Send + Sync + 'static> From<OpenApiService> for Router<S> {
    fn from(service: OpenApiService) -> Router<S> {
        let served = Arc::new(service.0.serve());
        let reference = served.serves_reference();
        // One route per path, each answering its kind of request.
        let route = |request: fn(&Request) -> DocumentRequest<'_>| {
            let served = Arc::clone(&served);
            get(move |req: Request| async move {
                let if_none_match = req.headers().get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok());
                served.answer(request(&req), req.uri().query().unwrap_or_default(), if_none_match)
            })
        };
        let router = Router::new()
            .route("/openapi.json", route(|_| DocumentRequest::Document))
            .route("/openapi-history.json", route(|_| DocumentRequest::History));
        if !reference {
            return router;
        }
        let page = route(|req| DocumentRequest::Reference(req.uri().path().strip_prefix("/docs/")));
        let moved = || async { ServedDocuments::<AxumHeaders>::moved_to_docs() };
        let changes = route(|req| {
            let version = req.uri().path().strip_prefix("/docs/").and_then(|p| p.strip_suffix("/changes"));
            DocumentRequest::Changes(version.unwrap_or_default())
        });
        router
            .route("/docs", get(moved))
            .route("/docs/", page.clone())
            .route("/docs/{version}", page)
            .route("/docs/{version}/changes", changes)
    }
}
