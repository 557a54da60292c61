//! [`ApiVersion`]: the negotiated version as a handler argument.

use axum::extract::FromRequestParts;
use axum::response::{IntoResponse, Response};
use http::request::Parts;

use crate::ApiError;

microversion_core::facade_api_version! {
    /// The version [`VersionNegotiation`](crate::VersionNegotiation)
    /// negotiated for the request, compared with [`Version`]s as Nova's
    /// `req.api_version_request` is:
    ///
    /// ```
    /// use microversion_axum::{ApiVersion, Version};
    ///
    /// async fn show(version: ApiVersion) -> String {
    ///     if version >= Version::lit("2.3") { "with host".into() } else { "without".into() }
    /// }
    /// ```
    ///
    /// A route outside the layer answers 500 naming the mistake: the version
    /// cannot be known.
    pub struct ApiVersion;
}

impl<S: Send + Sync> FromRequestParts<S> for ApiVersion {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<ApiVersion, Response> {
        negotiated(&parts.extensions).map(ApiVersion::from).ok_or_else(|| no_layer(parts))
    }
}

/// The 500 of a route that needs the negotiated version outside the layer.
pub(crate) fn no_layer(parts: &Parts) -> Response {
    let detail = format!(
        "{} {}: the route reads the API version, but no VersionNegotiation is in front of it",
        parts.method,
        parts.uri.path()
    );
    ApiError::internal(detail).into_response()
}

/// The version a negotiated request carries in its extensions.
pub(crate) fn negotiated(extensions: &http::Extensions) -> Option<microversion_core::Negotiated> {
    extensions.get::<microversion_core::Negotiated>().copied()
}
