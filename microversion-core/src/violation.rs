//! [`Violation`]: one way a request broke its schema, with the keyword that
//! failed, where, the value, and the message in the words OpenStack's
//! clients match on (docs/reference.md §5.3).

use std::fmt::{self, Write as _};

use serde_json::Value;

/// How many characters of an offending value a message or a
/// [`Violation::value`] echoes: a client sees what it sent (a name of 255
/// characters, the longest OpenStack's APIs take), never a whole huge
/// document sent back.
pub const MAX_ECHOED_VALUE_CHARS: usize = 255;

/// How long one violation message may be before it is cut, `...` marking
/// the cut: the client's values in it are already cut; an enum or the
/// patterns of the schema may be long.
pub const MAX_MESSAGE_CHARS: usize = 1024;

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
    while let Some(cause) = best.and_then(|b| b.cause.as_deref()) {
        best = Some(cause);
    }
    best
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

/// A JSON Pointer as Python's `format_as_index` writes it.
fn python_index(pointer: &str) -> String {
    let mut out = String::new();
    for segment in pointer.split('/').skip(1) {
        let segment = segment.replace("~1", "/").replace("~0", "~");
        match segment.parse::<u64>() {
            Ok(index) if !segment.starts_with('+') => {
                let _ = write!(out, "[{index}]");
            }
            _ => {
                out.push('[');
                push_python_str(&mut out, &segment);
                out.push(']');
            }
        }
    }
    out
}

/// `value` as Python's `repr` writes it, cut to [`MAX_ECHOED_VALUE_CHARS`]
/// characters (`...` marks the cut).
pub fn python_repr(value: &Value) -> String {
    let mut out = String::new();
    write_repr(&mut out, value, MAX_ECHOED_VALUE_CHARS);
    out
}

/// A part of the schema (a pattern, an enum, a limit) as Python's `repr`
/// writes it: not the client's, so not cut here (the message is, as a whole).
#[cfg(feature = "schema")]
fn schema_repr(value: &Value) -> String {
    let mut out = String::new();
    write_repr(&mut out, value, usize::MAX / 2);
    out
}

/// `value` as Python's `str` writes it (a string bare, anything else as
/// `repr`), cut the same way.
pub fn python_str(value: &Value) -> String {
    match value {
        Value::String(s) => cut(s, MAX_ECHOED_VALUE_CHARS),
        other => python_repr(other),
    }
}

fn cut(text: &str, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_owned(),
    }
}

/// Writes the repr of `value`, stopping (with `...`) once `out` has grown by `budget` characters.
fn write_repr(out: &mut String, value: &Value, budget: usize) {
    let start = out.len();
    let over = |out: &String| out.len() - start > budget;
    match value {
        Value::Null => out.push_str("None"),
        Value::Bool(true) => out.push_str("True"),
        Value::Bool(false) => out.push_str("False"),
        Value::Number(n) => push_python_number(out, n),
        Value::String(s) => {
            let cutted = cut(s, budget);
            push_python_str(out, cutted.strip_suffix("...").unwrap_or(&cutted));
            if cutted.len() != s.len() {
                out.push_str("...");
            }
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if over(out) {
                    out.push_str("...");
                    break;
                }
                if i > 0 {
                    out.push_str(", ");
                }
                write_repr(out, item, budget);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if over(out) {
                    out.push_str("...");
                    break;
                }
                if i > 0 {
                    out.push_str(", ");
                }
                push_python_str(out, key);
                out.push_str(": ");
                write_repr(out, item, budget);
            }
            out.push('}');
        }
    }
}

/// A string literal as Python's `repr` writes it: single quotes unless the
/// text has one and no double quote; backslash escapes for control characters.
fn push_python_str(out: &mut String, text: &str) {
    let quote = if text.contains('\'') && !text.contains('"') { '"' } else { '\'' };
    out.push(quote);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || (0x7f..0xa0).contains(&(c as u32)) => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push(quote);
}

/// A JSON number as Python shows the `int` or `float` `json.loads` makes of it.
fn push_python_number(out: &mut String, number: &serde_json::Number) {
    if number.is_f64() {
        let f = number.as_f64().unwrap_or_default();
        // Python's repr: shortest round-trip digits, exponent past 1e16 or below 1e-4.
        let debug = format!("{f:?}");
        match debug.split_once('e') {
            Some((mantissa, exp)) => {
                let (sign, digits) = exp.strip_prefix('-').map_or(("+", exp), |d| ("-", d));
                let _ = write!(out, "{mantissa}e{sign}{digits:0>2}");
            }
            None => out.push_str(&debug),
        }
    } else {
        let _ = write!(out, "{number}");
    }
}

#[cfg(feature = "schema")]
/// Python's `jsonschema` message for a failed keyword. `schema` is the
/// schema object holding the keyword (Python's `error.schema`), for the
/// messages that name it.
pub(crate) fn python_message(error: &jsonschema::ValidationError<'_>, schema: Option<&Value>) -> String {
    use jsonschema::error::{TypeKind, ValidationErrorKind as Kind};
    let instance = error.instance();
    let r = python_repr(instance);
    // The client's names, sorted as Python sorts them, as many as the echo allows.
    let extras = |names: &[String]| {
        let mut names: Vec<&String> = names.iter().collect();
        names.sort();
        let mut joined = String::new();
        for name in &names {
            if joined.len() > MAX_ECHOED_VALUE_CHARS {
                joined.push_str(", ...");
                break;
            }
            if !joined.is_empty() {
                joined.push_str(", ");
            }
            joined.push_str(&python_repr(&Value::String((*name).clone())));
        }
        (joined, names.len() == 1)
    };
    let number = schema_repr;
    match error.kind() {
        Kind::AdditionalProperties { unexpected } => {
            let (joined, one) = extras(unexpected);
            match schema.and_then(|s| s.get("patternProperties")).and_then(Value::as_object) {
                Some(patterns) => {
                    let mut patterns: Vec<&String> = patterns.keys().collect();
                    patterns.sort();
                    let patterns: Vec<String> =
                        patterns.iter().map(|p| schema_repr(&Value::String((*p).clone()))).collect();
                    let verb = if one { "does" } else { "do" };
                    format!("{joined} {verb} not match any of the regexes: {}", patterns.join(", "))
                }
                None => {
                    let verb = if one { "was" } else { "were" };
                    format!("Additional properties are not allowed ({joined} {verb} unexpected)")
                }
            }
        }
        Kind::UnevaluatedProperties { unexpected } => {
            let (joined, one) = extras(unexpected);
            let verb = if one { "was" } else { "were" };
            format!("Unevaluated properties are not allowed ({joined} {verb} unexpected)")
        }
        Kind::AnyOf { .. } | Kind::OneOfNotValid { .. } => {
            format!("{r} is not valid under any of the given schemas")
        }
        Kind::OneOfMultipleValid { .. } => format!("{r} is valid under more than one of the given schemas"),
        Kind::Constant { expected_value } => format!("{} was expected", schema_repr(expected_value)),
        Kind::Contains => format!("{r} does not contain items matching the given schema"),
        Kind::Enum { options } => format!("{r} is not one of {}", schema_repr(options)),
        Kind::ExclusiveMaximum { limit } => {
            format!("{r} is greater than or equal to the maximum of {}", number(limit))
        }
        Kind::ExclusiveMinimum { limit } => {
            format!("{r} is less than or equal to the minimum of {}", number(limit))
        }
        Kind::Maximum { limit } => format!("{r} is greater than the maximum of {}", number(limit)),
        Kind::Minimum { limit } => format!("{r} is less than the minimum of {}", number(limit)),
        Kind::FalseSchema => format!("False schema does not allow {r}"),
        Kind::Format { format } => format!("{r} is not a '{format}'"),
        Kind::MaxItems { limit: 0 } | Kind::MaxLength { limit: 0 } | Kind::MaxProperties { limit: 0 } => {
            format!("{r} is expected to be empty")
        }
        Kind::MinItems { limit: 1 } | Kind::MinLength { limit: 1 } | Kind::MinProperties { limit: 1 } => {
            format!("{r} should be non-empty")
        }
        Kind::MaxItems { .. } | Kind::MaxLength { .. } => format!("{r} is too long"),
        Kind::MinItems { .. } | Kind::MinLength { .. } => format!("{r} is too short"),
        Kind::MaxProperties { .. } => format!("{r} has too many properties"),
        Kind::MinProperties { .. } => format!("{r} does not have enough properties"),
        Kind::MultipleOf { multiple_of } => format!("{r} is not a multiple of {multiple_of}"),
        Kind::Not { schema } => format!("{r} should not be valid under {}", schema_repr(schema)),
        Kind::Pattern { pattern } => {
            format!("{r} does not match {}", schema_repr(&Value::String(pattern.clone())))
        }
        Kind::PropertyNames { error } => python_message(error, None),
        Kind::Required { property } => format!("{} is a required property", python_repr(property)),
        Kind::Type { kind } => {
            // The types in the schema's order, as Python lists them.
            let names: Vec<String> = match (schema.and_then(|s| s.get("type")), kind) {
                (Some(Value::Array(listed)), _) => listed.iter().map(schema_repr).collect(),
                (_, TypeKind::Single(one)) => vec![format!("'{one}'")],
                (_, TypeKind::Multiple(set)) => set.iter().map(|t| format!("'{t}'")).collect(),
            };
            format!("{r} is not of type {}", names.join(", "))
        }
        Kind::UniqueItems => format!("{r} has non-unique elements"),
        // Keywords the services' schemas do not use, or failures of the
        // validator itself: the validator's own words.
        _ => error.to_string(),
    }
}

/// The keyword of a failed check, as a static name.
#[cfg(feature = "schema")]
pub(crate) fn keyword_of(error: &jsonschema::ValidationError<'_>) -> &'static str {
    const KEYWORDS: [&str; 33] = [
        "additionalItems",
        "additionalProperties",
        "anyOf",
        "pattern",
        "const",
        "contains",
        "contentEncoding",
        "contentMediaType",
        "enum",
        "exclusiveMaximum",
        "exclusiveMinimum",
        "falseSchema",
        "format",
        "maxItems",
        "maximum",
        "maxLength",
        "maxProperties",
        "minItems",
        "minimum",
        "minLength",
        "minProperties",
        "multipleOf",
        "not",
        "oneOf",
        "propertyNames",
        "required",
        "type",
        "unevaluatedItems",
        "unevaluatedProperties",
        "uniqueItems",
        "$ref",
        "dependentRequired",
        "items",
    ];
    let keyword = error.kind().keyword();
    KEYWORDS.into_iter().find(|k| *k == keyword).unwrap_or("custom")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_read_as_python_writes_them() {
        assert_eq!(python_repr(&json!("abc")), "'abc'");
        assert_eq!(python_repr(&json!("it's")), "\"it's\"");
        assert_eq!(python_repr(&json!("it's \"q\"")), "'it\\'s \"q\"'");
        assert_eq!(python_repr(&json!("a\nb\\")), "'a\\nb\\\\'");
        assert_eq!(python_repr(&json!([1, true, null, {"k": 1.5}])), "[1, True, None, {'k': 1.5}]");
        assert_eq!(python_repr(&json!(2.0)), "2.0");
        assert_eq!(python_repr(&json!(1e20)), "1e+20");
        assert_eq!(python_repr(&json!(1.5e-7)), "1.5e-07");
        assert_eq!(python_str(&json!("abc")), "abc");
        assert_eq!(python_str(&json!({"a": "b"})), "{'a': 'b'}");
    }

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
}
