//! Reading JSON request bodies once: content type, size limit, parsing, and
//! the `Json` / `JsonBody` extractors.

use std::ops::{Deref, DerefMut};
use std::time::Duration;

use actix_web::dev::Payload;
use actix_web::http::StatusCode;
use actix_web::http::header;
use actix_web::{FromRequest, HttpMessage, HttpRequest, web};
use futures_util::StreamExt;
use futures_util::future::LocalBoxFuture;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::ApiError;

/// The largest request body read, in bytes; register it as app data
/// (`.app_data(BodyLimit(64 * 1024))` or in `web::Data`) to change the
/// default of [`BodyLimit::DEFAULT`]. A larger body answers 413.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BodyLimit(pub usize);

impl BodyLimit {
    /// 1 MiB.
    pub const DEFAULT: BodyLimit = BodyLimit(1024 * 1024);

    /// The limit configured for `req`, or the default.
    pub fn of(req: &HttpRequest) -> BodyLimit {
        req.app_data::<BodyLimit>()
            .or_else(|| req.app_data::<web::Data<BodyLimit>>().map(|d| d.get_ref()))
            .copied()
            .unwrap_or_default()
    }
}

impl Default for BodyLimit {
    fn default() -> BodyLimit {
        BodyLimit::DEFAULT
    }
}

/// How long reading a request body may take in all, from the first read
/// to the last byte; register it as app data (`.app_data(BodyTimeout(Duration::from_secs(10)))`
/// or in `web::Data`) to change the default of [`BodyTimeout::DEFAULT`]. A
/// client that declares a length and then stalls, or trickles its body,
/// answers **408** (`request-timeout`) when it runs out, and its connection
/// is closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BodyTimeout(pub Duration);

impl BodyTimeout {
    /// 30 seconds.
    pub const DEFAULT: BodyTimeout = BodyTimeout(Duration::from_secs(30));

    /// The deadline configured for `req`, or the default.
    pub fn of(req: &HttpRequest) -> BodyTimeout {
        req.app_data::<BodyTimeout>()
            .or_else(|| req.app_data::<web::Data<BodyTimeout>>().map(|d| d.get_ref()))
            .copied()
            .unwrap_or_default()
    }
}

impl Default for BodyTimeout {
    fn default() -> BodyTimeout {
        BodyTimeout::DEFAULT
    }
}

fn timed_out(timeout: Duration) -> ApiError {
    ApiError::new(
        StatusCode::REQUEST_TIMEOUT,
        "request-timeout",
        "Request Timeout",
        format!("The request body was not received within {} ms.", timeout.as_millis()),
    )
}

/// Keeps the payload of a request answered 408 alive, discarding what still
/// arrives, until its connection closes (at most [`HOLD_LIMIT`]). Dropped
/// at once, a chunked payload would be drained by actix after the response,
/// without a deadline; held, the connection is closed after the response,
/// which `ConnectionType::Close` on the 408 asks for.
fn hold_until_closed(mut payload: Payload) {
    actix_web::rt::spawn(async move {
        let drain = async { while let Some(Ok(_)) = payload.next().await {} };
        let _ = actix_web::rt::time::timeout(HOLD_LIMIT, drain).await;
    });
}

/// How long [`hold_until_closed`] waits for a connection to close.
const HOLD_LIMIT: Duration = Duration::from_secs(60);

/// A request body already read and validated, stored in the request
/// extensions by a dispatcher so that [`Json`] and [`JsonBody`] do not read
/// or parse it again.
///
/// ```
/// use actix_web::{test::TestRequest, HttpMessage};
/// use microversion_actix::__private::ParsedJson;
///
/// let req = TestRequest::default().to_http_request();
/// req.extensions_mut().insert(ParsedJson(serde_json::json!({"name": "vm"})));
/// ```
#[doc(hidden)]
#[derive(Clone, Debug, PartialEq)]
pub struct ParsedJson(pub Value);

/// Whether a media type (parameters allowed) is JSON: `application/json`
/// or any `+json` type.
pub(crate) fn is_json_type(content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or_default().trim();
    essence.eq_ignore_ascii_case("application/json")
        || (essence.len() > 5 && essence.is_char_boundary(essence.len() - 5) && {
            let (kind, suffix) = essence.split_at(essence.len() - 5);
            suffix.eq_ignore_ascii_case("+json") && kind.contains('/')
        })
}

/// Checks the content type as Nova does: JSON types are accepted, and so
/// are a missing or empty content type and `text/plain` (what many clients
/// and servers send by default); anything else answers 415.
fn check_content_type(req: &HttpRequest) -> Result<(), ApiError> {
    let Some(value) = req.headers().get(header::CONTENT_TYPE) else {
        return Ok(());
    };
    let text = value.to_str().unwrap_or("<not text>");
    let essence = text.split(';').next().unwrap_or_default().trim();
    if essence.is_empty() || essence.eq_ignore_ascii_case("text/plain") || is_json_type(text) {
        return Ok(());
    }
    let shown: String = text.chars().take(100).collect();
    Err(ApiError::new(
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "unsupported-media-type",
        "Unsupported Media Type",
        format!("Unsupported Content-Type {shown:?}: the request body must be JSON (application/json)."),
    ))
}

fn too_large(limit: usize) -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "request-too-large",
        "Request Entity Too Large",
        format!("The request body is larger than the limit of {limit} bytes."),
    )
}

/// Reads and parses a JSON request body, once.
///
/// - Content type: JSON, `text/plain` or none (as Nova accepts), else **415**.
/// - Size: at most [`BodyLimit`] from app data (1 MiB by default), else
///   **413**; a `Content-Length` above it is refused before reading, and
///   reading stops as soon as the limit is passed.
/// - Time: the whole body within [`BodyTimeout`] from app data (30 s by
///   default), else **408**: a client that stalls cannot hold the request.
/// - An empty body is `Value::Null` (Nova's `body: None`), which a schema
///   or a typed extractor then rejects with a clear message.
/// - Malformed JSON or UTF-8 answers **400** with the parser's message.
///
/// Never panics on any bytes. Used by [`Json`] and [`JsonBody`]; call it
/// directly in a dispatcher that validates before the handler runs.
pub async fn read_json_body(req: &HttpRequest, payload: &mut Payload) -> Result<Value, ApiError> {
    check_content_type(req)?;
    let BodyLimit(limit) = BodyLimit::of(req);
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|len| len > limit as u64) {
        return Err(too_large(limit));
    }
    let BodyTimeout(timeout) = BodyTimeout::of(req);
    let read = async {
        let mut bytes = web::BytesMut::with_capacity(declared.map_or(0, |len| len as usize));
        while let Some(chunk) = payload.next().await {
            let chunk = chunk.map_err(|e| match e {
                actix_web::error::PayloadError::Overflow => too_large(limit),
                other => ApiError::bad_request(format!("The request body could not be read: {other}.")),
            })?;
            if bytes.len() + chunk.len() > limit {
                return Err(too_large(limit));
            }
            bytes.extend_from_slice(&chunk);
        }
        Ok(bytes)
    };
    let Ok(read) = actix_web::rt::time::timeout(timeout, read).await else {
        hold_until_closed(payload.take());
        return Err(timed_out(timeout));
    };
    let bytes = read?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(Value::Null);
    }
    serde_json::from_slice(&bytes).map_err(|e| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "malformed-body",
            "Malformed request body",
            format!("Malformed request body: {e}."),
        )
    })
}

/// Deserializes a parsed body into `T`, answering 400 with serde's message.
fn deserialize<T: DeserializeOwned>(value: Value) -> Result<T, ApiError> {
    let missing = value.is_null();
    serde_json::from_value(value).map_err(|e| {
        let detail = if missing {
            "The request body is missing: a JSON document is required.".to_owned()
        } else {
            format!("Invalid request body: {e}.")
        };
        ApiError::new(StatusCode::BAD_REQUEST, "invalid-body", "Invalid request body", detail)
    })
}

/// The request body as a `T` (this crate's own `Json`, with errors as
/// [`ApiError`]s). It takes the [`ParsedJson`] a dispatcher left in the
/// request extensions, else reads the payload with [`read_json_body`].
///
/// The body is consumed by the first body extractor of a handler, as with
/// actix's own extractors.
///
/// ```
/// use microversion_actix::Json;
///
/// #[derive(serde::Deserialize)]
/// struct Rename { name: String }
///
/// async fn rename(body: Json<Rename>) -> String {
///     body.into_inner().name
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Json<T>(pub T);

impl<T> Json<T> {
    /// The deserialized value.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> Deref for Json<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> DerefMut for Json<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

/// Responds with `T` serialized as JSON (200 OK), like `actix_web::web::Json`.
impl<T: serde::Serialize> actix_web::Responder for Json<T> {
    type Body = actix_web::body::BoxBody;

    fn respond_to(self, req: &HttpRequest) -> actix_web::HttpResponse {
        actix_web::web::Json(self.0).respond_to(req).map_into_boxed_body()
    }
}

impl<T: DeserializeOwned + 'static> FromRequest for Json<T> {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Json<T>, ApiError>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let body = JsonBody::from_request(req, payload);
        Box::pin(async move { deserialize(body.await?.0).map(Json) })
    }
}

/// The request body as a raw JSON value, parsed once (or taken from the
/// [`ParsedJson`] in the request extensions).
///
/// ```
/// use microversion_actix::body::JsonBody;
///
/// async fn echo(body: JsonBody) -> String {
///     body.value().to_string()
/// }
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct JsonBody(pub serde_json::Value);

impl JsonBody {
    /// The parsed body.
    pub fn value(&self) -> &Value {
        &self.0
    }

    /// The parsed body, owned.
    pub fn into_inner(self) -> Value {
        self.0
    }
}

impl FromRequest for JsonBody {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<JsonBody, ApiError>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        if let Some(ParsedJson(value)) = req.extensions_mut().remove::<ParsedJson>() {
            return Box::pin(std::future::ready(Ok(JsonBody(value))));
        }
        let req = req.clone();
        let mut payload = payload.take();
        Box::pin(async move { read_json_body(&req, &mut payload).await.map(JsonBody) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_media_types() {
        for yes in ["application/json", "Application/JSON; charset=utf-8", "application/vnd.openstack+json"] {
            assert!(is_json_type(yes), "{yes}");
        }
        for no in ["text/plain", "application/xml", "+json", "json", "application/jsonp", "é+json"] {
            assert!(!is_json_type(no), "{no}");
        }
    }
}
