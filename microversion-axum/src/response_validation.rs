//! Checking a service's own answers against what its variants declare
//! (Nova's `[api] response_validation = error|warn|ignore`), as on actix.

/// Whether a route's success answers are checked against the status and
/// body schema its variant declares with `#[response(...)]`, at the
/// negotiated version. Put it in the requests' extensions; without it
/// nothing is checked.
///
/// - [`ResponseValidation::Error`]: a violation answers 500 naming it (for
///   tests: a wrong answer fails them);
/// - [`ResponseValidation::Warn`]: a violation is logged, the answer goes out;
/// - [`ResponseValidation::Ignore`]: nothing is checked.
///
/// ```
/// use axum::{Extension, Router};
/// use microversion_axum::middleware::ResponseValidation;
///
/// let app: Router = Router::new().layer(Extension(ResponseValidation::Error));
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
