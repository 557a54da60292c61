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
