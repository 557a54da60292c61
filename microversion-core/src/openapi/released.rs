//! Released versions are frozen: their documents are compared with
//! committed copies, and only the newest version can be blessed.

use std::path::Path;

use serde_json::Value;

use super::{ApiDescription, classify_changes};
use crate::Version;

/// The OpenAPI version of a directory of frozen documents.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OpenApiVersion {
    /// OpenAPI 3.1.0: [`ApiDescription::document`].
    #[default]
    V3_1,
    /// OpenAPI 3.0.3: [`ApiDescription::document_3_0`].
    V3_0,
}

impl OpenApiVersion {
    /// The document of `version` in this OpenAPI version.
    pub fn document(self, description: &ApiDescription, version: Version) -> Value {
        match self {
            OpenApiVersion::V3_1 => description.document(version),
            OpenApiVersion::V3_0 => description.document_3_0(version),
        }
    }
}

/// The environment variable that blesses the newest version's document:
/// `MICROVERSION_BLESS=2.97` writes (or rewrites) the committed copy of
/// 2.97, and only if 2.97 is the newest declared version.
/// `MICROVERSION_BLESS=documentation` ([`BLESS_DOCUMENTATION`]) rewrites
/// instead every copy that differs only by documentation.
pub const BLESS_VARIABLE: &str = "MICROVERSION_BLESS";

/// The blessing that rewrites the copy of every version, released ones
/// included, whose document differs from it only by documentation: the
/// text of `summary` and `description` (an operation's doc comments, a
/// field's) and the operations' `example`s, which no client reads as
/// contract (docs/reference.md §14.5).
/// A copy with any other difference is left as it is and reported.
pub const BLESS_DOCUMENTATION: &str = "documentation";

/// Compares the document of every declared version with its committed copy
/// `dir/<version>.json`, and fails naming each version whose contract
/// changed, whether the change is compatible for clients or breaking, and
/// each change with its JSON pointer ([`classify_changes`]).
///
/// A version without a copy fails too, unless it is the newest declared
/// version and [`BLESS_VARIABLE`] names it: then its copy is written. An
/// older version's copy is never written: changing a released version's
/// contract is the one thing microversions forbid, so it takes a human
/// editing the file, in a diff a reviewer sees.
///
/// ```no_run
/// use microversion_core::openapi::{ApiDescription, check_released};
/// # use microversion_core::{Api, Microversion};
/// # const API: Api = Api::new("compute", &[Microversion::new("2.1", "Initial.")]);
///
/// #[test]
/// fn released_versions_are_frozen() {
///     let description = ApiDescription::new(API);
///     if let Err(report) = check_released(&description, "openapi") {
///         panic!("{report}");
///     }
/// }
/// ```
pub fn check_released(description: &ApiDescription, dir: impl AsRef<Path>) -> Result<(), String> {
    check_released_blessing(description, dir, std::env::var(BLESS_VARIABLE).ok().as_deref())
}

/// [`check_released`] with the blessing given here rather than read from
/// [`BLESS_VARIABLE`].
pub fn check_released_blessing(
    description: &ApiDescription,
    dir: impl AsRef<Path>,
    bless: Option<&str>,
) -> Result<(), String> {
    check_released_as(description, dir, OpenApiVersion::V3_1, bless)
}

/// [`check_released_blessing`] of the documents in `openapi`'s version
/// (`dir` holds the copies of that version only), with the same blessing
/// rule: the frozen 3.0 copies beside the 3.1 ones.
///
/// ```no_run
/// use microversion_core::openapi::{ApiDescription, BLESS_VARIABLE, OpenApiVersion, check_released_as};
/// # use microversion_core::{Api, Microversion};
/// # const API: Api = Api::new("compute", &[Microversion::new("2.1", "Initial.")]);
///
/// let bless = std::env::var(BLESS_VARIABLE).ok();
/// if let Err(report) = check_released_as(&ApiDescription::new(API), "openapi/3.0", OpenApiVersion::V3_0, bless.as_deref()) {
///     panic!("{report}");
/// }
/// ```
pub fn check_released_as(
    description: &ApiDescription,
    dir: impl AsRef<Path>,
    openapi: OpenApiVersion,
    bless: Option<&str>,
) -> Result<(), String> {
    let dir = dir.as_ref();
    let newest = description.api().compiled_max();
    let documentation = bless == Some(BLESS_DOCUMENTATION);
    let blessed = bless.and_then(|v| v.parse().ok()).filter(|v| *v == newest);
    if let (Some(text), None, false) = (bless, blessed, documentation) {
        return Err(format!(
            "{BLESS_VARIABLE}={text} blesses nothing: only the newest declared version, {newest}, can be blessed"
        ));
    }
    let mut failures = Vec::new();
    for version in description.api().history().iter().map(|m| m.version) {
        let path = dir.join(format!("{version}.json"));
        let document = openapi.document(description, version);
        if blessed == Some(version) {
            let text = serde_json::to_string_pretty(&document).unwrap_or_default() + "\n";
            if let Err(e) = std::fs::create_dir_all(dir).and_then(|()| std::fs::write(&path, text)) {
                failures.push(format!("{version}: cannot write {}: {e}", path.display()));
            }
            continue;
        }
        let committed = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(_) if version == newest => {
                failures.push(format!(
                    "{version}: no committed document at {}; it is the newest version: review it and bless it \
                     with `{BLESS_VARIABLE}={version}`",
                    path.display()
                ));
                continue;
            }
            Err(e) => {
                failures
                    .push(format!("{version}: the released document {} cannot be read: {e}", path.display()));
                continue;
            }
        };
        let committed: Value = match serde_json::from_str(&committed) {
            Ok(value) => value,
            Err(e) => {
                failures.push(format!("{version}: {} is not JSON: {e}", path.display()));
                continue;
            }
        };
        if documentation && committed != document && undocumented(&committed) == undocumented(&document) {
            let text = serde_json::to_string_pretty(&document).unwrap_or_default() + "\n";
            if let Err(e) = std::fs::write(&path, text) {
                failures.push(format!("{version}: cannot write {}: {e}", path.display()));
            }
            continue;
        }
        if let Some(report) = report_changes(&committed, &document) {
            failures.push(format!("{version}: {report}"));
        }
    }
    if failures.is_empty() { Ok(()) } else { Err(failures.join("\n")) }
}

/// `document` without its documentation: every `summary` and
/// `description` whose value is text, and every `example` (an operation's
/// real request or answer, docs/reference.md §14.10, a parameter's or a
/// schema's: OpenAPI's documentation). A map of names (a schema's
/// `properties`, the components' `schemas`, `parameters` and `headers`)
/// keeps its entries: a property named `description` or `example` has a
/// schema, and stays.
fn undocumented(document: &Value) -> Value {
    without_documentation(document, false)
}

fn without_documentation(document: &Value, names: bool) -> Value {
    match document {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(key, value)| {
                    names
                        || !(matches!(key.as_str(), "summary" | "description") && value.is_string()
                            || key.as_str() == "example")
                })
                .map(|(key, value)| {
                    let named = matches!(
                        key.as_str(),
                        "properties"
                            | "patternProperties"
                            | "$defs"
                            | "definitions"
                            | "schemas"
                            | "parameters"
                            | "headers"
                    );
                    (key.clone(), without_documentation(value, named && !names))
                })
                .collect(),
        ),
        Value::Array(items) => {
            Value::Array(items.iter().map(|item| without_documentation(item, false)).collect())
        }
        other => other.clone(),
    }
}

/// How many changes a failure lists.
const SHOWN: usize = 20;

/// The classified changes from the `committed` document to the built one,
/// breaking ones first, or `None` when they are equal.
fn report_changes(committed: &Value, document: &Value) -> Option<String> {
    if committed == document {
        return None;
    }
    let mut changes: Vec<String> = Vec::new();
    let classified = classify_changes(committed, document);
    let breaking = classified.iter().filter(|c| c.breaking).count();
    let mut ordered = classified.clone();
    ordered.sort_by_key(|c| !c.breaking);
    changes.extend(ordered.iter().map(ToString::to_string));
    // What the classification saw no change in still differs: every raw
    // difference, as breaking, so that no change passes unreported.
    let mut unexplained = 0;
    if classified.is_empty() {
        let mut differences = Vec::new();
        diff("", committed, document, &mut differences);
        unexplained = differences.len().max(1);
        changes.extend(differences.into_iter().map(|d| format!("breaking: {d}")));
    }
    let breaking = breaking + unexplained;
    let verdict = if breaking > 0 {
        format!("BREAKING for clients ({breaking} of {} changes break)", changes.len())
    } else {
        format!("compatible for clients ({} changes, only additions a client may ignore)", changes.len())
    };
    let more = changes.len().saturating_sub(SHOWN);
    let shown: Vec<String> = changes.iter().take(SHOWN).map(|c| format!("    {c}")).collect();
    Some(format!(
        "the contract of a released version changed, {verdict}{}:\n{}",
        if more > 0 { format!(", {more} not shown") } else { String::new() },
        shown.join("\n")
    ))
}

/// Every place where `actual` differs from `expected`, as JSON pointers
/// with both values.
fn diff(pointer: &str, expected: &Value, actual: &Value, out: &mut Vec<String>) {
    let escape = |key: &str| key.replace('~', "~0").replace('/', "~1");
    match (expected, actual) {
        (Value::Object(a), Value::Object(b)) => {
            for (key, value) in a {
                let here = format!("{pointer}/{}", escape(key));
                match b.get(key) {
                    Some(other) => diff(&here, value, other, out),
                    None => out.push(format!("{here}: removed (was {})", short(value))),
                }
            }
            for (key, value) in b.iter().filter(|(k, _)| !a.contains_key(*k)) {
                out.push(format!("{pointer}/{}: added ({})", escape(key), short(value)));
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                diff(&format!("{pointer}/{i}"), x, y, out);
            }
        }
        _ if expected != actual => out.push(format!(
            "{}: was {}, is {}",
            if pointer.is_empty() { "/" } else { pointer },
            short(expected),
            short(actual)
        )),
        _ => {}
    }
}

/// A value cut to a readable length.
fn short(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(120) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn a_changed_document_is_reported_compatible_or_breaking() {
        let before = json!({"paths": {"/a": {"get": {"responses": {"200": {"description": "ok"}}}}}});
        assert_eq!(super::report_changes(&before, &before), None);
        let mut added = before.clone();
        added["paths"]["/b"] = json!({"get": {"responses": {}}});
        let report = super::report_changes(&before, &added).expect("a change");
        assert!(report.contains("compatible for clients (1 changes"), "{report}");
        assert!(report.contains("compatible: /paths/~1b: path added"), "{report}");
        let report = super::report_changes(&added, &before).expect("a change");
        assert!(report.contains("BREAKING for clients (1 of 1 changes break)"), "{report}");
        assert!(report.contains("breaking: /paths/~1b: path removed"), "{report}");
    }

    #[test]
    fn documentation_is_text_under_summary_and_description_and_examples() {
        let before = json!({"paths": {"/a": {"get": {"summary": "a", "responses": {}}}},
            "properties": {"description": {"type": "string"}}});
        let mut described = before.clone();
        described["paths"]["/a"]["get"]["summary"] = json!("Lists the a's.");
        described["paths"]["/a"]["get"]["description"] = json!("All of them.");
        described["properties"]["description"]["description"] = json!("What it is for.");
        assert_eq!(super::undocumented(&before), super::undocumented(&described));
        let mut retyped = described.clone();
        retyped["properties"]["description"]["type"] = json!("integer");
        assert_ne!(super::undocumented(&before), super::undocumented(&retyped));
        let mut removed = before.clone();
        removed["properties"] = json!({});
        assert_ne!(
            super::undocumented(&before),
            super::undocumented(&removed),
            "a field named description stays"
        );
        // An operation's example is documentation; a field named `example` is not.
        let mut shown = described.clone();
        shown["paths"]["/a"]["get"]["responses"] =
            json!({"200": {"content": {"application/json": {"schema": {}, "example": {"a": 1}}}}});
        let mut without = described.clone();
        without["paths"]["/a"]["get"]["responses"] =
            json!({"200": {"content": {"application/json": {"schema": {}}}}});
        assert_eq!(super::undocumented(&shown), super::undocumented(&without));
        let mut field = before.clone();
        field["properties"]["example"] = json!({"type": "string"});
        assert_ne!(super::undocumented(&before), super::undocumented(&field), "a field named example stays");
        let mut component = before.clone();
        component["components"] = json!({"schemas": {"example": {"type": "string"}}});
        assert_ne!(
            super::undocumented(&before),
            super::undocumented(&component),
            "a schema named example stays"
        );
    }

    #[test]
    fn differences_are_json_pointers_with_both_values() {
        let mut out = Vec::new();
        super::diff(
            "",
            &json!({"a": {"b/c": 1, "gone": true}, "l": [1, 2]}),
            &json!({"a": {"b/c": 2, "new": 0}, "l": [1, 3]}),
            &mut out,
        );
        assert_eq!(
            out,
            ["/a/b~1c: was 1, is 2", "/a/gone: removed (was true)", "/a/new: added (0)", "/l/1: was 2, is 3"]
        );
    }
}
