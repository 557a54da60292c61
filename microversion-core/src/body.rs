//! The rules of a JSON request body, whatever the framework that reads it
//! (docs/reference.md §6.2): which content types are JSON, how a body is
//! parsed, and why one is refused, in the words every facade answers with.

use std::fmt;
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde_json::Value;

/// The largest request body read, in bytes ([`BodyLimit::DEFAULT`] unless
/// set): a larger body answers 413, and a `Content-Length` above it is
/// refused before reading. On actix it is set as app data
/// (`.app_data(BodyLimit(64 * 1024))`, or in `web::Data`); on axum as a
/// request extension (`.layer(Extension(BodyLimit(64 * 1024)))`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BodyLimit(pub usize);

impl BodyLimit {
    /// The largest body a facade reads unless set: 1 MiB.
    pub const DEFAULT: BodyLimit = BodyLimit(1024 * 1024);
}

impl Default for BodyLimit {
    fn default() -> BodyLimit {
        BodyLimit::DEFAULT
    }
}

/// How long reading a request body may take in all, from the first read
/// to the last byte ([`BodyTimeout::DEFAULT`] unless set), where
/// [`BodyLimit`] is set. A client that declares a length and then stalls,
/// or trickles its body, answers **408** (`request-timeout`) when it runs
/// out, and its connection is closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BodyTimeout(pub Duration);

impl BodyTimeout {
    /// How long a facade waits for a whole body unless set: 30 seconds.
    pub const DEFAULT: BodyTimeout = BodyTimeout(Duration::from_secs(30));
}

impl Default for BodyTimeout {
    fn default() -> BodyTimeout {
        BodyTimeout::DEFAULT
    }
}

/// In a request's extensions: the body a route's `#[schema]` check read,
/// parsed and validated, so that the body extractors (`Json`, `Versioned`)
/// do not read or parse it again.
#[doc(hidden)]
#[derive(Clone, Debug, PartialEq)]
pub struct ParsedJson(pub Value);

/// In a request's extensions: the query object a `#[schema(query = ...)]`
/// or `#[schema(query_json_schema = T)]` validated, which `JsonQuery` takes
/// instead of reading the query again, and `Query<T>` reads a typed one from.
#[doc(hidden)]
#[derive(Clone, Debug, PartialEq)]
pub struct ValidatedQuery {
    /// The object the schema validated.
    pub value: Value,
    /// Read by the types of a `JsonSchema` type's schema
    /// ([`VersionedSchemas::typed_query`](crate::schema::VersionedSchemas::typed_query)),
    /// not in Nova's form of lists of strings.
    pub typed: bool,
}

/// In a request's extensions: the body was validated by the derived schema
/// of this model type at the request's version (a `#[schema(model = T)]`),
/// so `Versioned<T>` need not validate it again.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValidatedAs(pub std::any::TypeId);

impl ValidatedAs {
    /// Whether the body was validated as `T`'s schema, so that reading it
    /// as `T` need not validate it again.
    pub fn is<T: 'static>(&self) -> bool {
        self.0 == std::any::TypeId::of::<T>()
    }
}

/// Why a request body is refused: each a 4xx with a stable code.
///
/// ```
/// use microversion_core::body::{BodyRefusal, check_content_type, parse_json};
///
/// assert_eq!(check_content_type(Some(b"application/xml")).unwrap_err().status(), 415);
/// assert!(check_content_type(Some(b"text/plain")).is_ok());
/// assert_eq!(check_content_type(Some("é/x+json".as_bytes())).unwrap_err().status(), 415);
/// assert_eq!(parse_json(b"{").unwrap_err().code(), "malformed-body");
/// assert_eq!(parse_json(b"  ").unwrap(), serde_json::Value::Null);
/// assert_eq!(BodyRefusal::TooLarge { limit: 10 }.detail(), "The request body is larger than the limit of 10 bytes.");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BodyRefusal {
    /// A content type that is not JSON (nor `text/plain` nor none), as sent
    /// (cut to 100 characters): 415.
    UnsupportedMediaType(String),
    /// Larger than the limit, declared or read: 413.
    TooLarge {
        /// The limit, in bytes.
        limit: usize,
    },
    /// Not all received in time: 408 (and the connection is closed).
    TimedOut {
        /// The deadline.
        timeout: Duration,
    },
    /// The transport failed while reading: 400.
    Unreadable(String),
    /// Not JSON, or not UTF-8: 400 with the parser's message.
    Malformed(String),
    /// Empty, where a document is required: 400.
    Missing,
    /// JSON of the wrong shape for the handler's type: 400 with serde's message.
    Invalid(String),
}

impl BodyRefusal {
    /// The HTTP status.
    pub fn status(&self) -> u16 {
        match self {
            BodyRefusal::UnsupportedMediaType(_) => 415,
            BodyRefusal::TooLarge { .. } => 413,
            BodyRefusal::TimedOut { .. } => 408,
            _ => 400,
        }
    }

    /// The error code, without the service prefix.
    pub fn code(&self) -> &'static str {
        match self {
            BodyRefusal::UnsupportedMediaType(_) => "unsupported-media-type",
            BodyRefusal::TooLarge { .. } => "request-too-large",
            BodyRefusal::TimedOut { .. } => "request-timeout",
            BodyRefusal::Unreadable(_) => "bad-request",
            BodyRefusal::Malformed(_) => "malformed-body",
            BodyRefusal::Missing | BodyRefusal::Invalid(_) => "invalid-body",
        }
    }

    /// The title.
    pub fn title(&self) -> &'static str {
        match self {
            BodyRefusal::UnsupportedMediaType(_) => "Unsupported Media Type",
            BodyRefusal::TooLarge { .. } => "Request Entity Too Large",
            BodyRefusal::TimedOut { .. } => "Request Timeout",
            BodyRefusal::Unreadable(_) => "Bad Request",
            BodyRefusal::Malformed(_) => "Malformed request body",
            BodyRefusal::Missing | BodyRefusal::Invalid(_) => "Invalid request body",
        }
    }

    /// What was wrong and what is accepted.
    pub fn detail(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for BodyRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BodyRefusal::UnsupportedMediaType(shown) => write!(
                f,
                "Unsupported Content-Type {shown:?}: the request body must be JSON (application/json)."
            ),
            BodyRefusal::TooLarge { limit } => {
                write!(f, "The request body is larger than the limit of {limit} bytes.")
            }
            BodyRefusal::TimedOut { timeout } => {
                write!(f, "The request body was not received within {} ms.", timeout.as_millis())
            }
            BodyRefusal::Unreadable(e) => write!(f, "The request body could not be read: {e}."),
            BodyRefusal::Malformed(e) => write!(f, "Malformed request body: {e}."),
            BodyRefusal::Missing => f.write_str("The request body is missing: a JSON document is required."),
            BodyRefusal::Invalid(e) => write!(f, "Invalid request body: {e}."),
        }
    }
}

impl std::error::Error for BodyRefusal {}

/// Whether an answer of `status` whose `Content-Type` is `content_type`
/// is an error still to be put in the API's format (docs/reference.md §5):
/// a client or server error whose body is not JSON already (a framework's
/// text, or nothing). What each facade's layer asks of an answer, and
/// axum's routes of an extractor's rejection; the header is read only for
/// an error, as most answers are successes.
///
/// ```
/// use microversion_core::body::is_unformatted_error;
///
/// assert!(is_unformatted_error(405, || None));
/// assert!(is_unformatted_error(500, || Some("text/plain; charset=utf-8")));
/// assert!(!is_unformatted_error(400, || Some("application/problem+json")));
/// assert!(!is_unformatted_error(200, || unreachable!("a success's headers are not read")));
/// ```
pub fn is_unformatted_error<'a>(status: u16, content_type: impl FnOnce() -> Option<&'a str>) -> bool {
    (400..600).contains(&status) && !content_type().is_some_and(is_json_type)
}

/// Whether a media type (parameters allowed) is JSON: `application/json`
/// or any `+json` type.
pub fn is_json_type(content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or_default().trim();
    essence.eq_ignore_ascii_case("application/json")
        || (essence.len() > 5 && essence.is_char_boundary(essence.len() - 5) && {
            let (kind, suffix) = essence.split_at(essence.len() - 5);
            suffix.eq_ignore_ascii_case("+json") && kind.contains('/')
        })
}

/// Checks the `Content-Type` value as Nova does: JSON types are accepted,
/// and so are a missing or empty one and `text/plain` (what many clients
/// send by default); anything else is refused (415).
pub fn check_content_type(value: Option<&[u8]>) -> Result<(), BodyRefusal> {
    let Some(value) = value else { return Ok(()) };
    // A header value is text when it is visible ASCII (and tabs), as `http`
    // reads it; anything else is no media type at all.
    let visible = value.iter().all(|b| *b == b'\t' || (0x20..0x7f).contains(b));
    let text = if visible { std::str::from_utf8(value).unwrap_or("<not text>") } else { "<not text>" };
    let essence = text.split(';').next().unwrap_or_default().trim();
    if essence.is_empty() || essence.eq_ignore_ascii_case("text/plain") || is_json_type(text) {
        return Ok(());
    }
    Err(BodyRefusal::UnsupportedMediaType(text.chars().take(100).collect()))
}

/// A declared `Content-Length` above `limit`, refused before reading.
pub fn check_declared_length(value: Option<&[u8]>, limit: usize) -> Result<Option<u64>, BodyRefusal> {
    let declared = value.and_then(|v| std::str::from_utf8(v).ok()).and_then(|v| v.trim().parse::<u64>().ok());
    match declared {
        Some(len) if len > limit as u64 => Err(BodyRefusal::TooLarge { limit }),
        declared => Ok(declared),
    }
}

/// Parses a whole body: only whitespace is `Value::Null` (Nova's `body:
/// None`, which a schema or a typed extractor then refuses clearly);
/// anything not JSON is [`BodyRefusal::Malformed`]. Never panics on any bytes.
pub fn parse_json(bytes: &[u8]) -> Result<Value, BodyRefusal> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(Value::Null);
    }
    serde_json::from_slice(bytes).map_err(|e| BodyRefusal::Malformed(e.to_string()))
}

/// Deserializes a parsed body into `T`: a missing body or a wrong shape is
/// refused with serde's message. A `T` that is `Value` itself is handed
/// over as parsed (no copy of every map and array), so `Json<Value>` costs
/// no more than the raw body.
pub fn deserialize<T: DeserializeOwned + 'static>(value: Value) -> Result<T, BodyRefusal> {
    let mut slot = Some(value);
    if let Some(same) =
        (&mut slot as &mut dyn std::any::Any).downcast_mut::<Option<T>>().and_then(Option::take)
    {
        return Ok(same);
    }
    let value = slot.unwrap_or_default();
    let missing = value.is_null();
    serde_json::from_value(value)
        .map_err(|e| if missing { BodyRefusal::Missing } else { BodyRefusal::Invalid(e.to_string()) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_handed_over_and_a_type_deserialized() {
        let body = serde_json::json!({"flavor": {"ram": 512}});
        assert_eq!(deserialize::<Value>(body.clone()), Ok(body.clone()));
        assert_eq!(deserialize::<Value>(Value::Null), Ok(Value::Null));
        #[derive(serde::Deserialize, Debug, PartialEq)]
        struct Flavor {
            ram: u32,
        }
        #[derive(serde::Deserialize, Debug, PartialEq)]
        struct Create {
            flavor: Flavor,
        }
        assert_eq!(deserialize::<Create>(body), Ok(Create { flavor: Flavor { ram: 512 } }));
        assert_eq!(deserialize::<Create>(Value::Null), Err(BodyRefusal::Missing));
        assert!(matches!(
            deserialize::<Create>(serde_json::json!({"flavor": 1})),
            Err(BodyRefusal::Invalid(_))
        ));
    }

    #[test]
    fn json_media_types() {
        for yes in ["application/json", "Application/JSON; charset=utf-8", "application/vnd.openstack+json"] {
            assert!(is_json_type(yes), "{yes}");
        }
        for no in ["text/plain", "application/xml", "+json", "json", "application/jsonp", "é+json"] {
            assert!(!is_json_type(no), "{no}");
        }
    }

    #[test]
    fn a_missing_body_is_named_so() {
        #[derive(serde::Deserialize, Debug)]
        struct Rename {
            #[allow(dead_code)]
            name: String,
        }
        assert_eq!(deserialize::<Rename>(Value::Null).unwrap_err(), BodyRefusal::Missing);
        let wrong = deserialize::<Rename>(serde_json::json!({"nom": 1})).unwrap_err();
        assert_eq!((wrong.status(), wrong.code()), (400, "invalid-body"));
    }
}
