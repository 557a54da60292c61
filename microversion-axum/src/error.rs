//! Errors: [`ApiError`], the error a handler or a generated route answers
//! with, rendered by the layer in front of it in the API's format
//! ([`ApiSigErrors`], [`NovaFaults`], any [`ProblemFormat`]); and the
//! [`Violation`]s of a refused body or query, in the words of Python's
//! `jsonschema`. The same names as `microversion_actix::error`.

use std::borrow::Cow;
use std::fmt;

use axum::body::Body;
use axum::response::{IntoResponse, Response};
use http::StatusCode;
use http::header::{self, HeaderValue};
use microversion_core::body::BodyRefusal;
use microversion_core::schema::{InvalidInput, SchemaError};

pub use microversion_core::violation::{
    Input as ViolationInput, MAX_ECHOED_VALUE_CHARS, MAX_MESSAGE_CHARS, Violation, best_match, python_repr,
    python_str,
};
pub use microversion_core::{ApiSigErrors, NovaFaults, Problem, ProblemFormat};
use microversion_core::{
    NegotiationError, UnservedVersion, Version, not_at_version_detail, qualified_code, removed_detail,
};

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
    violations: Vec<Violation>,
}

/// The canonical reason phrase of `status`, or `"Error"`.
fn reason(status: StatusCode) -> &'static str {
    status.canonical_reason().unwrap_or("Error")
}

impl ApiError {
    /// An error with every field given; `code` without the service prefix
    /// (`"invalid-input"`), which the layer adds.
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
            violations: Vec::new(),
        }))
    }

    /// An error of `status` with its reason phrase as title and a code
    /// derived from it (`404` → `not-found`).
    pub fn from_status(status: StatusCode, detail: impl Into<String>) -> ApiError {
        let title = reason(status);
        ApiError::new(status, title.to_ascii_lowercase().replace([' ', '\''], "-"), title, detail)
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

    /// An operation with no variant at the negotiated version: 404 as Nova
    /// answers, or the status its `missing = N` says.
    pub fn method_not_at_version(version: Version, status: StatusCode) -> ApiError {
        ApiError::new(status, "method-not-at-version", reason(status), not_at_version_detail(version))
    }

    /// An operation removed at or before the negotiated version; the detail
    /// names the version that removed it.
    pub fn removed_at_version(version: Version, removed_in: Version, status: StatusCode) -> ApiError {
        ApiError::new(status, "method-removed", reason(status), removed_detail(version, removed_in))
    }

    /// 400 for a request body or query string that breaks the schema of its
    /// version: the detail is the first violation in Nova's words, the
    /// API-SIG document lists them all (docs/reference.md §5.3).
    pub fn invalid_input(violations: Vec<Violation>) -> ApiError {
        let detail = violations.first().map_or_else(|| "Invalid input.".to_owned(), ToString::to_string);
        let mut err = ApiError::new(StatusCode::BAD_REQUEST, "invalid-input", "Invalid Input", detail);
        err.0.violations = violations;
        err
    }

    /// Sets the minimum and maximum versions shown to the client.
    pub fn with_versions(mut self, min: Version, max: Version) -> ApiError {
        (self.0.min_version, self.0.max_version) = (Some(min), Some(max));
        self
    }

    /// Sets the request id shown in the error document.
    pub fn with_request_id(mut self, request_id: impl Into<String>) -> ApiError {
        self.0.request_id = Some(request_id.into());
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

    /// A short, fixed summary of the kind of error.
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

    /// The schema violations of an [`ApiError::invalid_input`] error.
    pub fn violations(&self) -> &[Violation] {
        &self.0.violations
    }

    /// The answer to this error in `format`, its code prefixed with
    /// `service`: the body, its content type, and the served range in
    /// `OpenStack-API-Minimum-Version`/`-Maximum-Version` when it has one.
    /// What the layer answers; for an answer outside any layer (a
    /// service's JSON 404 for unknown paths), in the API's format.
    pub fn render(&self, format: &dyn ProblemFormat, service: Option<&str>) -> Response {
        let code = qualified_code(self.code(), service);
        let problem = Problem {
            status: self.status().as_u16(),
            code: &code,
            title: self.title(),
            detail: self.detail(),
            min_version: self.min_version(),
            max_version: self.max_version(),
            request_id: self.request_id(),
            violations: (!self.violations().is_empty()).then(|| serde_json::json!(self.violations())),
            links: None,
        };
        let mut res = Response::new(Body::from(format.render_problem(&problem, service).to_string()));
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

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.detail)
    }
}

impl std::error::Error for ApiError {}

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

/// A versioned helper called at a version none of its variants serves: a
/// bug in the service, so a 500 naming the helper and the version.
impl From<UnservedVersion> for ApiError {
    fn from(err: UnservedVersion) -> ApiError {
        ApiError::internal(err.to_string())
    }
}

/// 400, 408, 413 or 415: a request body refused before any schema.
impl From<BodyRefusal> for ApiError {
    fn from(refusal: BodyRefusal) -> ApiError {
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
impl From<InvalidInput> for ApiError {
    fn from(invalid: InvalidInput) -> ApiError {
        ApiError::invalid_input(invalid.0)
    }
}

/// 500: a schema that cannot be compiled is the service's fault.
impl From<SchemaError> for ApiError {
    fn from(err: SchemaError) -> ApiError {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "schema_invalid",
            "Invalid request schema",
            err.to_string(),
        )
    }
}

/// 400 for a malformed version, 406 for one not served; with the served range.
impl From<NegotiationError> for ApiError {
    fn from(err: NegotiationError) -> ApiError {
        let status = StatusCode::from_u16(err.status()).unwrap_or(StatusCode::BAD_REQUEST);
        ApiError::new(status, err.code(), err.title(), err.to_string()).with_versions(err.min(), err.max())
    }
}
