//! The API described: OpenAPI 3.1 documents built from the same declarations
//! the dispatch is built from (docs/reference.md §14).
//!
//! - [`ApiDescription::document`]: one document per version, with exactly
//!   the operations, parameters, bodies and responses live at that version;
//! - [`ApiDescription::history_document`]: one document for the whole
//!   history in OpenStack's encoding (`x-openstack` `min-ver`/`max-ver`,
//!   per-version bodies as `oneOf` discriminated by microversion), the one
//!   OpenStack's SDK and CLI generators read;
//! - [`Documents`]: each document rendered once, on first use, with its
//!   entity tag, and the answer to `?version=`;
//! - [`OpenApiSettings`]: what a service serves of them (the reference
//!   pages, the error format), which each facade's `OpenApiService` serves;
//! - [`ApiDescription::document_3_0`] and [`to_openapi_3_0`]: the same
//!   documents in OpenAPI 3.0.3, for the tools that read no 3.1, saying
//!   less (never more) where 3.0 cannot say a thing, with a note;
//! - [`check_released`]: fails when the document of a released version
//!   changes, against committed copies.
//!
//! Documents are plain `serde_json` values: the schemas the service declares
//! are JSON Schema documents already, and a typed OpenAPI model would have to
//! carry every keyword they use (`patternProperties`, `oneOf`, formats,
//! look-around patterns) through types of its own.

mod changes;
mod changes_page;
mod documents;
mod examples;
mod history;
mod reference;
mod released;
mod service;
mod v3_0;

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

pub use changes::{Change, classify_changes};
pub use documents::{
    DOCUMENT_CACHE_CONTROL, DocumentAnswer, DocumentRefusal, DocumentRequest, Documents, RenderedDocument,
    requested_version,
};
pub use examples::ExampleCase;
pub use released::{
    BLESS_DOCUMENTATION, BLESS_VARIABLE, OpenApiVersion, check_released, check_released_as,
    check_released_blessing,
};
pub use service::{OpenApiSettings, ServedDocuments};
pub use v3_0::{CONVERSION_NOTE, OPENAPI_3_0, to_openapi_3_0};

use crate::{
    Api, Controller, ErrorFormat, Version, error::ApiSigErrors, header::STANDARD_HEADER,
    operation::Operation, operation::OperationVariant, version::VersionReader,
};

/// Everything the documents of one API are built from: its declaration, its
/// controllers' operations, where they are mounted and its error format.
///
/// Built from controllers (`controller::<Servers>()`, as the facades'
/// guides show) or from operations listed by hand:
///
/// ```
/// use microversion_core::openapi::ApiDescription;
/// use microversion_core::{
///     Api, Microversion, error::NovaFaults, operation::Operation, operation::OperationVariant, operation::SchemaDescription, operation::SchemaDocument, Version,
///     VersionRange,
/// };
/// use serde_json::{Value, json};
///
/// const API: Api = Api::new("compute", &[Microversion::new("2.1", "Initial."), Microversion::new("2.2", "Renames.")]);
///
/// fn rename() -> Value {
///     json!({"type": "object", "required": ["name"]})
/// }
///
/// static RENAME: [Operation; 1] = [Operation {
///     name: "rename",
///     http_method: Some("PUT"),
///     path: Some("/servers/{id}"),
///     variants: &[OperationVariant {
///         range: VersionRange::from(Version::new(2, 2)),
///         schemas: &[SchemaDescription { name: "rename", range: VersionRange::ANY, document: SchemaDocument::Fixed(rename) }],
///         query_schemas: &[],
///         response: None,
///         errors: &[404, 409],
///         deprecation: None,
///         doc: "",
///         changes: &[], examples: &[],
///     }],
///     missing_status: 404,
/// }];
///
/// let description = ApiDescription::new(API).with_prefix("/v2.1").with_operations(&RENAME).with_error_format(&NovaFaults::default());
/// assert_eq!(description.document(Version::lit("2.1"))["paths"], json!({}));
/// let at_2_2 = description.document(Version::lit("2.2"));
/// assert_eq!(at_2_2["info"]["version"], "2.2");
/// assert!(at_2_2["paths"]["/v2.1/servers/{id}"]["put"]["requestBody"].is_object());
/// ```
#[derive(Clone, Debug)]
pub struct ApiDescription {
    api: Api,
    title: String,
    prefix: String,
    operations: Vec<&'static Operation>,
    error_schema: Value,
}

impl ApiDescription {
    /// The description of `api`, titled after its service type, with no
    /// operations yet and API-SIG error bodies.
    pub fn new(api: Api) -> ApiDescription {
        ApiDescription {
            api,
            title: format!("OpenStack {} API", api.service_type()),
            prefix: version_segment(&api),
            operations: Vec::new(),
            error_schema: ApiSigErrors.schema(),
        }
    }

    /// The document's title.
    pub fn with_title(mut self, title: impl Into<String>) -> ApiDescription {
        self.title = title.into();
        self
    }

    /// The path the controllers are mounted under (`/v2.1`).
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> ApiDescription {
        self.prefix = crate::discovery::path_prefix(&prefix.into()) + &version_segment(&self.api);
        self
    }

    /// Adds the operations of a controller.
    pub fn controller<C: Controller>(self) -> ApiDescription {
        self.with_operations(C::OPERATIONS)
    }

    /// Adds operations listed by hand.
    pub fn with_operations(mut self, operations: &'static [Operation]) -> ApiDescription {
        self.operations.extend(operations.iter().filter(|op| op.http_method.is_some()));
        self
    }

    /// Describes error bodies with the schema of `format`.
    pub fn with_error_format(mut self, format: &dyn ErrorFormat) -> ApiDescription {
        self.error_schema = format.schema();
        self
    }

    /// Describes error bodies with `schema`, a JSON Schema (for an error
    /// format of a facade's own, `ErrorFormat::schema`).
    pub fn with_error_schema(mut self, schema: Value) -> ApiDescription {
        self.error_schema = schema;
        self
    }

    /// The declaration described.
    pub fn api(&self) -> &Api {
        &self.api
    }

    /// The operations described, in the order they were added.
    pub fn operations(&self) -> &[&'static Operation] {
        &self.operations
    }

    /// The versions a document is built for: every served version.
    pub fn versions(&self) -> impl Iterator<Item = Version> + '_ {
        self.api.served_versions()
    }

    /// The version changes made at `version` (docs/reference.md §4.10),
    /// each once, with the operations that go through it (`POST /widgets`),
    /// in the order the operations and their changes are declared.
    pub fn version_changes_at(&self, version: Version) -> Vec<(crate::change::ChangeNote, Vec<String>)> {
        let mut found: Vec<(crate::change::ChangeNote, Vec<String>)> = Vec::new();
        for op in &self.operations {
            let (path, method) = self.route(op);
            let named = format!("{method} {path}");
            let notes = op.variants.iter().flat_map(|v| v.changes).filter(|note| note.version == version);
            for note in notes {
                match found.iter_mut().find(|(seen, _)| seen.name == note.name) {
                    Some((_, operations)) if !operations.contains(&named) => operations.push(named.clone()),
                    Some(_) => {}
                    None => found.push((*note, vec![named.clone()])),
                }
            }
        }
        found
    }

    /// The OpenAPI 3.1 document of `version`: the operations live at it,
    /// each with the parameters, body and responses of the variant serving
    /// it, the version header a request sends and the headers it gets back.
    pub fn document(&self, version: Version) -> Value {
        let mut paths = Map::new();
        for op in &self.operations {
            let Some(variant) = op.variant_at(version) else { continue };
            let (path, method) = self.route(op);
            let item = paths.entry(path.clone()).or_insert_with(|| json!({}));
            item[method.to_ascii_lowercase()] = self.operation_at(op, variant, version, &path);
        }
        json!({
            "openapi": "3.1.0",
            "info": {"title": self.title, "version": version.to_string()},
            "paths": paths,
            "components": self.components(version),
        })
    }

    /// The document of `version` in OpenAPI 3.0.3: [`ApiDescription::document`]
    /// converted by [`to_openapi_3_0`].
    pub fn document_3_0(&self, version: Version) -> Value {
        to_openapi_3_0(&self.document(version))
    }

    /// The full path and HTTP method of a route operation.
    fn route(&self, op: &Operation) -> (String, &'static str) {
        (format!("{}{}", self.prefix, op.path.unwrap_or_default()), op.http_method.unwrap_or("GET"))
    }

    fn operation_at(
        &self,
        op: &Operation,
        variant: &OperationVariant,
        version: Version,
        path: &str,
    ) -> Value {
        let mut parameters = path_parameters(path);
        if let Some(query) = variant.query_schema_at(version) {
            parameters.extend(query_parameters(&query.document.at(version), query.reads_typed_values()));
        }
        parameters.extend(version_parameter_refs(&self.api));
        let mut operation = json!({
            "operationId": operation_id(path, &self.prefix, op.http_method.unwrap_or("GET")),
            "parameters": parameters,
            "responses": self.responses_at(op, variant, version),
        });
        describe(&mut operation, op.name, op.doc_at(version));
        if variant.deprecation.is_some_and(|deprecation| deprecation.covers(version)) {
            operation["deprecated"] = json!(true);
        }
        if let Some(body) = variant.schema_at(version) {
            operation["requestBody"] = json!({
                "required": true,
                "content": {"application/json": {"schema": body.document.at(version)}},
            });
        }
        // An example is shown beside a schema: without one, the operation
        // describes no body to show it in.
        let request = variant.example_at(version).and_then(|e| e.request).and_then(parsed_example);
        if let (Some(request), Some(content)) =
            (request, operation.pointer_mut("/requestBody/content/application~1json"))
        {
            content["example"] = request;
        }
        operation
    }

    /// The success response the variant declares (or any 2xx), and each
    /// error status the operation answers at `version`
    /// ([`ApiDescription::error_statuses`]), in the API's error format.
    fn responses_at(&self, op: &Operation, variant: &OperationVariant, version: Version) -> Value {
        let headers = json!({
            STANDARD_HEADER: {"$ref": "#/components/headers/OpenStackApiVersion"},
            "Vary": {"$ref": "#/components/headers/Vary"},
        });
        let mut success = json!({"description": format!("`{}` succeeded.", op.name), "headers": headers});
        let status = match variant.response {
            Some(response) => {
                if let Some(body) = response.body {
                    success["content"] = json!({"application/json": {"schema": body.at(version)}});
                }
                response.status.to_string()
            }
            None => "2XX".to_owned(),
        };
        let answer = variant.example_at(version).and_then(|e| e.response).and_then(parsed_example);
        if let (Some(answer), Some(content)) = (answer, success.pointer_mut("/content/application~1json")) {
            content["example"] = answer;
        }
        let mut responses = Map::new();
        responses.insert(status, success);
        for (status, reasons) in self.error_statuses(op, variant, version) {
            let mut error = error_response(status, &reasons);
            error["headers"] = headers.clone();
            responses.insert(status.to_string(), error);
        }
        Value::Object(responses)
    }

    /// The error statuses `op` answers at `version`, served by `variant`,
    /// each with why: those the framework answers for every operation
    /// (400 and 406 for the version header, 500), the operation's miss
    /// status when some declared version has no variant (a client that
    /// sends no version gets the oldest), 400, 408, 413 and 415 when a body
    /// schema applies, 400 when a query schema applies, and the variant's
    /// own `#[errors(...)]`.
    pub fn error_statuses(
        &self,
        op: &Operation,
        variant: &OperationVariant,
        version: Version,
    ) -> BTreeMap<u16, Vec<&'static str>> {
        let mut statuses: BTreeMap<u16, Vec<&'static str>> = BTreeMap::new();
        let mut add = |status: u16, why: &'static str| {
            let reasons = statuses.entry(status).or_default();
            if !reasons.contains(&why) {
                reasons.push(why);
            }
        };
        add(400, "The version asked for is malformed.");
        if variant.schema_at(version).is_some() {
            add(400, "The body is not JSON or breaks the schema of the version.");
            add(408, "The body was not received in time.");
            add(413, "The body is larger than the limit.");
            add(415, "The body is not JSON (`Content-Type`).");
        }
        if variant.query_schema_at(version).is_some() {
            add(400, "The query string breaks the schema of the version.");
        }
        add(406, "The version asked for is not served.");
        let versions = self.api.history().iter().map(|m| m.version);
        if versions.clone().any(|v| op.variant_at(v).is_none()) {
            add(
                op.missing_status,
                "The version asked for (the oldest, when none is) does not have the operation.",
            );
        }
        add(500, "The server erred.");
        for status in variant.errors {
            add(*status, "Declared by the operation.");
        }
        statuses
    }

    fn components(&self, version: Version) -> Value {
        let service_version = format!("{} {version}", self.api.service_type());
        json!({
            "schemas": {"Error": self.error_schema},
            "parameters": version_parameters(&self.api, version),
            "headers": {
                "OpenStackApiVersion": {
                    "description": "The microversion the request was served at.",
                    "schema": {"type": "string", "enum": [service_version]},
                },
                "Vary": {
                    "description": "Names the version headers: a cache keeps one answer per version.",
                    "schema": {"type": "string"},
                },
            },
        })
    }
}

/// The segment a path begins with when `api` reads its version there
/// ([`VersionReader::PathSegment`]): `/v{api_version}`, a parameter of
/// each operation; empty otherwise.
fn version_segment(api: &Api) -> String {
    let prefix = api.readers().iter().find_map(|reader| match reader {
        VersionReader::PathSegment(prefix) => Some(prefix),
        _ => None,
    });
    prefix.map(|prefix| format!("/{prefix}{{api_version}}")).unwrap_or_default()
}

/// The key of the parameter each reader of a version is, in the
/// documents' `components.parameters`: `OpenStackApiVersion` for the
/// standard header, the same followed by where for the others.
fn version_parameter_key(reader: VersionReader) -> String {
    match reader {
        VersionReader::Standard => "OpenStackApiVersion".to_owned(),
        VersionReader::Header(name) => format!("OpenStackApiVersion.header.{name}"),
        VersionReader::Query(name) => format!("OpenStackApiVersion.query.{name}"),
        VersionReader::MediaType(param) => format!("OpenStackApiVersion.accept.{param}"),
        VersionReader::PathSegment(_) => "OpenStackApiVersion.path".to_owned(),
    }
}

/// What each operation of `api` refers to: a parameter per reader.
fn version_parameter_refs(api: &Api) -> impl Iterator<Item = Value> + '_ {
    let reference =
        |reader| json!({"$ref": format!("#/components/parameters/{}", version_parameter_key(reader))});
    api.readers().iter().map(move |reader| reference(*reader))
}

/// The parameters a request at `version` names it with, one per reader
/// of `api` (docs/reference.md §2.6), each with the one value that names
/// `version` there; required when the API requires a version and reads it
/// in one place, or when it is the path.
fn version_parameters(api: &Api, version: Version) -> Value {
    let alone = api.version_required() && api.readers().len() == 1;
    let optional = if api.version_required() {
        "The microversion asked for; a request names it in one of the places the API reads it."
    } else {
        "The microversion asked for; without it the request gets the API's default version."
    };
    let parameter = |reader: VersionReader| {
        let (name, place, value) = match reader {
            VersionReader::Standard => {
                (STANDARD_HEADER, "header", format!("{} {version}", api.service_type()))
            }
            VersionReader::Header(name) => (name, "header", version.to_string()),
            VersionReader::Query(name) => (name, "query", version.to_string()),
            VersionReader::MediaType(param) => {
                ("Accept", "header", format!("application/json; {param}={version}"))
            }
            VersionReader::PathSegment(_) => ("api_version", "path", version.to_string()),
        };
        let required = alone || place == "path";
        let mut parameter = json!({"name": name, "in": place, "description": optional, "schema": {"type": "string", "enum": [value]}});
        if required {
            parameter["required"] = json!(true);
            parameter["description"] = json!("The microversion asked for.");
        }
        (version_parameter_key(reader), parameter)
    };
    Value::Object(api.readers().iter().map(|reader| parameter(*reader)).collect())
}

/// An operation's `summary` and `description` from its doc comments
/// ([`Operation::doc_at`]): the first paragraph and the rest; the summary
/// is the operation's name when it has no doc.
fn describe(operation: &mut Value, name: &str, doc: &str) {
    let (summary, description) = crate::operation::split_doc(doc);
    operation["summary"] = json!(if summary.is_empty() { name } else { summary.as_str() });
    if !description.is_empty() {
        operation["description"] = json!(description);
    }
}

/// An error answer with the API's error body: the status's reason, then why.
fn error_response(status: u16, reasons: &[&str]) -> Value {
    let reason =
        http::StatusCode::from_u16(status).ok().and_then(|s| s.canonical_reason()).unwrap_or("Error");
    json!({
        "description": format!("{reason}: {}", reasons.join(" ")),
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    })
}

/// `flavors/id:put` for `PUT /v2.1/flavors/{id}`, as OpenStack's specs name operations.
fn operation_id(path: &str, prefix: &str, method: &str) -> String {
    let relative = path.strip_prefix(prefix).unwrap_or(path).trim_matches('/');
    let segments: Vec<String> = relative
        .split('/')
        .filter(|s| !s.is_empty())
        .map(|s| parameter_name(s).map_or_else(|| s.to_owned(), str::to_owned))
        .collect();
    format!("{}:{}", segments.join("/"), method.to_ascii_lowercase())
}

/// The name of a `{name}` or `{name:regex}` path segment.
fn parameter_name(segment: &str) -> Option<&str> {
    let inner = segment.strip_prefix('{')?.strip_suffix('}')?;
    Some(inner.split(':').next().unwrap_or(inner))
}

/// The parameters of the `{name}` segments of `path`: a string of at
/// least one character (an empty segment matches no route), matching the
/// segment's own pattern when it has one (`{id:[0-9]+}`).
fn path_parameters(path: &str) -> Vec<Value> {
    path.split('/')
        .filter_map(|segment| {
            let name = parameter_name(segment)?;
            let mut schema = json!({"type": "string", "minLength": 1});
            if let Some(pattern) = parameter_pattern(segment) {
                schema["pattern"] = json!(format!("^(?:{pattern})$"));
            }
            Some(json!({"name": name, "in": "path", "required": true, "schema": schema}))
        })
        .collect()
}

/// One value of a key of a query read as text (Nova's form, every value
/// a string in a list): the property's `items`, since the validator sees
/// the list of every value given while a handler reads one. A value whose
/// type names another beside `string` is that type, carried as text (Nova's
/// `non_negative_integer` is `["integer", "string"]` with a digits
/// `pattern`): it is described as that type, without the keywords of its
/// text (`pattern`, `minLength`, `maxLength`).
///
/// ```text
/// {"type": "array", "items": {"type": ["integer", "string"], "pattern": "^[0-9]*$", "minimum": 0}}
///   is described as {"type": "integer", "minimum": 0}
/// ```
fn text_value(property: &Value) -> Value {
    let mut value = match &property["items"] {
        items @ Value::Object(_) if property["type"] == "array" => items.clone(),
        _ => property.clone(),
    };
    let kinds: Vec<&str> = value["type"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    let carried: Vec<&str> = kinds.iter().copied().filter(|kind| *kind != "string").collect();
    let scalar = carried.iter().all(|kind| matches!(*kind, "integer" | "number" | "boolean" | "null"));
    if kinds.contains(&"string") && !carried.is_empty() && scalar {
        value["type"] = match carried.as_slice() {
            [one] => json!(one),
            several => json!(several),
        };
        if let Some(object) = value.as_object_mut() {
            for keyword in ["pattern", "minLength", "maxLength"] {
                object.remove(keyword);
            }
        }
    }
    value
}

/// The pattern of a `{name:regex}` path segment.
fn parameter_pattern(segment: &str) -> Option<&str> {
    let inner = segment.strip_prefix('{')?.strip_suffix('}')?;
    inner.split_once(':').map(|(_, pattern)| pattern)
}

/// Query parameters from a query schema: each property of the object a
/// query string is validated as. A typed query's property is its
/// parameter's schema (an array where the key repeats); a query read as
/// text ([`text_value`]) has each key's values in a list, and its
/// parameter is one value, as the handler reads it.
fn query_parameters(schema: &Value, typed: bool) -> Vec<Value> {
    let required: Vec<&str> = schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(properties) = schema["properties"].as_object() else { return Vec::new() };
    // By name: the document is the same whatever order serde_json keeps
    // object keys in (its `preserve_order` feature may be on in the build).
    let mut properties: Vec<(&String, &Value)> = properties.iter().collect();
    properties.sort_by_key(|(name, _)| *name);
    properties
        .into_iter()
        .map(|(name, property)| {
            let mut parameter = json!({
                "name": name,
                "in": "query",
                "required": required.contains(&name.as_str()),
                "style": "form",
                "explode": true,
                "schema": if typed { property.clone() } else { text_value(property) },
            });
            let description =
                property["description"].as_str().or_else(|| property["items"]["description"].as_str());
            if let Some(description) = description {
                parameter["description"] = json!(description);
            }
            parameter
        })
        .collect()
}

/// An example's body as the documents show it; one that is not JSON is
/// left out here, and refused by the check of the examples
/// ([`crate::operation::Example`]).
fn parsed_example(text: &str) -> Option<Value> {
    serde_json::from_str(text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operation_ids_read_like_openstacks() {
        assert_eq!(operation_id("/v2.1/flavors/{id}", "/v2.1", "PUT"), "flavors/id:put");
        assert_eq!(operation_id("/v2.1/flavors/detail", "/v2.1", "GET"), "flavors/detail:get");
        assert_eq!(operation_id("/os-keypairs/{name:[a-z]+}", "", "DELETE"), "os-keypairs/name:delete");
    }

    const API: Api =
        Api::new("compute", &[crate::Microversion::new("2.1", "a"), crate::Microversion::new("2.2", "b")]);

    fn body() -> Value {
        json!({"type": "object"})
    }

    fn statuses(op: &Operation, version: &str) -> Vec<u16> {
        let version: Version = version.parse().unwrap();
        let variant = op.variant_at(version).unwrap();
        ApiDescription::new(API).error_statuses(op, variant, version).into_keys().collect()
    }

    const PLAIN: OperationVariant = OperationVariant {
        range: crate::VersionRange::ANY,
        schemas: &[],
        query_schemas: &[],
        response: None,
        errors: &[],
        deprecation: None,
        doc: "",
        changes: &[],
        examples: &[],
    };

    const BODY: &[crate::operation::SchemaDescription] = &[crate::operation::SchemaDescription {
        name: "body",
        range: crate::VersionRange::ANY,
        document: crate::operation::SchemaDocument::Fixed(body),
    }];

    /// At every version, declaring 404.
    const SHOW: &[Operation] = &[Operation {
        name: "show",
        http_method: Some("GET"),
        path: Some("/servers/{id}"),
        variants: &[OperationVariant { errors: &[404], ..PLAIN }],
        missing_status: 404,
    }];

    /// From 2.2, with a body schema, declaring 400 and 409; 405 before 2.2.
    const UPDATE: &[Operation] = &[Operation {
        name: "update",
        http_method: Some("PUT"),
        path: Some("/servers/{id}"),
        variants: &[OperationVariant {
            range: crate::VersionRange::from(Version::lit("2.2")),
            schemas: BODY,
            errors: &[400, 409],
            ..PLAIN
        }],
        missing_status: 405,
    }];

    #[test]
    fn error_statuses_are_the_frameworks_and_the_declared() {
        // The version header and the server's own failure; 404 because declared.
        assert_eq!(statuses(&SHOW[0], "2.1"), [400, 404, 406, 500]);
        // The miss status of 2.1, which has no update; a body schema brings
        // 408, 413 and 415; a declared status is listed once.
        assert_eq!(statuses(&UPDATE[0], "2.2"), [400, 405, 406, 408, 409, 413, 415, 500]);
        let history = ApiDescription::new(API).with_operations(UPDATE).history_document();
        let responses = &history["paths"]["/servers/{id}"]["put"]["responses"];
        assert!(responses.get("4XX").is_none(), "{responses}");
        assert_eq!(
            responses["409"]["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/Error"
        );
        assert!(
            responses["405"]["description"].as_str().is_some_and(|d| d.starts_with("Method Not Allowed"))
        );
    }

    #[test]
    fn path_parameters_are_never_empty_and_keep_their_pattern() {
        let parameters = path_parameters("/servers/{id:[0-9]+}/tags/{tag}");
        assert_eq!(
            parameters[0]["schema"],
            json!({"type": "string", "minLength": 1, "pattern": "^(?:[0-9]+)$"})
        );
        assert_eq!(parameters[1]["schema"], json!({"type": "string", "minLength": 1}));
    }

    #[test]
    fn query_schemas_become_parameters() {
        let schema = json!({"type": "object", "required": ["a"], "properties": {
            "a": {"type": "array", "items": {"type": "string"}, "description": "The a."},
            "b": {"type": "array", "items": {"description": "One b."}}
        }});
        let parameters = query_parameters(&schema, false);
        assert_eq!(parameters.len(), 2);
        assert_eq!(
            (parameters[0]["name"].as_str(), parameters[0]["required"].as_bool()),
            (Some("a"), Some(true))
        );
        assert_eq!(parameters[1]["in"], "query");
        assert_eq!(
            (parameters[0]["description"].as_str(), parameters[1]["description"].as_str()),
            (Some("The a."), Some("One b."))
        );
        assert_eq!(path_parameters("/x/{id}/y/{key:.*}").len(), 2);
    }

    #[test]
    fn a_query_read_as_text_is_described_by_the_value_a_handler_reads() {
        let schema = json!({"type": "object", "properties": {
            "limit": {"type": "array", "items": {"type": ["integer", "string"], "pattern": "^[0-9]*$", "minimum": 0}},
            "minRam": {"type": "array", "items": {"type": ["integer", "string"]}},
            "marker": {"type": "array", "items": {"type": "string"}},
            "sort_dir": {"type": "array", "items": {"type": "string", "enum": ["asc", "desc"]}},
        }});
        let described: BTreeMap<String, Value> = query_parameters(&schema, false)
            .into_iter()
            .map(|p| (p["name"].as_str().unwrap_or_default().to_owned(), p["schema"].clone()))
            .collect();
        assert_eq!(described["limit"], json!({"type": "integer", "minimum": 0}));
        assert_eq!(described["minRam"], json!({"type": "integer"}));
        assert_eq!(described["marker"], json!({"type": "string"}));
        assert_eq!(described["sort_dir"], json!({"type": "string", "enum": ["asc", "desc"]}));
        // A typed query's arrays are keys that repeat: described as they are.
        let typed =
            json!({"type": "object", "properties": {"tag": {"type": "array", "items": {"type": "string"}}}});
        assert_eq!(query_parameters(&typed, true)[0]["schema"]["type"], "array");
    }
}
