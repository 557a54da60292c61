//! Query strings read as Placement reads them: every value of every key,
//! in order, with Placement's messages for values it refuses.

use microversion_actix::ApiError;
use microversion_actix::error::{Violation, python_repr};
use serde_json::{Map, Value};

use crate::api::PLACEMENT;
use crate::errors;

/// The pairs of a query string, decoded.
pub(crate) struct Query(Vec<(String, String)>);

impl Query {
    /// Parses `query` (the raw query string).
    pub(crate) fn parse(query: &str) -> Query {
        Query(url_decode_pairs(query))
    }

    /// The last value of `key` (as `req.GET[key]`).
    pub(crate) fn get(&self, key: &str) -> Option<&str> {
        self.0.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// Every pair, in order.
    pub(crate) fn pairs(&self) -> &[(String, String)] {
        &self.0
    }

    /// Every value of `key`.
    pub(crate) fn all(&self, key: &str) -> Vec<&str> {
        self.0.iter().filter(|(k, _)| k == key).map(|(_, v)| v.as_str()).collect()
    }

    /// Refuses any key outside the `properties` of `schema`, Placement's
    /// query schema (`additionalProperties: false`), as Placement words it.
    pub(crate) fn only(&self, schema: &Value) -> Result<(), ApiError> {
        let known = schema["properties"].as_object();
        // Python's jsonschema names every unknown key, sorted (`extras_msg`).
        let extras: std::collections::BTreeSet<&str> = self
            .0
            .iter()
            .map(|(k, _)| k.as_str())
            .filter(|k| known.is_none_or(|known| !known.contains_key(*k)))
            .collect();
        if extras.is_empty() {
            return Ok(());
        }
        let names: Vec<String> = extras.iter().map(|k| python_repr(&(*k).into())).collect();
        let verb = if names.len() == 1 { "was" } else { "were" };
        let message =
            format!("Additional properties are not allowed ({} {verb} unexpected)", names.join(", "));
        Err(self.refusal(schema, None, "additionalProperties", &message))
    }

    /// The refusal of `key`'s value by the `keyword` of its property in
    /// `schema`, Placement's query schema (of the whole query by the
    /// schema's own `keyword` without a key), saying `message`, as
    /// Placement words it.
    pub(crate) fn refusal(
        &self,
        schema: &Value,
        key: Option<&str>,
        keyword: &'static str,
        message: &str,
    ) -> ApiError {
        let (path, schema_path) = match key {
            Some(key) => (format!("/{key}"), format!("/properties/{key}/{keyword}")),
            None => (String::new(), format!("/{keyword}")),
        };
        let violation = Violation::new(path, keyword, message).with_schema_path(schema_path);
        errors::query_validation(&[violation], schema, &self.as_schema_sees_it())
    }

    /// The query as Placement's schemas see it (`dict(req.GET)`): each key
    /// once, where it first appears, with its last value.
    pub(crate) fn as_schema_sees_it(&self) -> Value {
        let mut last = Map::new();
        for (key, value) in &self.0 {
            last.insert(key.clone(), Value::String(value.clone()));
        }
        Value::Object(last)
    }
}

/// The pairs of a query string, decoded as a form is (`+` is a space,
/// `%XX` a byte, the text read as UTF-8, lossily), as WebOb reads them.
fn url_decode_pairs(query: &str) -> Vec<(String, String)> {
    form_urlencoded::parse(query.as_bytes())
        .map(|(key, value)| (key.into_owned(), value.into_owned()))
        .collect()
}

/// Whether `text` is a UUID as Placement accepts one (with or without dashes).
pub(crate) fn is_uuid(text: &str) -> bool {
    uuid::Uuid::try_parse(text).is_ok() && (text.len() == 36 || text.len() == 32)
}

/// The keys of a map by uuid, as Placement's schemas match them
/// (`schemas.common.UUID_PATTERN`): 36 hex digits and dashes.
pub(crate) const UUID_KEY_PATTERN: &str = "^[0-9a-fA-F-]{36}$";

/// The JSON Schema pattern of a UUID.
pub(crate) const UUID_PATTERN: &str =
    "^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$";

microversion_actix::version::version_gates! {
    /// What the trait and aggregate filters accept at a version: one table,
    /// read by every handler that parses them (`GET /resource_providers` and
    /// `GET /allocation_candidates`).
    #[derive(Clone, Copy, Debug)]
    pub(crate) struct Syntax for PLACEMENT {
        /// `!TRAIT`, a forbidden trait.
        pub(crate) forbidden_traits: "1.22",
        /// `member_of` repeated, each one more aggregate condition.
        pub(crate) repeated_member_of: "1.24",
        /// `member_of=!...`, forbidden aggregates.
        pub(crate) forbidden_aggregates: "1.32",
        /// `required=in:A,B` (any of several traits), `required` repeated.
        pub(crate) any_traits: "1.39",
    }
}

/// The values of `member_of` (`member_of{suffix}`), as Placement's
/// `normalize_member_of_qs_params` reads them: each an aggregate, `in:` a
/// list of them, `!` one forbidden (from 1.32) or `!in:` several. Gives
/// the required sets and the forbidden ones.
pub(crate) fn member_of(
    values: &[&str],
    suffix: &str,
    syntax: Syntax,
) -> Result<(Vec<Vec<String>>, Vec<String>), ApiError> {
    if !syntax.repeated_member_of && values.len() > 1 {
        return Err(errors::bad_request(format!("Multiple member_of{suffix} parameters are not supported")));
    }
    let mut required = Vec::new();
    let mut forbidden = Vec::new();
    for value in values {
        if value.contains(',') && !(value.starts_with("in:") || value.starts_with("!in:")) {
            return Err(errors::bad_request(format!(
                "Multiple values for 'member_of' must be prefixed with the 'in:' or '!in:' keyword using the valid microversion. Got: {value}"
            )));
        }
        let (negated, list) = if let Some(rest) = value.strip_prefix("!in:") {
            (true, rest)
        } else if let Some(rest) = value.strip_prefix('!') {
            (true, rest)
        } else if let Some(rest) = value.strip_prefix("in:") {
            (false, rest)
        } else {
            (false, *value)
        };
        let aggs: Vec<String> = list.split(',').map(str::to_owned).collect();
        if let Some(bad) = aggs.iter().find(|a| !is_uuid(a)) {
            return Err(errors::bad_request(format!(
                "Invalid query string parameters: Expected 'member_of' parameter to contain valid UUID(s). Got: {bad}"
            )));
        }
        if negated {
            if !syntax.forbidden_aggregates {
                return Err(errors::bad_request(format!(
                    "Forbidden member_of{suffix} parameters are not supported in the specified microversion"
                )));
            }
            forbidden.extend(aggs);
        } else {
            required.push(aggs);
        }
    }
    Ok((required, forbidden))
}

/// Every `required{suffix}` value (only the last before 1.39), read as
/// Placement's `normalize_traits_qs_params` does.
pub(crate) fn required_traits_all(
    values: &[&str],
    syntax: Syntax,
) -> Result<(Vec<Vec<String>>, Vec<String>), ApiError> {
    let values = if syntax.any_traits { values } else { &values[values.len().saturating_sub(1)..] };
    let mut required = Vec::new();
    let mut forbidden = Vec::new();
    for value in values {
        let (r, f) = required_traits(value, syntax.forbidden_traits, syntax.any_traits)?;
        required.extend(r);
        forbidden.extend(f);
    }
    Ok((required, forbidden))
}

/// `required` traits: groups of any-of (`in:` from 1.39), and forbidden
/// ones (`!` from 1.22).
pub(crate) fn required_traits(
    value: &str,
    forbidden_allowed: bool,
    any_allowed: bool,
) -> Result<(Vec<Vec<String>>, Vec<String>), ApiError> {
    if let Some(list) = value.strip_prefix("in:") {
        if !any_allowed {
            return Err(errors::bad_request(format!(
                "Invalid query string parameters: The format 'in:HW_CPU_X86_VMX,CUSTOM_MAGIC' only supported since microversion 1.39. Got: {value}"
            )));
        }
        let any: Vec<String> = list.split(',').map(|s| s.trim().to_owned()).collect();
        if any.iter().any(String::is_empty) {
            return Err(errors::bad_request(format!(
                "Invalid query string parameters: Expected 'required' parameter value of the form: in:HW_CPU_X86_VMX,CUSTOM_MAGIC. Got an empty trait in: {value}"
            )));
        }
        if any.iter().any(|t| t.starts_with('!')) {
            return Err(errors::bad_request(format!(
                "Invalid query string parameters: The format 'in:HW_CPU_X86_VMX,CUSTOM_MAGIC' does not support forbidden traits. Got: {value}"
            )));
        }
        return Ok((vec![any], Vec::new()));
    }
    let all: Vec<String> = value.split(',').map(|s| s.trim().to_owned()).collect();
    let forbidden: Vec<String> = all
        .iter()
        .filter_map(|t| t.strip_prefix('!'))
        .map(|t| t.trim_start_matches('!').to_owned())
        .collect();
    if all.iter().any(String::is_empty) || forbidden.iter().any(String::is_empty) {
        let form =
            if forbidden_allowed { "HW_CPU_X86_VMX,!CUSTOM_MAGIC" } else { "HW_CPU_X86_VMX,CUSTOM_MAGIC" };
        return Err(errors::bad_request(format!(
            "Invalid query string parameters: Expected 'required' parameter value of the form: {form}. Got an empty trait in: {value}"
        )));
    }
    if !forbidden.is_empty() && !forbidden_allowed {
        return Err(errors::bad_request(format!(
            "Invalid query string parameters: Expected 'required' parameter value of the form: HW_CPU_X86_VMX,CUSTOM_MAGIC. Got: {value}"
        )));
    }
    let required = all.iter().filter(|t| !t.starts_with('!')).map(|t| vec![t.clone()]).collect();
    Ok((required, forbidden))
}

/// `resources=VCPU:2,MEMORY_MB:1024`, as Placement reads it (into a dict:
/// a class named twice keeps its last amount, in its first place). The one
/// parser of this syntax, for providers and allocation candidates alike.
pub(crate) fn resources(value: &str) -> Result<Vec<(String, i64)>, ApiError> {
    if value.trim().is_empty() {
        return Err(errors::bad_request(
            "Badly formed resources parameter. Expected resources query string parameter in form: ?resources=VCPU:2,MEMORY_MB:1024. Got: empty string.",
        ));
    }
    let mut out = Vec::new();
    for item in value.split(',') {
        let parts: Vec<&str> = item.split(':').collect();
        let [name, amount] = parts.as_slice() else {
            return Err(errors::bad_request(format!(
                "Badly formed resources parameter. Expected resources query string parameter in form: ?resources=VCPU:2,MEMORY_MB:1024. Got: {item}."
            )));
        };
        let amount: i64 = amount.trim().parse().map_err(|_| {
            errors::bad_request(format!(
                "Requested resource {name} expected positive integer amount. Got: {amount}."
            ))
        })?;
        if amount < 1 {
            return Err(errors::bad_request(format!(
                "Requested resource {name} requires amount >= 1. Got: {amount}."
            )));
        }
        match out.iter_mut().find(|(n, _): &&mut (String, i64)| n == name) {
            Some(entry) => entry.1 = amount,
            None => out.push(((*name).to_owned(), amount)),
        }
    }
    Ok(out)
}
