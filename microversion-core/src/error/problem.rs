//! Error documents, whatever the web framework (docs/reference.md §5): the
//! fields an error answer carries ([`Problem`]) and the formats that shape
//! them ([`ErrorFormat`]): the API-SIG errors document ([`ApiSigErrors`])
//! and Nova's faults ([`NovaFaults`]). Every facade renders its errors
//! through these, so all answer alike.

use serde_json::{Map, Value, json};

use super::{ErrorPage, ErrorRequest};
use crate::{NegotiationError, Version, Violation, discovery::Link};

/// The fields of one error answer, as every format reads them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Problem<'a> {
    /// The HTTP status.
    pub status: u16,
    /// The stable error code (`version-not-supported`).
    pub code: &'a str,
    /// The code prefixed with the API's service type, as API-SIG errors
    /// show it (`compute.version-not-supported`); the bare code without a
    /// service.
    pub qualified_code: &'a str,
    /// A short, fixed summary of the kind of error.
    pub title: &'a str,
    /// What was wrong and what is accepted.
    pub detail: &'a str,
    /// The served minimum, on a refused version.
    pub min_version: Option<Version>,
    /// The served maximum, on a refused version.
    pub max_version: Option<Version>,
    /// The request id, where the service gives one.
    pub request_id: Option<&'a str>,
    /// Links for the client (a deprecation's migration guide).
    pub links: &'a [Link],
    /// The violations of a refused body or query.
    pub violations: &'a [Violation],
    /// The version the request was served at, when the facade's negotiation
    /// rendered the error after choosing one: `None` on a refusal of the
    /// version itself and outside the negotiation. A format whose fields
    /// depend on the version reads it (Placement names a `code` from 1.23).
    pub version: Option<Version>,
    /// The request the error answers, for a format that reads it
    /// ([`ErrorFormat::reads_request`]) when the facade's negotiation
    /// renders the error; else `None`.
    pub request: Option<&'a ErrorRequest>,
}

/// How a service shapes its error documents: the body of an error answer,
/// and the JSON Schema of such bodies (for the API's description). Every
/// facade takes one (`with_error_format`); implement it for a shape of
/// your own:
///
/// ```
/// use microversion_core::{ErrorFormat, Problem};
/// use serde_json::{json, Value};
///
/// struct Plain;
/// impl ErrorFormat for Plain {
///     fn render(&self, problem: &Problem<'_>, _service: Option<&str>) -> Value {
///         json!({"error": problem.detail})
///     }
/// }
/// let problem = Problem { status: 404, detail: "No such server.", ..Problem::default() };
/// assert_eq!(Plain.render(&problem, Some("compute")), json!({"error": "No such server."}));
/// ```
pub trait ErrorFormat: Send + Sync + 'static {
    /// The body of the answer to `problem`; `service` is the API's service
    /// type, where there is one.
    fn render(&self, problem: &Problem<'_>, service: Option<&str>) -> Value;

    /// Whether [`ErrorFormat::render`] or [`ErrorFormat::page`] reads the
    /// request ([`Problem::request`]): only then does a facade read its
    /// method and headers for the error answers it renders. No, unless the
    /// format says so.
    fn reads_request(&self) -> bool {
        false
    }

    /// The answer's body when it is not the JSON document `render` writes:
    /// an HTML or plain page, chosen from the request's `Accept`
    /// ([`Problem::request`], read when [`ErrorFormat::reads_request`]).
    /// `None`, the default, answers the document.
    fn page(&self, _problem: &Problem<'_>, _service: Option<&str>) -> Option<ErrorPage> {
        None
    }

    /// The JSON Schema every body of this format satisfies, for the API's
    /// description; any JSON object unless the format says more.
    fn schema(&self) -> Value {
        json!({"type": "object"})
    }
}

/// The API-SIG errors document: `{"errors": [{"request_id"?, "code",
/// "status", "title", "detail", "links"?, "min_version"?, "max_version"?,
/// "violations"?}]}`.
///
/// ```
/// use microversion_core::{error::ApiSigErrors, ErrorFormat, Problem};
/// use serde_json::json;
///
/// let problem = Problem { status: 409, code: "conflict", qualified_code: "compute.conflict",
///                         title: "Conflict", detail: "Locked.",
///                         ..Problem::default() };
/// assert_eq!(ApiSigErrors.render(&problem, Some("compute")), json!({"errors": [{
///     "code": "compute.conflict", "status": 409, "title": "Conflict", "detail": "Locked.",
/// }]}));
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct ApiSigErrors;

impl ErrorFormat for ApiSigErrors {
    fn render(&self, problem: &Problem<'_>, _service: Option<&str>) -> Value {
        let mut entry = Map::new();
        if let Some(id) = problem.request_id {
            entry.insert("request_id".into(), id.into());
        }
        entry.insert("code".into(), problem.qualified_code.into());
        entry.insert("status".into(), problem.status.into());
        entry.insert("title".into(), problem.title.into());
        entry.insert("detail".into(), problem.detail.into());
        if !problem.links.is_empty() {
            entry.insert("links".into(), json_of(problem.links));
        }
        if let Some(min) = problem.min_version {
            entry.insert("min_version".into(), min.to_string().into());
        }
        if let Some(max) = problem.max_version {
            entry.insert("max_version".into(), max.to_string().into());
        }
        if !problem.violations.is_empty() {
            entry.insert("violations".into(), json_of(problem.violations));
        }
        json!({ "errors": [entry] })
    }

    fn schema(&self) -> Value {
        let text = json!({"type": "string"});
        json!({
            "type": "object",
            "required": ["errors"],
            "properties": {"errors": {"type": "array", "minItems": 1, "items": {
                "type": "object",
                "required": ["code", "status", "title", "detail"],
                "properties": {
                    "request_id": text, "code": text, "status": {"type": "integer"}, "title": text,
                    "detail": text, "min_version": text, "max_version": text,
                    "links": {"type": "array", "items": {"type": "object"}},
                    "violations": {"type": "array", "items": {
                        "type": "object",
                        "required": ["path", "keyword", "message"],
                        "properties": {
                            "path": text, "keyword": text, "schema_path": text, "value": {},
                            "message": text, "input": {"enum": ["query"]},
                        },
                    }},
                },
            }}},
        })
    }
}

/// Nova-style faults, `{"<faultName>": {"code": N, "message": "...",
/// "min_version"?, "max_version"?}}`, with the fault name chosen by status
/// exactly as Nova's `wsgi.Fault` does (`badRequest`, `itemNotFound`,
/// `conflictingRequest`, ...; anything else is `computeFault`, or the
/// fallback name given to [`NovaFaults::with_fallback`]). The served range
/// is added as `min_version`/`max_version` when the error carries it (400
/// and 406 of negotiation), as in the API-SIG format; Nova's clients ignore
/// the extra fields.
///
/// ```
/// use microversion_core::{ErrorFormat, error::NovaFaults, Problem, Version};
/// use serde_json::json;
///
/// let problem = Problem { status: 406, detail: "Version 3.7 is not supported.",
///                         min_version: Some(Version::lit("2.1")), ..Problem::default() };
/// assert_eq!(NovaFaults::default().render(&problem, None), json!({"computeFault": {
///     "code": 406, "message": "Version 3.7 is not supported.", "min_version": "2.1",
/// }}));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct NovaFaults {
    fallback: &'static str,
}

impl Default for NovaFaults {
    fn default() -> NovaFaults {
        NovaFaults { fallback: "computeFault" }
    }
}

impl NovaFaults {
    /// Nova's faults with another name for the statuses Nova has no name
    /// for (`computeFault` in Nova; another service may prefer, say, `volumeFault`).
    pub fn with_fallback(fallback: &'static str) -> NovaFaults {
        NovaFaults { fallback }
    }

    /// The fault name Nova gives `status` (`nova.api.openstack.wsgi.Fault._fault_names`).
    pub fn fault_name(&self, status: u16) -> &'static str {
        match status {
            400 => "badRequest",
            401 => "unauthorized",
            403 => "forbidden",
            404 => "itemNotFound",
            405 => "badMethod",
            409 => "conflictingRequest",
            413 | 429 => "overLimit",
            415 => "badMediaType",
            501 => "notImplemented",
            503 => "serviceUnavailable",
            _ => self.fallback,
        }
    }
}

impl ErrorFormat for NovaFaults {
    fn render(&self, problem: &Problem<'_>, _service: Option<&str>) -> Value {
        let mut fault = Map::new();
        fault.insert("code".into(), problem.status.into());
        fault.insert("message".into(), problem.detail.into());
        if let Some(min) = problem.min_version {
            fault.insert("min_version".into(), min.to_string().into());
        }
        if let Some(max) = problem.max_version {
            fault.insert("max_version".into(), max.to_string().into());
        }
        json!({ self.fault_name(problem.status): fault })
    }

    fn schema(&self) -> Value {
        let text = json!({"type": "string"});
        json!({
            "type": "object",
            "minProperties": 1,
            "maxProperties": 1,
            "additionalProperties": {
                "type": "object",
                "required": ["code", "message"],
                "properties": {
                    "code": {"type": "integer"}, "message": text, "min_version": text, "max_version": text
                },
            },
        })
    }
}

impl NegotiationError {
    /// The error code of the refusal: `invalid-version`,
    /// `ambiguous-version` or `version-required` (400),
    /// `version-not-supported` or `version-retired` (406).
    pub const fn code(&self) -> &'static str {
        match self {
            NegotiationError::Malformed { .. } => "invalid-version",
            NegotiationError::Ambiguous { .. } => "ambiguous-version",
            NegotiationError::Required { .. } => "version-required",
            NegotiationError::NotAcceptable { .. } | NegotiationError::NotAcceptableText { .. } => {
                "version-not-supported"
            }
            NegotiationError::Retired { .. } => "version-retired",
        }
    }

    /// The title of the refusal.
    pub const fn title(&self) -> &'static str {
        match self {
            NegotiationError::Malformed { .. } => "Invalid API version",
            NegotiationError::Ambiguous { .. } => "Ambiguous API version",
            NegotiationError::Required { .. } => "API version required",
            NegotiationError::NotAcceptable { .. } | NegotiationError::NotAcceptableText { .. } => {
                "API version not supported"
            }
            NegotiationError::Retired { .. } => "API version retired",
        }
    }
}

/// `value` as JSON: links and violations always serialize.
fn json_of(value: &(impl serde::Serialize + ?Sized)) -> Value {
    serde_json::to_value(value).unwrap_or_default()
}

/// `code` prefixed with `service` (`compute.invalid-version`), as error
/// codes name the service that gave them; unchanged without a service.
pub fn qualified_code(code: &str, service: Option<&str>) -> String {
    match service {
        Some(service) => format!("{service}.{code}"),
        None => code.to_owned(),
    }
}

/// The detail of an operation asked for at a version none of its variants
/// serves (Nova's words), whatever the framework that answers.
pub fn not_at_version_detail(version: Version) -> String {
    format!("API version {version} is not supported on this method.")
}

/// The detail of an operation asked for at or after the version that
/// removed it: it names that version, as Nova's removed APIs do.
pub fn removed_detail(version: Version, removed_in: Version) -> String {
    format!("This method was removed in API version {removed_in}; version {version} does not have it.")
}

/// The detail of the 405 answering `method` on a path none of whose
/// operations has it at the request's version (docs/reference.md §4.2),
/// the same whichever facade answers.
///
/// ```
/// assert_eq!(
///     microversion_core::error::method_not_allowed_detail("PATCH"),
///     "The method PATCH is not allowed for this resource."
/// );
/// ```
pub fn method_not_allowed_detail(method: &str) -> String {
    format!("The method {method} is not allowed for this resource.")
}

/// The detail of an error answer that has no body of its own (a handler's
/// bare `404`, a `Reply` without a body), as every facade renders it in the
/// API's format: Nova's words for a server error, whose cause is for the
/// log, and for 404 and 405; `None` for the others, whose detail is their
/// reason phrase.
pub fn bodiless_error_detail(status: u16) -> Option<&'static str> {
    match status {
        500..=599 => {
            Some("The server has either erred or is incapable of performing the requested operation.")
        }
        404 => Some(PATH_REFUSED_DETAIL),
        405 => Some("The method is not allowed for this resource."),
        _ => None,
    }
}

/// The detail of a route parameter that does not read as its type (a 404:
/// no resource has that name), as Nova words a 404. The framework's own
/// reason is left out: each words it otherwise, and a client learns
/// nothing more from it than that no such resource exists.
pub const PATH_REFUSED_DETAIL: &str = "The resource could not be found.";

/// A query string read into `T` by one reader for every framework, so that
/// a refusal's detail is the same whichever answers: the detail of its 400
/// when it does not read. A query a typed schema validated
/// (`#[schema(query_json_schema = T)]`) is read from the object it
/// validated, its values already integers, booleans and lists; any other
/// one value per key, by `serde_urlencoded`.
#[cfg(feature = "schema")]
pub fn read_query<T: serde::de::DeserializeOwned>(
    query: &str,
    validated: Option<&crate::body::ValidatedQuery>,
) -> Result<T, String> {
    match validated {
        Some(validated) if validated.typed => {
            T::deserialize(&validated.value).map_err(|cause| cause.to_string())
        }
        _ => serde_urlencoded::from_str(query).map_err(|cause| cause.to_string()),
    }
    .map_err(|cause| format!("Invalid query string: {cause}."))
}
