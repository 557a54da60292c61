//! Errors: [`ApiError`], the one error type of a versioned API; the formats
//! it is rendered in ([`ApiSigErrors`], [`NovaFaults`], any
//! [`ErrorFormat`]) through one [`ErrorRenderer`]; and the [`Violation`]s
//! of a refused body or query, in the words of Python's `jsonschema`.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};

pub use crate::format::{ApiSigErrors, ErrorFormat, ErrorRenderer, NovaFaults, Problem};
pub use microversion_core::violation::{
    Input as ViolationInput, MAX_ECHOED_VALUE_CHARS, MAX_MESSAGE_CHARS, Violation, best_match, python_repr,
    python_str,
};

microversion_core::facade_api_error! {
    /// The error every part of this crate answers with, and the one handlers
    /// should return: a status, a stable error code, a title and a detail that
    /// says what was wrong and what is accepted.
    ///
    /// It implements [`ResponseError`], so `Result<_, ApiError>` works as a
    /// handler return type. Its own rendering uses the API-SIG errors format
    /// ([`ApiSigErrors`]); inside the scope of
    /// [`VersionNegotiation`](crate::VersionNegotiation) the middleware renders it with the
    /// API's [`ErrorRenderer`]: its [`ErrorFormat`], the
    /// service type in the code, its version header names.
    ///
    /// ```
    /// use microversion_actix::{ApiError, Version};
    /// use actix_web::http::StatusCode;
    ///
    /// let err = ApiError::method_not_at_version(Version::lit("2.3"), StatusCode::NOT_FOUND);
    /// assert_eq!(err.status(), StatusCode::NOT_FOUND);
    /// assert_eq!(err.detail(), "API version 2.3 is not supported on this method.");
    ///
    /// let err = ApiError::conflict("Server is locked.").with_request_id("req-1");
    /// assert_eq!(err.code(), "conflict");
    /// assert_eq!(err.qualified_code(Some("compute")), "compute.conflict");
    /// ```
    status = StatusCode;
}

/// Standalone, an error renders with the defaults: API-SIG errors, no
/// service prefix, the default minimum/maximum header names. Inside the
/// scope of [`VersionNegotiation`](crate::VersionNegotiation) the middleware renders
/// it again with the API's [`ErrorRenderer`].
impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.status()
    }

    fn error_response(&self) -> HttpResponse {
        ErrorRenderer::default().render(self)
    }
}
