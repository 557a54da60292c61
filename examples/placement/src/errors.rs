//! Placement's errors: the API-SIG document with Placement's error codes
//! and messages, and constructors for the errors the handlers raise.

use actix_web::http::StatusCode;
use microversion_actix::{ApiError, ErrorFormat, Violation};
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
            "invalid-input" => validation_detail(error.violations()),
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

/// Placement's `JSON does not validate: ...` for the violations the
/// validator found: the messages in the words of Python's jsonschema, the
/// keyword of the first, and where it is in the schema.
fn validation_detail(violations: &[Violation]) -> String {
    let translated: Vec<(String, &'static str)> = violations.iter().map(python_message).collect();
    let messages: Vec<&str> = translated.iter().map(|(m, _)| m.as_str()).collect();
    let (keyword, path) = match (translated.first(), violations.first()) {
        (Some((_, keyword)), Some(first)) => (*keyword, first.path.as_str()),
        _ => ("type", ""),
    };
    let mut schema_path = String::new();
    let mut instance_path = String::new();
    let mut parent = "";
    for segment in path.split('/').filter(|s| !s.is_empty()) {
        if segment.bytes().all(|b| b.is_ascii_digit()) {
            schema_path.push_str("['items']");
            instance_path.push_str(&format!("[{segment}]"));
        } else {
            if KEYED_BY_PATTERN.contains(&parent) {
                schema_path.push_str("['patternProperties']");
            } else {
                schema_path.push_str(&format!("['properties']['{segment}']"));
            }
            instance_path.push_str(&format!("['{segment}']"));
        }
        parent = segment;
    }
    format!(
        "JSON does not validate: {}\n\nFailed validating '{keyword}' in schema{schema_path}\n\nOn instance{instance_path}",
        messages.join("; ")
    )
}

/// Placement's `Invalid query string parameters: ...` for a query string
/// (one value per key) its schema refused; `patterns` are the schema's
/// pattern-matched keys, named when an unknown key matches none of them.
pub(crate) fn query_validation(error: &ApiError, patterns: &[&str]) -> ApiError {
    let Some(first) = error.violations().first() else { return error.clone() };
    let (mut message, keyword) = python_message(first);
    if keyword == "additionalProperties" && !patterns.is_empty() {
        let list = first
            .message
            .strip_prefix("Additional properties are not allowed (")
            .and_then(|r| r.split(" was").next())
            .unwrap_or_default();
        let regexes: Vec<String> = patterns.iter().map(|p| format!("'{p}'")).collect();
        message = format!("{list} does not match any of the regexes: {}", regexes.join(", "));
    }
    let field = first.path.trim_start_matches('/');
    let schema_path = if field.is_empty() { String::new() } else { format!("['properties']['{field}']") };
    bad_request(format!(
        "Invalid query string parameters: {message}\n\nFailed validating '{keyword}' in schema{schema_path}"
    ))
}

/// The objects of Placement's bodies whose keys are matched by a pattern
/// (uuids, resource classes), with no other keys allowed.
const KEYED_BY_PATTERN: [&str; 3] = ["allocations", "resources", "inventories"];

/// A validator message in the words of Python's jsonschema (values as
/// Python's `repr`, single quotes), with the keyword that failed.
fn python_message(violation: &Violation) -> (String, &'static str) {
    let message = violation.message.as_str();
    if let Some(list) =
        message.strip_prefix("Additional properties are not allowed (").and_then(|r| r.split(" was").next())
    {
        if violation.path.rsplit('/').next().is_some_and(|last| KEYED_BY_PATTERN.contains(&last)) {
            return (format!("{list} does not match any of the regexes"), "additionalProperties");
        }
        return (message.to_owned(), "additionalProperties");
    }
    let mut values = serde_json::Deserializer::from_str(message).into_iter::<Value>();
    let Some(Ok(instance)) = values.next() else {
        // A long string the framework cut: too long, most likely.
        if message.starts_with('"') && message.ends_with('…') {
            let text: String = message.trim_start_matches('"').chars().take(60).collect();
            return (format!("'{text}...' is too long"), "maxLength");
        }
        return (message.to_owned(), "type");
    };
    let rest = &message[values.byte_offset()..];
    let value = repr(&instance);
    let quoted_after = |prefix: &str| rest.strip_prefix(prefix).map(|r| r.trim_matches('"').to_owned());
    if let Some(kind) = quoted_after(" is not of type ") {
        return (format!("{value} is not of type '{kind}'"), "type");
    }
    if let Some(kinds) = rest.strip_prefix(" is not of types ") {
        return (format!("{value} is not of type {}", kinds.replace('"', "'")), "type");
    }
    if rest == " is a required property" {
        return (format!("{value} is a required property"), "required");
    }
    if let Some(pattern) = quoted_after(" does not match ") {
        if pattern == crate::query::UUID_PATTERN {
            return (format!("{value} is not a 'uuid'"), "format");
        }
        return (format!("{value} does not match '{pattern}'"), "pattern");
    }
    if let Some(format) = quoted_after(" is not a ") {
        return (format!("{value} is not a '{format}'"), "format");
    }
    if let Some(mut options) = rest.strip_prefix(" is not one of ") {
        let mut listed = Vec::new();
        loop {
            options = options
                .trim_start()
                .trim_start_matches(',')
                .trim_start()
                .trim_start_matches("or ")
                .trim_start();
            let mut stream = serde_json::Deserializer::from_str(options).into_iter::<Value>();
            match stream.next() {
                Some(Ok(option)) => {
                    listed.push(repr(&option));
                    options = &options[stream.byte_offset()..];
                }
                _ => break,
            }
        }
        return (format!("{value} is not one of [{}]", listed.join(", ")), "enum");
    }
    let table: [(&str, &str, &'static str); 8] = [
        (" is shorter than ", "is too short", "minLength"),
        (" is longer than ", "is too long", "maxLength"),
        (" is less than the minimum of ", "", "minimum"),
        (" is greater than the maximum of ", "", "maximum"),
        (" is not one of ", "", "enum"),
        (" is not valid under any of the schemas listed in the 'anyOf'", "", "anyOf"),
        (" is not valid under any of the schemas listed in the 'oneOf'", "", "oneOf"),
        (" has non-unique elements", "", "uniqueItems"),
    ];
    for (prefix, words, keyword) in table {
        if rest.starts_with(prefix) {
            let words = if words.is_empty() { rest.trim_start() } else { words };
            return (format!("{value} {words}"), keyword);
        }
    }
    let sized: [(&str, &str, &str, &'static str); 4] = [
        (" has less than ", "item", "is too short", "minItems"),
        (" has more than ", "item", "is too long", "maxItems"),
        (" has less than ", "propert", "does not have enough properties", "minProperties"),
        (" has more than ", "propert", "has too many properties", "maxProperties"),
    ];
    for (prefix, unit, words, keyword) in sized {
        if rest.starts_with(prefix) && rest.contains(unit) {
            return (format!("{value} {words}"), keyword);
        }
    }
    (message.to_owned(), "type")
}

/// A JSON value as Python's `repr` writes it.
fn repr(value: &Value) -> String {
    match value {
        Value::Null => "None".to_owned(),
        Value::Bool(true) => "True".to_owned(),
        Value::Bool(false) => "False".to_owned(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => {
            if s.contains('\'') && !s.contains('"') {
                format!("\"{s}\"")
            } else {
                format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"))
            }
        }
        Value::Array(items) => format!("[{}]", items.iter().map(repr).collect::<Vec<_>>().join(", ")),
        Value::Object(map) => format!(
            "{{{}}}",
            map.iter()
                .map(|(k, v)| format!("{}: {}", repr(&Value::String(k.clone())), repr(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
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
