//! [`ApiError`]: the one error of a versioned API, on every facade. A
//! handler returns it, the contract's refusals become it, and the API's
//! [`ErrorFormat`](super::ErrorFormat) renders it (docs/reference.md §5).

use std::borrow::Cow;
use std::fmt;

use http::StatusCode;

/// The error every part of the framework answers with, and the one
/// handlers return: a status, a stable error code, a title and a detail
/// that says what was wrong and what is accepted (docs/reference.md §5).
///
/// It is the same type on every facade. A `#[controller]` route answers
/// `Result<_, ApiError>` on each; a handler of the framework's own
/// (outside a controller) returns the facade's adapter,
/// `microversion_actix::Error` or `microversion_axum::Error`, which `?`
/// makes from an `ApiError`. Behind the facade's version negotiation the
/// error is rendered in the API's [`ErrorFormat`](super::ErrorFormat),
/// its code prefixed with the service type.
///
/// A status is given as any `Into<u16>`: the `http` crate's `StatusCode`
/// of either major version (actix-web's is `http` 0.2's), or a number. A
/// number that is no status (below 100 or above 999) is a 500: the
/// service's fault, never the client's.
///
/// ```
/// use microversion_core::error::ApiError;
/// use microversion_core::Version;
///
/// let err = ApiError::method_not_at_version(Version::lit("2.3"), 404u16);
/// assert_eq!(err.status(), 404);
/// assert_eq!(err.detail(), "API version 2.3 is not supported on this method.");
///
/// let err = ApiError::conflict("Server is locked.").with_request_id("req-1");
/// assert_eq!(err.code(), "conflict");
/// assert_eq!(err.qualified_code(Some("compute")), "compute.conflict");
/// assert_eq!(ApiError::new(1000u16, "odd", "Odd", "no such status").status(), 500);
/// ```
#[derive(Clone, Debug)]
pub struct ApiError(Box<ErrorFields>);

/// Boxed in the error, so that `Result<_, ApiError>` stays one pointer wide.
#[derive(Clone, Debug)]
struct ErrorFields {
    status: StatusCode,
    code: Cow<'static, str>,
    title: Cow<'static, str>,
    detail: String,
    min_version: Option<crate::Version>,
    max_version: Option<crate::Version>,
    request_id: Option<String>,
    links: Vec<crate::discovery::Link>,
    violations: Vec<crate::Violation>,
    service: Option<&'static str>,
}

/// The status of a number, a number that is none being the server's fault.
fn status_of(status: impl Into<u16>) -> StatusCode {
    StatusCode::from_u16(status.into()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

/// The code derived from a reason phrase: `Not Found` → `not-found`,
/// `I'm a teapot` → `i-m-a-teapot`.
fn code_of(title: &str) -> String {
    title.to_ascii_lowercase().replace([' ', '\''], "-")
}

impl ApiError {
    /// An error with every field given. `code` is the error code
    /// without the service prefix (`"invalid-input"`); the service
    /// is added when rendered.
    pub fn new(
        status: impl Into<u16>,
        code: impl Into<Cow<'static, str>>,
        title: impl Into<Cow<'static, str>>,
        detail: impl Into<String>,
    ) -> ApiError {
        ApiError(Box::new(ErrorFields {
            status: status_of(status),
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

    /// An error of `status` with its reason phrase as title and a
    /// code derived from it (`404` → `not-found`).
    pub fn from_status(status: impl Into<u16>, detail: impl Into<String>) -> ApiError {
        let status = status_of(status);
        let title = status.canonical_reason().unwrap_or("Error");
        ApiError::new(status, code_of(title), title, detail)
    }

    /// The error an error answer without a body of its own stands
    /// for (the router's 404 or 405, a handler's bare status), as
    /// every facade renders one: Nova's words for 404, 405 and a
    /// server error, else the reason phrase.
    pub fn bodiless(status: impl Into<u16>) -> ApiError {
        let status = status_of(status);
        let detail = crate::error::bodiless_error_detail(status.as_u16()).or(status.canonical_reason());
        ApiError::from_status(status, detail.unwrap_or("Error"))
    }

    /// The error an error answer that is not JSON stands for, as
    /// every facade renders one (an extractor's rejection, a
    /// handler's error of its own type): `cause`, the text of what
    /// made it, is a client error's detail; a server error's cause
    /// is for the log, never the client, and it reads as
    /// [`bodiless`](ApiError::bodiless) does, as does an answer
    /// without a cause.
    pub fn from_answer(status: impl Into<u16>, cause: Option<&str>) -> ApiError {
        let status = status_of(status);
        match cause.map(str::trim) {
            Some(cause) if !cause.is_empty() && !status.is_server_error() => {
                ApiError::from_status(status, cause)
            }
            _ => ApiError::bodiless(status),
        }
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

    /// The answer when an operation has no variant at the negotiated
    /// version: Nova answers 404 as if the method did not exist;
    /// Placement allows other statuses such as 405.
    pub fn method_not_at_version(version: crate::Version, status: impl Into<u16>) -> ApiError {
        let status = status_of(status);
        let title = status.canonical_reason().unwrap_or("Error");
        ApiError::new(status, "method-not-at-version", title, crate::error::not_at_version_detail(version))
    }

    /// The answer when an operation was removed at or before the
    /// negotiated version: the detail names the version that removed it.
    pub fn removed_at_version(
        version: crate::Version,
        removed_in: crate::Version,
        status: impl Into<u16>,
    ) -> ApiError {
        let status = status_of(status);
        let title = status.canonical_reason().unwrap_or("Error");
        ApiError::new(status, "method-removed", title, crate::error::removed_detail(version, removed_in))
    }

    /// 400 for a request body or query string that breaks the schema
    /// of its version: the detail is the first violation in Nova's
    /// words, the API-SIG document lists them all (docs/reference.md §5.3).
    pub fn invalid_input(violations: Vec<crate::Violation>) -> ApiError {
        let detail = violations.first().map_or_else(|| "Invalid input.".to_owned(), ToString::to_string);
        let mut err = ApiError::new(StatusCode::BAD_REQUEST, "invalid-input", "Invalid Input", detail);
        err.0.violations = violations;
        err
    }

    /// Sets the minimum and maximum versions shown to the client.
    pub fn with_versions(mut self, min: crate::Version, max: crate::Version) -> ApiError {
        (self.0.min_version, self.0.max_version) = (Some(min), Some(max));
        self
    }

    /// Sets the request id shown in the error document.
    pub fn with_request_id(mut self, request_id: impl Into<String>) -> ApiError {
        self.0.request_id = Some(request_id.into());
        self
    }

    /// Adds a link (for example to documentation) to the API-SIG body.
    pub fn with_link(mut self, link: crate::discovery::Link) -> ApiError {
        self.0.links.push(link);
        self
    }

    /// Sets the service type that prefixes the code (normally filled
    /// in by the middleware).
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

    /// `<service>.<code>` when a service is given (or set on the
    /// error), else the bare code.
    pub fn qualified_code(&self, service: Option<&str>) -> String {
        crate::error::qualified_code(&self.0.code, service.or(self.0.service))
    }

    /// The fields every error format reads, with `qualified_code`
    /// as the code to show (usually [`ApiError::qualified_code`]).
    pub fn problem<'a>(&'a self, qualified_code: &'a str) -> crate::Problem<'a> {
        crate::Problem {
            status: self.0.status.as_u16(),
            code: &self.0.code,
            qualified_code,
            title: &self.0.title,
            detail: &self.0.detail,
            min_version: self.0.min_version,
            max_version: self.0.max_version,
            request_id: self.0.request_id.as_deref(),
            links: &self.0.links,
            violations: &self.0.violations,
            version: None,
            request: None,
        }
    }

    /// The body of this error in `format`, its code qualified by
    /// `service` (or the error's own service).
    pub fn body(&self, format: &dyn crate::ErrorFormat, service: Option<&str>) -> serde_json::Value {
        let code = self.qualified_code(service);
        format.render(&self.problem(&code), service)
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
    pub fn min_version(&self) -> Option<crate::Version> {
        self.0.min_version
    }

    /// The served maximum version, for negotiation failures.
    pub fn max_version(&self) -> Option<crate::Version> {
        self.0.max_version
    }

    /// The request id, if set.
    pub fn request_id(&self) -> Option<&str> {
        self.0.request_id.as_deref()
    }

    /// Links to more information.
    pub fn links(&self) -> &[crate::discovery::Link] {
        &self.0.links
    }

    /// The schema violations of an [`ApiError::invalid_input`] error.
    pub fn violations(&self) -> &[crate::Violation] {
        &self.0.violations
    }

    /// The service type set on the error, if any.
    pub fn service(&self) -> Option<&'static str> {
        self.0.service
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.detail)
    }
}

impl std::error::Error for ApiError {}

/// 404, 405 or the operation's `missing` status: an operation at a
/// version none of its variants serves, named removed when it was
/// (docs/reference.md §4.2). A 405's `Allow` is the facade's to set.
#[cfg(feature = "schema")]
impl From<&crate::operation::MissingVariant> for ApiError {
    fn from(missing: &crate::operation::MissingVariant) -> ApiError {
        match missing.removed_in {
            Some(removed_in) => ApiError::removed_at_version(missing.version, removed_in, missing.status),
            None => ApiError::method_not_at_version(missing.version, missing.status),
        }
    }
}

/// A versioned helper called at a version none of its variants
/// serves: a bug in the service, not in the request, so a 500 whose
/// detail names the helper and the version.
#[cfg(feature = "schema")]
impl From<crate::operation::UnservedVersion> for ApiError {
    fn from(err: crate::operation::UnservedVersion) -> ApiError {
        ApiError::internal(err.to_string())
    }
}

/// 400, 408, 413 or 415: a request body refused before any schema
/// (docs/reference.md §6.2).
impl From<crate::body::BodyRefusal> for ApiError {
    fn from(refusal: crate::body::BodyRefusal) -> ApiError {
        ApiError::new(refusal.status(), refusal.code(), refusal.title(), refusal.detail())
    }
}

#[cfg(feature = "schema")]
/// 400 for a body that breaks the model at its version, 500 for a
/// model whose derived schema does not compile.
#[cfg(feature = "schema")]
impl From<crate::schema::model::ModelReadError> for ApiError {
    fn from(err: crate::schema::model::ModelReadError) -> ApiError {
        match err {
            crate::schema::model::ModelReadError::InvalidSchema(e) => {
                ApiError::internal(format!("invalid model schema: {e}"))
            }
            crate::schema::model::ModelReadError::Invalid(invalid) => invalid.into(),
        }
    }
}

/// 400: a body or query string that breaks the schema of its version.
#[cfg(feature = "schema")]
impl From<crate::schema::InvalidInput> for ApiError {
    fn from(invalid: crate::schema::InvalidInput) -> ApiError {
        ApiError::invalid_input(invalid.0)
    }
}

/// 500: a schema that cannot be compiled is the service's fault,
/// never the client's.
#[cfg(feature = "schema")]
impl From<crate::schema::SchemaError> for ApiError {
    fn from(err: crate::schema::SchemaError) -> ApiError {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "schema_invalid",
            "Invalid request schema",
            err.to_string(),
        )
    }
}

/// 400 for a malformed version, 406 for one outside the served range
/// or retired (docs/reference.md §13.3); all carry the served
/// minimum and maximum.
impl From<crate::NegotiationError> for ApiError {
    fn from(err: crate::NegotiationError) -> ApiError {
        ApiError::new(err.status(), err.code(), err.title(), err.to_string())
            .with_versions(err.min(), err.max())
    }
}

/// A document no version answers (docs/reference.md §14), refused
/// as negotiation refuses the version; 404 for a served version
/// without one. With the facade's `openapi` feature.
#[cfg(feature = "openapi")]
impl From<crate::openapi::DocumentRefusal> for ApiError {
    fn from(refusal: crate::openapi::DocumentRefusal) -> ApiError {
        match refusal {
            crate::openapi::DocumentRefusal::Version(refusal) => ApiError::from(refusal),
            crate::openapi::DocumentRefusal::Missing(version) => {
                ApiError::not_found(format!("No document for version {version}."))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_from_reason_phrases() {
        assert_eq!(code_of("Not Found"), "not-found");
        assert_eq!(code_of("Payload Too Large"), "payload-too-large");
        assert_eq!(code_of("I'm a teapot"), "i-m-a-teapot");
    }
}
