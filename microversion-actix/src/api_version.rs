//! The version a request is served at, read outside a controller.

use actix_web::{HttpMessage, HttpRequest};

use microversion_core::{version::VersionUnknown, version::not_negotiated_detail};

use crate::{Api, ApiError, ApiVersion, version::Negotiated};

/// What to add when a route reads the version with nothing to negotiate it.
const REMEDY: &str = "Wrap the scope with `.wrap(microversion_actix::VersionNegotiation::new(API))`, \
                      or register the declaration with `.app_data(API)`.";

/// The version `req` is served at: the middleware's, else negotiated from
/// the [`Api`] in app data (`.app_data(API)` or
/// `.app_data(web::Data::new(API))`), else a 500 whose detail says what to
/// install (and the same text is logged): a programming error, not a
/// client's ([`version_of_request`](microversion_core::version::version_of_request)).
///
/// Without the middleware, errors come back in the API-SIG format and
/// answers carry no version headers or `Vary`: install the middleware for
/// those. A handler outside a controller takes the version as
/// [`Native<ApiVersion>`](crate::Native).
pub fn version_of(req: &HttpRequest) -> Result<ApiVersion, ApiError> {
    let negotiated = req.extensions().get::<Negotiated>().copied();
    if let Some(negotiated) = negotiated {
        // The middleware's: nothing else is read.
        return Ok(ApiVersion::from(negotiated));
    }
    let registered = crate::app_setting::<Api>(req);
    let target =
        microversion_core::version::RequestTarget { path: req.path(), query: Some(req.query_string()) };
    match microversion_core::version::version_of_request(negotiated, registered, req.headers().iter(), target)
    {
        Ok(negotiated) => Ok(ApiVersion::from(negotiated)),
        Err(VersionUnknown::Refused(refusal)) => Err(ApiError::from(refusal)),
        Err(VersionUnknown::NotNegotiated) => {
            let detail = not_negotiated_detail(req.method().as_str(), req.path(), REMEDY);
            log::error!("{detail}");
            Err(ApiError::internal(detail))
        }
    }
}
