//! Versioned models on actix: [`Versioned`](crate::Versioned) renders a [`VersionedModel`]
//! at the request's negotiated version and reads a request body into one.
//!
//! - A handler returns [`Versioned`](crate::Versioned)`(model)`: it is serialized at the
//!   request's version, fields outside their range left out.
//! - A handler takes [`Versioned`](crate::Versioned)`<Model>` as an argument: the body is validated by
//!   the JSON Schema the model derives for the version, then parsed; a field
//!   the version does not have is refused, naming the versions that accept it.
//!
//! The models and [`Versioned`](crate::Versioned) are the core's, shared
//! with every framework; outside a controller, a handler takes and answers
//! [`Native`](crate::Native)`<Versioned<T>>`.

pub use microversion_core::schema::model::{
    At, DerivedSchema, FieldSchema, VersionedModel, VersionedStruct, compile_model_schemas,
};
