//! The framework's violation messages against Python's own `jsonschema`
//! (PyPI, pinned in `tests/python/requirements.txt`), the validator Nova
//! and Placement run: for each case the same schema and document go to
//! both, and every violation (path, keyword, message) and the one Python's
//! `best_match` picks must agree. OpenStack's clients match on this text
//! (docs/reference.md §5.3).
//!
//! A virtual environment is made once under the cargo target directory;
//! `python3` with the `venv` module and access to PyPI are required: without
//! them this test fails, saying what to install; it never skips.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use microversion_actix::error::best_match;
use microversion_actix::{schema::VersionedSchemas, version::VersionRange};
use microversion_testkit::python;
use serde_json::{Value, json};

/// Schemas and documents that fail one keyword each (or several), with the
/// values whose Python spelling differs from JSON's: quotes, `True`,
/// `None`, floats, nested containers, paths with indexes.
fn cases() -> Vec<(Value, Value)> {
    let uuid = json!({"type": "string", "format": "uuid"});
    let pattern_keyed = json!({
        "type": "object",
        "patternProperties": {"^[A-Z_]+$": {"type": "integer"}, "^CUSTOM_[A-Z]+$": {}},
        "additionalProperties": false,
    });
    vec![
        (json!({"type": "object"}), Value::Null),
        (json!({"type": "integer"}), json!("abc")),
        (json!({"type": ["integer", "null"]}), json!(1.5)),
        (json!({"type": "string"}), json!(true)),
        (json!({"type": "string"}), json!([1, false, null])),
        (json!({"type": "object", "required": ["name", "ram"]}), json!({})),
        (json!({"type": "object", "properties": {"a": {}}, "additionalProperties": false}), json!({"b": 1})),
        (json!({"properties": {}, "additionalProperties": false}), json!({"z": 1, "y": 2, "x'": 3})),
        (pattern_keyed.clone(), json!({"lower": 1})),
        (pattern_keyed, json!({"a": 1, "b": 2, "VCPU": "x"})),
        (json!({"properties": {"id": uuid.clone()}}), json!({"id": "not-a-uuid"})),
        (json!({"type": "array", "items": uuid}), json!(["6a1f1a4e-95a8-4d5b-b4e8-9b8f5c6a7d3e", "x"])),
        (json!({"type": "string", "pattern": "^[a-zA-Z0-9 _-]+$"}), json!("x y!")),
        (json!({"type": "string", "pattern": "^[0-9]*$"}), json!("it's")),
        (json!({"type": "string", "minLength": 1}), json!("")),
        (json!({"type": "string", "minLength": 3}), json!("ab")),
        (json!({"type": "string", "maxLength": 0}), json!("a")),
        (json!({"type": "string", "maxLength": 3}), json!("abcd")),
        (json!({"type": "array", "minItems": 1}), json!([])),
        (json!({"type": "array", "minItems": 2}), json!([1])),
        (json!({"type": "array", "maxItems": 0}), json!([1])),
        (json!({"type": "array", "maxItems": 1}), json!([1, 2])),
        (json!({"type": "array", "uniqueItems": true}), json!(["a", "a"])),
        (json!({"type": "object", "minProperties": 1}), json!({})),
        (json!({"type": "object", "minProperties": 2}), json!({"a": 1})),
        (json!({"type": "object", "maxProperties": 0}), json!({"a": 1})),
        (json!({"type": "object", "maxProperties": 1}), json!({"a": 1, "b": 2})),
        (json!({"type": "integer", "minimum": 1}), json!(0)),
        (json!({"type": "integer", "maximum": 2147483647}), json!(2147483648_u64)),
        (json!({"type": "number", "exclusiveMinimum": 0}), json!(0)),
        (json!({"type": "number", "exclusiveMaximum": 1.5}), json!(2.5)),
        (json!({"type": "number", "multipleOf": 3}), json!(7)),
        (json!({"enum": ["none", "isolate"]}), json!("bogus")),
        (json!({"enum": [1, true, null, "x"]}), json!(2)),
        (json!({"const": "x"}), json!("y")),
        (json!({"not": {"type": "string"}}), json!("s")),
        (json!({"anyOf": [{"type": "integer"}, {"type": "string", "pattern": "^[0-9]+$"}]}), json!("x")),
        (json!({"oneOf": [{"type": "integer"}, {"type": "boolean"}]}), json!("x")),
        (
            json!({"type": "object", "properties": {"flavor": {"type": "object", "properties": {
                "name": {"type": "string", "minLength": 1, "maxLength": 255},
                "ram": {"type": ["integer", "string"], "pattern": "^[0-9]*$", "minimum": 1},
            }, "required": ["name", "ram"], "additionalProperties": false}},
            "required": ["flavor"], "additionalProperties": false}),
            json!({"flavor": {"name": "", "ram": "abc", "extra": {"k": [1.0, "v"]}}}),
        ),
        (
            json!({"type": "object", "properties": {"networks": {"type": "array", "items": {
                "type": "object", "properties": {"uuid": {"type": "string", "format": "uuid"}},
                "required": ["uuid"],
            }}}}),
            json!({"networks": [{"uuid": "6a1f1a4e-95a8-4d5b-b4e8-9b8f5c6a7d3e"}, {"port": "p"}, {"uuid": 5}]}),
        ),
        (json!({"type": "string", "maxLength": 64}), json!("tab\there \"and\" 'quotes' \\ é")),
    ]
}

#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, serde::Deserialize)]
struct Error {
    path: String,
    keyword: String,
    message: String,
}

#[derive(Debug, serde::Deserialize)]
struct Verdict {
    errors: Vec<Error>,
    best: Option<String>,
}

#[test]
fn violation_messages_are_python_jsonschemas() {
    let requirements = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/requirements.txt");
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let python =
        python::venv(tmp, "jsonschema-venv", &[(requirements, true)]).unwrap_or_else(|e| panic!("{e}"));
    let cases = cases();
    let input = tmp.join(format!("jsonschema-cases-{}.json", std::process::id()));
    let documents: Vec<Value> = cases.iter().map(|(s, i)| json!({"schema": s, "instance": i})).collect();
    std::fs::write(&input, Value::Array(documents).to_string()).expect("the cases are written");
    let mut command = Command::new(python);
    command
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/jsonschema_messages.py"))
        .arg(&input);
    let run = python::run(command, Duration::from_secs(120)).expect("python runs");
    let _ = std::fs::remove_file(&input);
    assert!(run.ok(), "{}", run.describe());
    let verdicts: Vec<Verdict> = serde_json::from_str(run.output.trim()).expect("python prints its verdicts");
    assert_eq!(verdicts.len(), cases.len());

    let mut disagreements = Vec::new();
    for ((schema, instance), python) in cases.into_iter().zip(verdicts) {
        let document = schema.clone();
        let schemas = VersionedSchemas::compile_documents([("case", VersionRange::ANY, document)])
            .expect("the case's schema compiles");
        let violations = match schemas.schemas()[0].validate(&instance) {
            Err(error) => error.violations().to_vec(),
            Ok(()) => Vec::new(),
        };
        let mut ours: Vec<Error> = violations
            .iter()
            .map(|v| Error {
                path: v.path.clone(),
                keyword: v.keyword.to_owned(),
                message: v.message.clone(),
            })
            .collect();
        ours.sort();
        let best = best_match(&violations).map(|v| v.message.clone());
        if ours != python.errors || best != python.best {
            disagreements.push(format!(
                "schema {schema}\ninstance {instance}\n  ours:   {ours:?}\n          best {best:?}\n  python: {:?}\n          best {:?}",
                python.errors, python.best
            ));
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} disagreements:\n{}",
        disagreements.len(),
        disagreements.join("\n\n")
    );
}
