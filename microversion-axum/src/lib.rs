//! OpenStack-style API microversions for axum and tower.
//!
//! The same contract as `microversion-actix`, from the same declarations and
//! by the same rules (they live in [`microversion-core`](microversion_core),
//! re-exported here): a client asks for a version per request
//! (`OpenStack-API-Version: compute 2.27`) and gets exactly that version's
//! behaviour; a client that asks for nothing keeps the oldest behaviour.
//!
//! - [`VersionNegotiation`]: the tower layer that negotiates each
//!   request, answers 400 and 406 itself, and puts `OpenStack-API-Version`,
//!   the legacy headers, deprecation headers and `Vary` on every answer;
//! - [`ApiVersion`]: the negotiated version as a handler argument;
//! - [`Discovery`]: `GET /` and `GET /v2.1/` as an axum [`Router`](axum::Router);
//! - [`macro@controller`]: same-named methods with `#[api_version]`,
//!   dispatched by the negotiated version and checked at compile time,
//!   converted into a `Router`; with [`ApiError`], [`Json`], [`JsonQuery`],
//!   versioned schemas and [`Versioned`] models, as on actix;
//! - `openapi` (feature `openapi`): the API's OpenAPI documents as a `Router`;
//! - [`serve()`]: a router served over HTTP/1.1 as actix-web's `HttpServer`
//!   serves an app (head deadlines, half-closed clients answered, a
//!   connection limit, a graceful stop on SIGTERM).
//!
//! Names are where `microversion-actix` keeps them: at the root what a
//! handler and an app use every day, the rest in [`body`], [`discovery`]
//! ([`PublicUrl`](discovery::PublicUrl), where links point), [`error`]
//! (the formats), [`header`], [`lifecycle`], [`middleware`]
//! ([`ClientDefault`](middleware::ClientDefault),
//! [`ResponseValidation`](middleware::ResponseValidation)), [`model`],
//! [`operation`], [`schema`](mod@schema), [`client`], [`serve`](mod@serve)
//! and [`version`] (`VersionCap`, `VersionRange`, ...).
//!
//! | feature | what it adds |
//! | --- | --- |
//! | `openapi` | the `openapi` module: the documents per version and for the whole history, served |
//! | `metrics` | per-version request counts through the `metrics` facade, as on actix |
//! | `tracing` | a `tracing` span per request with the negotiated version |
//!
//! The guide's chapter `docs/19-axum.md` shows a whole service.
//!
//! ```
//! use axum::{Router, routing::get};
//! use microversion_axum::{Api, ApiVersion, Discovery, Microversion, Version, VersionNegotiation};
//!
//! const COMPUTE: Api = Api::new("compute", &[
//!     Microversion::new("2.1", "Initial version."),
//!     Microversion::new("2.2", "Servers show their host."),
//! ])
//! .with_legacy_headers(&["X-OpenStack-Nova-API-Version"]);
//!
//! async fn show(version: ApiVersion) -> String {
//!     if version >= Version::lit("2.2") { "vm on compute-1".into() } else { "vm".into() }
//! }
//!
//! let api = Router::new().route("/v2.1/servers/{id}", get(show)).layer(VersionNegotiation::new(COMPUTE));
//! let app: Router = Router::from(Discovery::new(&[COMPUTE])).merge(api);
//! ```

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

/// ```
/// use microversion_axum::{Api, Version, history};
///
/// const VOLUME: Api = Api::new("volume", history!["3.0" => "Initial version.", "3.1" => "Types."]);
/// assert_eq!(VOLUME.max(), Version::lit("3.1"));
/// ```
#[doc(inline)]
pub use microversion_macros::history;

/// The guide's chapter on axum, compiled as doctests so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../../docs/19-axum.md")]
struct Guide;
