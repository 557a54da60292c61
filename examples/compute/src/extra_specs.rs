//! Nova's extra spec validators (microversion 2.86): a known extra spec's
//! value is checked by its type, pattern, choices or bounds, and a key in a
//! namespace Nova knows (`hw:`, `resources1:`, ...) must be one it knows.
//!
//! The validators are data, `extra_specs.json`, written from Nova's own
//! (`nova.api.validation.extra_specs`, loaded as Nova's API loads them) by
//! `scripts/nova_extra_specs.py`; the file names the Nova release. What is
//! checked and the words of each refusal follow
//! `nova/api/validation/extra_specs/validators.py` `validate` and
//! `base.py` `ExtraSpecValidator`.

use std::sync::LazyLock;

use regex::Regex;
use serde::Deserialize;
use serde_json::Value;

/// The validators as `scripts/nova_extra_specs.py` writes them.
#[derive(Deserialize)]
struct Data {
    validators: Vec<ValidatorData>,
    namespaces: Vec<String>,
}

#[derive(Deserialize)]
struct ValidatorData {
    name: String,
    name_regex: String,
    value: Rule,
}

/// What a validator asks of a value (`ExtraSpecValidator.value`).
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum Rule {
    Int {
        min: Option<i64>,
        max: Option<i64>,
    },
    Bool,
    Str {
        pattern: Option<String>,
        #[serde(default)]
        r#enum: Option<Vec<String>>,
        enum_text: Option<String>,
    },
}

struct Validator {
    name: String,
    /// `name_regex`, matched whole (Python's `re.fullmatch`).
    name_regex: Regex,
    rule: Rule,
    /// The rule's pattern, matched whole.
    value_regex: Option<Regex>,
}

struct Validators {
    /// In Nova's lookup order (its `VALIDATORS` dict).
    validators: Vec<Validator>,
    /// Namespaces Nova knows, matched whole against a key's part before `:`.
    namespaces: Vec<Regex>,
}

/// Python's `re.fullmatch(pattern, ...)`.
fn whole(pattern: &str) -> Regex {
    Regex::new(&format!("^(?:{pattern})$")).unwrap_or_else(|e| panic!("Nova's pattern {pattern:?}: {e}"))
}

static VALIDATORS: LazyLock<Validators> = LazyLock::new(|| {
    let data: Data = serde_json::from_str(include_str!("extra_specs.json")).expect("extra_specs.json reads");
    let validators = data
        .validators
        .into_iter()
        .map(|v| {
            let value_regex = match &v.value {
                Rule::Str { pattern: Some(pattern), .. } => Some(whole(pattern)),
                _ => None,
            };
            Validator { name_regex: whole(&v.name_regex), name: v.name, rule: v.value, value_regex }
        })
        .collect();
    Validators { validators, namespaces: data.namespaces.iter().map(|n| whole(n)).collect() }
});

/// Checks one extra spec as Nova does from 2.86 (`validators.validate`):
/// `Err` holds the message of Nova's 400.
pub(crate) fn validate(name: &str, value: &str) -> Result<(), String> {
    let known = &*VALIDATORS;
    // Nova looks the name up first, then tries each validator's pattern in
    // order: the same first match, since a plain name matches only itself.
    if let Some(validator) = known.validators.iter().find(|v| v.name == name || v.name_regex.is_match(name)) {
        return validator.check(value);
    }
    let Some((namespace, _)) = name.split_once(':') else { return Ok(()) };
    match known.namespaces.iter().any(|n| n.is_match(namespace)) {
        true => {
            Err(format!("Validation failed; extra spec '{name}' does not appear to be a valid extra spec."))
        }
        false => Ok(()),
    }
}

impl Validator {
    fn check(&self, value: &str) -> Result<(), String> {
        let failed = |why: String| Err(format!("Validation failed; {why}"));
        match &self.rule {
            Rule::Int { min, max } => match python_int(value) {
                None => failed(format!("'{value}' is not a valid integer value.")),
                Some(n) if max.is_some_and(|max| max < n) => {
                    failed(format!("'{n}' is greater than the max value of '{}'.", max.unwrap_or_default()))
                }
                Some(n) if min.is_some_and(|min| min > n) => {
                    failed(format!("'{n}' is less than the min value of '{}'.", min.unwrap_or_default()))
                }
                Some(_) => Ok(()),
            },
            Rule::Bool => match bool_like(value) {
                true => Ok(()),
                false => failed(format!("'{value}' is not a valid boolean-like value.")),
            },
            Rule::Str { pattern: Some(pattern), .. } => {
                match self.value_regex.as_ref().is_some_and(|r| r.is_match(value)) {
                    true => Ok(()),
                    false => failed(format!("'{value}' is not of the format '{pattern}'.")),
                }
            }
            Rule::Str { r#enum: Some(choices), enum_text, .. } => match choices.iter().any(|c| c == value) {
                true => Ok(()),
                false => {
                    failed(format!("'{value}' is not one of: {}.", enum_text.as_deref().unwrap_or_default()))
                }
            },
            Rule::Str { .. } => Ok(()),
        }
    }
}

/// Python's `int(text)` of a string: surrounding whitespace, a sign, digits
/// with single underscores between them. Beyond `i64` it is out of every
/// bound Nova sets, so it reads as the nearest end.
fn python_int(text: &str) -> Option<i64> {
    let text = text.trim();
    let (negative, digits) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let parts_sound =
        digits.split('_').all(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_digit()));
    if !parts_sound {
        return None;
    }
    let digits: String = digits.chars().filter(|c| *c != '_').collect();
    let magnitude = digits.parse::<i128>().unwrap_or(i128::MAX);
    let signed = if negative { -magnitude } else { magnitude };
    Some(signed.clamp(i64::MIN.into(), i64::MAX.into()) as i64)
}

/// `oslo_utils.strutils.bool_from_string(value, strict=True)` accepts it.
fn bool_like(value: &str) -> bool {
    let value = value.trim().to_lowercase();
    ["1", "t", "true", "on", "y", "yes", "0", "f", "false", "off", "n", "no"].contains(&value.as_str())
}

/// An extra spec value as Nova stores and checks it: a string as sent, a
/// number as Python's `str()` writes it (`1.0`, `1e+20`).
pub(crate) fn python_str(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Number(n) if n.is_f64() => python_float(n.as_f64().unwrap_or_default()),
        other => other.to_string(),
    }
}

/// A request's value written back as Nova writes it (`jsonutils.dumps`):
/// a float as Python's `repr` (`1e+20`, `100.0`), the rest as serde_json
/// writes it, an object's keys in their sorted order whatever the build
/// (serde_json's `preserve_order` would keep the order sent, as Nova does,
/// in some builds and not in others). Only for JSON.
pub(crate) struct PythonJson<'a>(pub(crate) &'a Value);

impl serde::Serialize for PythonJson<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Number(n) if n.is_f64() => {
                serde_json::value::RawValue::from_string(python_float(n.as_f64().unwrap_or_default()))
                    .map_err(serde::ser::Error::custom)?
                    .serialize(serializer)
            }
            Value::Object(map) => {
                let mut entries: Vec<_> = map.iter().collect();
                entries.sort_unstable_by_key(|(key, _)| *key);
                serializer.collect_map(entries.into_iter().map(|(k, v)| (k, PythonJson(v))))
            }
            Value::Array(items) => serializer.collect_seq(items.iter().map(PythonJson)),
            other => other.serialize(serializer),
        }
    }
}

/// Python's `repr` of a float: the shortest digits that read back, in
/// exponent form below 1e-4 and from 1e16 (`1e-05`, `1e+16`), else with a
/// decimal point (`100.0`).
fn python_float(f: f64) -> String {
    if !f.is_finite() {
        return if f.is_nan() {
            "nan".into()
        } else if f > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        };
    }
    let exponent_form = f != 0.0 && !(1e-4..1e16).contains(&f.abs());
    if !exponent_form {
        let text = format!("{f:?}");
        return if text.contains('.') { text } else { format!("{text}.0") };
    }
    // Rust writes `1e16`, `1.5e-7`; Python `1e+16`, `1.5e-07`.
    let text = format!("{f:e}");
    let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
    let (sign, digits) = match exponent.strip_prefix('-') {
        Some(digits) => ('-', digits),
        None => ('+', exponent),
    };
    format!("{mantissa}e{sign}{digits:0>2}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_validator_of_nova_compiles() {
        let known = &*VALIDATORS;
        assert!(known.validators.len() > 500, "{}", known.validators.len());
        assert_eq!(known.namespaces.len(), 12);
    }

    /// Each refusal in the words of `base.py` `ExtraSpecValidator` and
    /// `validators.validate`.
    #[test]
    fn values_are_checked_as_novas_validators_check_them() {
        assert_eq!(validate("hw:cpu_policy", "dedicated"), Ok(()));
        assert_eq!(
            validate("hw:cpu_policy", "fast"),
            Err("Validation failed; 'fast' is not one of: dedicated, shared, mixed.".into())
        );
        assert_eq!(validate("hw:numa_nodes", " 2 "), Ok(()), "int() strips");
        assert_eq!(
            validate("hw:numa_nodes", "two"),
            Err("Validation failed; 'two' is not a valid integer value.".into())
        );
        assert_eq!(
            validate("hw:numa_nodes", "0"),
            Err("Validation failed; '0' is less than the min value of '1'.".into())
        );
        assert_eq!(validate("resources1:VCPU", "1_0"), Ok(()), "a resource group, int() with an underscore");
        assert_eq!(validate("hw:cpu_realtime", "Yes"), Ok(()));
        assert_eq!(
            validate("hw:cpu_realtime", "maybe"),
            Err("Validation failed; 'maybe' is not a valid boolean-like value.".into())
        );
        assert_eq!(validate("trait:HW_CPU_X86_AVX", "required"), Ok(()));
        assert!(validate("trait:HW_CPU_X86_AVX", "wanted").is_err_and(|e| e.contains("is not one of")));
        assert_eq!(
            validate("hw:no_such_thing", "1"),
            Err("Validation failed; extra spec 'hw:no_such_thing' does not appear to be a valid extra spec."
                .into())
        );
        assert_eq!(validate("acme:anything", "x"), Ok(()), "a namespace Nova does not know");
        assert_eq!(validate("plain", "x"), Ok(()), "no namespace");
    }

    #[test]
    fn numbers_read_as_pythons_str_writes_them() {
        let cases = [(json!(2), "2"), (json!(1.0), "1.0"), (json!(1.5), "1.5"), (json!(1e20), "1e+20")];
        for (value, text) in cases {
            assert_eq!(python_str(&value), text);
        }
        assert_eq!(python_float(0.00001), "1e-05");
        assert_eq!(python_float(1e15), "1000000000000000.0");
        assert_eq!(python_float(-2.5e-7), "-2.5e-07");
    }
}
