//! JSON request bodies on axum, by the core's rules (docs/reference.md
//! §6.2): content type, size limit, deadline, parsing, read once; the
//! [`Json`] and [`JsonQuery`] extractors.

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::response::{IntoResponse, Response};
use http::header;
use http::request::Parts;
use http_body_util::BodyExt as _;
use microversion_core::body::{
    BodyRefusal, ParsedJson, ValidatedQuery, check_content_type, check_declared_length, deserialize,
    parse_json,
};
use microversion_core::schema::query_to_json;
use serde::de::DeserializeOwned;

use crate::{ApiError, Error};

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

microversion_core::facade_json! {
    /// The request body as a `T`, with this crate's errors (400, 408, 413, 415
    /// in the API's format). It takes the body a `#[schema]` check already
    /// parsed, else reads it by the core's rules.
    ///
    /// ```
    /// use microversion_axum::Json;
    ///
    /// #[derive(serde::Deserialize)]
    /// struct Rename { name: String }
    ///
    /// async fn rename(body: Json<Rename>) -> String {
    ///     body.0.name
    /// }
    /// ```
    pub struct Json;
    /// The query string as an object mapping each key to the list of its
    /// values, all strings, the shape Nova's query schemas validate; behind
    /// `#[schema(query = ...)]` the object the version's schema accepted.
    ///
    /// ```
    /// use microversion_axum::JsonQuery;
    ///
    /// async fn list(query: JsonQuery) -> String {
    ///     query.last("limit").unwrap_or("all").to_owned()
    /// }
    /// ```
    pub struct JsonQuery;
}

impl<T: DeserializeOwned + 'static, S: Send + Sync> FromRequest<S> for Json<T> {
    type Rejection = Response;

    async fn from_request(req: Request, _: &S) -> Result<Json<T>, Response> {
        let (mut parts, body) = req.into_parts();
        let value = read_json(&mut parts, body).await.map_err(|e| Error(e).into_response())?;
        deserialize(value).map(Json).map_err(|e| Error::from(e).into_response())
    }
}

/// Answers with `T` as JSON (200 OK), like `axum::Json`.
impl<T: serde::Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        axum::Json(self.0).into_response()
    }
}

impl<S: Send + Sync> FromRequestParts<S> for JsonQuery {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<JsonQuery, std::convert::Infallible> {
        Ok(JsonQuery(match parts.extensions.remove::<ValidatedQuery>() {
            Some(validated) => validated.value,
            None => query_to_json(parts.uri.query().unwrap_or_default()),
        }))
    }
}
