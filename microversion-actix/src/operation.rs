//! What a service's operations are, for docs, discovery and checks: the
//! [`Controller`] trait that `#[controller]` implements, and the
//! descriptions it gives ([`Operation`], its [`OperationVariant`]s, the
//! schemas and responses they declare).

pub use microversion_core::{
    AllowedMethods, Operation, OperationVariant, ResponseDescription, SchemaDescription, SchemaDocument,
    UnservedVersion,
};

/// A type whose impl is marked `#[controller]`: it registers on an actix
/// `App` or `Scope` in one call (`.service(Flavors::new())`) and describes
/// its versioned operations. The core's trait, shared with every facade.
pub use microversion_core::Controller;
