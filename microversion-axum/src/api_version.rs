//! [`ApiVersion`]: the negotiated version as a handler argument.

use axum::extract::FromRequestParts;
use axum::response::{IntoResponse, Response};
use http::request::Parts;

use microversion_core::{Negotiated, version::VersionUnknown, version::not_negotiated_detail};

use crate::{ApiError, Error};

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
    /// Outside the layer it negotiates from the [`Api`](crate::Api)
    /// registered as an extension (`.layer(axum::Extension(API))`), as on
    /// actix from app data: errors then come in the API-SIG format and no
    /// answer carries version headers or `Vary` (install the layer for
    /// those). With neither, it is a 500 whose detail says what to add
    /// (logged too): a mistake of the service's, not of the client's.
    pub struct ApiVersion;
}

impl<S: Send + Sync> FromRequestParts<S> for ApiVersion {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<ApiVersion, Response> {
        version_of(parts).map(ApiVersion::from).map_err(|e| Error(e).into_response())
    }
}

/// What to add when a route reads the version with nothing to negotiate it.
const REMEDY: &str = "Wrap the routes with `.layer(microversion_axum::VersionNegotiation::new(API))`, \
                      or register the declaration with `.layer(axum::Extension(API))`.";

/// The version of a request by the core's rule
/// ([`version_of_request`](microversion_core::version::version_of_request)),
/// the declaration registered being an extension's.
pub(crate) fn version_of(parts: &Parts) -> Result<Negotiated, ApiError> {
    let negotiated = parts.extensions.get::<Negotiated>().copied();
    if let Some(negotiated) = negotiated {
        return Ok(negotiated);
    }
    let registered = parts.extensions.get::<microversion_core::Api>();
    let target =
        microversion_core::version::RequestTarget { path: parts.uri.path(), query: parts.uri.query() };
    match microversion_core::version::version_of_request(negotiated, registered, &parts.headers, target) {
        Ok(negotiated) => Ok(negotiated),
        Err(VersionUnknown::Refused(refusal)) => Err(ApiError::from(refusal)),
        Err(VersionUnknown::NotNegotiated) => {
            let detail = not_negotiated_detail(parts.method.as_str(), parts.uri.path(), REMEDY);
            log::error!("{detail}");
            Err(ApiError::internal(detail))
        }
    }
}
