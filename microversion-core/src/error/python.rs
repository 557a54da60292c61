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

/// The width Python's `jsonschema` pretty-prints a schema and an instance
/// to in its errors (`_pretty`: `pformat(thing, width=72, sort_dicts=False)`).
pub const JSONSCHEMA_PRETTY_WIDTH: usize = 72;

/// `value` as Python's `pprint.pformat(value, width=width,
/// sort_dicts=False)` writes what `json.loads` makes of it: its `repr` when
/// that fits the line, else a dict or list one item a line, a string in
/// pieces cut at its line breaks and after its spaces. Nothing is cut
/// short (unlike [`python_repr`]): pass only values of a bounded size.
pub fn python_pformat(value: &Value, width: usize) -> String {
    let mut out = String::new();
    PrettyPrinter { width: width as isize }.format(&mut out, value, 0, 0, 0);
    out
}

/// Python's `pprint.PrettyPrinter` with `indent=1`, `compact=False` and
/// `sort_dicts=False`, over JSON values: its methods, step by step.
struct PrettyPrinter {
    width: isize,
}

impl PrettyPrinter {
    /// `PrettyPrinter._format`: the repr, or the value over several lines
    /// when the repr is wider than what is left of the line.
    fn format(&self, out: &mut String, value: &Value, indent: isize, allowance: isize, level: usize) {
        let rep = full_repr(value);
        if chars(&rep) <= self.width - indent - allowance {
            out.push_str(&rep);
            return;
        }
        match value {
            Value::Object(map) => {
                out.push('{');
                if !map.is_empty() {
                    self.dict_items(out, map, indent, allowance + 1, level + 1);
                }
                out.push('}');
            }
            Value::Array(items) => {
                out.push('[');
                self.items(out, items, indent, allowance + 1, level + 1);
                out.push(']');
            }
            Value::String(text) => self.string(out, text, indent, allowance, level + 1),
            _ => out.push_str(&rep),
        }
    }

    /// `_format_dict_items`: `key: value` a line, each value indented past its key.
    fn dict_items(
        &self,
        out: &mut String,
        map: &serde_json::Map<String, Value>,
        indent: isize,
        allowance: isize,
        level: usize,
    ) {
        let indent = indent + 1;
        let last = map.len() - 1;
        for (i, (key, value)) in map.iter().enumerate() {
            let rep = full_repr(&Value::String(key.clone()));
            out.push_str(&rep);
            out.push_str(": ");
            let allowance = if i == last { allowance } else { 1 };
            self.format(out, value, indent + chars(&rep) + 2, allowance, level);
            if i != last {
                out.push(',');
                push_line_break(out, indent);
            }
        }
    }

    /// `_format_items`: one item a line.
    fn items(&self, out: &mut String, items: &[Value], indent: isize, allowance: isize, level: usize) {
        let indent = indent + 1;
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                out.push(',');
                push_line_break(out, indent);
            }
            let allowance = if i == items.len() - 1 { allowance } else { 1 };
            self.format(out, item, indent, allowance, level);
        }
    }

    /// `_pprint_str`: the string in pieces, each its own literal, cut at its
    /// line breaks and, where a line is still too wide, after a run of
    /// spaces; the pieces in parentheses at the top level.
    fn string(&self, out: &mut String, text: &str, mut indent: isize, mut allowance: isize, level: usize) {
        if level == 1 {
            indent += 1;
            allowance += 1;
        }
        let max_width = self.width - indent;
        let lines = python_splitlines(text);
        let mut chunks = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            let last_line = i == lines.len() - 1;
            let rep = full_repr(&Value::from(*line));
            if chars(&rep) <= max_width - if last_line { allowance } else { 0 } {
                chunks.push(rep);
                continue;
            }
            let parts = words_and_spaces(line);
            let mut current = String::new();
            for (j, part) in parts.iter().enumerate() {
                let last_part = last_line && j == parts.len() - 1;
                let candidate = format!("{current}{part}");
                let limit = max_width - if last_part { allowance } else { 0 };
                if chars(&full_repr(&Value::from(candidate.as_str()))) > limit {
                    if !current.is_empty() {
                        chunks.push(full_repr(&Value::from(current.as_str())));
                    }
                    current = (*part).to_owned();
                } else {
                    current = candidate;
                }
            }
            if !current.is_empty() {
                chunks.push(full_repr(&Value::from(current.as_str())));
            }
        }
        if chunks.len() <= 1 {
            out.push_str(&full_repr(&Value::from(text)));
            return;
        }
        if level == 1 {
            out.push('(');
        }
        for (i, chunk) in chunks.iter().enumerate() {
            if i > 0 {
                push_line_break(out, indent);
            }
            out.push_str(chunk);
        }
        if level == 1 {
            out.push(')');
        }
    }
}

/// The whole repr of `value`, nothing cut.
fn full_repr(value: &Value) -> String {
    let mut out = String::new();
    write_repr(&mut out, value, usize::MAX / 2);
    out
}

/// Python's `len` of a text: its characters.
fn chars(text: &str) -> isize {
    text.chars().count() as isize
}

/// A new line, `indent` spaces in.
fn push_line_break(out: &mut String, indent: isize) {
    out.push('\n');
    out.extend(std::iter::repeat_n(' ', indent.max(0) as usize));
}

/// Python's `str.splitlines(keepends=True)`.
fn python_splitlines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let end = match c {
            '\r' if chars.peek().is_some_and(|&(_, next)| next == '\n') => {
                chars.next();
                at + 2
            }
            '\n' | '\r' | '\x0b' | '\x0c' | '\x1c' | '\x1d' | '\x1e' | '\u{85}' | '\u{2028}' | '\u{2029}' => {
                at + c.len_utf8()
            }
            _ => continue,
        };
        lines.push(&text[start..end]);
        start = end;
    }
    if start < text.len() {
        lines.push(&text[start..]);
    }
    lines
}

/// Python's `re.findall(r'\S*\s*', line)` without its final empty match:
/// each run of non-spaces with the spaces after it.
fn words_and_spaces(line: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut in_spaces = false;
    for (at, c) in line.char_indices() {
        let space = python_space(c);
        if in_spaces && !space {
            parts.push(&line[start..at]);
            start = at;
        }
        in_spaces = space;
    }
    if start < line.len() {
        parts.push(&line[start..]);
    }
    parts
}

/// Whether Python's regular expressions count `c` as `\s` (`str.isspace`).
fn python_space(c: char) -> bool {
    matches!(c, '\t'..='\r' | '\x1c'..='\x1f' | ' ' | '\u{85}' | '\u{a0}' | '\u{1680}' | '\u{2000}'..='\u{200a}'
        | '\u{2028}' | '\u{2029}' | '\u{202f}' | '\u{205f}' | '\u{3000}')
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
            c if !python_printable(c) => match c as u32 {
                code @ ..=0xff => {
                    let _ = write!(out, "\\x{code:02x}");
                }
                code @ ..=0xffff => {
                    let _ = write!(out, "\\u{code:04x}");
                }
                code => {
                    let _ = write!(out, "\\U{code:08x}");
                }
            },
            c => out.push(c),
        }
    }
    out.push(quote);
}

/// The characters Python's `str.isprintable` refuses, which its `repr`
/// escapes: the control and format characters, the line and paragraph
/// separators, the spaces other than U+0020 and the private use areas
/// (Unicode 14, Python 3.11; unassigned code points, also escaped by
/// Python, are not listed).
const PYTHON_UNPRINTABLE: [(u32, u32); 28] = [
    (0x0, 0x1f),
    (0x7f, 0xa0),
    (0xad, 0xad),
    (0x600, 0x605),
    (0x61c, 0x61c),
    (0x6dd, 0x6dd),
    (0x70f, 0x70f),
    (0x890, 0x891),
    (0x8e2, 0x8e2),
    (0x1680, 0x1680),
    (0x180e, 0x180e),
    (0x2000, 0x200f),
    (0x2028, 0x202f),
    (0x205f, 0x2064),
    (0x2066, 0x206f),
    (0x3000, 0x3000),
    (0xe000, 0xf8ff),
    (0xfeff, 0xfeff),
    (0xfff9, 0xfffb),
    (0x110bd, 0x110bd),
    (0x110cd, 0x110cd),
    (0x13430, 0x13438),
    (0x1bca0, 0x1bca3),
    (0x1d173, 0x1d17a),
    (0xe0001, 0xe0001),
    (0xe0020, 0xe007f),
    (0xf0000, 0xffffd),
    (0x100000, 0x10fffd),
];

/// Whether Python's `repr` writes `c` as it is.
fn python_printable(c: char) -> bool {
    let code = c as u32;
    !PYTHON_UNPRINTABLE.iter().any(|&(first, last)| (first..=last).contains(&code))
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

    /// Outputs of Python 3.11's `pprint.pformat(json.loads(text), width=72,
    /// sort_dicts=False)` (the keys in order, which a map keeps with or
    /// without serde_json's `preserve_order`): nested maps, long lists, strings cut after their
    /// spaces and at their line breaks, quotes, unicode, floats, booleans
    /// and `None`.
    #[test]
    fn pretty_prints_as_pprint_does() {
        let cases = [
            (
                r#"{"additionalProperties": false, "properties": {"name": {"maxLength": 200, "type": "string"}, "parent_provider_uuid": {"anyOf": [{"format": "uuid", "type": "string"}, {"type": "null"}]}, "uuid": {"format": "uuid", "type": "string"}}, "required": ["name"], "type": "object"}"#,
                "{'additionalProperties': False,\n 'properties': {'name': {'maxLength': 200, 'type': 'string'},\n                'parent_provider_uuid': {'anyOf': [{'format': 'uuid',\n                                                    'type': 'string'},\n                                                   {'type': 'null'}]},\n                'uuid': {'format': 'uuid', 'type': 'string'}},\n 'required': ['name'],\n 'type': 'object'}",
            ),
            (
                r#"[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39]"#,
                "[0,\n 1,\n 2,\n 3,\n 4,\n 5,\n 6,\n 7,\n 8,\n 9,\n 10,\n 11,\n 12,\n 13,\n 14,\n 15,\n 16,\n 17,\n 18,\n 19,\n 20,\n 21,\n 22,\n 23,\n 24,\n 25,\n 26,\n 27,\n 28,\n 29,\n 30,\n 31,\n 32,\n 33,\n 34,\n 35,\n 36,\n 37,\n 38,\n 39]",
            ),
            (
                r#""word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word ""#,
                "('word word word word word word word word word word word word word '\n 'word word word word word word word word word word word word word '\n 'word word word word word word word word word word word word word '\n 'word ')",
            ),
            (
                r#""aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa""#,
                "'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'",
            ),
            (
                r#"{"k": "word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word "}"#,
                "{'k': 'word word word word word word word word word word word word '\n      'word word word word word word word word word word word word '\n      'word word word word word word '}",
            ),
            (
                r#"[1.5, 1e+20, 1.0, -0.0, 1e-07, 1.2345678901234568e+17, true, null, false]"#,
                "[1.5,\n 1e+20,\n 1.0,\n -0.0,\n 1e-07,\n 1.2345678901234568e+17,\n True,\n None,\n False]",
            ),
            (
                r#"{"nested": {"deeper": {"deepest": [{"a": 1, "b": [1, 2, 3]}, {"c": "dddddddddddddddddddddddddddddddddddddddddddddddddd"}]}}}"#,
                "{'nested': {'deeper': {'deepest': [{'a': 1, 'b': [1, 2, 3]},\n                                   {'c': 'dddddddddddddddddddddddddddddddddddddddddddddddddd'}]}}}",
            ),
            (
                r#"{"line\nbreak": "one\ntwo\nthree one\ntwo\nthree one\ntwo\nthree one\ntwo\nthree one\ntwo\nthree one\ntwo\nthree one\ntwo\nthree one\ntwo\nthree one\ntwo\nthree one\ntwo\nthree "}"#,
                "{'line\\nbreak': 'one\\n'\n                'two\\n'\n                'three one\\n'\n                'two\\n'\n                'three one\\n'\n                'two\\n'\n                'three one\\n'\n                'two\\n'\n                'three one\\n'\n                'two\\n'\n                'three one\\n'\n                'two\\n'\n                'three one\\n'\n                'two\\n'\n                'three one\\n'\n                'two\\n'\n                'three one\\n'\n                'two\\n'\n                'three one\\n'\n                'two\\n'\n                'three '}",
            ),
            (
                r#"[[["xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyy"], ["zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"]]]"#,
                "[[['xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', 'yyyyyyyyyyyyyyyyyyyyyyyyyyyyyy'],\n  ['zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz']]]",
            ),
            (r#"{}"#, "{}"),
            (r#"[]"#, "[]"),
            (r#""""#, "''"),
            (
                r#""it's \"quoted\" it's \"quoted\" it's \"quoted\" it's \"quoted\" it's \"quoted\" it's \"quoted\" it's \"quoted\" it's \"quoted\" ""#,
                "('it\\'s \"quoted\" it\\'s \"quoted\" it\\'s \"quoted\" it\\'s \"quoted\" it\\'s '\n '\"quoted\" it\\'s \"quoted\" it\\'s \"quoted\" it\\'s \"quoted\" ')",
            ),
            (r#"{"a": [], "b": {}, "c": ""}"#, "{'a': [], 'b': {}, 'c': ''}"),
            (
                r#"["\u00ad\u2028\u001c tab\t\u00ad\u2028\u001c tab\t\u00ad\u2028\u001c tab\t\u00ad\u2028\u001c tab\t\u00ad\u2028\u001c tab\t\u00ad\u2028\u001c tab\t"]"#,
                "['\\xad\\u2028'\n '\\x1c'\n ' tab\\t\\xad\\u2028'\n '\\x1c'\n ' tab\\t\\xad\\u2028'\n '\\x1c'\n ' tab\\t\\xad\\u2028'\n '\\x1c'\n ' tab\\t\\xad\\u2028'\n '\\x1c'\n ' tab\\t\\xad\\u2028'\n '\\x1c'\n ' tab\\t']",
            ),
            (
                r#""é☃ü x é☃ü x é☃ü x é☃ü x é☃ü x é☃ü x é☃ü x é☃ü x é☃ü x é☃ü x é☃ü x é☃ü x é☃ü x é☃ü x ""#,
                "('é☃ü x é☃ü x é☃ü x é☃ü x é☃ü x é☃ü x é☃ü x é☃ü x é☃ü x é☃ü x é☃ü x '\n 'é☃ü x é☃ü x é☃ü x ')",
            ),
            (
                r#"{"ünï": ["éééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééé"]}"#,
                "{'ünï': ['éééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééé']}",
            ),
        ];
        for (json, python) in cases {
            let value: Value = serde_json::from_str(json).expect("a JSON case");
            assert_eq!(python_pformat(&value, JSONSCHEMA_PRETTY_WIDTH), python, "{json}");
        }
    }
}
