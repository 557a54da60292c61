//! Versioned models on axum: [`Versioned`](crate::Versioned) renders a
//! [`VersionedModel`] at the request's negotiated version and reads a
//! request body into one. The models and `Versioned` are the core's,
//! shared with every framework, and derived with
//! `#[derive(VersionedModel)]`; outside a controller, a handler takes and
//! answers [`Native`](crate::Native)`<Versioned<T>>`.

pub use microversion_core::schema::model::{
    At, DerivedSchema, FieldSchema, VersionedModel, VersionedStruct, compile_model_schemas,
};
