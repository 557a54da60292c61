//! Checking a service's own answers against what its variants declare
//! (Nova's `[api] response_validation = error|warn|ignore`), by the core's
//! [`ResponseValidation`] registered as app data.

use std::future::{Ready, ready};

use actix_web::{HttpRequest, HttpResponse};
use futures_util::future::{Either, LocalBoxFuture};

/// Whether a route's success answers are checked; register it as app data
/// (`App::new().app_data(ResponseValidation::Error)`).
///
/// ```
/// use actix_web::App;
/// use microversion_actix::middleware::ResponseValidation;
///
/// let app = App::new().app_data(ResponseValidation::Error);
/// # drop(app);
/// ```
pub use microversion_core::schema::ResponseValidation;

use crate::{ApiError, Version, error::ErrorRenderer, operation::ResponseDescription};

/// Checks a variant's success answer at `version` against `declared`, as
/// the registered [`ResponseValidation`] says (called by `#[controller]`).
/// An answer not checked is ready at once; a check, which reads the whole
/// body, is boxed, so that every route's future stays small when no check
/// runs (docs/performance.md, "The route's future").
pub(crate) fn check<'a>(
    req: &'a HttpRequest,
    version: Version,
    declared: &'a ResponseDescription,
    res: HttpResponse,
) -> Either<Ready<HttpResponse>, LocalBoxFuture<'a, HttpResponse>> {
    let mode: ResponseValidation = crate::app_setting(req).copied().unwrap_or_default();
    if !mode.checks(res.status().as_u16()) {
        return Either::Left(ready(res));
    }
    Either::Right(Box::pin(async move {
        let (res, body) = res.into_parts();
        let Ok(bytes) = actix_web::body::to_bytes(body).await else {
            return ErrorRenderer::default()
                .render(&ApiError::internal("the response body could not be read for validation"));
        };
        let answer = (res.status().as_u16(), &bytes[..]);
        let verdict = mode.judge((req.method().as_str(), req.path()), answer, version, declared);
        if let Some(detail) = verdict.refusal(|warning| log::warn!("{warning}")) {
            return ErrorRenderer::default().render(&ApiError::internal(detail));
        }
        res.set_body(bytes).map_into_boxed_body()
    }))
}
