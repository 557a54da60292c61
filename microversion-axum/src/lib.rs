#![doc = include_str!("../README.md")]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod body;
pub mod discovery;
pub mod error;
mod extract;
pub mod header;
pub mod lifecycle;
pub mod middleware;
pub mod model;
#[cfg(feature = "openapi")]
#[cfg_attr(docsrs, doc(cfg(feature = "openapi")))]
pub mod openapi;
pub mod operation;
pub mod params;

/// Versioned JSON-Schema validation of request bodies and query strings
/// (docs/reference.md §6), as `microversion_actix::schema`: the core's.
pub mod schema {
    pub use microversion_core::schema::{
        InvalidInput, MAX_LISTED_VIOLATIONS, Schema, SchemaError, SchemaSource, VersionedSchemas,
        json_schema_of, query_to_json,
    };
}

/// The client's side (docs/10-client-negotiation.md), as
/// `microversion_actix::client`: read a service's version discovery and
/// choose the version to ask for, as keystoneauth1 does.
pub mod client {
    pub use microversion_core::{
        ClientNegotiationError, ClientRequest, DiscoveryParseError, choose_version, parse_discovery,
    };
}
mod public_url;
mod response_validation;
mod route;
pub mod serve;
pub mod test;
pub mod version;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;
// Named here so that rustc's diagnostics about a route's argument or
// answer name the trait by its bare name, not by the hidden module.
#[doc(hidden)]
pub use __private::{RouteArgument, RouteResponse};

pub use body::{Json, JsonQuery};
pub use discovery::Discovery;
pub use error::ApiError;
pub use extract::ApiVersion;
/// The arguments and answers of a controller that every facade serves
/// (docs/reference.md §4.8).
pub use microversion_core::portable;
pub use microversion_core::{Api, Microversion, Version};
pub use middleware::VersionNegotiation;
pub use model::{Versioned, VersionedModel};
pub use serve::serve;

#[doc(inline)]
pub use microversion_macros::{VersionedModel, api_version, controller, schema};

/// A version history, checked where it is written: one
/// `"X.Y" => "the change it made"` per version, oldest first, for
/// `Api::new`. A malformed version, one out of order or declared twice, or
/// an empty history is a compile error on the literal itself.
///
/// ```
/// use microversion_axum::{Api, Version, history};
///
/// const VOLUME: Api = Api::new("volume", history!["3.0" => "Initial version.", "3.1" => "Types."]);
/// assert_eq!(VOLUME.max(), Version::lit("3.1"));
/// ```
#[doc(inline)]
pub use crate::__microversion_axum_history as history;

/// The guide's chapter on axum, compiled as doctests so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../../docs/19-axum.md")]
struct Guide;
