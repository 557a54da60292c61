//! Versioned models: one struct per resource whose fields carry version
//! ranges, rendered, parsed and validated at the negotiated version
//! (`#[derive(VersionedModel)]`).
//!
//! - A handler returns [`Versioned`]`(model)`: it is serialized at the
//!   request's version, fields outside their range left out.
//! - A handler takes [`Versioned`]`<Model>` as an argument: the body is validated by
//!   the JSON Schema the model derives for the version, then parsed; a field
//!   the version does not have is refused, naming the versions that accept it.

use std::collections::{BTreeMap, HashMap};

use actix_web::dev::Payload;
use actix_web::http::StatusCode;
use actix_web::{FromRequest, HttpMessage, HttpRequest, HttpResponse, Responder};
use futures_util::future::LocalBoxFuture;
use serde::Serializer;

use serde::ser::{SerializeMap, SerializeSeq};
use serde_json::{Value, json};

use crate::derive::object_at;

use crate::{
    ApiError, ApiVersion, Version,
    body::ParsedJson,
    error::Violation,
    schema::{SchemaError, VersionedSchemas},
    version::VersionRange,
};

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
    fn from_json_at(version: Version, value: Value) -> Result<Self, ApiError> {
        let mut errors = Vec::new();
        match Self::deserialize_at(version, value, "", &mut errors) {
            Some(model) if errors.is_empty() => Ok(model),
            _ => Err(ApiError::invalid_input(errors)),
        }
    }
}

/// In request extensions: the body was validated by the derived schema of
/// this model type at the request's version (a `#[schema(model = T)]`), so
/// `Versioned<T>` need not validate it again.
pub(crate) struct ValidatedAs(pub(crate) std::any::TypeId);

/// A struct model whose schemas are compiled once per process, one per
/// stretch of versions where its shape stays the same. Derived.
pub trait VersionedStruct: VersionedModel {
    /// The compiled schemas of the model (compiled on first use).
    fn compiled_schemas() -> Result<&'static VersionedSchemas, &'static SchemaError>;
}

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

/// A model at the request's negotiated version, both ways: as a handler's
/// answer it is rendered at that version (the handler never passes the
/// version by hand); as a handler's argument it is the request body read
/// at that version (see its `FromRequest` implementation below).
///
/// ```
/// # use microversion_actix::{Versioned, VersionedModel};
/// #[derive(VersionedModel)]
/// struct Server {
///     id: u32,
///     #[versioned(since = "2.3")]
///     host: Option<String>,
/// }
///
/// async fn show() -> Versioned<Server> {
///     Versioned::ok(Server { id: 1, host: Some("compute-1".into()) })
/// }
/// ```
pub struct Versioned<T> {
    model: T,
    status: StatusCode,
}

impl<T> Versioned<T> {
    /// 200 OK with the model.
    pub fn ok(model: T) -> Versioned<T> {
        Versioned { model, status: StatusCode::OK }
    }

    /// 201 Created with the model.
    pub fn created(model: T) -> Versioned<T> {
        Versioned { model, status: StatusCode::CREATED }
    }

    /// The model with another status.
    pub fn with_status(model: T, status: StatusCode) -> Versioned<T> {
        Versioned { model, status }
    }

    /// The model.
    pub fn into_inner(self) -> T {
        self.model
    }
}

impl<T> std::ops::Deref for Versioned<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.model
    }
}

impl<T: VersionedModel> Responder for Versioned<T> {
    type Body = actix_web::body::BoxBody;

    fn respond_to(self, req: &HttpRequest) -> HttpResponse {
        let version = match ApiVersion::from_http_request(req) {
            Ok(version) => version.version(),
            Err(e) => return actix_web::ResponseError::error_response(&e),
        };
        match serde_json::to_vec(&self.model.at(version)) {
            Ok(body) => HttpResponse::build(self.status).content_type("application/json").body(body),
            Err(e) => actix_web::ResponseError::error_response(&ApiError::internal(format!(
                "rendering failed: {e}"
            ))),
        }
    }
}

/// A request body read into a model at the negotiated version: validated
/// by the model's schema for that version, then parsed. The body is read
/// once (or taken as already parsed by a `#[schema]` check).
///
/// ```
/// # use microversion_actix::{Versioned, VersionedModel};
/// #[derive(VersionedModel)]
/// struct Rename {
///     name: String,
///     #[versioned(since = "2.19")]
///     description: Option<String>,
/// }
///
/// async fn rename(body: Versioned<Rename>) -> String {
///     body.into_inner().name
/// }
/// ```
impl<T: VersionedStruct + 'static> FromRequest for Versioned<T> {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Versioned<T>, ApiError>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let req = req.clone();
        let mut payload = payload.take();
        Box::pin(async move {
            let version = ApiVersion::from_http_request(&req)?.version();
            let parsed = req.extensions_mut().remove::<ParsedJson>();
            let body = match parsed {
                Some(ParsedJson(body)) => body,
                None => crate::body::read_json_body(&req, &mut payload).await?,
            };
            let schemas = T::compiled_schemas()
                .map_err(|e| ApiError::internal(format!("invalid model schema: {e}")))?;
            // A `#[schema(model = T)]` on the route has validated it already.
            let validated = req
                .extensions_mut()
                .remove::<ValidatedAs>()
                .is_some_and(|v| v.0 == std::any::TypeId::of::<T>());
            // The model's own errors name the field and the versions that
            // accept it; the schema adds the constraints of `schema = ...`.
            let by_schema = if validated { Ok(()) } else { schemas.validate(version, &body) };
            let model = T::from_json_at(version, body)?;
            by_schema.map(|()| Versioned::ok(model))
        })
    }
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
