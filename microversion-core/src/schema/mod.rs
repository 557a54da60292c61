//! Versioned JSON-Schema validation of request bodies and query strings
//! (docs/reference.md §6): schemas keyed by non-overlapping version ranges, compiled
//! once with `jsonschema`, whatever the framework. A refused input is an
//! [`InvalidInput`], which each facade answers as its 400. Query strings are
//! read as JSON by [`query_to_json`] and [`typed_query_to_json`]; a
//! service's own answers are checked by [`ResponseValidation`].

pub(crate) mod answers;
#[doc(hidden)]
pub mod derive;
pub mod model;
pub(crate) mod query;

use std::fmt;

use serde_json::Value;

use crate::error::python::{MAX_MESSAGE_CHARS, keyword_of, python_message};
use crate::error::violation::{Input, Violation};
pub use crate::schema::answers::{AnswerVerdict, ResponseValidation, answer_problems};
pub use crate::schema::query::{query_to_json, typed_query_to_json};
use crate::{Version, VersionRange};

/// How many violations one error lists; the rest are counted.
pub const MAX_LISTED_VIOLATIONS: usize = 50;

/// One schema as declared: a name for error messages, the versions it
/// validates, and a function building the schema document.
#[derive(Clone, Copy, Debug)]
pub struct SchemaSource {
    /// The name shown in start-up errors (`"create_v2_1"`).
    pub name: &'static str,
    /// The versions this schema validates.
    pub range: VersionRange,
    /// The JSON Schema document.
    pub schema: fn() -> Value,
}

/// A set of schemas that cannot be compiled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SchemaError {
    /// Two schemas claim a common version.
    Overlap {
        /// The first schema's name.
        first: &'static str,
        /// Its range.
        first_range: VersionRange,
        /// The second schema's name.
        second: &'static str,
        /// Its range.
        second_range: VersionRange,
    },
    /// A schema is not a valid JSON Schema (or references something unreachable).
    Invalid {
        /// The schema's name.
        name: &'static str,
        /// The validator's explanation.
        message: String,
    },
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SchemaError::Overlap { first, first_range, second, second_range } => write!(
                f,
                "schemas {first:?} ({first_range}) and {second:?} ({second_range}) overlap: \
                 one version would have two schemas"
            ),
            SchemaError::Invalid { name, message } => write!(f, "schema {name:?} is invalid: {message}"),
        }
    }
}

impl std::error::Error for SchemaError {}

/// A request body or query string that breaks the schema of its version:
/// every violation (up to [`MAX_LISTED_VIOLATIONS`], the rest counted in a
/// last one). Its [`Display`](fmt::Display) is the first violation in
/// Nova's words, as the 400's detail says it.
#[derive(Clone, Debug, PartialEq)]
pub struct InvalidInput(pub Vec<Violation>);

impl fmt::Display for InvalidInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.first() {
            Some(first) => first.fmt(f),
            None => f.write_str("Invalid input."),
        }
    }
}

impl std::error::Error for InvalidInput {}

impl InvalidInput {
    /// Every violation, in the order the validator found them.
    pub fn violations(&self) -> &[Violation] {
        &self.0
    }
}

/// One compiled schema and the versions it validates.
pub struct Schema {
    name: &'static str,
    range: VersionRange,
    validator: jsonschema::Validator,
    /// The document, for the messages that name a part of it.
    document: Value,
}

impl fmt::Debug for Schema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Schema").field("name", &self.name).field("range", &self.range).finish_non_exhaustive()
    }
}

impl Schema {
    /// The declared name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The versions it validates.
    pub fn range(&self) -> VersionRange {
        self.range
    }

    /// Validates a request body: 400 listing every violation (up to
    /// [`MAX_LISTED_VIOLATIONS`]) with its keyword, JSON path, value and message.
    pub fn validate(&self, instance: &Value) -> Result<(), InvalidInput> {
        self.check(instance, Input::Body)
    }

    fn check(&self, instance: &Value, input: Input) -> Result<(), InvalidInput> {
        if self.validator.is_valid(instance) {
            return Ok(());
        }
        let mut violations = Vec::new();
        let mut more = 0usize;
        for error in self.validator.iter_errors(instance) {
            if violations.len() == MAX_LISTED_VIOLATIONS {
                more += 1;
                continue;
            }
            violations.push(self.violation(&error, input));
        }
        if more > 0 {
            violations.push(Violation::new("", "more", format!("{more} more violations")));
        }
        Err(InvalidInput(violations))
    }

    /// The violation of one failed keyword, with the alternative Python's
    /// `best_match` would report instead for an `anyOf`/`oneOf`.
    fn violation(&self, error: &jsonschema::ValidationError<'_>, input: Input) -> Violation {
        let schema_path = error.schema_path().to_string();
        let holder = self.holder(&schema_path);
        let mut violation = Violation::new(
            error.instance_path().to_string(),
            keyword_of(error),
            cut(python_message(error, holder)),
        )
        .with_value(error.instance())
        .with_schema_path(schema_path);
        violation.input = input;
        violation.cause =
            self.most_relevant_alternative(error).map(|cause| Box::new(self.violation(cause, input)));
        violation
    }

    /// The schema object holding the keyword at `schema_path` (Python's `error.schema`).
    fn holder(&self, schema_path: &str) -> Option<&Value> {
        schema_path.rsplit_once('/').and_then(|(parent, _)| self.document.pointer(parent))
    }

    /// Python's `best_match` descent into the alternatives of an
    /// `anyOf`/`oneOf`: the least relevant of their errors by its
    /// `relevance` key (the deepest, ...), unless two tie.
    fn most_relevant_alternative<'e>(
        &self,
        error: &'e jsonschema::ValidationError<'_>,
    ) -> Option<&'e jsonschema::ValidationError<'static>> {
        use jsonschema::error::ValidationErrorKind as Kind;
        let (Kind::AnyOf { context } | Kind::OneOfNotValid { context }) = error.kind() else { return None };
        let mut alternatives: Vec<_> = context.iter().flatten().map(|e| (self.relevance(e), e)).collect();
        alternatives.sort_by(|a, b| a.0.cmp(&b.0));
        match alternatives.as_slice() {
            [(first, _), (second, _), ..] if first == second => None,
            [(_, least), ..] => Some(least),
            [] => None,
        }
    }

    /// Python's `relevance` key of an error: shallower, later sibling, not
    /// `anyOf`/`oneOf`, value of the schema's type rank higher.
    fn relevance(&self, error: &jsonschema::ValidationError<'_>) -> (isize, Vec<(u64, String)>, bool, bool) {
        let path = error.instance_path().to_string();
        let segments: Vec<(u64, String)> = path
            .split('/')
            .skip(1)
            .map(|s| s.parse::<u64>().map_or_else(|_| (0, s.to_owned()), |i| (i, String::new())))
            .collect();
        let keyword = keyword_of(error);
        let holder = self.holder(&error.schema_path().to_string());
        (
            -(segments.len() as isize),
            segments,
            !matches!(keyword, "anyOf" | "oneOf"),
            !holder.is_some_and(|h| matches_type(h, error.instance())),
        )
    }
}

/// Whether `instance` has a type the schema's `type` names (Python's
/// `ValidationError._matches_type`; false without a `type`).
fn matches_type(schema: &Value, instance: &Value) -> bool {
    let is = |name: &str| match (name, instance) {
        ("integer", Value::Number(n)) => {
            n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        ("number", Value::Number(_))
        | ("string", Value::String(_))
        | ("boolean", Value::Bool(_))
        | ("null", Value::Null)
        | ("array", Value::Array(_))
        | ("object", Value::Object(_)) => true,
        _ => false,
    };
    match schema.get("type") {
        Some(Value::String(name)) => is(name),
        Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).any(is),
        _ => false,
    }
}

/// Cuts a message to [`MAX_MESSAGE_CHARS`] characters.
fn cut(message: String) -> String {
    match message.char_indices().nth(MAX_MESSAGE_CHARS) {
        Some((at, _)) => format!("{}...", &message[..at]),
        None => message,
    }
}

/// The schemas of one operation, keyed by version.
///
/// Compile once per process (a `static` with `LazyLock`, forced at
/// start-up so that an invalid schema stops the server before traffic) and
/// validate per request:
///
/// ```
/// use std::sync::LazyLock;
/// use microversion_core::{
///     Version, VersionRange, schema::{SchemaSource, VersionedSchemas},
/// };
/// use serde_json::json;
///
/// static CREATE: LazyLock<VersionedSchemas> = LazyLock::new(|| {
///     VersionedSchemas::compile(&[
///         SchemaSource {
///             name: "create_v2_1",
///             range: VersionRange::between(Version::lit("2.1"), Version::lit("2.9")),
///             schema: || json!({"type": "object", "required": ["name"]}),
///         },
///         SchemaSource {
///             name: "create_v2_10",
///             range: VersionRange::from(Version::lit("2.10")),
///             schema: || json!({"type": "object", "required": ["name", "flavor"]}),
///         },
///     ])
///     .expect("the create schemas are valid")
/// });
///
/// let body = json!({"name": "vm"});
/// assert!(CREATE.validate(Version::lit("2.9"), &body).is_ok());
/// let err = CREATE.validate(Version::lit("2.10"), &body).unwrap_err();
/// assert_eq!(err.0[0].keyword, "required");
/// assert_eq!(CREATE.schema_for(Version::lit("2.10")).unwrap().name(), "create_v2_10");
/// ```
#[derive(Debug, Default)]
pub struct VersionedSchemas {
    schemas: Vec<Schema>,
    /// Query strings are read by each schema's types ([`Self::typed_query`]).
    typed_query: bool,
}

impl VersionedSchemas {
    /// Compiles every schema; fails if two ranges overlap (naming both) or
    /// a schema is invalid (naming it). Format keywords are validated.
    /// Remote `$ref`s are never fetched: they fail here.
    pub fn compile(sources: &[SchemaSource]) -> Result<VersionedSchemas, SchemaError> {
        VersionedSchemas::compile_documents(sources.iter().map(|s| (s.name, s.range, (s.schema)())))
    }

    /// Compiles schema documents built at run time (as a versioned model
    /// derives them), each with its name and range; the ranges must not overlap.
    pub fn compile_documents(
        documents: impl IntoIterator<Item = (&'static str, VersionRange, Value)>,
    ) -> Result<VersionedSchemas, SchemaError> {
        let mut schemas: Vec<Schema> = Vec::new();
        for (name, range, document) in documents {
            if let Some(first) = schemas.iter().find(|s| s.range.overlaps(range)) {
                return Err(SchemaError::Overlap {
                    first: first.name,
                    first_range: first.range,
                    second: name,
                    second_range: range,
                });
            }
            let validator = jsonschema::options()
                .should_validate_formats(true)
                .build(&document)
                .map_err(|e| SchemaError::Invalid { name, message: e.to_string() })?;
            schemas.push(Schema { name, range, validator, document });
        }
        // Disjoint ranges ordered by their start: `schema_for` is a binary search.
        schemas.sort_by_key(|s| s.range.min());
        Ok(VersionedSchemas { schemas, typed_query: false })
    }

    /// The same schemas, reading a query string by their types, as a
    /// `schemars::JsonSchema` type describes a query
    /// (`#[schema(query_json_schema = T)]`): a key whose property is an
    /// array gets the list of its values, any other key its value; a value
    /// becomes the integer, number or boolean its property asks for, unless
    /// the property admits a string (see [`typed_query_to_json`]).
    pub fn typed_query(self) -> VersionedSchemas {
        VersionedSchemas { typed_query: true, ..self }
    }

    /// The schema validating `version`, if any.
    pub fn schema_for(&self, version: Version) -> Option<&Schema> {
        // The last schema starting at or before `version` is the only candidate.
        let after = self.schemas.partition_point(|s| s.range.min().is_none_or(|min| min <= version));
        self.schemas[..after].last().filter(|s| s.range.contains(version))
    }

    /// Every schema, ordered by the versions they validate.
    pub fn schemas(&self) -> &[Schema] {
        &self.schemas
    }

    /// Validates a request body at `version`. A version no schema covers is
    /// not validated (Nova's rule).
    pub fn validate(&self, version: Version, body: &Value) -> Result<(), InvalidInput> {
        match self.schema_for(version) {
            Some(schema) => schema.validate(body),
            None => Ok(()),
        }
    }

    /// Validates a query string at `version` the way Nova does: the query
    /// becomes an object mapping each key to the list of its values (all
    /// strings, see [`query_to_json`]), which the schema validates. Returns
    /// that object so the handler reads the query only once. Schemas made
    /// [`typed_query`](Self::typed_query) read it by their types instead.
    ///
    /// ```
    /// use microversion_core::{
    ///     Version, VersionRange, schema::{SchemaSource, VersionedSchemas},
    /// };
    /// use serde_json::json;
    ///
    /// let schemas = VersionedSchemas::compile(&[SchemaSource {
    ///     name: "list_query",
    ///     range: VersionRange::ANY,
    ///     schema: || json!({"type": "object", "properties": {
    ///         "limit": {"type": "array", "items": {"type": "string", "pattern": "^[0-9]+$"}}
    ///     }, "additionalProperties": false}),
    /// }]).unwrap();
    /// let query = schemas.validate_query(Version::lit("2.1"), "limit=10").unwrap();
    /// assert_eq!(query, json!({"limit": ["10"]}));
    /// assert!(schemas.validate_query(Version::lit("2.1"), "limit=ten").is_err());
    /// assert!(schemas.validate_query(Version::lit("2.1"), "sort=name").is_err());
    /// ```
    pub fn validate_query(&self, version: Version, query: &str) -> Result<Value, InvalidInput> {
        let Some(schema) = self.schema_for(version) else { return Ok(query_to_json(query)) };
        let value = match self.typed_query {
            true => typed_query_to_json(query, &schema.document),
            false => query_to_json(query),
        };
        schema.check(&value, Input::Query)?;
        Ok(value)
    }

    /// [`Self::validate_query`] as a facade leaves it in the request for
    /// the variant's `JsonQuery` and `Query<T>`, with how it was read.
    pub fn validated_query(
        &self,
        version: Version,
        query: &str,
    ) -> Result<crate::body::ValidatedQuery, InvalidInput> {
        let value = self.validate_query(version, query)?;
        Ok(crate::body::ValidatedQuery { value, typed: self.typed_query })
    }
}

/// The JSON Schema of a type that derives `schemars::JsonSchema`, as
/// `#[schema(json_schema = T)]` and `#[response(.., json_schema = T)]`
/// validate and describe it: draft 2020-12, the types it names written in
/// place (no `$defs` to resolve once the document is inside an OpenAPI
/// document; a recursive type keeps its own), without `$schema` (the
/// OpenAPI document names the dialect).
///
/// ```
/// #[derive(schemars::JsonSchema, serde::Deserialize)]
/// #[serde(deny_unknown_fields)]
/// struct Rename {
///     name: String,
/// }
///
/// let schema = microversion_core::schema::json_schema_of::<Rename>();
/// assert_eq!(schema["required"], serde_json::json!(["name"]));
/// assert_eq!(schema["additionalProperties"], false);
/// assert!(schema.get("$schema").is_none());
/// ```
pub fn json_schema_of<T: schemars::JsonSchema>() -> Value {
    let settings = schemars::generate::SchemaSettings::draft2020_12().with(|s| s.inline_subschemas = true);
    let mut schema = Value::from(settings.into_generator().into_root_schema_for::<T>());
    if let Some(object) = schema.as_object_mut() {
        object.remove("$schema");
    }
    schema
}

/// The schemas of one variant, compiled on first use, once per process, and
/// the versions they apply to (a model schema may be limited to some).
/// What the controller macro's expansion holds per variant, for every
/// framework.
pub struct LazySchemas {
    range: VersionRange,
    compile: fn() -> Result<VersionedSchemas, SchemaError>,
    compiled: std::sync::OnceLock<Result<VersionedSchemas, SchemaError>>,
    /// For `#[schema(model = T)]`: `T`, so that `Versioned<T>` need not validate again.
    model: Option<fn() -> std::any::TypeId>,
}

impl fmt::Debug for LazySchemas {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LazySchemas").field("range", &self.range).finish_non_exhaustive()
    }
}

impl LazySchemas {
    /// Schemas to compile on first use, applied at the versions of `range`.
    pub const fn new(
        range: VersionRange,
        compile: fn() -> Result<VersionedSchemas, SchemaError>,
    ) -> LazySchemas {
        LazySchemas { range, compile, compiled: std::sync::OnceLock::new(), model: None }
    }

    /// The derived schemas of the versioned model `T` (the type that
    /// derives `VersionedModel`), applied at the versions of `range`.
    pub const fn model<T: ?Sized + 'static>(
        range: VersionRange,
        compile: fn() -> Result<VersionedSchemas, SchemaError>,
    ) -> LazySchemas {
        LazySchemas {
            range,
            compile,
            compiled: std::sync::OnceLock::new(),
            model: Some(std::any::TypeId::of::<T>),
        }
    }

    /// The compiled set, or why it cannot be compiled.
    pub fn check(&self) -> Result<&VersionedSchemas, SchemaError> {
        self.compiled.get_or_init(self.compile).as_ref().map_err(Clone::clone)
    }

    /// Compiles now; an invalid schema stops the server at start-up with its name.
    pub fn check_at_startup(&self) {
        if let Err(e) = self.check() {
            panic!("invalid request schema: {e}");
        }
    }

    /// The compiled set if one of its schemas validates `version`, `None`
    /// if the request goes unvalidated at that version (Nova's rule).
    pub fn at(&self, version: Version) -> Result<Option<&VersionedSchemas>, SchemaError> {
        let set = self.check()?;
        Ok((self.range.contains(version) && set.schema_for(version).is_some()).then_some(set))
    }

    /// The model type whose derived schemas these are, for `#[schema(model = T)]`.
    pub fn model_type(&self) -> Option<std::any::TypeId> {
        self.model.map(|model| model())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_for_agrees_with_a_scan_over_gapped_unordered_ranges() {
        let v = |major, minor| Version::new(major, minor);
        let documents = [
            ("c", VersionRange::from(v(3, 0))),
            ("a", VersionRange::until(v(2, 2))),
            ("b", VersionRange::between(v(2, 5), v(2, 9))),
            ("d", VersionRange::only(v(2, 11))),
        ];
        let set =
            VersionedSchemas::compile_documents(documents.iter().map(|(n, r)| (*n, *r, json!({})))).unwrap();
        for major in 1..=4 {
            for minor in 0..=12 {
                let by_scan = documents.iter().find(|(_, r)| r.contains(v(major, minor))).map(|(n, _)| *n);
                assert_eq!(set.schema_for(v(major, minor)).map(Schema::name), by_scan, "{major}.{minor}");
            }
        }
    }
    use serde_json::json;

    #[test]
    fn long_messages_are_cut_at_a_char_boundary() {
        let cutted = cut("é".repeat(5000));
        assert_eq!(cutted.chars().count(), MAX_MESSAGE_CHARS + 3);
        assert!(cutted.ends_with("..."));
        assert_eq!(cut("short".into()), "short");
    }

    #[test]
    fn many_violations_are_counted_not_listed() {
        let schemas = VersionedSchemas::compile(&[SchemaSource {
            name: "ints",
            range: VersionRange::ANY,
            schema: || json!({"type": "array", "items": {"type": "integer"}}),
        }])
        .unwrap();
        let body = Value::Array(vec![json!("x"); 80]);
        let err = schemas.validate(Version::new(2, 1), &body).unwrap_err();
        assert_eq!(err.0.len(), MAX_LISTED_VIOLATIONS + 1);
        assert_eq!(err.0.last().unwrap().message, "30 more violations");
    }
}
