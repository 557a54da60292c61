//! A query string as the schemas read it (docs/reference.md §6.4): every
//! value a string in a list, as Nova's validators see it, or each value by
//! the type its property names, for a typed query.

use serde_json::{Map, Value};

/// A query string as Nova's validators see it: `{"key": ["v1", "v2"]}`,
/// every value a string, repeated keys collected in order, percent-encoding
/// and `+` decoded (invalid UTF-8 replaced, never an error).
///
/// ```
/// use microversion_core::schema::query_to_json;
/// use serde_json::json;
///
/// assert_eq!(query_to_json("a=1&b=x%20y&a=2&c"), json!({"a": ["1", "2"], "b": ["x y"], "c": [""]}));
/// ```
pub fn query_to_json(query: &str) -> Value {
    let mut map = Map::new();
    for (key, value) in form_urlencoded::parse(query.as_bytes()) {
        let entry = map.entry(key.into_owned()).or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(values) = entry {
            values.push(Value::String(value.into_owned()));
        }
    }
    Value::Object(map)
}

/// A query string read by the types of the schema of the object it
/// describes (a `schemars::JsonSchema` type's): a key whose property is an
/// array gets the list of its values, any other key its value (a key given
/// twice gets both, which the schema then refuses). A value stays a string
/// where its property admits one; else it becomes the integer, number or
/// boolean (`true`, `false`) the property asks for, when it reads as one,
/// and stays a string that the schema refuses when it does not.
///
/// ```
/// use microversion_core::schema::typed_query_to_json;
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {
///     "limit": {"type": ["integer", "null"], "minimum": 0},
///     "tag": {"type": "array", "items": {"type": "string"}},
///     "all": {"type": "boolean"},
///     "name": {"type": "string"},
/// }});
/// assert_eq!(
///     typed_query_to_json("limit=10&tag=a&tag=b&all=true&name=7", &schema),
///     json!({"limit": 10, "tag": ["a", "b"], "all": true, "name": "7"}),
/// );
/// assert_eq!(typed_query_to_json("limit=ten&limit=1", &schema), json!({"limit": ["ten", 1]}));
/// ```
pub fn typed_query_to_json(query: &str, schema: &Value) -> Value {
    let mut map = Map::new();
    for (key, value) in form_urlencoded::parse(query.as_bytes()) {
        let property = &schema["properties"][key.as_ref()];
        let (value, listed) = match admits(property, "array") {
            true => (typed_query_value(&property["items"], value.into_owned()), true),
            false => (typed_query_value(property, value.into_owned()), false),
        };
        match map.entry(key.into_owned()) {
            serde_json::map::Entry::Vacant(entry) => {
                entry.insert(if listed { Value::Array(vec![value]) } else { value });
            }
            serde_json::map::Entry::Occupied(mut entry) => match entry.get_mut() {
                Value::Array(values) => values.push(value),
                first => *first = Value::Array(vec![first.take(), value]),
            },
        }
    }
    Value::Object(map)
}

/// One query value as its property's types ask (see [`typed_query_to_json`]).
fn typed_query_value(property: &Value, text: String) -> Value {
    let asks = |name| admits(property, name);
    if !names_a_type(property) || asks("string") {
        return Value::String(text);
    }
    if asks("integer") {
        if let Ok(integer) = text.parse::<i64>() {
            return integer.into();
        }
        if let Ok(integer) = text.parse::<u64>() {
            return integer.into();
        }
    }
    if asks("number")
        && let Some(number) = text.parse::<f64>().ok().and_then(serde_json::Number::from_f64)
    {
        return Value::Number(number);
    }
    match text.as_str() {
        "true" | "false" if asks("boolean") => Value::Bool(text == "true"),
        _ => Value::String(text),
    }
}

/// Whether a schema names the type `name`, in its `type` or its
/// alternatives' (`anyOf`, `oneOf`, as `schemars` writes an `Option` of a
/// type of its own).
fn admits(schema: &Value, name: &str) -> bool {
    let named = match &schema["type"] {
        Value::String(own) => own == name,
        Value::Array(names) => names.iter().any(|n| n == name),
        _ => false,
    };
    named || alternatives(schema).any(|alternative| admits(alternative, name))
}

/// Whether a schema names any type, itself or through its alternatives.
fn names_a_type(schema: &Value) -> bool {
    matches!(schema["type"], Value::String(_) | Value::Array(_)) || alternatives(schema).any(names_a_type)
}

fn alternatives(schema: &Value) -> impl Iterator<Item = &Value> {
    [&schema["anyOf"], &schema["oneOf"]].into_iter().filter_map(Value::as_array).flatten()
}
