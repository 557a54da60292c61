//! The runtime core of `microversion`: OpenStack-style API microversions
//! without any web framework.
//!
//! - [`Version`] and [`VersionRange`]: strict `MAJOR.MINOR` versions and inclusive ranges.
//! - [`Api`]: the one declaration of a versioned API and its history, built in a `const`.
//! - [`Api::negotiate`]: the requested version from request headers, exactly as
//!   Nova and microversion-parse read them, without allocating on success.
//! - [`ResponseHeaders`]: the `OpenStack-API-Version`, legacy and `Vary` values;
//!   [`Stamp`]: the same in a framework's header types ([`HeaderWire`]).
//! - [`VersionList`], [`SingleVersion`], [`parse_discovery`]: discovery documents.
//! - [`choose_version`]: the negotiation a client does against a server;
//!   [`DeprecationNotice`]: the `Deprecation` and `Sunset` a server sent.
//! - [`Deprecation`], [`Api::retire_below`], [`VersionCap`]: a version's
//!   life, from deprecation to retirement, and a cap changed while serving.
//! - [`PublicUrl`]: where the links a service writes point (a fixed URL,
//!   the request's `Host`, or trusted proxies' forwarded headers).
//! - [`Problem`] and [`ErrorFormat`]: error documents; [`Violation`]: one
//!   way a request broke its schema, in the words of Python's `jsonschema`.
//! - With the feature `schema`: [`schema`] (versioned JSON-Schema validation
//!   of bodies and query strings), [`model`] (versioned models) and
//!   [`Controller`], which every framework facade shares; with `openapi`,
//!   [`openapi`]: the API's OpenAPI documents; with `portable`, [`portable`]:
//!   the arguments and answers of a controller that every facade serves.
//!
//! Most services depend on `microversion-actix`, which re-exports this crate.
//!
//! ```
//! use microversion_core::{Api, Microversion, Version};
//!
//! const COMPUTE: Api = Api::new("compute", &[
//!     Microversion::new("2.1", "Initial version."),
//!     Microversion::new("2.2", "Keypairs gain a type."),
//! ])
//! .with_legacy_headers(&["X-OpenStack-Nova-API-Version"]);
//!
//! let got = COMPUTE.negotiate([("X-OpenStack-Nova-API-Version", "2.2")]).unwrap();
//! assert_eq!(got.version, Version::lit("2.2"));
//! assert!(got.version.matches(Some(Version::lit("2.2")), None));
//! ```

#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "schema")]
mod answers;
mod api;
pub mod body;
mod cap;
mod client;
#[cfg(feature = "schema")]
#[doc(hidden)]
pub mod derive;
mod discovery;
pub mod exchange;
#[cfg(feature = "schema")]
#[doc(hidden)]
pub mod facade;
mod headers;
mod lifecycle;
#[cfg(feature = "schema")]
#[cfg_attr(docsrs, doc(cfg(feature = "schema")))]
pub mod model;
mod negotiate;
mod notice;
#[doc(hidden)]
pub mod observe;
#[cfg(feature = "openapi")]
#[cfg_attr(docsrs, doc(cfg(feature = "openapi")))]
pub mod openapi;
mod operation;
#[cfg(feature = "portable")]
#[cfg_attr(docsrs, doc(cfg(feature = "portable")))]
pub mod portable;
mod problem;
mod public_url;
mod python;
#[cfg(feature = "schema")]
mod query;
mod range;
mod routing;
#[cfg(feature = "schema")]
#[cfg_attr(docsrs, doc(cfg(feature = "schema")))]
pub mod schema;
mod stamp;
/// The contract's header names in lower case, and the check of a static
/// name, for the facades' `header_wire!`.
#[doc(hidden)]
pub mod __header_names {
    pub use crate::stamp::{MAX_NAME, MIN_NAME, STANDARD_NAME, is_static_name};
}
mod timestamp;
#[cfg(feature = "schema")]
#[cfg_attr(docsrs, doc(cfg(feature = "schema")))]
pub mod typed_client;
mod version;
pub mod violation;

pub use api::{
    Api, CapError, MAX_DEPRECATIONS, MAX_LEGACY_HEADERS, Microversion, STANDARD_HEADER, VersionStatus,
};
pub use cap::VersionCap;
pub use client::{
    ClientNegotiationError, ClientRequest, DiscoveryParseError, ServerVersion, choose_version,
    parse_discovery,
};
pub use discovery::{
    Link, ListedApis, MediaType, SingleVersion, VersionDocument, VersionList, is_version_like_path,
};
pub use headers::{
    MAX_VERSION_HEADER, MIN_VERSION_HEADER, ResponseHeaders, VaryUpdate, VersionHeaderValues, append_vary,
    appends_to_handlers, read_header_names, vary_update,
};
pub use lifecycle::{DEPRECATION_HEADER, Deprecation, LINK_HEADER, RetireError, SUNSET_HEADER};
pub use negotiate::{
    MAX_ECHOED_BYTES, Negotiated, NegotiationError, VersionHeader, VersionSource, VersionUnknown,
    not_negotiated_detail, version_of_request,
};
pub use notice::DeprecationNotice;
#[cfg(feature = "schema")]
pub use operation::Controller;
pub use operation::{
    AllowedMethods, MissingVariant, Operation, OperationVariant, ResponseDescription, SchemaDescription,
    SchemaDocument, UnservedVersion,
};
#[cfg(feature = "schema")]
pub use problem::read_query;
pub use problem::{
    ApiSigErrors, ErrorFormat, NovaFaults, PATH_REFUSED_DETAIL, Problem, bodiless_error_detail,
    method_not_allowed_detail, not_at_version_detail, qualified_code, removed_detail,
};
pub use public_url::{
    FORWARDED_AND_HOST, InvalidPublicUrl, PublicUrl, RequestOrigin, decode_unreserved, path_prefix,
};
pub use range::{InvertedRange, VersionRange};
pub use routing::{PathSyntax, RoutedPath};
pub use stamp::{
    AnswerWire, HeaderWire, Stamp, answer_request_id, error_headers, interned, min_max_names, plain_answer,
    set_header, stamp_deprecation,
};
pub use timestamp::{Timestamp, TimestampError};
pub use version::{ParseVersionError, Version};
pub use violation::Violation;
