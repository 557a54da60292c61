//! Errors: [`ApiError`], the one error type of a versioned API; the formats
//! it is rendered in ([`ApiSigErrors`], [`NovaFaults`], any
//! [`ErrorFormat`]) through one [`ErrorRenderer`]; and the [`Violation`]s
//! of a refused body or query, in the words of Python's `jsonschema`.

use std::borrow::Cow;
use std::fmt;

use actix_web::http::StatusCode;
use actix_web::http::header::HeaderValue;
use actix_web::{HttpResponse, ResponseError};

pub use crate::format::{ApiSigErrors, ErrorFormat, ErrorRenderer, NovaFaults, Problem, ProblemFormat};
use crate::{Version, discovery::Link, operation::UnservedVersion, version::NegotiationError};
pub use microversion_core::violation::{
    Input as ViolationInput, MAX_ECHOED_VALUE_CHARS, MAX_MESSAGE_CHARS, Violation, best_match, python_repr,
    python_str,
};

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
#[derive(Clone, Debug)]
pub struct ApiError(Box<Fields>);

/// Boxed so that `Result<_, ApiError>` stays one pointer wide.
#[derive(Clone, Debug)]
struct Fields {
    status: StatusCode,
    code: Cow<'static, str>,
    title: Cow<'static, str>,
    detail: String,
    min_version: Option<Version>,
    max_version: Option<Version>,
    request_id: Option<String>,
    links: Vec<Link>,
    violations: Vec<Violation>,
    service: Option<&'static str>,
}

/// The canonical reason phrase of `status`, or `"Error"`.
fn reason(status: StatusCode) -> &'static str {
    status.canonical_reason().unwrap_or("Error")
}

impl ApiError {
    /// An error with every field given. `code` is the error code without the
    /// service prefix (`"invalid-input"`); the service is added when rendered.
    pub fn new(
        status: StatusCode,
        code: impl Into<Cow<'static, str>>,
        title: impl Into<Cow<'static, str>>,
        detail: impl Into<String>,
    ) -> ApiError {
        ApiError(Box::new(Fields {
            status,
            code: code.into(),
            title: title.into(),
            detail: detail.into(),
            min_version: None,
            max_version: None,
            request_id: None,
            links: Vec::new(),
            violations: Vec::new(),
            service: None,
        }))
    }

    /// An error of `status` with its reason phrase as title and a code
    /// derived from it (`404` → `not-found`).
    pub fn from_status(status: StatusCode, detail: impl Into<String>) -> ApiError {
        let title = reason(status);
        let code = title.to_ascii_lowercase().replace([' ', '\''], "-");
        ApiError::new(status, code, title, detail)
    }

    /// 400 Bad Request.
    pub fn bad_request(detail: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad-request", "Bad Request", detail)
    }

    /// 404 Not Found.
    pub fn not_found(detail: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "not-found", "Not Found", detail)
    }

    /// 409 Conflict.
    pub fn conflict(detail: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, "conflict", "Conflict", detail)
    }

    /// 500 Internal Server Error: a fault of the server, never of the client.
    pub fn internal(detail: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal-error", "Internal Server Error", detail)
    }

    /// The answer when an operation has no variant at the negotiated version:
    /// Nova answers 404 as if the method did not exist; Placement allows
    /// other statuses such as 405.
    pub fn method_not_at_version(version: Version, status: StatusCode) -> ApiError {
        ApiError::new(
            status,
            "method-not-at-version",
            reason(status),
            microversion_core::not_at_version_detail(version),
        )
    }

    /// The answer when an operation no longer exists at the negotiated
    /// version: its detail names the version that removed it, as Nova's
    /// removed APIs say (`410 Gone` is the usual status; 404 and 405 too).
    ///
    /// ```
    /// use actix_web::http::StatusCode;
    /// use microversion_actix::{ApiError, Version};
    ///
    /// let err = ApiError::removed_at_version(Version::lit("2.40"), Version::lit("2.36"), StatusCode::GONE);
    /// assert_eq!(err.detail(), "This method was removed in API version 2.36; version 2.40 does not have it.");
    /// ```
    pub fn removed_at_version(version: Version, removed_in: Version, status: StatusCode) -> ApiError {
        ApiError::new(
            status,
            "method-removed",
            reason(status),
            microversion_core::removed_detail(version, removed_in),
        )
    }

    /// 400 for a request body or query string that breaks the schema of
    /// its version. The detail is the first violation in Nova's words (Nova
    /// reports the first the validator finds); [`ApiError::violations`]
    /// holds them all, and the API-SIG format lists them.
    ///
    /// ```
    /// use microversion_actix::{ApiError, error::Violation};
    /// use serde_json::json;
    ///
    /// let err = ApiError::invalid_input(vec![
    ///     Violation::new("/flavor/ram", "type", "'abc' is not of type 'integer'").with_value(&json!("abc")),
    ///     Violation::new("/flavor", "required", "'name' is a required property"),
    /// ]);
    /// assert_eq!(err.detail(), "Invalid input for field/attribute ram. Value: abc. 'abc' is not of type 'integer'");
    /// assert_eq!(err.violations().len(), 2);
    /// ```
    pub fn invalid_input(violations: Vec<Violation>) -> ApiError {
        let detail = violations.first().map_or_else(|| "Invalid input.".to_owned(), ToString::to_string);
        let mut err = ApiError::new(StatusCode::BAD_REQUEST, "invalid-input", "Invalid Input", detail);
        err.0.violations = violations;
        err
    }

    /// Sets the minimum and maximum versions shown to the client.
    pub fn with_versions(mut self, min: Version, max: Version) -> ApiError {
        self.0.min_version = Some(min);
        self.0.max_version = Some(max);
        self
    }

    /// Sets the request id shown in the API-SIG body.
    pub fn with_request_id(mut self, request_id: impl Into<String>) -> ApiError {
        self.0.request_id = Some(request_id.into());
        self
    }

    /// Adds a link (for example to documentation) to the API-SIG body.
    pub fn with_link(mut self, link: Link) -> ApiError {
        self.0.links.push(link);
        self
    }

    /// Sets the service type that prefixes the code (normally filled in by the middleware).
    pub fn with_service(mut self, service: &'static str) -> ApiError {
        self.0.service = Some(service);
        self
    }

    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        self.0.status
    }

    /// The error code without the service prefix.
    pub fn code(&self) -> &str {
        &self.0.code
    }

    /// `<service>.<code>` when a service is given (or set on the error), else the bare code.
    pub fn qualified_code(&self, service: Option<&str>) -> String {
        microversion_core::qualified_code(&self.0.code, service.or(self.0.service))
    }

    /// The fields every error format reads, with `code` as the code to
    /// show (usually [`ApiError::qualified_code`]).
    pub fn problem<'a>(&'a self, code: &'a str) -> Problem<'a> {
        Problem {
            status: self.status().as_u16(),
            code,
            title: self.title(),
            detail: self.detail(),
            min_version: self.min_version(),
            max_version: self.max_version(),
            request_id: self.request_id(),
            links: (!self.links().is_empty()).then(|| serde_json::json!(self.links())),
            violations: (!self.violations().is_empty()).then(|| serde_json::json!(self.violations())),
        }
    }

    /// A short, human-readable summary.
    pub fn title(&self) -> &str {
        &self.0.title
    }

    /// What was wrong and what is accepted.
    pub fn detail(&self) -> &str {
        &self.0.detail
    }

    /// The served minimum version, for negotiation failures.
    pub fn min_version(&self) -> Option<Version> {
        self.0.min_version
    }

    /// The served maximum version, for negotiation failures.
    pub fn max_version(&self) -> Option<Version> {
        self.0.max_version
    }

    /// The request id, if set.
    pub fn request_id(&self) -> Option<&str> {
        self.0.request_id.as_deref()
    }

    /// Links to more information.
    pub fn links(&self) -> &[Link] {
        &self.0.links
    }

    /// The schema violations of an [`ApiError::invalid_input`] error.
    pub fn violations(&self) -> &[Violation] {
        &self.0.violations
    }

    /// The service type set on the error, if any.
    pub fn service(&self) -> Option<&'static str> {
        self.0.service
    }
}

/// A version as a header value, without allocating.
pub(crate) fn version_value(version: Version) -> HeaderValue {
    let mut buf = [0u8; 11];
    // Digits and a dot are always a valid header value.
    HeaderValue::from_str(version.write_to(&mut buf)).unwrap_or_else(|_| HeaderValue::from_static(""))
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.detail)
    }
}

impl std::error::Error for ApiError {}

/// Standalone, an error renders with the defaults: API-SIG errors, no
/// service prefix, the default minimum/maximum header names. Inside the
/// scope of [`VersionNegotiation`](crate::VersionNegotiation) the middleware renders
/// it again with the API's [`ErrorRenderer`].
impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.0.status
    }

    fn error_response(&self) -> HttpResponse {
        ErrorRenderer::default().render(self)
    }
}

/// A versioned helper called at a version none of its variants serves: a bug
/// in the service, not in the request, so a 500 whose detail names the
/// helper and the version (it says nothing about the service's data).
impl From<UnservedVersion> for ApiError {
    fn from(err: UnservedVersion) -> ApiError {
        ApiError::internal(err.to_string())
    }
}

/// 400, 408, 413 or 415: a request body refused before any schema (docs/reference.md §6.2).
impl From<microversion_core::body::BodyRefusal> for ApiError {
    fn from(refusal: microversion_core::body::BodyRefusal) -> ApiError {
        let status = StatusCode::from_u16(refusal.status()).unwrap_or(StatusCode::BAD_REQUEST);
        ApiError::new(status, refusal.code(), refusal.title(), refusal.detail())
    }
}

/// 400 for a body that breaks the model at its version, 500 for a model
/// whose derived schema does not compile.
impl From<microversion_core::model::ModelReadError> for ApiError {
    fn from(err: microversion_core::model::ModelReadError) -> ApiError {
        match err {
            microversion_core::model::ModelReadError::InvalidSchema(e) => {
                ApiError::internal(format!("invalid model schema: {e}"))
            }
            microversion_core::model::ModelReadError::Invalid(invalid) => invalid.into(),
        }
    }
}

/// 400: a body or query string that breaks the schema of its version.
impl From<microversion_core::schema::InvalidInput> for ApiError {
    fn from(invalid: microversion_core::schema::InvalidInput) -> ApiError {
        ApiError::invalid_input(invalid.0)
    }
}

/// 500: a schema that cannot be compiled is the service's fault, never the client's.
impl From<microversion_core::schema::SchemaError> for ApiError {
    fn from(err: microversion_core::schema::SchemaError) -> ApiError {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "schema_invalid",
            "Invalid request schema",
            err.to_string(),
        )
    }
}

impl From<NegotiationError> for ApiError {
    /// 400 for a malformed version, 406 for one outside the served range
    /// or retired (docs/reference.md §13.3); all carry the served minimum and maximum.
    fn from(err: NegotiationError) -> ApiError {
        let status = StatusCode::from_u16(err.status()).unwrap_or(StatusCode::BAD_REQUEST);
        ApiError::new(status, err.code(), err.title(), err.to_string()).with_versions(err.min(), err.max())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_from_statuses() {
        assert_eq!(ApiError::from_status(StatusCode::NOT_FOUND, "x").code(), "not-found");
        assert_eq!(ApiError::from_status(StatusCode::PAYLOAD_TOO_LARGE, "x").code(), "payload-too-large");
        assert_eq!(ApiError::from_status(StatusCode::IM_A_TEAPOT, "x").code(), "i-m-a-teapot");
    }

    #[test]
    fn negotiation_errors_keep_range_and_message() {
        let err = ApiError::from(NegotiationError::NotAcceptable {
            requested: Version::new(3, 7),
            min: Version::new(2, 1),
            max: Version::new(2, 96),
        });
        assert_eq!(err.status(), StatusCode::NOT_ACCEPTABLE);
        assert_eq!(
            err.detail(),
            "Version 3.7 is not supported by the API. Minimum is 2.1 and maximum is 2.96."
        );
        assert_eq!(
            (err.min_version(), err.max_version()),
            (Some(Version::new(2, 1)), Some(Version::new(2, 96)))
        );
    }
}
