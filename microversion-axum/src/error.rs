//! Errors: [`ApiError`], the error a handler or a generated route answers
//! with, rendered by the layer in front of it in the API's format
//! ([`ApiSigErrors`], [`NovaFaults`], any [`ErrorFormat`]); and the
//! [`Violation`]s of a refused body or query, in the words of Python's
//! `jsonschema`. The same names as `microversion_actix::error`.

use axum::body::Body;
use axum::response::{IntoResponse, Response};
use http::StatusCode;
use http::header::{self, HeaderValue};

pub use microversion_core::violation::{
    Input as ViolationInput, MAX_ECHOED_VALUE_CHARS, MAX_MESSAGE_CHARS, Violation, best_match, python_repr,
    python_str,
};
pub use microversion_core::{ApiSigErrors, ErrorFormat, NovaFaults, Problem};

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

impl ApiError {
    /// The answer to this error in `format`, its code prefixed with
    /// `service` (else the one set on the error): the body, its content
    /// type, and the served range in `OpenStack-API-Minimum-Version` /
    /// `-Maximum-Version` when it has one. What the layer answers; for an
    /// answer outside any layer (a service's JSON 404 for unknown paths),
    /// in the API's format.
    pub fn render(&self, format: &dyn ErrorFormat, service: Option<&str>) -> Response {
        let service = service.or(self.service());
        let mut res = Response::new(Body::from(self.body(format, service).to_string()));
        *res.status_mut() = self.status();
        let headers = res.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
        if let (Some(min), Some(max)) = (self.min_version(), self.max_version()) {
            for (name, version) in
                [(microversion_core::MIN_VERSION_HEADER, min), (microversion_core::MAX_VERSION_HEADER, max)]
            {
                if let (Ok(name), Ok(value)) =
                    (http::HeaderName::try_from(name), HeaderValue::try_from(version.to_string()))
                {
                    headers.insert(name, value);
                }
            }
        }
        res
    }
}

/// An API-SIG errors document with no service prefix; the error itself
/// rides along in the response's extensions, for the layer to render it
/// again in the API's format.
impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut res = self.render(&ApiSigErrors, None);
        res.extensions_mut().insert(self);
        res
    }
}
