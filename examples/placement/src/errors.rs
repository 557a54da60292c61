//! Placement's errors: the API-SIG document with Placement's error codes
//! and messages, and constructors for the errors the handlers raise.

use actix_web::http::StatusCode;
use microversion_actix::error::{best_match, python_repr};
use microversion_actix::{
    ApiError,
    error::{ErrorFormat, Problem, Violation},
};
use serde_json::{Map, Value, json};

/// The codes Placement names (`placement.<code>`); every other error is
/// `placement.undefined_code`.
const CODES: [&str; 10] = [
    "concurrent_update",
    "duplicate_name",
    "inventory.inuse",
    "resource_provider.inuse",
    "resource_provider.cannot_delete_parent",
    "resource_provider.not_found",
    "query.duplicate_key",
    "query.bad_value",
    "query.missing_value",
    "undefined_code",
];

/// The API-SIG errors document as Placement writes it: Placement's codes,
/// and the negotiation and validation messages its clients look for.
#[derive(Clone, Copy, Debug, Default)]
pub struct PlacementErrors;

impl ErrorFormat for PlacementErrors {
    fn render(&self, problem: &Problem<'_>, _service: Option<&str>) -> Value {
        let code = if CODES.contains(&problem.code) { problem.code } else { "undefined_code" };
        let detail = match problem.code {
            // `Invalid API version "1.2.3": ...` -> microversion-parse's wording.
            "invalid-version" => format!("invalid version string: {}", quoted(problem.detail)),
            "version-not-supported" => {
                let requested = problem.detail.split_whitespace().nth(1).unwrap_or_default();
                format!("Unacceptable version header: {requested}")
            }
            "invalid-input" => validation_detail(problem.violations),
            _ => match problem.detail.strip_prefix("Malformed request body: ") {
                Some(rest) => format!("Malformed JSON: {rest}"),
                None => problem.detail.to_owned(),
            },
        };
        let title = StatusCode::from_u16(problem.status).ok().and_then(|s| s.canonical_reason());
        let mut entry = Map::new();
        entry.insert("status".into(), problem.status.into());
        entry.insert("title".into(), title.unwrap_or("Error").into());
        entry.insert("detail".into(), detail.into());
        entry.insert("code".into(), format!("placement.{code}").into());
        if let Some(id) = problem.request_id {
            entry.insert("request_id".into(), id.into());
        }
        if let (Some(min), Some(max)) = (problem.min_version, problem.max_version) {
            entry.insert("min_version".into(), min.to_string().into());
            entry.insert("max_version".into(), max.to_string().into());
        }
        json!({ "errors": [entry] })
    }
}

/// Placement's `JSON does not validate: ...`: Python's `jsonschema.validate`
/// reports its best match of the violations, in the words of Python's
/// `ValidationError` (the message, the failed keyword and where, the value).
fn validation_detail(violations: &[Violation]) -> String {
    match best_match(violations) {
        Some(violation) => format!("JSON does not validate: {}", python_error(violation)),
        None => "JSON does not validate".to_owned(),
    }
}

/// Placement's `Invalid query string parameters: ...` for a query string
/// (one value per key) its schema refused.
pub(crate) fn query_validation(error: &ApiError) -> ApiError {
    match best_match(error.violations()) {
        Some(violation) => {
            bad_request(format!("Invalid query string parameters: {}", python_error(violation)))
        }
        None => error.clone(),
    }
}

/// `str()` of Python's `jsonschema.ValidationError` (without the schema
/// fragment Python prints after the schema path): the message, the failed
/// keyword and where it is, and the offending value (`...` when it is too
/// long to echo).
fn python_error(violation: &Violation) -> String {
    let instance = violation.value.as_ref().map_or_else(|| "...".to_owned(), python_repr);
    let (keyword, message) = placement_wording(violation);
    format!(
        "{message}\n\nFailed validating '{keyword}' in schema{}\n\nOn instance{}:\n    {instance}",
        violation.python_schema_path(),
        violation.python_path(),
    )
}

/// The keyword and message as Placement's schemas fail: they check uuids
/// with `"format": "uuid"` (oslo's `is_uuid_like`, which takes them with
/// or without dashes); the example's schemas say that with
/// [`UUID_PATTERN`](crate::query::UUID_PATTERN), which the `uuid` format
/// of the Rust validator would not.
fn placement_wording(violation: &Violation) -> (&'static str, String) {
    let uuid_pattern = format!("does not match {}", python_repr(&Value::from(crate::query::UUID_PATTERN)));
    match violation.message.strip_suffix(uuid_pattern.as_str()) {
        Some(value) if violation.keyword == "pattern" => ("format", format!("{value}is not a 'uuid'")),
        _ => (violation.keyword, violation.message.clone()),
    }
}

/// The text between the first pair of double quotes.
fn quoted(detail: &str) -> &str {
    detail.split('"').nth(1).unwrap_or(detail)
}

/// An error with one of Placement's codes.
pub fn coded(status: StatusCode, code: &'static str, detail: impl Into<String>) -> ApiError {
    let title = status.canonical_reason().unwrap_or("Error");
    ApiError::new(status, code, title, detail)
}

/// 400 Bad Request.
pub fn bad_request(detail: impl Into<String>) -> ApiError {
    coded(StatusCode::BAD_REQUEST, "undefined_code", detail)
}

/// 404 Not Found.
pub fn not_found(detail: impl Into<String>) -> ApiError {
    coded(StatusCode::NOT_FOUND, "undefined_code", detail)
}

/// 409 Conflict.
pub fn conflict(detail: impl Into<String>) -> ApiError {
    coded(StatusCode::CONFLICT, "undefined_code", detail)
}

/// 409 `placement.concurrent_update`: a generation changed under the request.
pub fn concurrent_update(detail: impl Into<String>) -> ApiError {
    coded(StatusCode::CONFLICT, "concurrent_update", detail)
}

/// The generation conflict message of the provider endpoints.
pub fn provider_generation_conflict() -> ApiError {
    concurrent_update(
        "resource provider generation conflict: Resource provider's generation already changed. \
         Please update the generation and try again.",
    )
}

/// A storage failure (the database cannot be read or written: a broken or
/// missing file, a dropped table, a PostgreSQL server gone, a row that
/// cannot be read): never an answer about the data, and never the client's
/// fault.
///
/// It answers **503 Service Unavailable**, not 500: the request was not
/// carried out (its transaction is rolled back) and the same request may
/// succeed once the database is back, which is what a 503 tells clients
/// and load balancers. The detail is generic and names a new request id,
/// which the body's `request_id` and `X-OpenStack-Request-Id` repeat; the
/// database's own error (SQL text, file names) is only in the log line
/// `placement: database error [req-...]: ...`, which pairs it with that id.
pub fn internal(error: impl std::fmt::Display) -> ApiError {
    let request_id = format!("req-{}", uuid::Uuid::new_v4());
    eprintln!("placement: database error [{request_id}]: {error}");
    store_unavailable(&request_id)
}

/// 404 for a missing provider.
pub fn provider_not_found(uuid: &str) -> ApiError {
    not_found(format!("No resource provider with uuid {uuid} found"))
}

/// The 503 of a storage failure, naming `request_id` (see [`internal`]).
pub fn store_unavailable(request_id: &str) -> ApiError {
    coded(
        StatusCode::SERVICE_UNAVAILABLE,
        "undefined_code",
        format!(
            "The placement service cannot use its database at the moment; the request was not \
             carried out. Try again later. (Request ID {request_id})"
        ),
    )
    .with_request_id(request_id)
}

/// 503: the request reached its deadline ([`crate::deadline`]) before it
/// was carried out; nothing of it was kept.
pub fn deadline_passed() -> ApiError {
    coded(
        StatusCode::SERVICE_UNAVAILABLE,
        "undefined_code",
        "The request was not carried out: it reached its deadline before it was done. Try again.",
    )
}

/// 503: the connection to the database was lost while it committed, so
/// whether the change was kept is unknown. The answer says how to find
/// out rather than "not carried out"; the log line pairs the cause with
/// the request id, as [`internal`]'s.
pub fn outcome_unknown(error: impl std::fmt::Display) -> ApiError {
    let request_id = format!("req-{}", uuid::Uuid::new_v4());
    eprintln!("placement: database lost during COMMIT [{request_id}]: {error}");
    coded(
        StatusCode::SERVICE_UNAVAILABLE,
        "undefined_code",
        format!(
            "The placement service lost its database while committing this request: it may or may \
             not have been carried out. Read the resource (for allocations, GET /allocations/{{consumer}}) \
             before trying again. (Request ID {request_id})"
        ),
    )
    .with_request_id(request_id)
}
