//! Checking a service's own answers against what its variants declare
//! (Nova's `[api] response_validation = error|warn|ignore`), by the core's
//! [`ResponseValidation`] in the requests' extensions.

/// Whether a route's success answers are checked; put it in the requests'
/// extensions (`.layer(Extension(ResponseValidation::Error))`).
///
/// ```
/// use axum::{Extension, Router};
/// use microversion_axum::middleware::ResponseValidation;
///
/// let app: Router = Router::new().layer(Extension(ResponseValidation::Error));
/// ```
pub use microversion_core::schema::ResponseValidation;

use axum::body::Body;
use axum::response::{IntoResponse as _, Response};
use futures_util::future::{BoxFuture, Either};
use http::request::Parts;
use microversion_core::Version;
use microversion_core::operation::ResponseDescription;
use std::future::{Ready, ready};

use crate::ApiError;

/// Checks a variant's success answer at `version` against its
/// `#[response(...)]`, as the [`ResponseValidation`] in the request's
/// extensions says (nothing is checked without one); a check reads the
/// whole body, so it is boxed (docs/performance.md, "The route's future").
pub(crate) fn check<'a>(
    request: &'a Parts,
    version: Version,
    declared: &'a ResponseDescription,
    res: Response,
) -> Either<Ready<Response>, BoxFuture<'a, Response>> {
    let mode = request.extensions.get::<ResponseValidation>().copied().unwrap_or_default();
    if !mode.checks(res.status().as_u16()) {
        return Either::Left(ready(res));
    }
    Either::Right(Box::pin(async move {
        let (parts, body) = res.into_parts();
        let Ok(bytes) = axum::body::to_bytes(body, usize::MAX).await else {
            return ApiError::internal("the response body could not be read for validation").into_response();
        };
        let answer = (parts.status.as_u16(), &bytes[..]);
        let verdict = mode.judge((request.method.as_str(), request.uri.path()), answer, version, declared);
        if let Some(detail) = verdict.refusal(|warning| log::warn!("{warning}")) {
            return ApiError::internal(detail).into_response();
        }
        Response::from_parts(parts, Body::from(bytes))
    }))
}
