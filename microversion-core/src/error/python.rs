//! Python's words, as OpenStack's clients read them: a value as Python's
//! `repr` and `str` write it, a JSON Pointer as `format_as_index` writes
//! it, and the message Python's `jsonschema` gives for each failed keyword
//! (docs/reference.md §5.3), every echoed value cut to a bound.

use std::fmt::Write as _;

use serde_json::Value;

/// How many characters of an offending value a message or a
/// [`Violation::value`](crate::Violation::value) echoes: a client sees what it sent (a name of 255
/// characters, the longest OpenStack's APIs take), never a whole huge
/// document sent back.
pub const MAX_ECHOED_VALUE_CHARS: usize = 255;

/// How long one violation message may be before it is cut, `...` marking
/// the cut: the client's values in it are already cut; an enum or the
/// patterns of the schema may be long.
pub const MAX_MESSAGE_CHARS: usize = 1024;

/// A JSON Pointer as Python's `format_as_index` writes it.
pub(crate) fn python_index(pointer: &str) -> String {
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
}
