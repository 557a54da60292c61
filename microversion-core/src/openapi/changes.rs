//! What a change to a version's document means for its clients: compatible
//! (only additions a client may ignore) or breaking (docs/reference.md §14.5).

use std::collections::BTreeSet;
use std::fmt;

use serde_json::{Map, Value};

/// One difference between two documents of the same version, classified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// Where, as a JSON pointer into the documents.
    pub pointer: String,
    /// What changed, in words, with the values where they are short.
    pub what: String,
    /// Whether a client written against the former document may fail
    /// against the new one.
    pub breaking: bool,
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = if self.breaking { "breaking" } else { "compatible" };
        write!(f, "{kind}: {}: {}", if self.pointer.is_empty() { "/" } else { &self.pointer }, self.what)
    }
}

/// Which way a schema's values travel, which decides what a change means:
/// a request schema may accept more (never less); a response schema may
/// promise more (never less); a shared one only gain what both allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Direction {
    Request,
    Response,
    Both,
}

/// Whether a schema change lets more values through, fewer, or neither
/// comparably.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Effect {
    Wider,
    Narrower,
    Other,
}

impl Direction {
    fn breaks(self, effect: Effect) -> bool {
        !matches!(
            (self, effect),
            (Direction::Request, Effect::Wider) | (Direction::Response, Effect::Narrower)
        )
    }
}

/// Every difference between `before` and `after`, two OpenAPI documents
/// (3.1 or 3.0) of one version, classified for clients.
///
/// Compatible: new paths and operations, new optional parameters and
/// request fields, new response fields and headers, a request schema that
/// accepts more (a type, an enum value, a wider bound) or a response schema
/// that promises more (a field newly required, a narrower type), and
/// descriptions, summaries, examples and `x-` extensions. Breaking:
/// anything removed or renamed, a new required parameter or request field,
/// a narrower request schema or a wider response schema, a changed
/// status, `$ref`, `operationId` or style; and whatever is not understood.
///
/// ```
/// use microversion_core::openapi::classify_changes;
/// use serde_json::json;
///
/// let before = json!({"paths": {"/a": {"get": {"responses": {"200": {"content": {"application/json":
///     {"schema": {"type": "object", "properties": {"x": {"type": "string"}}}}}}}}}}});
/// let mut after = before.clone();
/// after["paths"]["/a"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]["properties"]["y"] =
///     json!({"type": "integer"});
/// after["paths"]["/b"] = json!({});
/// let changes = classify_changes(&before, &after);
/// assert_eq!(changes.len(), 2);
/// assert!(changes.iter().all(|c| !c.breaking));
/// assert_eq!(changes[1].pointer, "/paths/~1b");
/// ```
pub fn classify_changes(before: &Value, after: &Value) -> Vec<Change> {
    let mut out = Changes(Vec::new());
    out.document(before, after);
    out.0
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// A value cut to a readable length.
fn short(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(80) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}

/// Whether a key only documents: a change to it changes no contract.
fn documentation(key: &str) -> bool {
    key.starts_with("x-")
        || matches!(
            key,
            "description" | "summary" | "title" | "example" | "examples" | "externalDocs" | "tags"
        )
}

struct Changes(Vec<Change>);

impl Changes {
    fn push(&mut self, pointer: &str, what: String, breaking: bool) {
        self.0.push(Change { pointer: pointer.to_owned(), what, breaking });
    }

    /// Documentation changes are compatible; any other key changed is
    /// breaking unless `known` compares it.
    fn rest(
        &mut self,
        pointer: &str,
        before: &Map<String, Value>,
        after: &Map<String, Value>,
        known: &[&str],
    ) {
        let keys: BTreeSet<&String> = before.keys().chain(after.keys()).collect();
        for key in keys.into_iter().filter(|k| !known.contains(&k.as_str())) {
            let here = format!("{pointer}/{}", escape(key));
            let breaking = !documentation(key);
            match (before.get(key), after.get(key)) {
                (Some(a), Some(b)) if a != b => {
                    self.push(&here, format!("changed from {} to {}", short(a), short(b)), breaking)
                }
                (Some(a), None) => self.push(&here, format!("removed (was {})", short(a)), breaking),
                (None, Some(b)) => self.push(&here, format!("added ({})", short(b)), breaking),
                _ => {}
            }
        }
    }

    /// The entries of two maps by key: `removed` and `added` say what a
    /// removal and an addition mean, `common` compares the rest.
    fn keyed(
        &mut self,
        pointer: &str,
        before: Option<&Value>,
        after: Option<&Value>,
        noun: &str,
        added_breaks: impl Fn(&Value) -> bool,
        mut common: impl FnMut(&mut Changes, &str, &Value, &Value),
    ) {
        let empty = Map::new();
        let before = before.and_then(Value::as_object).unwrap_or(&empty);
        let after = after.and_then(Value::as_object).unwrap_or(&empty);
        let keys: BTreeSet<&String> = before.keys().chain(after.keys()).collect();
        for key in keys {
            let here = format!("{pointer}/{}", escape(key));
            match (before.get(key), after.get(key)) {
                (Some(a), Some(b)) => common(self, &here, a, b),
                (Some(_), None) => self.push(&here, format!("{noun} removed"), true),
                (None, Some(b)) => self.push(&here, format!("{noun} added"), added_breaks(b)),
                (None, None) => {}
            }
        }
    }

    fn document(&mut self, before: &Value, after: &Value) {
        let (Some(b), Some(a)) = (before.as_object(), after.as_object()) else {
            if before != after {
                self.push("", "the document was replaced".into(), true);
            }
            return;
        };
        self.keyed(
            "/paths",
            b.get("paths"),
            a.get("paths"),
            "path",
            |_| false,
            |out, here, x, y| out.path_item(here, x, y),
        );
        let (cb, ca) = (b.get("components"), a.get("components"));
        let component = |kind: &str| (cb.and_then(|c| c.get(kind)), ca.and_then(|c| c.get(kind)));
        let (x, y) = component("schemas");
        self.keyed(
            "/components/schemas",
            x,
            y,
            "schema",
            |_| false,
            |out, here, x, y| out.schema(here, x, y, Direction::Both),
        );
        let (x, y) = component("parameters");
        self.keyed(
            "/components/parameters",
            x,
            y,
            "parameter",
            |_| false,
            |out, here, x, y| out.parameter(here, x, y),
        );
        let (x, y) = component("headers");
        self.keyed(
            "/components/headers",
            x,
            y,
            "header",
            |_| false,
            |out, here, x, y| out.header(here, x, y),
        );
        let (x, y) = component("responses");
        self.keyed(
            "/components/responses",
            x,
            y,
            "response",
            |_| false,
            |out, here, x, y| out.response(here, x, y),
        );
        let (x, y) = component("requestBodies");
        self.keyed(
            "/components/requestBodies",
            x,
            y,
            "request body",
            |_| false,
            |out, here, x, y| out.request_body(here, x, y),
        );
        let empty = Map::new();
        let (x, y) = (
            cb.and_then(Value::as_object).unwrap_or(&empty),
            ca.and_then(Value::as_object).unwrap_or(&empty),
        );
        self.rest("/components", x, y, &["schemas", "parameters", "headers", "responses", "requestBodies"]);
        self.rest("", b, a, &["paths", "components", "info"]);
        let (x, y) = (
            b.get("info").and_then(Value::as_object).unwrap_or(&empty),
            a.get("info").and_then(Value::as_object).unwrap_or(&empty),
        );
        // The title, the version's own number, contact and licence promise nothing.
        self.rest("/info", x, y, &["title", "version", "contact", "license", "termsOfService"]);
    }

    fn path_item(&mut self, pointer: &str, before: &Value, after: &Value) {
        const METHODS: &[&str] = &["get", "put", "post", "delete", "options", "head", "patch", "trace"];
        let (Some(b), Some(a)) = (before.as_object(), after.as_object()) else {
            return self.opaque(pointer, before, after);
        };
        for method in METHODS {
            let here = format!("{pointer}/{method}");
            match (b.get(*method), a.get(*method)) {
                (Some(x), Some(y)) => self.operation(&here, x, y),
                (Some(_), None) => self.push(&here, "operation removed".into(), true),
                (None, Some(_)) => self.push(&here, "operation added".into(), false),
                (None, None) => {}
            }
        }
        self.parameters(&format!("{pointer}/parameters"), b.get("parameters"), a.get("parameters"));
        let mut known: Vec<&str> = METHODS.to_vec();
        known.push("parameters");
        self.rest(pointer, b, a, &known);
    }

    fn operation(&mut self, pointer: &str, before: &Value, after: &Value) {
        let (Some(b), Some(a)) = (before.as_object(), after.as_object()) else {
            return self.opaque(pointer, before, after);
        };
        self.parameters(&format!("{pointer}/parameters"), b.get("parameters"), a.get("parameters"));
        let here = format!("{pointer}/requestBody");
        match (b.get("requestBody"), a.get("requestBody")) {
            (Some(x), Some(y)) => self.request_body(&here, x, y),
            (Some(_), None) => self.push(&here, "request body removed".into(), true),
            (None, Some(y)) => {
                let required = y["required"].as_bool().unwrap_or(false);
                self.push(&here, format!("{} request body added", optional(required)), required)
            }
            (None, None) => {}
        }
        self.keyed(
            &format!("{pointer}/responses"),
            b.get("responses"),
            a.get("responses"),
            "response status",
            |_| true,
            |out, here, x, y| out.response(here, x, y),
        );
        if let (Some(x), Some(y)) = (b.get("deprecated"), a.get("deprecated"))
            && x != y
        {
            self.push(&format!("{pointer}/deprecated"), format!("changed from {x} to {y}"), false);
        }
        self.rest(pointer, b, a, &["parameters", "requestBody", "responses", "deprecated"]);
    }

    /// Parameters by where and name (`in`, `name`), or by reference.
    fn parameters(&mut self, pointer: &str, before: Option<&Value>, after: Option<&Value>) {
        let index = |list: Option<&Value>| -> Vec<(String, usize, Value)> {
            let list = list.and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
            list.iter()
                .enumerate()
                .map(|(i, p)| {
                    let key = match p["$ref"].as_str() {
                        Some(reference) => reference.to_owned(),
                        None => format!(
                            "{} {}",
                            p["in"].as_str().unwrap_or("?"),
                            p["name"].as_str().unwrap_or("?")
                        ),
                    };
                    (key, i, p.clone())
                })
                .collect()
        };
        let (b, a) = (index(before), index(after));
        for (key, i, x) in &b {
            match a.iter().find(|(k, _, _)| k == key) {
                Some((_, _, y)) => self.parameter(&format!("{pointer}/{i}"), x, y),
                None => self.push(&format!("{pointer}/{i}"), format!("parameter {key} removed"), true),
            }
        }
        for (key, i, y) in a.iter().filter(|(k, _, _)| !b.iter().any(|(other, _, _)| other == k)) {
            let required = y["required"].as_bool().unwrap_or(false);
            self.push(
                &format!("{pointer}/{i}"),
                format!("{} parameter {key} added", optional(required)),
                required,
            );
        }
    }

    fn parameter(&mut self, pointer: &str, before: &Value, after: &Value) {
        let (Some(b), Some(a)) = (before.as_object(), after.as_object()) else {
            return self.opaque(pointer, before, after);
        };
        if let (Some(x), Some(y)) = (b.get("schema"), a.get("schema")) {
            self.schema(&format!("{pointer}/schema"), x, y, Direction::Request);
        }
        let (x, y) = (
            field(b, "required").as_bool().unwrap_or(false),
            field(a, "required").as_bool().unwrap_or(false),
        );
        if x != y {
            self.push(&format!("{pointer}/required"), format!("{} now", optional(y)), y);
        }
        let known: &[&str] = if b.contains_key("schema") && a.contains_key("schema") {
            &["schema", "required"]
        } else {
            &["required"]
        };
        self.rest(pointer, b, a, known);
    }

    fn header(&mut self, pointer: &str, before: &Value, after: &Value) {
        let (Some(b), Some(a)) = (before.as_object(), after.as_object()) else {
            return self.opaque(pointer, before, after);
        };
        if let (Some(x), Some(y)) = (b.get("schema"), a.get("schema")) {
            self.schema(&format!("{pointer}/schema"), x, y, Direction::Response);
            self.rest(pointer, b, a, &["schema"]);
        } else {
            self.rest(pointer, b, a, &[]);
        }
    }

    fn request_body(&mut self, pointer: &str, before: &Value, after: &Value) {
        let (Some(b), Some(a)) = (before.as_object(), after.as_object()) else {
            return self.opaque(pointer, before, after);
        };
        let (x, y) = (
            field(b, "required").as_bool().unwrap_or(false),
            field(a, "required").as_bool().unwrap_or(false),
        );
        if x != y {
            self.push(&format!("{pointer}/required"), format!("the body is {} now", optional(y)), y);
        }
        self.content(&format!("{pointer}/content"), b.get("content"), a.get("content"), Direction::Request);
        self.rest(pointer, b, a, &["required", "content"]);
    }

    fn response(&mut self, pointer: &str, before: &Value, after: &Value) {
        let (Some(b), Some(a)) = (before.as_object(), after.as_object()) else {
            return self.opaque(pointer, before, after);
        };
        self.keyed(
            &format!("{pointer}/headers"),
            b.get("headers"),
            a.get("headers"),
            "header",
            |_| false,
            |out, here, x, y| out.header(here, x, y),
        );
        self.content(&format!("{pointer}/content"), b.get("content"), a.get("content"), Direction::Response);
        self.rest(pointer, b, a, &["headers", "content"]);
    }

    fn content(
        &mut self,
        pointer: &str,
        before: Option<&Value>,
        after: Option<&Value>,
        direction: Direction,
    ) {
        self.keyed(
            pointer,
            before,
            after,
            "media type",
            |_| direction != Direction::Response,
            |out, here, x, y| match (x.get("schema"), y.get("schema"), x.as_object(), y.as_object()) {
                (Some(s), Some(t), Some(b), Some(a)) => {
                    out.schema(&format!("{here}/schema"), s, t, direction);
                    out.rest(here, b, a, &["schema"]);
                }
                _ => out.opaque(here, x, y),
            },
        );
    }

    /// Two values compared whole: any difference breaks.
    fn opaque(&mut self, pointer: &str, before: &Value, after: &Value) {
        if before != after {
            self.push(pointer, format!("changed from {} to {}", short(before), short(after)), true);
        }
    }

    fn effect(&mut self, pointer: &str, what: String, effect: Effect, direction: Direction) {
        self.push(pointer, what, direction.breaks(effect));
    }

    /// Two schemas of the same place, keyword by keyword.
    fn schema(&mut self, pointer: &str, before: &Value, after: &Value, direction: Direction) {
        if before == after {
            return;
        }
        let (Some(b), Some(a)) = (before.as_object(), after.as_object()) else {
            return self.opaque(pointer, before, after);
        };
        let mut known = vec!["properties", "required", "type", "enum", "items", "additionalProperties"];
        if b.contains_key("type") && a.contains_key("type") {
            // Compared as one more type; elsewhere as any other keyword.
            known.push("nullable");
        }
        // Properties: a new one is compatible unless a request must send it.
        let required = |s: &Map<String, Value>| -> BTreeSet<String> {
            s.get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).map(str::to_owned).collect())
                .unwrap_or_default()
        };
        let (required_before, required_after) = (required(b), required(a));
        let empty = Map::new();
        let properties_before = b.get("properties").and_then(Value::as_object).unwrap_or(&empty);
        let properties_after = a.get("properties").and_then(Value::as_object).unwrap_or(&empty);
        for (name, x) in properties_before {
            let here = format!("{pointer}/properties/{}", escape(name));
            match properties_after.get(name) {
                Some(y) => self.schema(&here, x, y, direction),
                None => self.push(&here, "field removed".into(), true),
            }
        }
        for name in properties_after.keys().filter(|n| !properties_before.contains_key(*n)) {
            let here = format!("{pointer}/properties/{}", escape(name));
            let must_send = required_after.contains(name) && direction != Direction::Response;
            self.push(&here, format!("{} field added", optional(required_after.contains(name))), must_send);
        }
        for name in required_after.difference(&required_before).filter(|n| properties_before.contains_key(*n))
        {
            let here = format!("{pointer}/required");
            self.effect(&here, format!("{name:?} is required now"), Effect::Narrower, direction);
        }
        for name in required_before.difference(&required_after) {
            let here = format!("{pointer}/required");
            self.effect(&here, format!("{name:?} is optional now"), Effect::Wider, direction);
        }
        // Types, with 3.0's `nullable` as one more.
        let types = |s: &Map<String, Value>| -> Option<BTreeSet<String>> {
            let mut set: BTreeSet<String> = match s.get("type")? {
                Value::String(t) => [t.clone()].into(),
                Value::Array(list) => list.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
                _ => BTreeSet::new(),
            };
            if s.get("nullable") == Some(&Value::Bool(true)) {
                set.insert("null".into());
            }
            Some(set)
        };
        if let Some(effect) = sets(types(b), types(a)) {
            let what =
                format!("type changed from {} to {}", short(field(b, "type")), short(field(a, "type")));
            self.effect(&format!("{pointer}/type"), what, effect, direction);
        }
        let values = |s: &Map<String, Value>| -> Option<BTreeSet<String>> {
            Some(s.get("enum")?.as_array()?.iter().map(Value::to_string).collect())
        };
        if let Some(effect) = sets(values(b), values(a)) {
            let what =
                format!("values changed from {} to {}", short(field(b, "enum")), short(field(a, "enum")));
            self.effect(&format!("{pointer}/enum"), what, effect, direction);
        }
        for (keyword, lower) in [
            ("minimum", true),
            ("minLength", true),
            ("minItems", true),
            ("minProperties", true),
            ("maximum", false),
            ("maxLength", false),
            ("maxItems", false),
            ("maxProperties", false),
        ] {
            known.push(keyword);
            let (x, y) = (b.get(keyword).and_then(Value::as_f64), a.get(keyword).and_then(Value::as_f64));
            let effect = match (x, y) {
                (Some(x), Some(y)) if x == y => continue,
                (None, None) if b.get(keyword) == a.get(keyword) => continue,
                (Some(x), Some(y)) if (y < x) == lower => Effect::Wider,
                (Some(_), Some(_)) | (None, Some(_)) => Effect::Narrower,
                (Some(_), None) => Effect::Wider,
                (None, None) => Effect::Other,
            };
            let what = format!(
                "{keyword} changed from {} to {}",
                short(field(b, keyword)),
                short(field(a, keyword))
            );
            self.effect(&format!("{pointer}/{keyword}"), what, effect, direction);
        }
        // A keyword that only constrains: added narrows, removed widens.
        for keyword in
            ["pattern", "format", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "uniqueItems", "not"]
        {
            known.push(keyword);
            let effect = match (b.get(keyword), a.get(keyword)) {
                (x, y) if x == y => continue,
                (None, Some(_)) => Effect::Narrower,
                (Some(_), None) => Effect::Wider,
                _ => Effect::Other,
            };
            let what = format!(
                "{keyword} changed from {} to {}",
                short(field(b, keyword)),
                short(field(a, keyword))
            );
            self.effect(&format!("{pointer}/{keyword}"), what, effect, direction);
        }
        match (b.get("items"), a.get("items")) {
            (Some(x), Some(y)) => self.schema(&format!("{pointer}/items"), x, y, direction),
            (x, y) if x == y => {}
            (_, y) => {
                let effect = if y.is_none() { Effect::Wider } else { Effect::Narrower };
                self.effect(&format!("{pointer}/items"), "items changed".into(), effect, direction)
            }
        }
        let open =
            |s: &Map<String, Value>| s.get("additionalProperties").cloned().unwrap_or(Value::Bool(true));
        match (open(b), open(a)) {
            (x, y) if x == y => {}
            (x @ Value::Object(_), y @ Value::Object(_)) => {
                self.schema(&format!("{pointer}/additionalProperties"), &x, &y, direction)
            }
            (x, y) => {
                let effect = match (&x, &y) {
                    (_, Value::Bool(true)) | (Value::Bool(false), _) => Effect::Wider,
                    (Value::Bool(true), _) | (_, Value::Bool(false)) => Effect::Narrower,
                    _ => Effect::Other,
                };
                let what = format!("additionalProperties changed from {} to {}", short(&x), short(&y));
                self.effect(&format!("{pointer}/additionalProperties"), what, effect, direction);
            }
        }
        // Branches: more of an anyOf or oneOf lets more through, more of an allOf fewer.
        for (keyword, more) in
            [("anyOf", Effect::Wider), ("oneOf", Effect::Wider), ("allOf", Effect::Narrower)]
        {
            known.push(keyword);
            let (x, y) = (b.get(keyword).and_then(Value::as_array), a.get(keyword).and_then(Value::as_array));
            let here = format!("{pointer}/{keyword}");
            match (x, y) {
                (x, y) if x == y => {}
                (Some(x), Some(y)) if x.len() == y.len() => {
                    for (i, (s, t)) in x.iter().zip(y).enumerate() {
                        self.schema(&format!("{here}/{i}"), s, t, direction);
                    }
                }
                (x, y) => {
                    let (x, y) =
                        (x.map(Vec::as_slice).unwrap_or_default(), y.map(Vec::as_slice).unwrap_or_default());
                    let fewer = if more == Effect::Wider { Effect::Narrower } else { Effect::Wider };
                    let effect = if x.iter().all(|s| y.contains(s)) {
                        more
                    } else if y.iter().all(|s| x.contains(s)) {
                        fewer
                    } else {
                        Effect::Other
                    };
                    self.effect(&here, format!("{} branches became {}", x.len(), y.len()), effect, direction);
                }
            }
        }
        self.rest(pointer, b, a, &known);
    }
}

/// A keyword of a schema object, `null` when absent (a `Map` index panics).
fn field<'a>(object: &'a Map<String, Value>, key: &str) -> &'a Value {
    object.get(key).unwrap_or(&Value::Null)
}

fn optional(required: bool) -> &'static str {
    if required { "required" } else { "optional" }
}

/// How a set of allowed things changed: `None` when it did not.
fn sets(before: Option<BTreeSet<String>>, after: Option<BTreeSet<String>>) -> Option<Effect> {
    match (before, after) {
        (x, y) if x == y => None,
        // No keyword allows everything.
        (None, Some(_)) => Some(Effect::Narrower),
        (Some(_), None) => Some(Effect::Wider),
        (Some(x), Some(y)) if y.is_superset(&x) => Some(Effect::Wider),
        (Some(x), Some(y)) if y.is_subset(&x) => Some(Effect::Narrower),
        _ => Some(Effect::Other),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::classify_changes;

    fn document(body: Value, response: Value, parameters: Value) -> Value {
        json!({"openapi": "3.1.0", "info": {"title": "t", "version": "2.1"}, "paths": {"/a": {"post": {
            "operationId": "a:post",
            "parameters": parameters,
            "requestBody": {"required": true, "content": {"application/json": {"schema": body}}},
            "responses": {"200": {"description": "ok",
                "content": {"application/json": {"schema": response}}}}
        }}}})
    }

    fn base() -> Value {
        document(
            json!({"type": "object", "required": ["name"], "properties": {
                "name": {"type": "string", "maxLength": 10}, "size": {"type": ["integer", "string"]}}}),
            json!({"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}}}),
            json!([{"name": "limit", "in": "query", "required": false, "schema": {"type": "integer"}}]),
        )
    }

    /// The changes of `edit` applied to the base document, as (pointer, breaking).
    fn changes(edit: impl FnOnce(&mut Value)) -> Vec<(String, bool)> {
        let before = base();
        let mut after = before.clone();
        edit(&mut after);
        let mut found: Vec<(String, bool)> =
            classify_changes(&before, &after).into_iter().map(|c| (c.pointer, c.breaking)).collect();
        found.sort();
        found
    }

    const BODY: &str = "/paths/~1a/post/requestBody/content/application~1json/schema";
    const ANSWER: &str = "/paths/~1a/post/responses/200/content/application~1json/schema";

    fn at<'a>(document: &'a mut Value, pointer: &str) -> &'a mut Value {
        document.pointer_mut(pointer).expect("a pointer into the base document")
    }

    #[test]
    fn additions_a_client_may_ignore_are_compatible() {
        assert_eq!(changes(|_| {}), []);
        // A new optional request field, a new response field, a new operation and path.
        let mut expected = vec![
            (format!("{BODY}/properties/note"), false),
            (format!("{ANSWER}/properties/extra"), false),
            ("/paths/~1a/get".to_owned(), false),
            ("/paths/~1a/post/description".to_owned(), false),
            ("/paths/~1b".to_owned(), false),
        ];
        expected.sort();
        assert_eq!(
            changes(|d| {
                at(d, &format!("{BODY}/properties"))["note"] = json!({"type": "string"});
                at(d, &format!("{ANSWER}/properties"))["extra"] = json!({"type": "string"});
                d["paths"]["/a"]["get"] = json!({"responses": {}});
                d["paths"]["/b"] = json!({});
                at(d, "/paths/~1a/post")["description"] = json!("Now described.");
            }),
            expected
        );
        // A request accepting more; a response field no longer promised
        // breaks a client relying on it.
        let mut expected = vec![
            (format!("{BODY}/properties/name/maxLength"), false),
            (format!("{BODY}/properties/size/type"), false),
            (format!("{BODY}/required"), false),
            (format!("{ANSWER}/required"), true),
        ];
        expected.sort();
        assert_eq!(
            changes(|d| {
                at(d, &format!("{BODY}/properties/name"))["maxLength"] = json!(20);
                at(d, &format!("{BODY}/properties/size"))["type"] = json!(["integer", "string", "null"]);
                at(d, &format!("{ANSWER}/required")).as_array_mut().unwrap().clear();
                at(d, &format!("{BODY}/required")).as_array_mut().unwrap().clear();
            }),
            expected
        );
        assert_eq!(
            changes(|d| at(d, "/paths/~1a/post/parameters")
                .as_array_mut()
                .unwrap()
                .push(json!({"name": "marker", "in": "query", "schema": {"type": "string"}}))),
            [("/paths/~1a/post/parameters/1".to_owned(), false)]
        );
    }

    #[test]
    fn removals_renames_and_narrowing_break() {
        let breaking = |edit: fn(&mut Value)| {
            let found = changes(edit);
            assert!(!found.is_empty() && found.iter().all(|(_, b)| *b), "{found:?}");
            found.into_iter().map(|(p, _)| p).collect::<Vec<_>>()
        };
        // A path renamed: removed (breaking) and added (compatible).
        assert_eq!(
            changes(|d| {
                let item = d["paths"].as_object_mut().unwrap().remove("/a").unwrap();
                d["paths"]["/b"] = item;
            }),
            [("/paths/~1a".to_owned(), true), ("/paths/~1b".to_owned(), false)]
        );
        assert_eq!(breaking(|d| d["paths"]["/a"] = json!({})), ["/paths/~1a/post"]);
        assert_eq!(
            breaking(|d| *at(d, "/paths/~1a/post/parameters") = json!([])),
            ["/paths/~1a/post/parameters/0"]
        );
        assert_eq!(
            breaking(|d| {
                at(d, &format!("{ANSWER}/properties")).as_object_mut().unwrap().remove("id");
            }),
            [format!("{ANSWER}/properties/id")]
        );
        // Narrower request types and bounds, a new required request field.
        assert_eq!(
            breaking(|d| at(d, &format!("{BODY}/properties/size"))["type"] = json!("integer")),
            [format!("{BODY}/properties/size/type")]
        );
        assert_eq!(
            breaking(|d| at(d, &format!("{BODY}/properties/name"))["maxLength"] = json!(5)),
            [format!("{BODY}/properties/name/maxLength")]
        );
        assert_eq!(
            breaking(|d| {
                at(d, &format!("{BODY}/properties"))["flag"] = json!({"type": "boolean"});
                at(d, &format!("{BODY}/required")).as_array_mut().unwrap().push(json!("flag"));
            }),
            [format!("{BODY}/properties/flag")]
        );
        // A wider response type, a new required parameter, a new status, a renamed operation.
        assert_eq!(
            breaking(|d| at(d, &format!("{ANSWER}/properties/id"))["type"] = json!(["string", "null"])),
            [format!("{ANSWER}/properties/id/type")]
        );
        assert_eq!(
            breaking(|d| at(d, "/paths/~1a/post/parameters/0")["required"] = json!(true)),
            ["/paths/~1a/post/parameters/0/required"]
        );
        assert_eq!(
            breaking(|d| at(d, "/paths/~1a/post/responses")["201"] = json!({"description": "created"})),
            ["/paths/~1a/post/responses/201"]
        );
        assert_eq!(
            breaking(|d| at(d, "/paths/~1a/post")["operationId"] = json!("b")),
            ["/paths/~1a/post/operationId"]
        );
        // What is not understood breaks.
        assert_eq!(
            breaking(|d| at(d, &format!("{BODY}/properties/name"))["contentEncoding"] = json!("base64")),
            [format!("{BODY}/properties/name/contentEncoding")]
        );
    }

    #[test]
    fn three_zero_nullable_is_a_type() {
        let before = json!({"paths": {"/a": {"get": {"responses": {"200": {"content": {"application/json":
            {"schema": {"type": "string"}}}}}}}}});
        let mut after = before.clone();
        after["paths"]["/a"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]["nullable"] =
            json!(true);
        let changes = classify_changes(&before, &after);
        assert_eq!(changes.len(), 1, "{changes:?}");
        assert!(changes[0].breaking && changes[0].pointer.ends_with("/schema/type"), "{changes:?}");
        // Keywords missing or of odd types: compared, never a panic.
        let odd = [
            json!({"paths": {"/a": {"get": {"parameters": [{"name": "x", "in": "query", "schema": {}}],
                "requestBody": {"content": {"a": {"schema": {}}}}, "responses": {"200": {}}}}}}),
            json!({"paths": {"/a": {"get": {"parameters": [{"name": "x", "in": "query", "schema": {"minimum": 1}}],
                "requestBody": {"required": "yes", "content": {"a": {"schema": true}}}, "responses": {"200": 3}}}}}),
            json!({"paths": {"/a": {"get": {"parameters": {"x": 1}, "requestBody": 2, "responses": []}}},
                "components": {"schemas": {"S": {"type": 3, "enum": 4, "properties": [], "anyOf": {}}}}}),
            json!({"paths": [], "components": {"schemas": {"S": {"type": [3], "required": "x", "maximum": "y"}}}}),
        ];
        for x in &odd {
            for y in &odd {
                assert_eq!(classify_changes(x, y).is_empty(), x == y, "{x} {y}");
            }
        }
        // Not JSON objects at all: no panic, one breaking change.
        assert_eq!(classify_changes(&json!(1), &json!([2])).len(), 1);
    }
}
