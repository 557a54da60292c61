//! What every facade declares the same way: [`facade_face!`](crate::facade_face),
//! the names at a facade's root and its `schema` and `client` modules,
//! re-exports only.
//!
//! Every type a facade serves is the core's: the value types a handler
//! names (`ApiError`, `ApiVersion`, `Json`, `Path`, `Query`, `Versioned`,
//! `LinkRoot`), the `ErrorRenderer`, and the settings of the negotiation
//! (`exchange::Negotiation`, `exchange::ClientDefault`), of discovery
//! (`discovery::DiscoverySettings`) and of the documents
//! (`openapi::OpenApiSettings`). A facade adds its framework's adapters
//! (`VersionNegotiation`, `Discovery`, `OpenApiService`, `Native`,
//! `Error`), which the orphan rule lets only the facade make: actix's
//! `Transform` and `HttpServiceFactory`, axum's `Layer` and `Router`.

/// Declares, at the calling facade's root, the names every facade exports
/// there and the modules that are the core's alone (`schema`, `client`):
/// one face, written once, so that moving a service from one facade to
/// another changes the crate its imports name and nothing else
/// (docs/19-axum.md, "From actix to axum"). The facade declares the
/// modules the names come from (`__private`, `api_version`, `body`,
/// `discovery`, `error`, `middleware`, `model`). Not for services: a
/// facade's `lib.rs` calls it.
#[macro_export]
#[doc(hidden)]
macro_rules! facade_face {
    () => {
        pub use discovery::{Discovery, DiscoverySettings};
        pub use error::{ApiError, Error};
        pub use middleware::{Negotiation, VersionNegotiation};
        pub use model::VersionedModel;
        pub use native::Native;
        /// Version changes (docs/reference.md §4.10): an operation written
        /// once, at the head of its history, the versions before each change
        /// served by its typed upgrade and downgrade. The core's, the same on
        /// every facade.
        pub use $crate::change;
        pub use $crate::change::{Downgrade, Upgrade, VersionChange};
        /// The arguments and answers of a controller that every facade
        /// serves (docs/reference.md §4.8).
        pub use $crate::portable;
        /// The arguments and answers of a controller, the core's, the same
        /// on every facade (docs/reference.md §4.8).
        pub use $crate::portable::{ApiVersion, Json, JsonQuery, Versioned};
        pub use $crate::{Api, Microversion, Version};

        /// Versioned JSON-Schema validation of request bodies and query
        /// strings (docs/reference.md §6): schemas keyed by non-overlapping
        /// version ranges, compiled once with `jsonschema`. The core's, the
        /// same on every facade; an [`InvalidInput`] becomes the 400
        /// [`ApiError::invalid_input`](crate::ApiError::invalid_input).
        pub mod schema {
            pub use $crate::schema::{
                InvalidInput, MAX_LISTED_VIOLATIONS, Schema, SchemaError, SchemaSource, VersionedSchemas,
                json_schema_of, query_to_json,
            };
        }

        /// The client's side (docs/10-client-negotiation.md): read a
        /// service's version discovery and choose the version to ask for,
        /// as keystoneauth1 does. The core's, the same on every facade.
        pub mod client {
            pub use $crate::{
                client::ClientNegotiationError, client::ClientRequest, client::DiscoveryParseError,
                client::choose_version, client::parse_discovery,
            };
        }
    };
}
