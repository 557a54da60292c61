//! Placement's errors: the API-SIG document with Placement's error codes
//! and messages, and constructors for the errors the handlers raise.

use actix_web::http::StatusCode;
use microversion_actix::error::python_repr;
use microversion_actix::version::is_python_int;
use microversion_actix::{
    ApiError,
    error::{ErrorFormat, ErrorPage, ErrorRequest, Problem, Violation},
};
use microversion_core::error::violation::best_match_within;
use serde_json::{Map, Value, json};

use crate::db::StoreError;
use crate::http::cut;

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

/// The API-SIG errors document as Placement writes it: Placement's codes
/// (named from 1.23, by the version the error's request was served at),
/// the negotiation and validation messages its clients look for, and each
/// `detail` as webob's page writes it. It reads the request it answers
/// (docs/reference.md §5.5): webob's page quotes the method, `Accept` and
/// `Content-Type`, and a client that asks for HTML, or for neither HTML
/// nor JSON, gets webob's HTML or plain-text page instead.
#[derive(Clone, Copy, Debug, Default)]
pub struct PlacementErrors;

microversion_actix::version::version_gates! {
    /// What an error document holds from a version on.
    struct Document for crate::api::PLACEMENT {
        /// A `code` (`json_error_formatter`).
        codes: "1.23",
    }
}

impl ErrorFormat for PlacementErrors {
    fn reads_request(&self) -> bool {
        true
    }

    fn render(&self, problem: &Problem<'_>, _service: Option<&str>) -> Value {
        let code = if CODES.contains(&problem.code) { problem.code } else { "undefined_code" };
        let mut entry = Map::new();
        entry.insert("status".into(), problem.status.into());
        entry.insert("title".into(), webob_title(problem.status).into());
        entry.insert("detail".into(), page_detail(problem).into());
        // `json_error_formatter` names a `code` from 1.23 only; a refused
        // version was served at none.
        if problem.version.is_some_and(|version| Document::at(version).codes) {
            entry.insert("code".into(), format!("placement.{code}").into());
        }
        if let Some(id) = problem.request_id {
            entry.insert("request_id".into(), id.into());
        }
        // Only the 406 names the range (microversion-parse's middleware).
        if let (406, Some(min), Some(max)) = (problem.status, problem.min_version, problem.max_version) {
            entry.insert("min_version".into(), min.to_string().into());
            entry.insert("max_version".into(), max.to_string().into());
        }
        json!({ "errors": [entry] })
    }

    fn page(&self, problem: &Problem<'_>, service: Option<&str>) -> Option<ErrorPage> {
        let request = problem.request?;
        let status = problem.status;
        let page = match page_form(request.accept.as_deref()) {
            PageForm::Json => None,
            PageForm::Html => Some(ErrorPage {
                content_type: HTML,
                body: webob_html(status, &PageRequest::of(request), &message(problem)),
            }),
            PageForm::Plain => Some(ErrorPage {
                content_type: "text/plain; charset=UTF-8",
                body: format!("{status} {}\n\n{}", webob_title(status), page_detail(problem)),
            }),
        };
        if !request.is_head() {
            return page;
        }
        // webob answers a HEAD with its exception's own type, whatever the
        // `Accept` (`WSGIHTTPException.__call__`); the body is not sent.
        let body = page.map_or_else(|| self.render(problem, service).to_string(), |page| page.body);
        Some(ErrorPage { content_type: HTML, body })
    }
}

/// The type of webob's HTML pages.
const HTML: &str = "text/html; charset=UTF-8";

/// The message Placement raised `problem` with, the text webob's page
/// quotes: the negotiation's and validation's in the words of Placement's
/// own stack.
fn message(problem: &Problem<'_>) -> String {
    match problem.code {
        // `Invalid API version "1.2.3": ...` -> the version middleware's
        // `Invalid microversion: ` and microversion-parse's wording.
        "invalid-version" => format!("Invalid microversion: {}", invalid_version(quoted(problem.detail))),
        // `Version 1.05 is not supported by the API. ...`: the version as
        // the client wrote it (`VersionSyntax::MicroversionParse`).
        "version-not-supported" => {
            let requested =
                problem.detail.strip_prefix("Version ").and_then(|d| d.split_once(" is not supported"));
            format!("Invalid microversion: Unacceptable version header: {}", requested.unwrap_or_default().0)
        }
        // Placement's `version_handler` raises a bare 404 or 405: the
        // page has no message.
        "method-not-at-version" | "method-removed" => String::new(),
        "invalid-input" => validation_detail(problem.violations),
        _ => match problem.detail.strip_prefix("Malformed request body: ") {
            Some(rest) => format!("Malformed JSON: {}", python_json_error(rest)),
            None => problem.detail.to_owned(),
        },
    }
}

/// An error document's `detail`: webob's page for the message, its tags
/// stripped ([`webob_detail`]), for an error answering a request; the
/// message alone for one rendered outside the negotiation.
fn page_detail(problem: &Problem<'_>) -> String {
    let message = message(problem);
    match problem.request {
        Some(request) => webob_detail(problem.status, &PageRequest::of(request), &message),
        None => message,
    }
}

/// The form of an error page, as webob's `generate_response` picks it
/// from `Accept` among HTML and JSON (the greater quality, HTML on a tie),
/// else plain text; Placement's request log middleware has made a missing
/// or `*/*` `Accept` JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PageForm {
    Json,
    Html,
    Plain,
}

fn page_form(accept: Option<&str>) -> PageForm {
    let accept = match accept.map(str::trim) {
        None | Some("" | "*/*") => return PageForm::Json,
        Some(accept) => accept,
    };
    // The quality of `offer`: that of the most specific range it matches.
    let quality = |offer: &str| -> f32 {
        let (kind, _) = offer.split_once('/').unwrap_or((offer, ""));
        let mut best: Option<(u8, f32)> = None;
        for range in accept.split(',') {
            let mut parts = range.split(';');
            let media = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
            let q = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .next()
                .and_then(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            let specificity = match media.as_str() {
                m if m == offer => 3,
                m if m.strip_suffix("/*") == Some(kind) => 2,
                "*/*" => 1,
                _ => continue,
            };
            if best.is_none_or(|(s, _)| specificity > s) {
                best = Some((specificity, q));
            }
        }
        best.map_or(0.0, |(_, q)| q)
    };
    let (html, json) = (quality("text/html"), quality("application/json"));
    match (html > 0.0, json > 0.0) {
        (true, _) if html >= json => PageForm::Html,
        (_, true) => PageForm::Json,
        _ => PageForm::Plain,
    }
}

/// A JSON syntax error as Python's `json.loads` words it, where serde_json
/// finds the same error at the same place: `Expecting value`, `Expecting
/// property name enclosed in double quotes` and `Extra data`, with
/// Python's `line L column C (char N)` (on the first line, where N is
/// C - 1). Any other error keeps serde_json's words.
fn python_json_error(serde: &str) -> String {
    let Some((what, at)) = serde.rsplit_once(" at line ") else { return serde.to_owned() };
    let Some((line, column)) = at.split_once(" column ") else { return serde.to_owned() };
    let column = column.trim_end_matches('.');
    let (Ok(line), Ok(column)) = (line.parse::<u64>(), column.parse::<u64>()) else {
        return serde.to_owned();
    };
    let python = match what {
        "expected value" => "Expecting value",
        "key must be a string" => "Expecting property name enclosed in double quotes",
        "trailing characters" => "Extra data",
        _ => return serde.to_owned(),
    };
    if line != 1 {
        return serde.to_owned();
    }
    format!("{python}: line 1 column {column} (char {})", column.saturating_sub(1))
}

/// microversion-parse's `invalid version string: 1.a; <why>`: the version
/// is read as Python's `Version(*(int(part) for part in text.split('.',
/// 1)))`, and `why` is the first part `int()` refuses, or the `TypeError`
/// of a version without a minor part.
fn invalid_version(text: &str) -> String {
    let mut parts = text.splitn(2, '.');
    let why =
        parts.by_ref().take(2).find(|part| !is_python_int(part)).map(|part| {
            format!("invalid literal for int() with base 10: {}", python_repr(&Value::from(part)))
        });
    let why = why.unwrap_or_else(|| match text.split_once('.') {
        Some(_) => "Version.__new__() takes 3 positional arguments".to_owned(),
        None => "Version.__new__() missing 1 required positional argument: 'minor'".to_owned(),
    });
    format!("invalid version string: {text}; {why}")
}

/// Placement's `JSON does not validate: ...`: Python's `jsonschema.validate`
/// reports its best match of the violations, in the words of Python's
/// `ValidationError`, without the schema it failed (which the error format
/// does not see: [`schema_failure`] gives it).
fn validation_detail(violations: &[Violation]) -> String {
    match best_match_within(violations) {
        Some((violation, within)) => {
            format!("JSON does not validate: {}", python_error(violation, within, None))
        }
        None => "JSON does not validate".to_owned(),
    }
}

/// 400 for a body that broke `schema` (the whole document), as Placement
/// words it: `JSON does not validate: ` and Python's `str()` of the
/// `ValidationError` of its best match, the schema part it failed included.
pub(crate) fn schema_failure(violations: &[Violation], schema: &Value) -> ApiError {
    bad_request(format!("JSON does not validate: {}", best_match_text(violations, schema, None)))
}

/// Placement's `Invalid query string parameters: ...` for a query string
/// (`query`, one value per key) that broke `schema`, worded as
/// [`schema_failure`]; the query is shown whole, as Placement shows it
/// (a URL's length bounds it).
pub(crate) fn query_validation(violations: &[Violation], schema: &Value, query: &Value) -> ApiError {
    bad_request(format!(
        "Invalid query string parameters: {}",
        best_match_text(violations, schema, Some(query))
    ))
}

/// Python's `str()` of the error `jsonschema.validate` raises for
/// `violations` of `schema`: that of their best match, of equals the first
/// Python meets (it walks the schema in its order), its value taken from
/// `instance` when the violation keeps none.
fn best_match_text(violations: &[Violation], schema: &Value, instance: Option<&Value>) -> String {
    let mut in_python_order = violations.to_vec();
    in_python_order.sort_by_cached_key(|v| place_in_schema(schema, &v.schema_path));
    let Some((violation, within)) = best_match_within(&in_python_order) else { return String::new() };
    let mut violation = violation.clone();
    if violation.value.is_none() {
        violation.value = instance.and_then(|i| i.pointer(&violation.path)).cloned();
    }
    let holder = violation.schema_path.rsplit_once('/').and_then(|(parent, _)| schema.pointer(parent));
    python_error(&violation, within, holder.map(as_placement_writes_it).as_ref())
}

/// Where Python's `jsonschema` meets the keyword at `pointer` as it walks
/// `schema`: the place of each step among its siblings (a map's keys in
/// their order), so that sorting by it is Python's order of the errors.
fn place_in_schema(schema: &Value, pointer: &str) -> Vec<usize> {
    let mut place = Vec::new();
    let mut at = Some(schema);
    for segment in pointer.split('/').skip(1) {
        let segment = segment.replace("~1", "/").replace("~0", "~");
        let (index, next) = match at {
            Some(Value::Object(map)) => match map.keys().position(|key| *key == segment) {
                Some(index) => (index, map.get(&segment)),
                None => (usize::MAX, None),
            },
            Some(Value::Array(items)) => match segment.parse::<usize>() {
                Ok(index) => (index, items.get(index)),
                Err(_) => (usize::MAX, None),
            },
            _ => (usize::MAX, None),
        };
        place.push(index);
        at = next;
    }
    place
}

/// `str()` of Python's `jsonschema.ValidationError` for `violation`
/// ([`Violation::python_text`]), in Placement's words, with the part of
/// the schema that holds the failed keyword (`...` when not known).
fn python_error(violation: &Violation, within: Option<&Violation>, holder: Option<&Value>) -> String {
    let (keyword, message) = placement_wording(violation);
    let mut worded = violation.clone();
    worded.keyword = keyword;
    worded.message = message;
    worded.python_text(holder, within)
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

/// A part of the example's schema as Placement writes it: `"format":
/// "uuid"` where the example has `"pattern":` [`UUID_PATTERN`](crate::query::UUID_PATTERN)
/// (see [`placement_wording`]), in the same place.
fn as_placement_writes_it(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, value)| match (key.as_str(), value.as_str()) {
                    ("pattern", Some(crate::query::UUID_PATTERN)) => {
                        ("format".to_owned(), Value::from("uuid"))
                    }
                    _ => (key.clone(), as_placement_writes_it(value)),
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(as_placement_writes_it).collect()),
        other => other.clone(),
    }
}

/// What a request says that webob's pages quote: its method, `Accept` and
/// `Content-Type` (`None` when not sent).
#[derive(Clone, Debug, Default)]
struct PageRequest {
    method: String,
    accept: Option<String>,
    content_type: Option<String>,
}

impl PageRequest {
    /// What webob's pages quote of `request`; the headers are cut, as
    /// every echo of the client's input is.
    fn of(request: &ErrorRequest) -> PageRequest {
        let text = |value: &Option<String>| value.as_deref().map(|v| cut(v, 200));
        // Placement's request log middleware makes a missing or `*/*` Accept JSON.
        let accept = text(&request.accept).filter(|a| !a.is_empty() && a != "*/*");
        PageRequest {
            method: request.method.clone(),
            accept: Some(accept.unwrap_or_else(|| "application/json".to_owned())),
            content_type: text(&request.content_type),
        }
    }
}

/// An error's `detail` as Placement writes it: webob's page for the status
/// (its explanation, a line break, the message), with the tags stripped
/// by `webob.exc.strip_tags`, as Placement's `json_error_formatter` does:
/// the message's newlines become spaces, `<br />` a newline, other tags go.
///
/// `"The resource could not be found.\n\n No resource provider with uuid X found  "`.
fn webob_detail(status: u16, request: &PageRequest, message: &str) -> String {
    strip_tags(&webob_body(status, request, message, str::to_owned))
}

/// webob's HTML page of an error (`html_body`), for a client that asked
/// for HTML: the status as title and heading, then the page's text with
/// the message and the request's values HTML-escaped.
fn webob_html(status: u16, request: &PageRequest, message: &str) -> String {
    let title = format!("{status} {}", webob_title(status));
    let body = webob_body(status, request, message, html_escape);
    format!(
        "<html>\n <head>\n  <title>{title}</title>\n </head>\n <body>\n  <h1>{title}</h1>\n  {body}\n </body>\n</html>"
    )
}

/// webob's page text for `status` (`_make_body`: the status's template,
/// filled with the message and what the request says, each through `escape`).
fn webob_body(status: u16, request: &PageRequest, message: &str, escape: fn(&str) -> String) -> String {
    // webob's `safe_substitute` leaves an absent variable as written.
    let or_variable =
        |value: &Option<String>, name: &str| value.as_deref().map_or_else(|| format!("${{{name}}}"), escape);
    let message = escape(message);
    match status {
        405 => format!(
            "The method {} is not allowed for this resource. <br /><br />\n{message}",
            escape(&request.method)
        ),
        406 => format!(
            "The resource could not be generated that was acceptable to your browser\n(content of type {}. \
             <br /><br />\n{message}",
            or_variable(&request.accept, "HTTP_ACCEPT")
        ),
        415 => format!(
            "The request media type {} is not supported by this server.\n<br /><br />\n{message}",
            // Placement's `require_content` reads a missing type as `None`.
            escape(request.content_type.as_deref().unwrap_or("None"))
        ),
        _ => format!("{}<br /><br />\n{message}\n\n", webob_explanation(status)),
    }
}

/// `webob.util.html_escape`: Python's `html.escape(text, quote=True)`,
/// then every character beyond ASCII as a character reference.
fn html_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            c if c.is_ascii() => out.push(c),
            c => out.push_str(&format!("&#{};", c as u32)),
        }
    }
    out
}

/// `webob.exc.strip_tags`, pass by pass as its regular expressions run:
/// newlines become spaces, `<br...>` a newline, comment marks go, then
/// every other tag.
fn strip_tags(page: &str) -> String {
    let flat = page.replace('\n', " ").replace('\r', "");
    let breaks =
        replace_tags(&flat, |tag| tag.get(1..3).is_some_and(|name| name.eq_ignore_ascii_case("br")), "\n");
    let uncommented = breaks.replace("<!--", "").replace("-->", "");
    replace_tags(&uncommented, |_| true, "")
}

/// `text` with each `<...>` (to the first `>`) that `matches` replaced by
/// `with`; a `<` without a `>` after it stays.
fn replace_tags(text: &str, matches: impl Fn(&str) -> bool, with: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('<') {
        let Some(close) = rest[open..].find('>').map(|close| open + close) else { break };
        out.push_str(&rest[..open]);
        if matches(&rest[open..=close]) {
            out.push_str(with);
            rest = &rest[close + 1..];
        } else {
            // Not this pass's tag: keep its `<` and look again after it.
            out.push('<');
            rest = &rest[open + 1..];
        }
    }
    out.push_str(rest);
    out
}

/// webob's explanation of a status (`webob.exc`), the first line of its page.
fn webob_explanation(status: u16) -> &'static str {
    match status {
        403 => "Access was denied to this resource.",
        404 => "The resource could not be found.",
        408 => "The server has waited too long for the request to be sent by the client.",
        409 => "There was a conflict when trying to complete your request.",
        413 => "The body of your request was too large for this server.",
        414 => "The request URI was too long for this server.",
        431 => "The request header fields were too large",
        503 => "The server is currently unavailable. Please try again at a later time.",
        500..=599 => "The server has either erred or is incapable of performing the requested operation.",
        _ => {
            "The server could not comply with the request since it is either malformed or otherwise incorrect."
        }
    }
}

/// webob's title of a status, where it is not the standard reason phrase.
fn webob_title(status: u16) -> &'static str {
    match status {
        413 => "Request Entity Too Large",
        414 => "Request-URI Too Long",
        416 => "Request Range Not Satisfiable",
        _ => StatusCode::from_u16(status).ok().and_then(|s| s.canonical_reason()).unwrap_or("Error"),
    }
}

/// The text between the first pair of double quotes.
fn quoted(detail: &str) -> &str {
    detail.split('"').nth(1).unwrap_or(detail)
}

/// An error with one of Placement's codes.
pub fn coded(status: impl Into<u16>, code: &'static str, detail: impl Into<String>) -> ApiError {
    let error = ApiError::new(status, code, "", detail);
    let title = error.status().canonical_reason().unwrap_or("Error");
    ApiError::new(error.status(), code, title, error.detail().to_owned())
}

/// 400 Bad Request.
pub fn bad_request(detail: impl Into<String>) -> ApiError {
    coded(StatusCode::BAD_REQUEST, "undefined_code", detail)
}

/// 400 for a part of a body its schema leaves unchecked and the handler
/// cannot read: an inventory under a key that is no class name whose
/// record is no object (`"vcpu": 5`).
pub fn unreadable(what: &str, error: serde_json::Error) -> ApiError {
    bad_request(format!("Unable to read {what}: {error}"))
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

/// A store failure as Placement answers it: a lost race or a stale
/// generation 409 `placement.concurrent_update`, the rest 503 (logged with
/// the request id the answer names, where it says more than the answer).
impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> ApiError {
        match error {
            StoreError::LostRace => {
                concurrent_update("Another thread concurrently updated the data. Please retry your update")
            }
            StoreError::GenerationChanged => provider_generation_conflict(),
            StoreError::NoConnection(why) | StoreError::Unavailable(why) => internal(why),
            StoreError::DeadlinePassed => deadline_passed(),
            StoreError::OutcomeUnknown(why) => outcome_unknown(why),
        }
    }
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

/// 400: the client closed its connection, or shut its sending side,
/// before the request was done (`src/departure.rs`); nothing of it was
/// kept. A client gone reads nothing; one that only half-closed reads that
/// its own close ended the request (a 4xx, as nginx counts its 499).
pub fn client_gone() -> ApiError {
    coded(
        StatusCode::BAD_REQUEST,
        "undefined_code",
        "The request was not carried out: its client closed the connection before it was done.",
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

#[cfg(test)]
mod webob_tests {
    use super::*;

    /// Pages as webob 1.8's `HTTPException._make_body` and `strip_tags`
    /// write them, for a message with a newline, a tag and an ampersand.
    #[test]
    fn pages_are_webobs() {
        let request =
            PageRequest { method: "PUT".into(), accept: None, content_type: Some("text/plain".into()) };
        let message = "Line one\nline <two> & 'x'";
        assert_eq!(
            webob_detail(404, &request, message),
            "The resource could not be found.\n\n Line one line  & 'x'  "
        );
        assert_eq!(
            webob_detail(415, &request, message),
            "The request media type text/plain is not supported by this server. \n\n Line one line  & 'x'"
        );
        assert_eq!(
            webob_detail(406, &request, "d"),
            "The resource could not be generated that was acceptable to your browser (content of type \
             ${HTTP_ACCEPT}. \n\n d"
        );
        assert_eq!(webob_detail(404, &request, ""), "The resource could not be found.\n\n   ");
        // webob 1.8's HTML pages, byte for byte (Placement 16.0.0's answers).
        let page = |status, method: &str, accept: &str, message| {
            let request =
                PageRequest { method: method.into(), accept: Some(accept.into()), content_type: None };
            webob_html(status, &request, message)
        };
        assert_eq!(
            page(405, "PATCH", "text/html", "The method specified is not allowed for this resource."),
            "<html>\n <head>\n  <title>405 Method Not Allowed</title>\n </head>\n <body>\n  \
             <h1>405 Method Not Allowed</h1>\n  The method PATCH is not allowed for this resource. <br /><br />\n\
             The method specified is not allowed for this resource.\n </body>\n</html>"
        );
        assert_eq!(
            page(406, "GET", "text/html;q=0.9, application/x&y", "Only application/json is provided"),
            "<html>\n <head>\n  <title>406 Not Acceptable</title>\n </head>\n <body>\n  \
             <h1>406 Not Acceptable</h1>\n  The resource could not be generated that was acceptable to your \
             browser\n(content of type text/html;q=0.9, application/x&amp;y. <br /><br />\n\
             Only application/json is provided\n </body>\n</html>"
        );
        assert_eq!(
            page(400, "POST", "text/html", "5 is not of type 'string'\n\nOn instance['name']:\n    5"),
            "<html>\n <head>\n  <title>400 Bad Request</title>\n </head>\n <body>\n  \
             <h1>400 Bad Request</h1>\n  The server could not comply with the request since it is either \
             malformed or otherwise incorrect.<br /><br />\n5 is not of type &#x27;string&#x27;\n\n\
             On instance[&#x27;name&#x27;]:\n    5\n\n\n </body>\n</html>"
        );
        assert_eq!(strip_tags("a <!-- c --> <b"), "a  c  <b");
        assert_eq!(webob_title(413), "Request Entity Too Large");
    }
}
