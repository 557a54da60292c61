//! Versioned JSON-Schema validation of request bodies and query strings
//! (docs/reference.md §6): schemas keyed by non-overlapping version ranges,
//! compiled once with `jsonschema`. The core's, shared with every framework;
//! an [`InvalidInput`] becomes the 400 [`ApiError::invalid_input`](crate::ApiError::invalid_input).

pub use microversion_core::schema::{
    InvalidInput, MAX_LISTED_VIOLATIONS, Schema, SchemaError, SchemaSource, VersionedSchemas, json_schema_of,
    query_to_json,
};
