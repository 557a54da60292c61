//! What a service's operations are, for docs and checks: the [`Controller`]
//! trait that `#[controller(axum)]` implements, and the descriptions it
//! gives (shared with every framework, from the core).

pub use microversion_core::{
    AllowedMethods, Operation, OperationVariant, ResponseDescription, SchemaDescription, SchemaDocument,
    UnservedVersion,
};

use microversion_core::schema::SchemaError;

/// A type whose impl is marked `#[controller(api = API, axum)]`: it becomes
/// an axum `Router` (`Router::new().merge(Flavors::new())`, or
/// `Router::from`) and describes its versioned operations.
pub trait Controller {
    /// Every versioned operation: name, route, the ranges of its variants
    /// and their schemas.
    const OPERATIONS: &'static [Operation];

    /// Compiles every schema of the controller, reporting the first invalid
    /// one by name. Conversion into a `Router` does this too and panics at
    /// start-up on an invalid schema; call this in a test to find it earlier.
    fn check_schemas() -> Result<(), SchemaError>;
}
