//! The version a request is served at, read outside a controller.

use http::request::Parts;

use microversion_core::{Negotiated, version::VersionUnknown, version::not_negotiated_detail};

use crate::{ApiError, ApiVersion};

/// What to add when a route reads the version with nothing to negotiate it.
const REMEDY: &str = "Wrap the routes with `.layer(microversion_axum::VersionNegotiation::new(API))`, \
                      or register the declaration with `.layer(axum::Extension(API))`.";

/// The version a request is served at: the layer's, else negotiated from
/// the [`Api`](crate::Api) registered as an extension
/// (`.layer(axum::Extension(API))`), as on actix from app data; else a 500
/// whose detail says what to add (logged too): a mistake of the service's,
/// not of the client's
/// ([`version_of_request`](microversion_core::version::version_of_request)).
///
/// Without the layer, errors come in the API-SIG format and no answer
/// carries version headers or `Vary` (install the layer for those). A
/// handler outside a controller takes the version as
/// [`Native<ApiVersion>`](crate::Native).
pub fn version_of(parts: &Parts) -> Result<ApiVersion, ApiError> {
    negotiated_of(parts).map(ApiVersion::from)
}

/// [`version_of`], as the negotiation's outcome.
pub(crate) fn negotiated_of(parts: &Parts) -> Result<Negotiated, ApiError> {
    // The layer's, in scope; else one a service of the user's put in the extensions.
    let negotiated = microversion_core::exchange::Scope::current()
        .or_else(|| parts.extensions.get::<Negotiated>().copied());
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
