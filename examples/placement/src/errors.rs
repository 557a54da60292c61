//! Placement's errors: the API-SIG document with Placement's error codes
//! and messages, and constructors for the errors the handlers raise.

use actix_web::http::StatusCode;
use microversion_actix::{ApiError, ErrorFormat};
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
    fn render(&self, error: &ApiError, _service: Option<&str>) -> Value {
        let code = if CODES.contains(&error.code()) { error.code() } else { "undefined_code" };
        let detail = match error.code() {
            // `Invalid API version "1.2.3": ...` -> microversion-parse's wording.
            "invalid-version" => format!("invalid version string: {}", quoted(error.detail())),
            "version-not-supported" => {
                let requested = error.detail().split_whitespace().nth(1).unwrap_or_default();
                format!("Unacceptable version header: {requested}")
            }
            "invalid-input" => {
                let messages: Vec<String> =
                    error.violations().iter().map(|v| python_message(&v.message)).collect();
                let keyword = error.violations().first().map_or("type", |v| keyword_of(&v.message));
                format!(
                    "JSON does not validate: {}\n\nFailed validating '{keyword}' in schema",
                    messages.join("; ")
                )
            }
            _ => match error.detail().strip_prefix("Malformed request body: ") {
                Some(rest) => format!("Malformed JSON: {rest}"),
                None => error.detail().to_owned(),
            },
        };
        let mut entry = Map::new();
        entry.insert("status".into(), error.status().as_u16().into());
        entry.insert("title".into(), error.status().canonical_reason().unwrap_or("Error").into());
        entry.insert("detail".into(), detail.into());
        entry.insert("code".into(), format!("placement.{code}").into());
        if let Some(id) = error.request_id() {
            entry.insert("request_id".into(), id.into());
        }
        if let (Some(min), Some(max)) = (error.min_version(), error.max_version()) {
            entry.insert("min_version".into(), min.to_string().into());
            entry.insert("max_version".into(), max.to_string().into());
        }
        json!({ "errors": [entry] })
    }
}

/// A validator message in the words of Python's jsonschema, which quotes
/// property names with single quotes.
fn python_message(message: &str) -> String {
    match message.strip_suffix(" is a required property") {
        Some(name) => format!("'{}' is a required property", name.trim_matches('"')),
        None => message.to_owned(),
    }
}

/// The schema keyword a validator message is about.
fn keyword_of(message: &str) -> &'static str {
    if message.contains("is a required property") {
        "required"
    } else if message.contains("less than the minimum") {
        "minimum"
    } else if message.contains("greater than the maximum") {
        "maximum"
    } else if message.contains("does not match") {
        "pattern"
    } else if message.contains("Additional properties") {
        "additionalProperties"
    } else if message.contains("is too long") {
        "maxLength"
    } else if message.contains("is too short") || message.contains("should be non-empty") {
        "minLength"
    } else {
        "type"
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

/// A storage failure: never the client's fault.
pub fn internal(error: impl std::fmt::Display) -> ApiError {
    ApiError::internal(format!("storage error: {error}"))
}

/// 404 for a missing provider.
pub fn provider_not_found(uuid: &str) -> ApiError {
    not_found(format!("No resource provider with uuid {uuid} found"))
}
