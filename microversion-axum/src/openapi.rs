//! The API described (docs/reference.md §14): the core's OpenAPI documents,
//! served on axum by [`OpenApiService`] as the actix facade serves them.

use std::sync::Arc;

use crate::ApiError;
use crate::error::ErrorRenderer;
use crate::header::AxumHeaders;
use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use axum::response::Response;
use axum::routing::get;
use http::StatusCode;
use http::header::{self, HeaderValue};

microversion_core::facade_openapi_service! {
    /// ```
    /// use axum::Router;
    /// use microversion_axum::openapi::{ApiDescription, OpenApiService};
    /// use microversion_axum::{Api, Microversion, error::NovaFaults};
    ///
    /// const API: Api = Api::new("compute", &[Microversion::new("2.1", "Initial."), Microversion::new("2.2", "More.")]);
    /// let documents = OpenApiService::new(ApiDescription::new(API)).with_error_format(NovaFaults::default());
    /// let app: Router = Router::from(documents);
    /// ```
    pub struct OpenApiService;
}

/// The documents, each rendered once, and the renderer of their refusals.
type Served = (Documents, ErrorRenderer);

/// The core's answer to `request` (docs/reference.md §14), as axum's: the
/// document, a 304, or the refusal in the service's error format.
fn answer(served: &Served, req: &Request, request: DocumentRequest<'_>) -> Response {
    let (documents, errors) = served;
    let if_none_match = req.headers().get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok());
    match documents.answer(request, req.uri().query().unwrap_or_default(), if_none_match) {
        Ok(answer) => {
            let mut res =
                Response::new(answer.body().map_or_else(Body::empty, |body| Body::from(body.to_owned())));
            *res.status_mut() = StatusCode::from_u16(answer.status()).unwrap_or(StatusCode::OK);
            for (name, value) in answer.headers() {
                microversion_core::set_header::<AxumHeaders>(res.headers_mut(), name, value);
            }
            res
        }
        Err(refusal) => errors.render(&ApiError::from(refusal)),
    }
}

impl<S: Clone + Send + Sync + 'static> From<OpenApiService> for Router<S> {
    fn from(service: OpenApiService) -> Router<S> {
        let served = Arc::new((Documents::new(service.description), service.errors));
        // One route per path, each answering its kind of request.
        let route = |request: fn(&Request) -> DocumentRequest<'_>| {
            let served = Arc::clone(&served);
            get(move |req: Request| async move { answer(&served, &req, request(&req)) })
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
