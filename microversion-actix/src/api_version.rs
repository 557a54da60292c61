//! `ApiVersion`: the negotiated version, as a handler argument.

use std::future::{Ready, ready};

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpMessage, HttpRequest};

use microversion_core::{version::VersionUnknown, version::not_negotiated_detail};

use crate::{Api, ApiError, Error, version::Negotiated};

microversion_core::facade_api_version! {
    /// The version a request is served at (Nova's `req.api_version_request`).
    ///
    /// Inside the scope of [`VersionNegotiation`](crate::VersionNegotiation) it is the
    /// version the middleware negotiated. Without the middleware it negotiates
    /// from the [`Api`] registered as app data, either `.app_data(API)` or
    /// `.app_data(web::Data::new(API))`; errors then come back in the API-SIG
    /// format and, since no middleware runs, responses carry no version headers
    /// or `Vary`: install the middleware for those. With neither, extraction
    /// fails with a 500 [`ApiError`] whose detail says what to add (and the same
    /// text is logged): it is a programming error, not a client's.
    ///
    /// Compare it with `Version` constants, or ask [`ApiVersion::matches`]:
    ///
    /// ```
    /// use microversion_actix::{
    ///     ApiVersion, Version, version::{Negotiated, VersionHeader, VersionSource},
    /// };
    ///
    /// let v = ApiVersion::from(Negotiated {
    ///     version: Version::lit("2.10"),
    ///     source: VersionSource::Explicit,
    ///     header: VersionHeader::Standard,
    /// });
    /// assert!(v >= Version::lit("2.10") && v > Version::lit("2.9"));
    /// assert!(v == Version::lit("2.10"));
    /// assert!(v.matches(Some(Version::lit("2.2")), None));
    /// assert!(!v.matches(None, Some(Version::lit("2.9"))));
    /// assert_eq!(v.to_string(), "2.10");
    /// ```
    pub struct ApiVersion;
}

/// What to add when a route reads the version with nothing to negotiate it.
const REMEDY: &str = "Wrap the scope with `.wrap(microversion_actix::VersionNegotiation::new(API))`, \
                      or register the declaration with `.app_data(API)`.";

impl ApiVersion {
    /// The version of `req`: the middleware's, else negotiated from the
    /// [`Api`] in app data, else an error naming what to install
    /// ([`version_of_request`](microversion_core::version::version_of_request)).
    pub fn from_http_request(req: &HttpRequest) -> Result<ApiVersion, ApiError> {
        let negotiated = req.extensions().get::<Negotiated>().copied();
        let registered = crate::app_setting::<Api>(req);
        let target =
            microversion_core::version::RequestTarget { path: req.path(), query: Some(req.query_string()) };
        match microversion_core::version::version_of_request(
            negotiated,
            registered,
            req.headers().iter(),
            target,
        ) {
            Ok(negotiated) => Ok(ApiVersion { negotiated }),
            Err(VersionUnknown::Refused(refusal)) => Err(ApiError::from(refusal)),
            Err(VersionUnknown::NotNegotiated) => {
                let detail = not_negotiated_detail(req.method().as_str(), req.path(), REMEDY);
                log::error!("{detail}");
                Err(ApiError::internal(detail))
            }
        }
    }
}

impl FromRequest for ApiVersion {
    type Error = Error;
    type Future = Ready<Result<ApiVersion, Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(ApiVersion::from_http_request(req).map_err(Error))
    }
}
