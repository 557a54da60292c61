//! Errors: [`ApiError`], the error a handler or a generated route answers
//! with ([`Error`] as axum's answer), rendered by the layer in front of it in the API's format
//! ([`ApiSigErrors`], [`NovaFaults`], any [`ErrorFormat`]) through one
//! [`ErrorRenderer`]; and the
//! [`Violation`]s of a refused body or query, in the words of Python's
//! `jsonschema`. The same names as `microversion_actix::error`.

use axum::response::{IntoResponse, Response};
use http::StatusCode;

use crate::header::AxumHeaders;

pub use microversion_core::error::violation::{
    Input as ViolationInput, MAX_ECHOED_VALUE_CHARS, MAX_MESSAGE_CHARS, Violation, best_match, python_repr,
    python_str,
};
pub use microversion_core::error::{ApiSigErrors, ErrorFormat, ErrorPage, ErrorRequest, NovaFaults, Problem};

pub use microversion_core::error::ApiError;

/// An [`ApiError`] as axum's answer: what a handler of axum's own (outside
/// a `#[controller]`) returns, as `Result<_, Error>`. `?` makes one from an
/// `ApiError` or from anything an `ApiError` is made from (a negotiation
/// refusal, a body refusal, a schema's violations).
///
/// As a response it is an API-SIG errors document; behind a
/// [`VersionNegotiation`](crate::VersionNegotiation) the layer renders it
/// again in the API's format
/// ([`with_error_format`](microversion_core::exchange::Negotiation::with_error_format)),
/// its code prefixed with the service type, so that a handler's error and
/// the layer's own refusals read alike.
///
/// ```
/// use axum::response::IntoResponse;
/// use microversion_axum::{ApiError, Error};
///
/// fn locked() -> Result<&'static str, Error> {
///     Err(ApiError::conflict("Server is locked."))?
/// }
///
/// assert_eq!(locked().into_response().status(), 409);
/// ```
#[derive(Clone, Debug)]
pub struct Error(pub ApiError);

impl<E: Into<ApiError>> From<E> for Error {
    fn from(error: E) -> Error {
        Error(error.into())
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// How one API renders its errors, in axum's header types: the core's
/// [`ErrorRenderer`](microversion_core::error::ErrorRenderer)
/// (docs/reference.md §5). Its `render` answers a `Response`.
///
/// ```
/// use axum::http::StatusCode;
/// use microversion_axum::{ApiError, error::{ErrorRenderer, NovaFaults}};
///
/// let renderer = ErrorRenderer::new(NovaFaults::default()).with_service("compute");
/// let res = renderer.render(&ApiError::not_found("No such flavor."));
/// assert_eq!(res.status(), StatusCode::NOT_FOUND);
///
/// // The defaults: API-SIG errors, no service prefix, the standard header names.
/// let plain = ErrorRenderer::default().render(&ApiError::conflict("Locked."));
/// assert_eq!(plain.status(), StatusCode::CONFLICT);
/// ```
pub type ErrorRenderer = microversion_core::error::ErrorRenderer<AxumHeaders>;

/// A service answering every request with a JSON 404 rendered by
/// `renderer`, for `Router::fallback_service`: axum's own 404 has an empty
/// body.
pub fn default_service(renderer: &ErrorRenderer) -> axum::routing::MethodRouter {
    let renderer = renderer.clone();
    axum::routing::any(move || {
        let res = renderer.render(&ApiError::not_found("The resource could not be found."));
        std::future::ready(res)
    })
}

/// An API-SIG errors document with no service prefix; the error itself
/// rides along in the response's extensions, for the layer to render it
/// again in the API's format.
impl IntoResponse for Error {
    fn into_response(self) -> Response {
        let mut res = ErrorRenderer::default().render(&self.0);
        res.extensions_mut().insert(self.0);
        res
    }
}

/// The status of an error answer whose body is not JSON (a framework's
/// text, or none): what the layer and a route's extractors put in the
/// API's format.
pub(crate) fn plain_error_status(res: &Response) -> Option<StatusCode> {
    let content_type = || res.headers().get(http::header::CONTENT_TYPE).and_then(|v| v.to_str().ok());
    microversion_core::body::is_unformatted_error(res.status().as_u16(), content_type).then_some(res.status())
}
