//! Errors: [`ApiError`], the error a handler or a generated route answers
//! with, rendered by the layer in front of it in the API's format
//! ([`ApiSigErrors`], [`NovaFaults`], any [`ErrorFormat`]) through one
//! [`ErrorRenderer`]; and the
//! [`Violation`]s of a refused body or query, in the words of Python's
//! `jsonschema`. The same names as `microversion_actix::error`.

use axum::body::Body;
use axum::response::{IntoResponse, Response};
use http::StatusCode;

use crate::header::AxumHeaders;

pub use microversion_core::error::violation::{
    Input as ViolationInput, MAX_ECHOED_VALUE_CHARS, MAX_MESSAGE_CHARS, Violation, best_match, python_repr,
    python_str,
};
pub use microversion_core::error::{ApiSigErrors, ErrorFormat, NovaFaults, Problem};

microversion_core::facade_api_error! {
    /// The error of a versioned API on axum: a status, a stable error code, a
    /// title and a detail, as the actix layer's `ApiError` has them
    /// (docs/reference.md §5).
    ///
    /// As a response it is an API-SIG errors document; behind a
    /// [`VersionNegotiation`](crate::VersionNegotiation) the layer
    /// renders it again in the API's format
    /// ([`with_error_format`](crate::VersionNegotiation::with_error_format)),
    /// its code prefixed with the service type, so that a handler's error and
    /// the layer's own refusals read alike.
    ///
    /// ```
    /// use axum::http::StatusCode;
    /// use microversion_axum::{ApiError, Version};
    ///
    /// let err = ApiError::method_not_at_version(Version::lit("2.3"), StatusCode::NOT_FOUND);
    /// assert_eq!(err.status(), StatusCode::NOT_FOUND);
    /// assert_eq!(err.detail(), "API version 2.3 is not supported on this method.");
    /// assert_eq!(ApiError::conflict("Server is locked.").code(), "conflict");
    /// ```
    status = StatusCode;
}

microversion_core::facade_error_renderer! {
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
    pub struct ErrorRenderer;
    wire = AxumHeaders;
}

impl ErrorRenderer {
    /// A service answering every request with a JSON 404 in this format,
    /// for `Router::fallback_service`: axum's own 404 has an empty body.
    pub fn default_service(&self) -> axum::routing::MethodRouter {
        let renderer = self.clone();
        axum::routing::any(move || {
            let res = renderer.render(&ApiError::not_found("The resource could not be found."));
            std::future::ready(res)
        })
    }

    /// The answer to `error`: its status, the body in this format, JSON
    /// content type, and the minimum/maximum headers when it carries versions.
    pub fn render(&self, error: &ApiError) -> Response {
        let mut res = Response::new(Body::empty());
        *res.status_mut() = error.status();
        let body = self.write(error, res.headers_mut());
        *res.body_mut() = Body::from(body);
        res
    }
}

/// An API-SIG errors document with no service prefix; the error itself
/// rides along in the response's extensions, for the layer to render it
/// again in the API's format.
impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut res = ErrorRenderer::default().render(&self);
        res.extensions_mut().insert(self);
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

/// The core's error, which a controller's routes answer with, as this
/// crate's, every field kept.
impl From<microversion_core::portable::ApiError> for ApiError {
    fn from(error: microversion_core::portable::ApiError) -> ApiError {
        ApiError::from_fields(error.into_fields())
    }
}

/// This crate's error as the core's, every field kept: a handler's `?`
/// on it in a controller route.
impl From<ApiError> for microversion_core::portable::ApiError {
    fn from(error: ApiError) -> microversion_core::portable::ApiError {
        microversion_core::portable::ApiError::from_fields(error.into_fields())
    }
}
