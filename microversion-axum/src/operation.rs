//! What a service's operations are, for docs and checks: the [`Controller`]
//! trait that `#[controller(axum)]` implements, and the descriptions it
//! gives (shared with every framework, from the core).

pub use microversion_core::{
    AllowedMethods, Operation, OperationVariant, ResponseDescription, SchemaDescription, SchemaDocument,
    UnservedVersion,
};

/// A type whose impl is marked `#[controller(api = API, axum)]`: it becomes
/// an axum `Router` (`Router::new().merge(Flavors::new())`) and describes
/// its versioned operations. The core's trait, shared with every facade.
pub use microversion_core::Controller;
