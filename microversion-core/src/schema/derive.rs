//! What the `VersionedModel` derive's expansion calls (through
//! `__private`): reading a request object field by field at a version,
//! and the bound that gives a plain field its schema. Not public API.

use std::sync::OnceLock;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

pub use crate::schema::model::DerivedSchema;
pub use crate::schema::model::object_at;
use crate::schema::model::{VersionedModel, compile_model_schemas};
use crate::schema::{SchemaError, VersionedSchemas};
use crate::{Version, VersionRange, Violation};

/// Derives the compiled-schema cell of a model (used by the derive).
pub fn model_schemas<T: VersionedModel>(
    cell: &'static OnceLock<Result<VersionedSchemas, SchemaError>>,
    name: &'static str,
) -> Result<&'static VersionedSchemas, &'static SchemaError> {
    cell.get_or_init(|| compile_model_schemas::<T>(name)).as_ref()
}

/// How a field may be absent from a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presence {
    /// Must be sent at the versions that have it.
    Required,
    /// An `Option`: absent is `None`.
    Optional,
    /// Absent is `Default::default()`.
    Default,
}

/// One field of a request object, read at `version` (used by the derive).
/// `parse` turns the sent value into the field's type; `absent` gives the
/// value when it is not sent at a version that does not require it.
#[allow(clippy::too_many_arguments)]
pub fn read_field<T>(
    object: &mut Map<String, Value>,
    key: &str,
    range: VersionRange,
    presence: Presence,
    version: Version,
    path: &str,
    errors: &mut Vec<Violation>,
    parse: impl FnOnce(Value, &str, &mut Vec<Violation>) -> Option<T>,
    absent: impl FnOnce() -> Option<T>,
) -> Option<T> {
    let field_path = format!("{path}/{key}");
    match object.remove(key) {
        Some(value) if range.contains(version) => parse(value, &field_path, errors),
        Some(value) => {
            let message = format!("`{key}` is not accepted at version {version}; it is accepted at {range}");
            errors.push(Violation::new(field_path, "additionalProperties", message).with_value(&value));
            None
        }
        None if presence == Presence::Required && range.contains(version) => {
            errors.push(Violation::new(
                field_path,
                "required",
                format!("`{key}` is required at version {version}"),
            ));
            None
        }
        None => absent(),
    }
}

/// Parses a plain (non-model) field value with serde.
pub fn parse_plain<T: DeserializeOwned>(value: Value, path: &str, errors: &mut Vec<Violation>) -> Option<T> {
    serde_json::from_value(value).map_err(|e| errors.push(Violation::new(path, "type", e.to_string()))).ok()
}

/// Records every key left in `object` as unknown.
pub fn deny_unknown(object: Map<String, Value>, path: &str, errors: &mut Vec<Violation>) {
    for key in object.keys() {
        errors.push(Violation::new(
            format!("{path}/{key}"),
            "additionalProperties",
            format!("`{key}` is not a known field"),
        ));
    }
}
