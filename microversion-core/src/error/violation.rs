//! [`Violation`]: one way a request broke its schema, with the keyword that
//! failed, where, the value, and the message in the words OpenStack's
//! clients match on (docs/reference.md §5.3).

use std::fmt;

use serde_json::Value;

use crate::error::python::python_index;
pub use crate::error::python::{
    JSONSCHEMA_PRETTY_WIDTH, MAX_ECHOED_VALUE_CHARS, MAX_MESSAGE_CHARS, python_pformat, python_repr,
    python_str,
};

/// Where the offending value came from: the body or the query string
/// (Nova words the two differently).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Input {
    /// The request body.
    #[default]
    Body,
    /// The query string, seen as `{"key": ["value", ...]}`.
    Query,
}

/// One violation of a request schema: the keyword that failed, where in the
/// document, the offending value, and what is wrong.
///
/// The message is written the way Python's `jsonschema` writes it (values as
/// Python's `repr`): Nova and Placement put that text in their errors and
/// their clients match on it. [`Display`](fmt::Display) gives Nova's
/// sentence:
///
/// ```
/// use microversion_core::Violation;
/// use serde_json::json;
///
/// let v = Violation::new("/server/flavorRef", "format", "'abc' is not a 'uuid'").with_value(&json!("abc"));
/// assert_eq!(v.to_string(), "Invalid input for field/attribute flavorRef. Value: abc. 'abc' is not a 'uuid'");
/// assert_eq!(v.value, Some(json!("abc")));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Violation {
    /// The JSON Pointer of the offending value (`/flavor/ram`); empty for the whole document.
    pub path: String,
    /// The JSON Schema keyword that failed (`type`, `format`, `required`,
    /// `additionalProperties`, ...).
    pub keyword: &'static str,
    /// The JSON Pointer of that keyword in the schema
    /// (`/properties/flavor/properties/ram/type`); empty when the violation
    /// does not come from a schema.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub schema_path: String,
    /// The offending value, when its JSON text is at most
    /// [`MAX_ECHOED_VALUE_CHARS`] long.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
    /// What is wrong, as Python's `jsonschema` says it (`'abc' is not a 'uuid'`).
    pub message: String,
    /// Whether the value came from the body or the query string.
    #[serde(skip_serializing_if = "is_body")]
    pub input: Input,
    /// For an `anyOf`/`oneOf`: the alternative's violation that Python's
    /// `best_match` reports in its place (the most specific one), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cause: Option<Box<Violation>>,
}

fn is_body(input: &Input) -> bool {
    *input == Input::Body
}

impl Violation {
    /// A violation at `path` of `keyword`, saying `message`.
    pub fn new(path: impl Into<String>, keyword: &'static str, message: impl Into<String>) -> Violation {
        Violation {
            path: path.into(),
            keyword,
            schema_path: String::new(),
            value: None,
            message: message.into(),
            input: Input::Body,
            cause: None,
        }
    }

    /// Records the offending value, if it is short enough to echo.
    pub fn with_value(mut self, value: &Value) -> Violation {
        self.value = echoable(value);
        self
    }

    /// Records where in the schema the failing keyword is.
    pub fn with_schema_path(mut self, schema_path: impl Into<String>) -> Violation {
        self.schema_path = schema_path.into();
        self
    }

    /// Marks the violation as one of the query string.
    pub fn in_query(mut self) -> Violation {
        self.input = Input::Query;
        self
    }

    /// The last segment of the path (the field name), or `None` for the whole document.
    pub fn field(&self) -> Option<&str> {
        self.path.rsplit('/').next().filter(|_| !self.path.is_empty())
    }

    /// The path's segments, `~1` and `~0` decoded.
    pub fn segments(&self) -> impl Iterator<Item = String> + '_ {
        self.path.split('/').skip(1).map(|s| s.replace("~1", "/").replace("~0", "~"))
    }

    /// The path as Python's `jsonschema` shows it, after `instance`:
    /// `['flavor']['ram']`, `['networks'][0]`.
    pub fn python_path(&self) -> String {
        python_index(&self.path)
    }

    /// The schema path of the failing keyword's schema as Python's
    /// `jsonschema` shows it, after `schema`: `['properties']['ram']`.
    pub fn python_schema_path(&self) -> String {
        // Python names the schema that holds the keyword, not the keyword.
        let parent = self.schema_path.rsplit_once('/').map_or("", |(parent, _)| parent);
        python_index(parent)
    }
}

impl Violation {
    /// `str()` of Python's `jsonschema.ValidationError` for this violation:
    /// the message; the keyword and the schema path of the schema holding
    /// it, then that schema (`holder`, the schema's part at the parent of
    /// [`schema_path`](Violation::schema_path)); the instance path, then
    /// the value; the schema and the value pretty-printed as `jsonschema`'s
    /// `_pretty` does ([`python_pformat`], four spaces in), or `...` when
    /// not known (a value too long to echo).
    ///
    /// For a violation Python's `best_match` reached inside an
    /// `anyOf`/`oneOf` ([`best_match_within`]), Python shows the paths
    /// relative to that alternative's keyword: pass it as `within`.
    pub fn python_text(&self, holder: Option<&Value>, within: Option<&Violation>) -> String {
        let pretty = |value: Option<&Value>| {
            value
                .map_or_else(|| "...".to_owned(), |v| python_pformat(v, JSONSCHEMA_PRETTY_WIDTH))
                .replace('\n', "\n    ")
        };
        let relative = |path: &str, base: Option<&str>| {
            base.and_then(|base| path.strip_prefix(base)).unwrap_or(path).to_owned()
        };
        let schema_path = relative(&self.schema_path, within.map(|w| w.schema_path.as_str()));
        let holder_path = schema_path.rsplit_once('/').map_or("", |(parent, _)| parent);
        let instance_path = relative(&self.path, within.map(|w| w.path.as_str()));
        format!(
            "{}\n\nFailed validating {} in schema{}:\n    {}\n\nOn instance{}:\n    {}",
            self.message,
            python_repr(&Value::from(self.keyword)),
            python_index(holder_path),
            pretty(holder),
            python_index(&instance_path),
            pretty(self.value.as_ref()),
        )
    }
}

/// Nova's sentence (`nova.api.validation.validators`): the field, the value
/// as Python's `str` shows it, and the validator's message; for the whole
/// document, the message alone.
impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(first) = self.segments().next() else { return f.write_str(&self.message) };
        let (what, field) = match self.input {
            // Nova names the query parameter (the first segment), a body's innermost field.
            Input::Query => ("query parameters", first),
            Input::Body => ("field/attribute", self.segments().last().unwrap_or(first)),
        };
        let value = self.value.as_ref().map_or_else(|| "...".to_owned(), python_str);
        write!(f, "Invalid input for {what} {field}. Value: {value}. {}", self.message)
    }
}

/// The violation Python's `jsonschema.validate` reports of several (its
/// `best_match`, which Placement shows): the one highest in the document,
/// then the greatest path of siblings, then not `anyOf`/`oneOf`; the first
/// of equals; then, for an `anyOf`/`oneOf`, the [`Violation::cause`] Python
/// descends to.
pub fn best_match(violations: &[Violation]) -> Option<&Violation> {
    best_match_within(violations).map(|(best, _)| best)
}

/// [`best_match`], with the `anyOf`/`oneOf` violation whose alternative it
/// was found in (`None` for a violation of the document's own schema), to
/// which Python's error relates its paths ([`Violation::python_text`]).
pub fn best_match_within(violations: &[Violation]) -> Option<(&Violation, Option<&Violation>)> {
    let weak = |v: &Violation| matches!(v.keyword, "anyOf" | "oneOf");
    let mut best: Option<&Violation> = None;
    for violation in violations {
        let better = best.is_none_or(|b| {
            let depth = |v: &Violation| v.segments().count();
            depth(violation)
                .cmp(&depth(b))
                .reverse()
                .then_with(|| compare_paths(violation, b))
                .then_with(|| (!weak(violation)).cmp(&!weak(b)))
                .is_gt()
        });
        if better {
            best = Some(violation);
        }
    }
    let mut best = best?;
    let mut within = None;
    while let Some(cause) = best.cause.as_deref() {
        within = Some(best);
        best = cause;
    }
    Some((best, within))
}

/// Paths compared as Python compares its path deques: segment by segment,
/// array indexes as numbers.
fn compare_paths(a: &Violation, b: &Violation) -> std::cmp::Ordering {
    let key = |s: String| match s.parse::<u64>() {
        Ok(index) => (index, String::new()),
        Err(_) => (0, s),
    };
    a.segments().map(key).cmp(b.segments().map(key))
}

/// `value`, if its JSON text is short enough to echo.
fn echoable(value: &Value) -> Option<Value> {
    let fits = match value {
        Value::String(s) => s.chars().count() <= MAX_ECHOED_VALUE_CHARS,
        Value::Array(_) | Value::Object(_) => {
            let mut counter = LimitedWriter { left: MAX_ECHOED_VALUE_CHARS };
            serde_json::to_writer(&mut counter, value).is_ok()
        }
        _ => true,
    };
    fits.then(|| value.clone())
}

/// Counts bytes written and fails past its limit, so that a huge value is
/// never serialized whole just to be measured.
struct LimitedWriter {
    left: usize,
}

impl std::io::Write for LimitedWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.left = self.left.checked_sub(buf.len()).ok_or(std::io::ErrorKind::WriteZero)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn huge_values_are_cut_not_echoed() {
        let long = "x".repeat(10_000);
        let repr = python_repr(&json!(long));
        assert_eq!(repr, format!("'{}'...", "x".repeat(MAX_ECHOED_VALUE_CHARS)));
        let list = Value::Array(vec![json!("abcdef"); 10_000]);
        assert!(python_repr(&list).len() < 2 * MAX_ECHOED_VALUE_CHARS, "{}", python_repr(&list));
        let v = Violation::new("/a", "maxLength", "m").with_value(&json!(long));
        assert_eq!(v.value, None);
        assert_eq!(Violation::new("/a", "type", "m").with_value(&list).value, None);
        assert_eq!(Violation::new("/a", "type", "m").with_value(&json!([1, 2])).value, Some(json!([1, 2])));
    }

    #[test]
    fn paths_read_as_python_writes_them() {
        let v = Violation::new("/networks/0/a~1b", "type", "m")
            .with_schema_path("/properties/networks/items/type");
        assert_eq!(v.python_path(), "['networks'][0]['a/b']");
        assert_eq!(v.python_schema_path(), "['properties']['networks']['items']");
        assert_eq!(Violation::new("", "type", "m").python_path(), "");
    }

    #[test]
    fn sentences_are_novas() {
        let body =
            Violation::new("/flavor/ram", "type", "'abc' is not of type 'integer'").with_value(&json!("abc"));
        assert_eq!(
            body.to_string(),
            "Invalid input for field/attribute ram. Value: abc. 'abc' is not of type 'integer'"
        );
        let query = Violation::new("/limit/0", "pattern", "'x' does not match '^[0-9]+$'")
            .with_value(&json!("x"))
            .in_query();
        assert_eq!(
            query.to_string(),
            "Invalid input for query parameters limit. Value: x. 'x' does not match '^[0-9]+$'"
        );
        let root = Violation::new("", "required", "'flavor' is a required property").with_value(&json!({}));
        assert_eq!(root.to_string(), "'flavor' is a required property");
    }

    #[test]
    fn best_match_prefers_the_shallowest_strong_violation() {
        let deep = Violation::new("/a/b", "type", "deep");
        let weak = Violation::new("/c", "anyOf", "weak");
        let strong = Violation::new("/c", "format", "strong");
        let sibling = Violation::new("/b", "format", "sibling");
        let all = [deep, weak, strong.clone(), sibling];
        assert_eq!(best_match(&all), Some(&strong));
        let indexed = [Violation::new("/10", "type", "ten"), Violation::new("/9", "type", "nine")];
        assert_eq!(best_match(&indexed).map(|v| v.message.as_str()), Some("ten"));
        assert_eq!(best_match(&[]), None);
    }

    /// Python's `str(jsonschema.ValidationError)` (jsonschema 4.26) of a
    /// violation of the document's schema, and of one `best_match` found in
    /// an `anyOf` alternative, whose paths Python relates to it.
    #[test]
    fn texts_are_pythons_validation_errors() {
        let holder = json!({"maxLength": 200, "type": "string"});
        let name = Violation::new("/name", "type", "5 is not of type 'string'")
            .with_value(&json!(5))
            .with_schema_path("/properties/name/type");
        assert_eq!(
            name.python_text(Some(&holder), None),
            "5 is not of type 'string'\n\nFailed validating 'type' in schema['properties']['name']:\n    \
             {'maxLength': 200, 'type': 'string'}\n\nOn instance['name']:\n    5"
        );
        let mut any_of =
            Violation::new("/parent", "anyOf", "'abcd' is not valid under any of the given schemas")
                .with_value(&json!("abcd"))
                .with_schema_path("/properties/parent/anyOf");
        any_of.cause = Some(Box::new(
            Violation::new("/parent", "maxLength", "'abcd' is too long")
                .with_value(&json!("abcd"))
                .with_schema_path("/properties/parent/anyOf/0/maxLength"),
        ));
        let violations = [any_of];
        let (best, within) = best_match_within(&violations).expect("a best match");
        assert_eq!(within.map(|w| w.keyword), Some("anyOf"));
        assert_eq!(
            best.python_text(Some(&json!({"maxLength": 3, "type": "string"})), within),
            "'abcd' is too long\n\nFailed validating 'maxLength' in schema[0]:\n    \
             {'maxLength': 3, 'type': 'string'}\n\nOn instance:\n    'abcd'"
        );
        let long = Violation::new("", "type", "m").with_schema_path("/type");
        let wide = json!({"properties": {"a": {"type": "string"}, "b": {"type": "string"}, "c": {"type": "integer"}}});
        assert_eq!(
            long.python_text(Some(&wide), None),
            "m\n\nFailed validating 'type' in schema:\n    \
             {'properties': {'a': {'type': 'string'},\n    \
             \x20               'b': {'type': 'string'},\n    \
             \x20               'c': {'type': 'integer'}}}\n\nOn instance:\n    ..."
        );
    }
}
