//! Versioned models, whatever the framework: one struct per resource whose
//! fields carry version ranges ([`VersionedModel`], derived by each facade's
//! `#[derive(VersionedModel)]`), serialized, parsed and described at a
//! version. The facades' `Versioned<T>` renders and reads them at the
//! negotiated version.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

use serde::Serializer;

use serde::ser::{SerializeMap, SerializeSeq};
use serde_json::{Map, Value, json};

use crate::schema::{InvalidInput, SchemaError, VersionedSchemas};
use crate::{Version, VersionRange, Violation};

/// What `#[derive(VersionedModel)]` bounds a plain field's type by: every
/// [`FieldSchema`] has it. Its own trait, so that a type without a schema
/// is one short error at the field naming this public trait; give the type
/// a schema by implementing [`FieldSchema`], or the field one of the
/// attributes the error lists (docs/07-models.md).
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no JSON Schema for a versioned model field",
    label = "no derived schema for this type",
    note = "give the field `#[versioned(schema = path::to::schema_fn)]` (a `fn() -> serde_json::Value`), \
            `#[versioned(json_schema)]` if the type derives `schemars::JsonSchema`, \
            `#[versioned(nested)]` if the type is itself a `VersionedModel`, \
            or implement `model::FieldSchema` for the type"
)]
pub trait DerivedSchema {
    /// The schema of values of this type.
    fn derived_schema() -> Value;
}

#[diagnostic::do_not_recommend]
impl<T: FieldSchema> DerivedSchema for T {
    fn derived_schema() -> Value {
        T::field_schema()
    }
}

/// A type rendered, parsed and described differently at each version.
/// Derived for structs with `#[derive(VersionedModel)]`; implemented here
/// for `Option`, `Vec` and string-keyed maps of models.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a versioned model",
    note = "derive it with `#[derive(VersionedModel)]`, or drop `nested` to treat the field as plain serde data"
)]
pub trait VersionedModel: Sized {
    /// Serializes `self` as it looks at `version`.
    fn serialize_at<S: Serializer>(&self, version: Version, serializer: S) -> Result<S::Ok, S::Error>;

    /// Parses `value` as a request at `version` may send it, recording every
    /// problem (with its JSON path under `path`) in `errors`; `None` if it
    /// recorded any.
    fn deserialize_at(
        version: Version,
        value: Value,
        path: &str,
        errors: &mut Vec<Violation>,
    ) -> Option<Self>;

    /// The JSON Schema of the model at `version`.
    fn json_schema_at(version: Version) -> Value;

    /// Appends the versions at which the model's shape changes (its own and
    /// its nested models').
    fn changes(out: &mut Vec<Version>);

    /// A view of `self` that serializes at `version`.
    fn at(&self, version: Version) -> At<'_, Self> {
        At { model: self, version }
    }

    /// Parses a whole request body at `version`: every problem, or the model.
    fn from_json_at(version: Version, value: Value) -> Result<Self, InvalidInput> {
        let mut errors = Vec::new();
        match Self::deserialize_at(version, value, "", &mut errors) {
            Some(model) if errors.is_empty() => Ok(model),
            _ => Err(InvalidInput(errors)),
        }
    }
}

/// A struct model whose schemas are compiled once per process, one per
/// stretch of versions where its shape stays the same, and which a request
/// body can be read into. Derived for every model that owns its data; a
/// model with a lifetime parameter borrows, so it is rendered only.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be read from a request body",
    note = "a request is read into a model that owns its data; a model with a lifetime parameter \
            borrows, so it is only rendered: give the request its own model with owned fields"
)]
pub trait VersionedStruct: VersionedModel {
    /// The compiled schemas of the model (compiled on first use).
    fn compiled_schemas() -> Result<&'static VersionedSchemas, &'static SchemaError>;

    /// A request body read as the model at `version`: parsed field by field
    /// (whose errors name the field and the versions that accept it), and
    /// checked by the model's schema for the version, unless `validated`
    /// says a `#[schema(model = T)]` did already. What every facade's
    /// `Versioned<T>` extractor does with the body it read.
    fn read_at(version: Version, body: Value, validated: bool) -> Result<Self, ModelReadError> {
        let schemas = Self::compiled_schemas().map_err(|e| ModelReadError::InvalidSchema(e.clone()))?;
        let by_schema = if validated { Ok(()) } else { schemas.validate(version, &body) };
        let model = Self::from_json_at(version, body)?;
        by_schema?;
        Ok(model)
    }
}

/// Why a request body could not be read as a model.
#[derive(Clone, Debug, PartialEq)]
pub enum ModelReadError {
    /// The model's derived schema does not compile: the service's fault (500).
    InvalidSchema(SchemaError),
    /// The body breaks the model at the version: the client's (400).
    Invalid(InvalidInput),
}

impl From<InvalidInput> for ModelReadError {
    fn from(invalid: InvalidInput) -> ModelReadError {
        ModelReadError::Invalid(invalid)
    }
}

impl std::fmt::Display for ModelReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ModelReadError::InvalidSchema(e) => write!(f, "invalid model schema: {e}"),
            ModelReadError::Invalid(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ModelReadError {}

/// `model.at(version)`: serializes the model as it looks at that version.
pub struct At<'a, T> {
    model: &'a T,
    version: Version,
}

impl<T: VersionedModel> serde::Serialize for At<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.model.serialize_at(self.version, serializer)
    }
}

/// Compiles the schemas of a model: one per stretch of versions between its
/// changes. Called by the derived [`VersionedStruct::compiled_schemas`].
pub fn compile_model_schemas<T: VersionedModel>(name: &'static str) -> Result<VersionedSchemas, SchemaError> {
    let mut cuts = Vec::new();
    T::changes(&mut cuts);
    cuts.sort();
    cuts.dedup();
    let documents = segments(&cuts)
        .into_iter()
        .map(|(representative, range)| (name, range, T::json_schema_at(representative)));
    VersionedSchemas::compile_documents(documents)
}

/// The stretches between cut points: before the first cut, then from each
/// cut to just before the next. Each with a version inside it.
fn segments(cuts: &[Version]) -> Vec<(Version, VersionRange)> {
    let mut out = Vec::new();
    if let Some(last_before) = cuts.first().and_then(|first| first.predecessor()) {
        out.push((Version::new(0, 0), VersionRange::until(last_before)));
    }
    for (i, cut) in cuts.iter().enumerate() {
        // Cuts are sorted and distinct, so the next one has a predecessor at or after `cut`.
        let range = match cuts.get(i + 1).and_then(|next| next.predecessor()) {
            Some(last) => VersionRange::between(*cut, last),
            None => VersionRange::from(*cut),
        };
        out.push((*cut, range));
    }
    if out.is_empty() {
        out.push((Version::new(0, 0), VersionRange::ANY));
    }
    out
}

/// The JSON Schema of a plain field type, derived from its Rust type.
/// Implemented for strings, numbers, booleans, options, vectors, string-keyed
/// maps and `serde_json::Value`; other types give `#[versioned(schema = ...)]`.
pub trait FieldSchema {
    /// The schema of values of this type.
    fn field_schema() -> Value;
}

impl FieldSchema for String {
    fn field_schema() -> Value {
        json!({"type": "string"})
    }
}

impl FieldSchema for str {
    fn field_schema() -> Value {
        String::field_schema()
    }
}

/// A borrowed field (in a model that borrows) has the schema of what it borrows.
impl<T: FieldSchema + ?Sized> FieldSchema for &T {
    fn field_schema() -> Value {
        T::field_schema()
    }
}

impl<T: FieldSchema + ToOwned + ?Sized> FieldSchema for Cow<'_, T> {
    fn field_schema() -> Value {
        T::field_schema()
    }
}

impl FieldSchema for bool {
    fn field_schema() -> Value {
        json!({"type": "boolean"})
    }
}

macro_rules! integer_schema {
    ($($t:ty),*) => {$(
        impl FieldSchema for $t {
            fn field_schema() -> Value {
                json!({"type": "integer", "minimum": <$t>::MIN, "maximum": <$t>::MAX})
            }
        }
    )*};
}
integer_schema!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize);

impl FieldSchema for f32 {
    fn field_schema() -> Value {
        json!({"type": "number"})
    }
}

impl FieldSchema for f64 {
    fn field_schema() -> Value {
        json!({"type": "number"})
    }
}

impl FieldSchema for Value {
    fn field_schema() -> Value {
        json!({})
    }
}

impl<T: FieldSchema> FieldSchema for Option<T> {
    fn field_schema() -> Value {
        json!({"anyOf": [T::field_schema(), {"type": "null"}]})
    }
}

impl<T: FieldSchema> FieldSchema for Vec<T> {
    fn field_schema() -> Value {
        <[T]>::field_schema()
    }
}

impl<T: FieldSchema> FieldSchema for [T] {
    fn field_schema() -> Value {
        json!({"type": "array", "items": T::field_schema()})
    }
}

impl<T: FieldSchema> FieldSchema for BTreeMap<String, T> {
    fn field_schema() -> Value {
        json!({"type": "object", "additionalProperties": T::field_schema()})
    }
}

impl<T: FieldSchema, S: std::hash::BuildHasher> FieldSchema for HashMap<String, T, S> {
    fn field_schema() -> Value {
        json!({"type": "object", "additionalProperties": T::field_schema()})
    }
}

// ---- Containers of models: `#[versioned(nested)]` fields.

impl<T: VersionedModel> VersionedModel for Option<T> {
    fn serialize_at<S: Serializer>(&self, version: Version, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Some(model) => model.serialize_at(version, serializer),
            None => serializer.serialize_none(),
        }
    }

    fn deserialize_at(
        version: Version,
        value: Value,
        path: &str,
        errors: &mut Vec<Violation>,
    ) -> Option<Self> {
        match value {
            Value::Null => Some(None),
            value => T::deserialize_at(version, value, path, errors).map(Some),
        }
    }

    fn json_schema_at(version: Version) -> Value {
        json!({"anyOf": [T::json_schema_at(version), {"type": "null"}]})
    }

    fn changes(out: &mut Vec<Version>) {
        T::changes(out);
    }
}

impl<T: VersionedModel> VersionedModel for Vec<T> {
    fn serialize_at<S: Serializer>(&self, version: Version, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.len()))?;
        for model in self {
            seq.serialize_element(&model.at(version))?;
        }
        seq.end()
    }

    fn deserialize_at(
        version: Version,
        value: Value,
        path: &str,
        errors: &mut Vec<Violation>,
    ) -> Option<Self> {
        let Value::Array(items) = value else {
            errors.push(Violation::new(path, "type", "expected an array"));
            return None;
        };
        let parsed: Vec<Option<T>> = items
            .into_iter()
            .enumerate()
            .map(|(i, item)| T::deserialize_at(version, item, &format!("{path}/{i}"), errors))
            .collect();
        parsed.into_iter().collect()
    }

    fn json_schema_at(version: Version) -> Value {
        json!({"type": "array", "items": T::json_schema_at(version)})
    }

    fn changes(out: &mut Vec<Version>) {
        T::changes(out);
    }
}

impl<T: VersionedModel> VersionedModel for BTreeMap<String, T> {
    fn serialize_at<S: Serializer>(&self, version: Version, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.len()))?;
        for (key, model) in self {
            map.serialize_entry(key, &model.at(version))?;
        }
        map.end()
    }

    fn deserialize_at(
        version: Version,
        value: Value,
        path: &str,
        errors: &mut Vec<Violation>,
    ) -> Option<Self> {
        let object = object_at(value, path, errors)?;
        let parsed: Vec<Option<(String, T)>> = object
            .into_iter()
            .map(|(key, item)| {
                let item_path = format!("{path}/{key}");
                T::deserialize_at(version, item, &item_path, errors).map(|model| (key, model))
            })
            .collect();
        parsed.into_iter().collect()
    }

    fn json_schema_at(version: Version) -> Value {
        json!({"type": "object", "additionalProperties": T::json_schema_at(version)})
    }

    fn changes(out: &mut Vec<Version>) {
        T::changes(out);
    }
}

/// The object a struct model is read from, or an error if the value is not one.
pub fn object_at(value: Value, path: &str, errors: &mut Vec<Violation>) -> Option<Map<String, Value>> {
    match value {
        Value::Object(object) => Some(object),
        other => {
            let path = if path.is_empty() { "/" } else { path };
            let message = format!("expected an object, got {other}");
            errors.push(Violation::new(path, "type", message).with_value(&other));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_cover_every_version_once() {
        let cuts = [Version::new(2, 55), Version::new(2, 61), Version::new(3, 0)];
        let segments = segments(&cuts);
        let ranges: Vec<String> = segments.iter().map(|(_, r)| r.to_string()).collect();
        assert_eq!(ranges, ["up to 2.54", "2.55 to 2.60", "2.61 to 2.65535", "3.0 and later"]);
        for (representative, range) in &segments {
            assert!(range.contains(*representative));
        }
        assert_eq!(super::segments(&[]).len(), 1);
    }
}
