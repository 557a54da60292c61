//! JSON request bodies on axum, by the core's rules (docs/reference.md
//! §6.2): content type, size limit, deadline, parsing, read once.

use axum::body::{Body, Bytes};
use http::header;
use http::request::Parts;
use http_body_util::BodyExt as _;
use microversion_core::body::{
    BodyRefusal, ParsedJson, check_content_type, check_declared_length, parse_json,
};

use crate::ApiError;

pub use microversion_core::body::{BodyLimit, BodyTimeout};

/// Reads a whole body within the limit and deadline of `parts` (or the
/// defaults): a declared length above the limit is refused before reading.
pub(crate) async fn read_bytes(parts: &Parts, body: Body) -> Result<Bytes, ApiError> {
    check_content_type(parts.headers.get(header::CONTENT_TYPE).map(|v| v.as_bytes()))?;
    let BodyLimit(limit) = parts.extensions.get().copied().unwrap_or_default();
    let BodyTimeout(timeout) = parts.extensions.get().copied().unwrap_or_default();
    check_declared_length(parts.headers.get(header::CONTENT_LENGTH).map(|v| v.as_bytes()), limit)?;
    let read = http_body_util::Limited::new(body, limit).collect();
    match tokio::time::timeout(timeout, read).await {
        Err(_) => Err(BodyRefusal::TimedOut { timeout }.into()),
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => {
            Err(BodyRefusal::TooLarge { limit }.into())
        }
        Ok(Err(e)) => Err(BodyRefusal::Unreadable(e.to_string()).into()),
        Ok(Ok(collected)) => Ok(collected.to_bytes()),
    }
}

/// The JSON body of a request: the one a `#[schema]` check parsed already,
/// else read by [`read_bytes`] and parsed.
pub(crate) async fn read_json(parts: &mut Parts, body: Body) -> Result<serde_json::Value, ApiError> {
    match parts.extensions.remove::<ParsedJson>() {
        Some(ParsedJson(value)) => Ok(value),
        None => Ok(parse_json(&read_bytes(parts, body).await?)?),
    }
}
