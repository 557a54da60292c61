//! [`ApiVersion`]: the negotiated version as a handler argument.

use std::cmp::Ordering;

use axum::extract::FromRequestParts;
use axum::response::{IntoResponse, Response};
use http::request::Parts;
use microversion_core::{Negotiated, Version, VersionRange, VersionSource};

use crate::ApiError;
pub(crate) use crate::middleware::negotiated;

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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ApiVersion(Negotiated);

impl ApiVersion {
    /// The negotiated version.
    pub fn version(&self) -> Version {
        self.0.version
    }

    /// How the request chose it.
    pub fn source(&self) -> VersionSource {
        self.0.source
    }

    /// The whole outcome of negotiation.
    pub fn negotiated(&self) -> Negotiated {
        self.0
    }

    /// Whether the version lies in `[min, max]`, either end open.
    pub fn matches(&self, min: Option<Version>, max: Option<Version>) -> bool {
        self.0.version.matches(min, max)
    }

    /// Whether the version lies in `range`.
    pub fn is_in(&self, range: VersionRange) -> bool {
        range.contains(self.0.version)
    }
}

/// The version itself, for a versioned helper (`self.view(version, ...)`).
impl From<ApiVersion> for Version {
    fn from(version: ApiVersion) -> Version {
        version.0.version
    }
}

impl From<&ApiVersion> for Version {
    fn from(version: &ApiVersion) -> Version {
        version.0.version
    }
}

impl PartialEq<Version> for ApiVersion {
    fn eq(&self, other: &Version) -> bool {
        self.0.version == *other
    }
}

impl PartialOrd<Version> for ApiVersion {
    fn partial_cmp(&self, other: &Version) -> Option<Ordering> {
        Some(self.0.version.cmp(other))
    }
}

impl<S: Send + Sync> FromRequestParts<S> for ApiVersion {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<ApiVersion, Response> {
        negotiated(&parts.extensions).map(ApiVersion).ok_or_else(|| no_layer(parts))
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
