//! What a service's operations are, for docs, discovery and checks: the
//! [`Controller`] trait that `#[controller]` implements, and the
//! descriptions it gives ([`Operation`], its [`OperationVariant`]s, the
//! schemas and responses they declare).

pub use microversion_core::{
    Operation, OperationVariant, ResponseDescription, SchemaDescription, SchemaDocument, UnservedVersion,
};

use actix_web::dev::HttpServiceFactory;

use crate::schema::SchemaError;

/// A type whose impl is marked `#[controller]`: it registers on an actix
/// `App` or `Scope` in one call (`.service(Flavors::new())`) and describes
/// its versioned operations.
pub trait Controller: HttpServiceFactory {
    /// Every versioned operation: name, route, the ranges of its variants and
    /// their schemas. For docs, discovery and change logs.
    const OPERATIONS: &'static [Operation];

    /// Compiles every schema of the controller, reporting the first invalid
    /// one by name. Registration does this too and panics at start-up on an
    /// invalid schema; call this in a test to find it earlier.
    fn check_schemas() -> Result<(), SchemaError>;
}
