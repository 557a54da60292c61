//! What a service's operations are, for docs and checks: the [`Controller`]
//! trait that `#[controller(axum)]` implements, and the descriptions it
//! gives (shared with every framework, from the core).

pub use microversion_core::{
    AllowedMethods, Operation, OperationVariant, ResponseDescription, SchemaDescription, SchemaDocument,
    UnservedVersion,
};

/// A type whose impl is marked `#[controller(api = API, axum)]`: it becomes
/// an axum `Router` (`Router::new().merge(Flavors::new())`, or
/// `Router::from`) and describes its versioned operations.
pub trait Controller {
    /// Every versioned operation: name, route, the ranges of its variants.
    const OPERATIONS: &'static [Operation];
}
