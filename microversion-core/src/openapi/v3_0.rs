//! OpenAPI 3.0.3 beside 3.1: the same document in the dialect older tools
//! read (docs/reference.md §14.7).
//!
//! 3.1 schemas are JSON Schema 2020-12; 3.0's are a subset with an
//! extension or two. Most of the difference is spelling and converts
//! exactly:
//!
//! | 3.1 | 3.0.3 |
//! | --- | --- |
//! | `"type": ["string", "null"]` | `"type": "string", "nullable": true` |
//! | `"type": ["integer", "string"]` (with per-type keywords) | `anyOf` of one branch per type, each with its own keywords and `enum` values (and `null`, when the array has it, in the first branch only, so the branches stay exclusive) |
//! | `anyOf: [{...}, {"type": "null"}]` | the other branches, the first typed one `nullable` |
//! | `"exclusiveMinimum": 0` | `"minimum": 0, "exclusiveMinimum": true` (the same for maximum) |
//! | `"const": v` | `"enum": [v]` |
//! | `"examples": [a, ...]` | `"example": a` (all of them in `x-examples`) |
//! | `$ref` with sibling keywords | `allOf: [{"$ref"}]` with the siblings |
//! | `true` / `false` schema | `{}` / `{"not": {}}` |
//! | a string `enum` of values that differ only in case | the `pattern` of exactly those values (listed in `x-enum`), which code generators naming one identifier per value can read |
//!
//! What 3.0 cannot say is loosened, never tightened: a 3.0 document accepts
//! at least every request the server accepts, and the 3.1 keyword is kept in
//! an `x-` extension of the same name (`x-patternProperties`, `x-prefixItems`,
//! `x-if`, ...). `patternProperties` beside `additionalProperties: false`
//! becomes `additionalProperties` of the pattern's schema (any name, the
//! pattern's values), not "no properties". Each loosened place is listed, as
//! a JSON pointer into the 3.0 document, in the root's `x-openapi-3.1`
//! note, with the version the document was converted from.

use serde_json::{Map, Value, json};

/// The OpenAPI version the converted documents declare.
pub const OPENAPI_3_0: &str = "3.0.3";

/// The name of the root extension that says a document was converted and
/// lists where it says less than the 3.1 original.
pub const CONVERSION_NOTE: &str = "x-openapi-3.1";

/// JSON Schema 2020-12 keywords 3.0 has no spelling for: dropped (which
/// loosens the schema) and kept as `x-<keyword>`.
const UNSUPPORTED: &[&str] = &[
    "prefixItems",
    "if",
    "then",
    "else",
    "dependentSchemas",
    "dependentRequired",
    "unevaluatedProperties",
    "unevaluatedItems",
    "propertyNames",
    "contains",
    "minContains",
    "maxContains",
    "contentMediaType",
    "contentEncoding",
    "contentSchema",
    "$defs",
    "$id",
    "$schema",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$comment",
];

/// Of those, the ones that constrain nothing: moved without a note.
const ANNOTATIONS: &[&str] =
    &["jsonSchemaDialect", "contentMediaType", "contentEncoding", "$id", "$schema", "$anchor", "$comment"];

/// Keywords that constrain only instances of one JSON type: with a type
/// array they go into that type's `anyOf` branch.
const STRING_KEYWORDS: &[&str] = &["minLength", "maxLength", "pattern", "format"];
const NUMBER_KEYWORDS: &[&str] =
    &["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"];
const ARRAY_KEYWORDS: &[&str] = &["items", "minItems", "maxItems", "uniqueItems"];
const OBJECT_KEYWORDS: &[&str] = &[
    "properties",
    "required",
    "additionalProperties",
    "minProperties",
    "maxProperties",
    "x-patternProperties",
    "x-additionalProperties",
];

/// The OpenAPI 3.0.3 document that says what the 3.1 document `document`
/// says, as far as 3.0 can (the table in this module's documentation), and
/// less where it cannot, never more: each such place keeps the 3.1 keyword
/// in an `x-` extension and is listed in the root's [`CONVERSION_NOTE`].
///
/// Any JSON value is taken: what is not an OpenAPI document comes back with
/// `openapi` set and otherwise as it was.
///
/// ```
/// use microversion_core::openapi::to_openapi_3_0;
/// use serde_json::json;
///
/// let v3_1 = json!({"openapi": "3.1.0", "info": {"title": "t", "version": "2.1"}, "paths": {},
///     "components": {"schemas": {"Name": {"type": ["string", "null"], "maxLength": 255}}}});
/// let v3_0 = to_openapi_3_0(&v3_1);
/// assert_eq!(v3_0["openapi"], "3.0.3");
/// assert_eq!(
///     v3_0["components"]["schemas"]["Name"],
///     json!({"type": "string", "nullable": true, "maxLength": 255})
/// );
/// ```
pub fn to_openapi_3_0(document: &Value) -> Value {
    let mut converter = Converter { loosened: Vec::new() };
    let mut out = document.clone();
    let from = document.get("openapi").cloned().unwrap_or(Value::Null);
    let Some(root) = out.as_object_mut() else { return out };
    root.insert("openapi".into(), json!(OPENAPI_3_0));
    root.entry("paths").or_insert_with(|| json!({}));
    for keyword in ["webhooks", "jsonSchemaDialect"] {
        converter.move_to_extension(root, keyword, "");
    }
    if let Some(info) = root.get_mut("info").and_then(Value::as_object_mut) {
        if let Some(summary) = info.remove("summary") {
            info.insert("x-summary".into(), summary);
        }
        if let Some(license) = info.get_mut("license").and_then(Value::as_object_mut)
            && let Some(identifier) = license.remove("identifier")
        {
            license.insert("x-identifier".into(), identifier);
        }
    }
    if let Some(paths) = root.get_mut("paths").and_then(Value::as_object_mut) {
        for (path, item) in paths.iter_mut() {
            converter.path_item(item, &format!("/paths/{}", escape(path)));
        }
    }
    if let Some(components) = root.get_mut("components").and_then(Value::as_object_mut) {
        converter.move_to_extension(components, "pathItems", "/components");
        converter.components(components);
    }
    // In pointer order, not the walk's: the walk follows the maps' order,
    // which serde_json's `preserve_order` (on in any build that unifies
    // it) changes, and a frozen document must not depend on the build.
    converter.loosened.sort();
    let mut note = Map::new();
    note.insert("converted-from".into(), from);
    note.insert("loosened".into(), json!(converter.loosened));
    root.insert(CONVERSION_NOTE.into(), Value::Object(note));
    out
}

/// A JSON pointer's escaping of one key.
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

struct Converter {
    /// Where the 3.0 document says less than the 3.1 one.
    loosened: Vec<String>,
}

impl Converter {
    /// Moves `keyword` of `object` to `x-keyword`, noting `pointer` as loosened.
    /// Moves `keyword` of the object at `pointer` to `x-keyword`, noting it
    /// as loosened unless it is an annotation.
    fn move_to_extension(&mut self, object: &mut Map<String, Value>, keyword: &str, pointer: &str) {
        if let Some(value) = object.remove(keyword) {
            let extension = format!("x-{keyword}");
            if !ANNOTATIONS.contains(&keyword) {
                self.loosened.push(format!("{pointer}/{}", escape(&extension)));
            }
            object.insert(extension, value);
        }
    }

    fn components(&mut self, components: &mut Map<String, Value>) {
        if let Some(schemas) = components.get_mut("schemas").and_then(Value::as_object_mut) {
            for (name, schema) in schemas.iter_mut() {
                self.schema(schema, &format!("/components/schemas/{}", escape(name)));
            }
        }
        for (kind, convert) in [
            ("parameters", Converter::parameter as fn(&mut Converter, &mut Value, &str)),
            ("headers", Converter::parameter),
            ("responses", Converter::response),
            ("requestBodies", Converter::request_body),
        ] {
            if let Some(entries) = components.get_mut(kind).and_then(Value::as_object_mut) {
                for (name, entry) in entries.iter_mut() {
                    convert(self, entry, &format!("/components/{kind}/{}", escape(name)));
                }
            }
        }
    }

    fn path_item(&mut self, item: &mut Value, pointer: &str) {
        let Some(item) = item.as_object_mut() else { return };
        for (key, value) in item.iter_mut() {
            let here = format!("{pointer}/{}", escape(key));
            match key.as_str() {
                "parameters" => self.each(value, &here, Converter::parameter),
                "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace" => {
                    self.operation(value, &here)
                }
                _ => {}
            }
        }
    }

    fn each(&mut self, list: &mut Value, pointer: &str, convert: fn(&mut Converter, &mut Value, &str)) {
        if let Some(list) = list.as_array_mut() {
            for (i, entry) in list.iter_mut().enumerate() {
                convert(self, entry, &format!("{pointer}/{i}"));
            }
        }
    }

    fn operation(&mut self, operation: &mut Value, pointer: &str) {
        let Some(operation) = operation.as_object_mut() else { return };
        for (key, value) in operation.iter_mut() {
            let here = format!("{pointer}/{}", escape(key));
            match key.as_str() {
                "parameters" => self.each(value, &here, Converter::parameter),
                "requestBody" => self.request_body(value, &here),
                "responses" => {
                    if let Some(responses) = value.as_object_mut() {
                        for (status, response) in responses.iter_mut() {
                            self.response(response, &format!("{here}/{}", escape(status)));
                        }
                    }
                }
                "callbacks" => {
                    if let Some(callbacks) = value.as_object_mut() {
                        for (name, callback) in callbacks.iter_mut() {
                            let Some(callback) = callback.as_object_mut() else { continue };
                            for (expression, item) in callback.iter_mut() {
                                let at = format!("{here}/{}/{}", escape(name), escape(expression));
                                self.path_item(item, &at);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// A parameter or a header: its schema, or its content's.
    fn parameter(&mut self, parameter: &mut Value, pointer: &str) {
        let Some(object) = parameter.as_object_mut() else { return };
        if let Some(schema) = object.get_mut("schema") {
            self.schema(schema, &format!("{pointer}/schema"));
        }
        if let Some(content) = object.get_mut("content") {
            self.content(content, &format!("{pointer}/content"));
        }
    }

    fn request_body(&mut self, body: &mut Value, pointer: &str) {
        if let Some(content) = body.get_mut("content") {
            self.content(content, &format!("{pointer}/content"));
        }
    }

    fn response(&mut self, response: &mut Value, pointer: &str) {
        if let Some(headers) = response.get_mut("headers").and_then(Value::as_object_mut) {
            for (name, header) in headers.iter_mut() {
                self.parameter(header, &format!("{pointer}/headers/{}", escape(name)));
            }
        }
        if let Some(content) = response.get_mut("content") {
            self.content(content, &format!("{pointer}/content"));
        }
    }

    fn content(&mut self, content: &mut Value, pointer: &str) {
        let Some(content) = content.as_object_mut() else { return };
        for (media_type, media) in content.iter_mut() {
            if let Some(schema) = media.get_mut("schema") {
                self.schema(schema, &format!("{pointer}/{}/schema", escape(media_type)));
            }
        }
    }

    /// Converts one schema in place, and every schema inside it.
    fn schema(&mut self, schema: &mut Value, pointer: &str) {
        match schema {
            Value::Bool(true) => *schema = json!({}),
            Value::Bool(false) => *schema = json!({"not": {}}),
            Value::Object(object) => {
                self.subschemas(object, pointer);
                self.keywords(object, pointer);
            }
            _ => {}
        }
    }

    /// The schemas inside a schema, converted first (a type array's split
    /// then moves converted keywords).
    fn subschemas(&mut self, object: &mut Map<String, Value>, pointer: &str) {
        for keyword in ["properties", "patternProperties", "$defs", "dependentSchemas"] {
            if let Some(map) = object.get_mut(keyword).and_then(Value::as_object_mut) {
                for (name, schema) in map.iter_mut() {
                    self.schema(schema, &format!("{pointer}/{keyword}/{}", escape(name)));
                }
            }
        }
        for keyword in ["allOf", "anyOf", "oneOf", "prefixItems"] {
            if let Some(list) = object.get_mut(keyword).and_then(Value::as_array_mut) {
                for (i, schema) in list.iter_mut().enumerate() {
                    self.schema(schema, &format!("{pointer}/{keyword}/{i}"));
                }
            }
        }
        for keyword in [
            "not",
            "if",
            "then",
            "else",
            "contains",
            "propertyNames",
            "unevaluatedItems",
            "unevaluatedProperties",
            "contentSchema",
        ] {
            if let Some(schema) = object.get_mut(keyword) {
                self.schema(schema, &format!("{pointer}/{keyword}"));
            }
        }
        // `additionalProperties` may stay a boolean in 3.0.
        if let Some(schema) = object.get_mut("additionalProperties").filter(|s| s.is_object()) {
            self.schema(schema, &format!("{pointer}/additionalProperties"));
        }
        match object.get_mut("items") {
            // Draft 4's tuple form: 3.1 spells it `prefixItems`.
            Some(Value::Array(_)) => {
                if let Some(tuple) = object.remove("items") {
                    object.insert("prefixItems".into(), tuple);
                    if let Some(list) = object.get_mut("prefixItems").and_then(Value::as_array_mut) {
                        for (i, schema) in list.iter_mut().enumerate() {
                            self.schema(schema, &format!("{pointer}/items/{i}"));
                        }
                    }
                }
            }
            Some(schema) => self.schema(schema, &format!("{pointer}/items")),
            None => {}
        }
    }

    /// The keywords of one schema whose subschemas are converted already.
    fn keywords(&mut self, object: &mut Map<String, Value>, pointer: &str) {
        if let Some(reference) = object.get("$ref").cloned()
            && object.len() > 1
        {
            // 3.0 ignores a `$ref`'s siblings: the reference becomes one more constraint.
            object.remove("$ref");
            let all = object.entry("allOf").or_insert_with(|| json!([]));
            if let Some(list) = all.as_array_mut() {
                list.insert(0, json!({"$ref": reference}));
            }
        }
        if let Some(value) = object.remove("const") {
            let allowed = match object.get("enum").and_then(Value::as_array) {
                Some(listed) if !listed.contains(&value) => Vec::new(),
                _ => vec![value],
            };
            object.insert("enum".into(), Value::Array(allowed));
        }
        if let Some(examples) = object.remove("examples") {
            if let Some(first) = examples.as_array().and_then(|e| e.first()) {
                object.entry("example").or_insert_with(|| first.clone());
            }
            object.insert("x-examples".into(), examples);
        }
        bound(object, "exclusiveMinimum", "minimum", |exclusive, inclusive| exclusive >= inclusive);
        bound(object, "exclusiveMaximum", "maximum", |exclusive, inclusive| exclusive <= inclusive);
        self.pattern_properties(object, pointer);
        if object.contains_key("prefixItems") {
            // A tuple: 3.0's `items` would hold every item to one schema.
            object.remove("items").map(|items| object.insert("x-items".into(), items));
        }
        for keyword in UNSUPPORTED {
            self.move_to_extension(object, keyword, pointer);
        }
        for keyword in ["anyOf", "oneOf"] {
            null_branches(object, keyword);
        }
        type_array(object);
        enum_as_pattern(object);
    }

    /// `patternProperties`, which 3.0 lacks: every name is let through, its
    /// value held to the patterns' schemas (or to the former
    /// `additionalProperties` schema), never "no properties".
    fn pattern_properties(&mut self, object: &mut Map<String, Value>, pointer: &str) {
        let Some(patterns) = object.remove("patternProperties") else { return };
        let schemas: Vec<Value> =
            patterns.as_object().map(|p| p.values().cloned().collect()).unwrap_or_default();
        let additional = object.remove("additionalProperties");
        let loosened = match &additional {
            // Anything goes already.
            None | Some(Value::Bool(true)) => None,
            Some(Value::Bool(false)) if schemas.len() == 1 => Some(schemas[0].clone()),
            Some(Value::Bool(false)) => Some(json!({"anyOf": schemas})),
            Some(other) => Some(json!({"anyOf": schemas.iter().chain([other]).collect::<Vec<_>>()})),
        };
        if let Some(additional) = additional.filter(|a| *a != Value::Bool(true)) {
            object.insert("x-additionalProperties".into(), additional);
        }
        if let Some(loosened) = loosened {
            object.insert("additionalProperties".into(), loosened);
        }
        object.insert("x-patternProperties".into(), patterns);
        self.loosened.push(format!("{pointer}/x-patternProperties"));
    }
}

/// 3.1's numeric `exclusiveMinimum` (or maximum) as 3.0's boolean beside
/// `minimum`: the tighter bound of the two wins, exactly.
fn bound(object: &mut Map<String, Value>, exclusive: &str, inclusive: &str, tighter: fn(f64, f64) -> bool) {
    let Some(limit) = object.get(exclusive).filter(|v| v.is_number()).cloned() else { return };
    object.remove(exclusive);
    let (Some(at), existing) = (limit.as_f64(), object.get(inclusive).and_then(Value::as_f64)) else {
        return;
    };
    if existing.is_none_or(|existing| tighter(at, existing)) {
        object.insert(inclusive.into(), limit);
        object.insert(exclusive.into(), Value::Bool(true));
    }
}

/// Whether `schema` is `{"type": "null"}` alone (once converted:
/// `{"nullable": true, "enum": [null]}`).
fn is_null_only(schema: &Value) -> bool {
    *schema == json!({"type": "null"}) || *schema == json!({"nullable": true, "enum": [null]})
}

/// An `anyOf` (or `oneOf`) with a `{"type": "null"}` branch: the others,
/// each `nullable`; a single one left is merged into the schema when their
/// keywords do not meet.
fn null_branches(object: &mut Map<String, Value>, keyword: &str) {
    let Some(list) = object.get(keyword).and_then(Value::as_array) else { return };
    if !list.iter().any(is_null_only) || list.iter().all(is_null_only) {
        return;
    }
    let mut others: Vec<Value> = list.iter().filter(|s| !is_null_only(s)).cloned().collect();
    // One branch lets null through, so that the branches stay exclusive
    // (generators make an enum of exclusive branches): one with a type if any.
    let typed = others.iter().position(|b| b.get("type").is_some()).unwrap_or(0);
    if let Some(branch) = others.get_mut(typed) {
        make_nullable(branch);
    }
    if let [single] = others.as_slice()
        && let Some(single) = single.as_object()
        && single.keys().all(|k| k == keyword || !object.contains_key(k))
    {
        object.remove(keyword);
        for (key, value) in single {
            object.insert(key.clone(), value.clone());
        }
        return;
    }
    object.insert(keyword.into(), Value::Array(others));
}

/// Lets null through a converted schema: `nullable` beside its type (in
/// each branch of a split type array), or beside the `allOf` around its
/// reference.
fn make_nullable(schema: &mut Value) {
    let Some(object) = schema.as_object_mut() else { return };
    if !object.contains_key("type")
        && let Some(branch) =
            object.get_mut("anyOf").and_then(Value::as_array_mut).and_then(|b| b.first_mut())
    {
        make_nullable(branch);
        return;
    }
    if let Some(reference) = object.remove("$ref") {
        let all = object.entry("allOf").or_insert_with(|| json!([]));
        if let Some(list) = all.as_array_mut() {
            list.insert(0, json!({"$ref": reference}));
        }
    }
    object.insert("nullable".into(), Value::Bool(true));
    if let Some(Value::Array(values)) = object.get_mut("enum")
        && !values.contains(&Value::Null)
    {
        values.push(Value::Null);
    }
}

/// A type array: `nullable` for `"null"`, one `anyOf` branch per other type
/// with the keywords and `enum` values of that type.
fn type_array(object: &mut Map<String, Value>) {
    let Some(Value::Array(types)) = object.get("type") else {
        if object.get("type").and_then(Value::as_str) == Some("null") {
            object.remove("type");
            object.insert("nullable".into(), Value::Bool(true));
            object.insert("enum".into(), json!([null]));
        }
        return;
    };
    let mut types: Vec<String> = types.iter().filter_map(Value::as_str).map(str::to_owned).collect();
    let nullable = types.iter().any(|t| t == "null");
    types.retain(|t| t != "null");
    types.dedup();
    object.remove("type");
    match types.as_slice() {
        [] if nullable => {
            object.insert("nullable".into(), Value::Bool(true));
            object.insert("enum".into(), json!([null]));
        }
        // `"type": []` allows nothing; no type at all is the closest 3.0
        // spelling that is not stricter.
        [] => {}
        [single] => {
            object.insert("type".into(), json!(single));
            if nullable {
                object.insert("nullable".into(), Value::Bool(true));
            }
        }
        several => {
            let enumerated = object.remove("enum");
            let mut branches = Vec::new();
            for kind in several {
                let mut branch = Map::new();
                branch.insert("type".into(), json!(kind));
                let keywords: &[&str] = match kind.as_str() {
                    "string" => STRING_KEYWORDS,
                    "number" | "integer" => NUMBER_KEYWORDS,
                    "array" => ARRAY_KEYWORDS,
                    "object" => OBJECT_KEYWORDS,
                    _ => &[],
                };
                for keyword in keywords {
                    if let Some(value) = object.get(*keyword) {
                        branch.insert((*keyword).into(), value.clone());
                    }
                }
                if let Some(Value::Array(values)) = &enumerated {
                    let values: Vec<Value> = values.iter().filter(|v| is_of_type(v, kind)).cloned().collect();
                    if values.is_empty() {
                        continue;
                    }
                    branch.insert("enum".into(), Value::Array(values));
                }
                // Null through the first branch only: the branches stay
                // exclusive (generators make an enum of exclusive branches).
                if nullable && branches.is_empty() {
                    branch.insert("nullable".into(), Value::Bool(true));
                    if let Some(Value::Array(values)) = branch.get_mut("enum") {
                        values.push(Value::Null);
                    }
                }
                enum_as_pattern(&mut branch);
                branches.push(Value::Object(branch));
            }
            for keyword in
                STRING_KEYWORDS.iter().chain(NUMBER_KEYWORDS).chain(ARRAY_KEYWORDS).chain(OBJECT_KEYWORDS)
            {
                object.remove(*keyword);
            }
            match object.get_mut("anyOf").and_then(Value::as_array_mut) {
                // Both must hold: the existing anyOf and the type's.
                Some(_) => {
                    let all = object.entry("allOf").or_insert_with(|| json!([]));
                    if let Some(list) = all.as_array_mut() {
                        list.push(json!({"anyOf": branches}));
                    }
                }
                None => {
                    object.insert("anyOf".into(), Value::Array(branches));
                }
            }
        }
    }
}

/// A string `enum` whose values differ only in case (`"True"`, `"TRUE"`,
/// `"true"`) as the `pattern` that matches exactly those strings: the same
/// set, which code generators that name one identifier per value (typify,
/// and so progenitor) can read. The values stay listed in `x-enum`.
fn enum_as_pattern(object: &mut Map<String, Value>) {
    if object.get("type").and_then(Value::as_str) != Some("string") || object.contains_key("pattern") {
        return;
    }
    let Some(Value::Array(values)) = object.get("enum") else { return };
    let Some(strings) = values.iter().map(Value::as_str).collect::<Option<Vec<&str>>>() else { return };
    let mut folded: Vec<String> = strings.iter().map(|s| s.to_ascii_lowercase()).collect();
    folded.sort();
    folded.dedup();
    if folded.len() == strings.len() {
        return;
    }
    let alternatives: Vec<String> = strings.iter().map(|s| regex_escape(s)).collect();
    let pattern = format!("^(?:{})$", alternatives.join("|"));
    if let Some(values) = object.remove("enum") {
        object.insert("x-enum".into(), values);
    }
    object.insert("pattern".into(), Value::String(pattern));
}

/// `text` as a regular expression that matches only itself (ECMA 262).
fn regex_escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        if "\\^$.|?*+()[]{}/".contains(c) {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

/// Whether `value` is an instance of the JSON Schema type `kind`.
fn is_of_type(value: &Value, kind: &str) -> bool {
    match kind {
        "string" => value.is_string(),
        "boolean" => value.is_boolean(),
        "number" => value.is_number(),
        "integer" => value.as_f64().is_some_and(|n| n.fract() == 0.0),
        "array" => value.is_array(),
        "object" => value.is_object(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 3.0 spelling of one schema, and the document's loosened list.
    fn convert(schema: Value) -> (Value, Value) {
        let document = json!({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {},
            "components": {"schemas": {"S": schema}}});
        let converted = to_openapi_3_0(&document);
        assert_eq!(converted["openapi"], "3.0.3");
        assert_eq!(converted[CONVERSION_NOTE]["converted-from"], "3.1.0");
        (converted["components"]["schemas"]["S"].clone(), converted[CONVERSION_NOTE]["loosened"].clone())
    }

    #[test]
    fn a_null_in_a_type_array_is_nullable() {
        let (schema, loosened) = convert(json!({"type": ["string", "null"], "maxLength": 3}));
        assert_eq!(schema, json!({"type": "string", "nullable": true, "maxLength": 3}));
        assert_eq!(loosened, json!([]));
        assert_eq!(convert(json!({"type": "null"})).0, json!({"nullable": true, "enum": [null]}));
    }

    #[test]
    fn a_type_array_is_an_any_of_with_each_types_keywords() {
        let (schema, _) = convert(json!({"type": ["integer", "string"], "minimum": 0, "pattern": "^[0-9]+$",
            "description": "d"}));
        assert_eq!(
            schema,
            json!({"description": "d", "anyOf": [
                {"type": "integer", "minimum": 0}, {"type": "string", "pattern": "^[0-9]+$"}
            ]})
        );
        // String values that differ only in case: the pattern of exactly those.
        let (schema, _) =
            convert(json!({"type": ["boolean", "string"], "enum": [true, "True", "true", "a.b"]}));
        assert_eq!(
            schema,
            json!({"anyOf": [
                {"type": "boolean", "enum": [true]},
                {"type": "string", "pattern": "^(?:True|true|a\\.b)$", "x-enum": ["True", "true", "a.b"]}
            ]})
        );
        assert_eq!(
            convert(json!({"type": "string", "enum": ["a", "b"]})).0,
            json!({"type": "string", "enum": ["a", "b"]})
        );
        // Enum values go to the branch of their type; null makes each branch nullable.
        let (schema, _) =
            convert(json!({"type": ["boolean", "string", "null"], "enum": [true, "yes", null]}));
        assert_eq!(
            schema,
            json!({"anyOf": [
                {"type": "boolean", "enum": [true, null], "nullable": true},
                {"type": "string", "enum": ["yes"]}
            ]})
        );
        let (schema, _) = convert(json!({"type": ["string", "number", "boolean"], "maxLength": 255}));
        assert_eq!(
            schema["anyOf"],
            json!([{"type": "string", "maxLength": 255}, {"type": "number"}, {"type": "boolean"}])
        );
    }

    #[test]
    fn a_null_branch_of_any_of_makes_the_others_nullable() {
        let (schema, _) =
            convert(json!({"anyOf": [{"type": "string"}, {"type": "null"}], "description": "d"}));
        assert_eq!(schema, json!({"description": "d", "type": "string", "nullable": true}));
        let (schema, _) = convert(
            json!({"anyOf": [{"$ref": "#/components/schemas/T"}, {"type": "integer"}, {"type": "null"}]}),
        );
        assert_eq!(
            schema,
            json!({"anyOf": [
                {"$ref": "#/components/schemas/T"},
                {"type": "integer", "nullable": true}
            ]})
        );
    }

    #[test]
    fn exclusive_bounds_are_booleans_beside_the_bound() {
        let (schema, _) = convert(json!({"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 10}));
        assert_eq!(
            schema,
            json!({"type": "number", "minimum": 0, "exclusiveMinimum": true, "maximum": 10, "exclusiveMaximum": true})
        );
        // The tighter of the two bounds holds.
        let (schema, _) = convert(json!({"type": "number", "exclusiveMinimum": 0, "minimum": 5}));
        assert_eq!(schema, json!({"type": "number", "minimum": 5}));
        let (schema, _) = convert(json!({"type": "number", "exclusiveMinimum": 5, "minimum": 0}));
        assert_eq!(schema, json!({"type": "number", "minimum": 5, "exclusiveMinimum": true}));
    }

    #[test]
    fn const_is_a_one_value_enum_and_examples_an_example() {
        assert_eq!(convert(json!({"const": "a"})).0, json!({"enum": ["a"]}));
        let (schema, loosened) = convert(json!({"type": "string", "examples": ["a", "b"]}));
        assert_eq!(schema, json!({"type": "string", "example": "a", "x-examples": ["a", "b"]}));
        assert_eq!(loosened, json!([]));
    }

    #[test]
    fn pattern_properties_are_loosened_never_forbidden() {
        let (schema, loosened) = convert(json!({"type": "object", "additionalProperties": false,
            "patternProperties": {"^[a-z]+$": {"type": ["string", "number"]}}}));
        // Any name, held to the pattern's (converted) schema; not `false`, which would refuse every body.
        assert_eq!(
            schema,
            json!({"type": "object",
                "additionalProperties": {"anyOf": [{"type": "string"}, {"type": "number"}]},
                "x-additionalProperties": false,
                "x-patternProperties": {"^[a-z]+$": {"anyOf": [{"type": "string"}, {"type": "number"}]}}})
        );
        assert_eq!(loosened, json!(["/components/schemas/S/x-patternProperties"]));
        // Without `additionalProperties: false`, anything went already.
        let (schema, _) = convert(json!({"type": "object", "patternProperties": {"^a": {"type": "string"}}}));
        assert_eq!(schema, json!({"type": "object", "x-patternProperties": {"^a": {"type": "string"}}}));
        // Two patterns and an additional schema: a value of any of them.
        let (schema, _) =
            convert(json!({"patternProperties": {"^a": {"type": "string"}, "^b": {"type": "integer"}},
            "additionalProperties": {"type": "boolean"}}));
        assert_eq!(
            schema["additionalProperties"],
            json!({"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "boolean"}]})
        );
    }

    /// The list is in pointer order whatever order the document's maps
    /// keep (serde_json's `preserve_order`, which a workspace build may
    /// turn on, keeps `responses` before `requestBody` here).
    #[test]
    fn the_loosened_places_are_listed_in_pointer_order() {
        let pattern = json!({"type": "object", "additionalProperties": false,
            "patternProperties": {"^[a-z]+$": {"type": "string"}}});
        let body = json!({"content": {"application/json": {"schema": pattern}}});
        let document = json!({"openapi": "3.1.0", "paths": {"/b": {"post": {
            "responses": {"200": body.clone()}, "requestBody": body.clone()}}, "/a": {"put": {"requestBody": body}}}});
        let loosened = to_openapi_3_0(&document)[CONVERSION_NOTE]["loosened"].clone();
        let listed: Vec<&str> =
            loosened.as_array().expect("a list").iter().filter_map(Value::as_str).collect();
        let mut sorted = listed.clone();
        sorted.sort_unstable();
        assert_eq!((listed.len(), &listed), (3, &sorted));
    }

    #[test]
    fn siblings_of_a_ref_are_kept_in_an_all_of() {
        let (schema, _) = convert(json!({"$ref": "#/components/schemas/T", "description": "d"}));
        assert_eq!(schema, json!({"allOf": [{"$ref": "#/components/schemas/T"}], "description": "d"}));
        assert_eq!(convert(json!({"$ref": "#/x"})).0, json!({"$ref": "#/x"}));
    }

    #[test]
    fn what_3_0_lacks_is_dropped_into_extensions_and_noted() {
        let (schema, loosened) = convert(json!({"type": "array", "prefixItems": [{"type": "string"}],
            "items": {"type": "integer"}, "$comment": "c",
            "if": {"required": ["a"]}, "then": {"required": ["b"]}, "contentMediaType": "text/plain"}));
        assert_eq!(
            schema,
            json!({"type": "array", "x-prefixItems": [{"type": "string"}], "x-items": {"type": "integer"},
                "x-if": {"required": ["a"]}, "x-then": {"required": ["b"]}, "x-$comment": "c",
                "x-contentMediaType": "text/plain"})
        );
        // Annotations constrain nothing: not listed.
        assert_eq!(
            loosened,
            json!([
                "/components/schemas/S/x-if",
                "/components/schemas/S/x-prefixItems",
                "/components/schemas/S/x-then"
            ])
        );
        assert_eq!(
            convert(json!({"properties": {"a": true, "b": false}})).0["properties"],
            json!({"a": {}, "b": {"not": {}}})
        );
        assert_eq!(convert(json!({"additionalProperties": false})).0, json!({"additionalProperties": false}));
    }

    #[test]
    fn the_documents_own_3_1_fields_move_to_extensions() {
        let document = json!({"openapi": "3.1.0", "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
            "info": {"title": "t", "version": "1", "summary": "s", "license": {"name": "MIT", "identifier": "MIT"}},
            "webhooks": {"w": {}}, "components": {"pathItems": {"p": {}}}});
        let converted = to_openapi_3_0(&document);
        assert_eq!(converted["paths"], json!({}), "3.0 requires paths");
        assert_eq!(
            converted["info"],
            json!({"title": "t", "version": "1", "x-summary": "s",
            "license": {"name": "MIT", "x-identifier": "MIT"}})
        );
        assert!(converted.get("webhooks").is_none() && converted["x-webhooks"] == json!({"w": {}}));
        assert!(converted.get("jsonSchemaDialect").is_none());
        assert_eq!(converted["components"], json!({"x-pathItems": {"p": {}}}));
        assert_eq!(converted[CONVERSION_NOTE]["loosened"], json!(["/components/x-pathItems", "/x-webhooks"]));
    }

    #[test]
    fn schemas_are_found_wherever_a_document_has_them() {
        let document = json!({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/a/{id}": {
            "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": ["string", "null"]}}],
            "post": {
                "parameters": [{"$ref": "#/components/parameters/P"}],
                "requestBody": {"content": {"application/json": {"schema": {"const": 1}}}},
                "responses": {"200": {"description": "ok",
                    "headers": {"H": {"schema": {"type": ["integer", "null"]}}},
                    "content": {"application/json": {"schema": {"properties": {"n": {"exclusiveMinimum": 1}}}}}}}
            }}},
            "components": {"parameters": {"P": {"name": "p", "in": "query", "schema": {"const": "x"}}}}});
        let converted = to_openapi_3_0(&document);
        let item = &converted["paths"]["/a/{id}"];
        assert_eq!(item["parameters"][0]["schema"], json!({"type": "string", "nullable": true}));
        assert_eq!(item["post"]["parameters"][0], json!({"$ref": "#/components/parameters/P"}));
        assert_eq!(
            item["post"]["requestBody"]["content"]["application/json"]["schema"],
            json!({"enum": [1]})
        );
        let ok = &item["post"]["responses"]["200"];
        assert_eq!(ok["headers"]["H"]["schema"], json!({"type": "integer", "nullable": true}));
        assert_eq!(
            ok["content"]["application/json"]["schema"]["properties"]["n"],
            json!({"minimum": 1, "exclusiveMinimum": true})
        );
        assert_eq!(converted["components"]["parameters"]["P"]["schema"], json!({"enum": ["x"]}));
    }

    #[test]
    fn anything_else_comes_back_unharmed() {
        for value in [json!(null), json!(1), json!("x"), json!([1, {"type": ["a"]}])] {
            assert_eq!(to_openapi_3_0(&value), value);
        }
        // Odd shapes inside a document are left as they are, never a panic.
        let odd = json!({"openapi": "3.1.0", "paths": {"/a": {"get": {"parameters": 3, "responses": []}}},
            "components": {"schemas": {"S": {"type": [1, "null"], "exclusiveMinimum": "x", "items": [true],
                "patternProperties": 2, "anyOf": [{"type": "null"}]}}}});
        let converted = to_openapi_3_0(&odd);
        assert_eq!(converted["paths"]["/a"]["get"]["parameters"], 3);
    }
}
