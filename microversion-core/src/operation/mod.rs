//! Controllers and their operations: what a `#[controller]` declares
//! (`Controller`, [`Operation`] and its variants), which path routes which
//! operation ([`RoutedPath`]), the answer of an operation at a version none
//! of its variants serves ([`MissingVariant`]), and the arguments and
//! answers every facade serves (`portable`).

mod description;
#[cfg(feature = "schema")]
#[doc(hidden)]
pub mod facade;
#[cfg(feature = "schema")]
mod path_params;
#[cfg(feature = "portable")]
#[doc(hidden)]
pub mod portable;
mod routing;
#[cfg(feature = "portable")]
mod serving;

#[cfg(feature = "schema")]
pub use description::Controller;
pub use description::{
    AllowedMethods, Example, MissingVariant, Operation, OperationVariant, ResponseDescription,
    SchemaDescription, SchemaDocument, UnservedVersion, split_doc,
};
#[cfg(feature = "schema")]
pub use path_params::{read_path_params, with_path_params};
pub use routing::{PathSyntax, RoutedPath};
#[cfg(feature = "portable")]
pub use serving::{Answers, Core, Extracts, Facade, ReadAlready, RouteInput, Routes};
#[cfg(feature = "portable")]
#[doc(hidden)]
pub use serving::{AnswersThrough, ExtractsThrough};
/// What `#[controller]`'s generic routes call. Not public API.
#[cfg(feature = "portable")]
#[doc(hidden)]
pub mod __serving {
    pub use super::serving::{
        Either, OperationAnswer, check_response, missing, operation_answer, stamp_deprecation, validate_body,
        validate_query,
    };
}
