//! `ApiVersion`: the negotiated version, as a handler argument.

use std::cmp::Ordering;
use std::fmt;
use std::future::{Ready, ready};

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpMessage, HttpRequest, web};

use crate::{
    Api, ApiError, Version,
    version::{Negotiated, VersionRange, VersionSource},
};

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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ApiVersion {
    negotiated: Negotiated,
}

impl ApiVersion {
    /// The negotiated version.
    pub fn version(&self) -> Version {
        self.negotiated.version
    }

    /// How the request chose it: by default, `latest` or explicitly.
    pub fn source(&self) -> VersionSource {
        self.negotiated.source
    }

    /// The whole negotiation result.
    pub fn negotiated(&self) -> Negotiated {
        self.negotiated
    }

    /// Whether the version lies in `[min, max]`; a `None` bound is open
    /// (Nova's `APIVersionRequest.matches`).
    pub fn matches(&self, min: Option<Version>, max: Option<Version>) -> bool {
        self.negotiated.version.matches(min, max)
    }

    /// Whether the version lies in `range`.
    pub fn is_in(&self, range: VersionRange) -> bool {
        range.contains(self.negotiated.version)
    }

    /// The version of `req`: the middleware's, else negotiated from the
    /// [`Api`] in app data, else an error naming what to install.
    pub fn from_http_request(req: &HttpRequest) -> Result<ApiVersion, ApiError> {
        if let Some(negotiated) = req.extensions().get::<Negotiated>() {
            return Ok(ApiVersion { negotiated: *negotiated });
        }
        let api = req.app_data::<Api>().or_else(|| req.app_data::<web::Data<Api>>().map(|d| d.get_ref()));
        match api {
            Some(api) => {
                let negotiated = api.negotiate(req.headers().iter()).map_err(ApiError::from)?;
                Ok(ApiVersion { negotiated })
            }
            None => {
                let detail = format!(
                    "No API version is known for {} {}: the ApiVersion extractor needs the microversion \
                     middleware. Wrap the scope with `.wrap(microversion_actix::VersionNegotiation::new(API))`, \
                     or register the declaration with `.app_data(API)`.",
                    req.method(),
                    req.path()
                );
                log::error!("{detail}");
                Err(ApiError::internal(detail))
            }
        }
    }
}

impl From<Negotiated> for ApiVersion {
    fn from(negotiated: Negotiated) -> ApiVersion {
        ApiVersion { negotiated }
    }
}

/// The negotiated version, for calling versioned helpers: `self.view(version, ...)`.
impl From<ApiVersion> for Version {
    fn from(version: ApiVersion) -> Version {
        version.version()
    }
}

impl From<&ApiVersion> for Version {
    fn from(version: &ApiVersion) -> Version {
        version.version()
    }
}

impl FromRequest for ApiVersion {
    type Error = ApiError;
    type Future = Ready<Result<ApiVersion, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(ApiVersion::from_http_request(req))
    }
}

impl PartialEq<Version> for ApiVersion {
    fn eq(&self, other: &Version) -> bool {
        self.negotiated.version == *other
    }
}

impl PartialOrd<Version> for ApiVersion {
    fn partial_cmp(&self, other: &Version) -> Option<Ordering> {
        Some(self.negotiated.version.cmp(other))
    }
}

impl fmt::Display for ApiVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.negotiated.version.fmt(f)
    }
}
