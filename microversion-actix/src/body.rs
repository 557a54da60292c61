//! Reading JSON request bodies once: content type, size limit, time,
//! parsing ([`read_json_body`]).

use std::time::Duration;

use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::{HttpRequest, web};
use futures_util::StreamExt;
use serde_json::Value;

use microversion_core::body::{BodyRefusal, check_content_type, check_declared_length, parse_json};

use crate::ApiError;

pub use microversion_core::body::{BodyLimit, BodyTimeout};

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
/// Never panics on any bytes. Used by [`Native<Json<T>>`](crate::Native); call it
/// directly in a dispatcher that validates before the handler runs.
pub async fn read_json_body(req: &HttpRequest, payload: &mut Payload) -> Result<Value, ApiError> {
    Ok(parse_json(&read_body(req, payload).await?)?)
}

/// The bytes of a JSON request body, with [`read_json_body`]'s checks of
/// its content type, size and time, unparsed.
pub(crate) async fn read_body(req: &HttpRequest, payload: &mut Payload) -> Result<web::Bytes, ApiError> {
    check_content_type(req.headers().get(header::CONTENT_TYPE).map(|v| v.as_bytes()))?;
    let BodyLimit(limit) = crate::app_setting(req).copied().unwrap_or_default();
    let declared =
        check_declared_length(req.headers().get(header::CONTENT_LENGTH).map(|v| v.as_bytes()), limit)?;
    let BodyTimeout(timeout) = crate::app_setting(req).copied().unwrap_or_default();
    let read = async {
        let mut bytes = web::BytesMut::with_capacity(declared.map_or(0, |len| len as usize));
        while let Some(chunk) = payload.next().await {
            let chunk = chunk.map_err(|e| match e {
                actix_web::error::PayloadError::Overflow => BodyRefusal::TooLarge { limit },
                other => BodyRefusal::Unreadable(other.to_string()),
            })?;
            if bytes.len() + chunk.len() > limit {
                return Err(BodyRefusal::TooLarge { limit });
            }
            bytes.extend_from_slice(&chunk);
        }
        Ok(bytes)
    };
    let Ok(read) = actix_web::rt::time::timeout(timeout, read).await else {
        hold_until_closed(payload.take());
        return Err(BodyRefusal::TimedOut { timeout }.into());
    };
    Ok(read?.freeze())
}
