//! Checking a service's own answers against what its variants declare
//! (Nova's `[api] response_validation = error|warn|ignore`).

use actix_web::{HttpRequest, HttpResponse, ResponseError, web};
use microversion_core::schema::answer_problems;

use crate::{ApiError, Version, operation::ResponseDescription};

/// Whether a route's success answers are checked against the status and
/// body schema its variant declares with `#[response(...)]`, at the
/// negotiated version. Register it as app data; without it nothing is
/// checked.
///
/// - [`ResponseValidation::Error`]: a violation answers 500 naming it (for
///   tests: a wrong answer fails them);
/// - [`ResponseValidation::Warn`]: a violation is logged, the answer goes out;
/// - [`ResponseValidation::Ignore`]: nothing is checked.
///
/// ```
/// use actix_web::App;
/// use microversion_actix::middleware::ResponseValidation;
///
/// let app = App::new().app_data(ResponseValidation::Error);
/// # drop(app);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ResponseValidation {
    /// A violation answers 500.
    Error,
    /// A violation is logged.
    Warn,
    /// Nothing is checked.
    #[default]
    Ignore,
}

impl ResponseValidation {
    /// The setting registered for `req`, or [`ResponseValidation::Ignore`].
    pub fn of(req: &HttpRequest) -> ResponseValidation {
        req.app_data::<ResponseValidation>()
            .or_else(|| req.app_data::<web::Data<ResponseValidation>>().map(|d| d.get_ref()))
            .copied()
            .unwrap_or_default()
    }
}

/// Checks a variant's success answer at `version` against `declared`, as
/// the registered [`ResponseValidation`] says (called by `#[controller]`).
pub(crate) async fn check(
    req: &HttpRequest,
    version: Version,
    declared: &ResponseDescription,
    res: HttpResponse,
) -> HttpResponse {
    let mode = ResponseValidation::of(req);
    if mode == ResponseValidation::Ignore || !res.status().is_success() {
        return res;
    }
    let (res, body) = res.into_parts();
    let Ok(bytes) = actix_web::body::to_bytes(body).await else {
        return ApiError::internal("the response body could not be read for validation").error_response();
    };
    let problems = answer_problems(res.status().as_u16(), &bytes, version, declared);
    if problems.is_empty() {
        return res.set_body(bytes).map_into_boxed_body();
    }
    let detail = format!(
        "The response of {} {} at version {version} breaks its declaration: {}.",
        req.method(),
        req.path(),
        problems.join("; ")
    );
    match mode {
        ResponseValidation::Error => ApiError::internal(detail).error_response(),
        _ => {
            log::warn!("{detail}");
            res.set_body(bytes).map_into_boxed_body()
        }
    }
}
