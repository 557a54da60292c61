//! Controllers and their operations: what a `#[controller]` declares
//! (`Controller`, [`Operation`] and its variants), which path routes which
//! operation ([`RoutedPath`]), the answer of an operation at a version none
//! of its variants serves ([`MissingVariant`]), and the arguments and
//! answers every facade serves (`portable`).

mod description;
#[cfg(feature = "schema")]
#[doc(hidden)]
pub mod facade;
#[cfg(feature = "portable")]
#[doc(hidden)]
pub mod portable;
mod routing;

#[cfg(feature = "schema")]
pub use description::Controller;
pub use description::{
    AllowedMethods, MissingVariant, Operation, OperationVariant, ResponseDescription, SchemaDescription,
    SchemaDocument, UnservedVersion, split_doc,
};
pub use routing::{PathSyntax, RoutedPath};
