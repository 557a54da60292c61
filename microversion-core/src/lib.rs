//! The runtime core of `microversion`: OpenStack-style API microversions
//! without any web framework. Its modules are the parts of the framework:
//!
//! - [`version`]: [`Version`] and [`VersionRange`], the one [`Api`]
//!   declaration and its history, the deployer's [`VersionCap`], and the
//!   version a request is served at ([`Api::negotiate`]: exactly as Nova
//!   and microversion-parse read the headers, without allocating).
//! - [`exchange`] and [`header`]: the protocol engine, with no I/O: the
//!   steps of a request and its answer every facade's layer takes, and the
//!   headers an answer gains, in any framework's types.
//! - [`error`]: error documents ([`Problem`], [`ErrorFormat`]) and the
//!   [`Violation`]s of a refused body, in the words of Python's `jsonschema`.
//! - `schema`, `model` and [`body`] (feature `schema` for the first
//!   two): versioned JSON-Schema validation of bodies and query strings,
//!   versioned models, and how a body is read.
//! - [`operation`]: what a controller declares (`Controller`) and how its
//!   paths are routed; `portable` (feature `portable`): the arguments and
//!   answers of a controller that every facade serves.
//! - [`discovery`]: the version documents and where their links point;
//!   `openapi` (feature `openapi`): the API's OpenAPI documents and its
//!   reference pages.
//! - [`change`]: version changes, each a typed upgrade of the requests
//!   before it and downgrade of the answers, so that an operation is
//!   written once, at the head of its history.
//! - [`lifecycle`]: a version's deprecation, sunset and retirement.
//! - [`client`]: the client's side: discovery read, a version chosen, and
//!   the typed clients generated from controllers.
//!
//! A service depends on the facade of its framework (`microversion-actix`
//! or `microversion-axum`), which re-exports this crate's modules by name.
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

pub mod body;
pub mod change;
pub mod client;
pub mod discovery;
pub mod error;
pub mod lifecycle;
#[cfg(feature = "openapi")]
#[cfg_attr(docsrs, doc(cfg(feature = "openapi")))]
pub mod openapi;
pub mod operation;
mod protocol;
#[cfg(feature = "schema")]
#[cfg_attr(docsrs, doc(cfg(feature = "schema")))]
pub mod schema;
pub mod version;

pub use protocol::{exchange, header};

#[cfg(feature = "portable")]
#[cfg_attr(docsrs, doc(cfg(feature = "portable")))]
#[doc(inline)]
pub use operation::portable;

pub use error::{ErrorFormat, Problem, Violation};
pub use lifecycle::Deprecation;
#[cfg(feature = "schema")]
pub use operation::Controller;
pub use version::{Api, Microversion, Negotiated, NegotiationError, Version, VersionCap, VersionRange};

// Plumbing of the facades and of the macros' expansions: not for services.
#[cfg(feature = "schema")]
#[doc(hidden)]
pub use operation::facade;
#[doc(hidden)]
pub use protocol::observe;
#[cfg(feature = "schema")]
#[doc(hidden)]
pub use schema::derive;
/// What the macros' expansions call, the same through every facade, which
/// re-exports it whole in its own `__private` beside its registration.
/// Not public API: names here change without notice.
#[cfg(feature = "portable")]
#[doc(hidden)]
pub mod __private {
    pub use serde;
    pub use serde_json;

    pub use crate::change::{
        ChangeNote, Declared, Downgrade, Downgrades, TypedSchema, Upgrade, Upgrades, VersionChange,
        band as change_band, claim_alike,
    };
    pub use crate::derive::{
        DerivedSchema, Presence, deny_unknown, model_schemas, object_at, parse_plain, read_field,
    };
    pub use crate::operation::{
        __serving, Answers, AnswersThrough, Controller, Example, Extracts, ExtractsThrough, Facade,
        MissingVariant, Operation, OperationVariant, ResponseDescription, RouteInput, Routes,
        SchemaDescription, SchemaDocument, UnservedVersion,
    };
    pub use crate::schema::model::{FieldSchema, VersionedModel, VersionedStruct, compile_model_schemas};
    pub use crate::schema::{LazySchemas, SchemaError, SchemaSource, VersionedSchemas, json_schema_of};
    pub use crate::{Api, Deprecation, Microversion, Version, VersionRange, Violation, client::typed_client};
}

/// The contract's header names in lower case, and the check of a static
/// name, for a facade's own `HeaderWire` (actix's).
#[doc(hidden)]
pub mod __header_names {
    pub use crate::protocol::stamp::{MAX_NAME, MIN_NAME, STANDARD_NAME, is_static_name};
}
