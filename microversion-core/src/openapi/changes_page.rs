//! What one version changed, as a page of the reference
//! (`/docs/X.Y/changes`, docs/reference.md §14.8): every difference between
//! the documents of the version before and of this one (operations, fields,
//! parameters, statuses), classified for clients by [`classify_changes`],
//! the comparison that guards the frozen documents (§14.5).

use std::fmt::Write as _;

use serde_json::Value;

use super::reference::{STYLE, escape, prose};
use super::{ApiDescription, Change, classify_changes};
use crate::Version;

/// The changes of `version` against the version served before it, each with
/// the operation it is in (`None` for the rest of the document); empty for
/// the first version.
pub(crate) fn changes_of(
    description: &ApiDescription,
    version: Version,
) -> Vec<(Option<String>, String, Change)> {
    let Some(previous) = description.versions().take_while(|v| *v < version).last() else {
        return Vec::new();
    };
    let (before, after) = (description.document(previous), description.document(version));
    classify_changes(&before, &after)
        .into_iter()
        .filter(|change| !names_the_version(&change.pointer))
        .map(|change| {
            let (operation, place) = location(&change.pointer, &before, &after);
            (operation, place, change)
        })
        .collect()
}

/// Whether a difference is only the version each document is of: its
/// `info.version` and the one value of the version headers.
fn names_the_version(pointer: &str) -> bool {
    pointer == "/info/version"
        || pointer.starts_with("/components/parameters/OpenStackApiVersion")
        || pointer.starts_with("/components/headers/OpenStackApiVersion/")
}

/// A JSON pointer's segments, unescaped.
fn segments(pointer: &str) -> Vec<String> {
    pointer.split('/').skip(1).map(|s| s.replace("~1", "/").replace("~0", "~")).collect()
}

/// Where a change is, in words: its operation (`GET /v2.1/flavors`) and the
/// place in it (`response 200 flavors[].description`, `parameter minRam`).
fn location(pointer: &str, before: &Value, after: &Value) -> (Option<String>, String) {
    let parts = segments(pointer);
    if let [paths, path] = parts.as_slice()
        && paths == "paths"
    {
        return (Some(path.clone()), "the path, every method of it".to_owned());
    }
    let [paths, path, method, rest @ ..] = parts.as_slice() else {
        return (None, pointer.to_owned());
    };
    if paths != "paths" {
        return (None, pointer.to_owned());
    }
    let operation = format!("{} {path}", method.to_ascii_uppercase());
    let mut place = String::new();
    let mut field = String::new();
    let mut rest = rest.iter().map(String::as_str).peekable();
    while let Some(part) = rest.next() {
        match part {
            "requestBody" => place.push_str("request body"),
            "responses" => {
                let status = rest.next().unwrap_or_default();
                place.push_str(&format!("response {status}"));
            }
            "parameters" => {
                let index = rest.next().unwrap_or_default();
                let at = index.parse::<usize>().unwrap_or(usize::MAX);
                let of = |document: &Value| {
                    document["paths"][path][method.as_str()]["parameters"][at]["name"]
                        .as_str()
                        .map(str::to_owned)
                };
                let name = of(after).or_else(|| of(before)).unwrap_or_else(|| index.to_owned());
                place.push_str(&format!("parameter {name}"));
            }
            "content" => {
                rest.next();
            }
            "schema" => {}
            "properties" => {
                let name = rest.next().unwrap_or_default();
                if !field.is_empty() {
                    field.push('.');
                }
                field.push_str(name);
            }
            "items" => field.push_str("[]"),
            "anyOf" | "oneOf" | "allOf" => {
                rest.next();
            }
            other => {
                if field.is_empty() && place.is_empty() {
                    place.push_str(other);
                } else {
                    field.push_str(&format!(" ({other})"));
                }
            }
        }
    }
    let place = match (place.is_empty(), field.is_empty()) {
        (true, true) => "the operation".to_owned(),
        (false, true) => place,
        (true, false) => field,
        (false, false) => format!("{place} {field}"),
    };
    (Some(operation), place)
}

/// The page of what `version` changed.
pub(crate) fn page(description: &ApiDescription, version: Version) -> String {
    let title = description.document(version)["info"]["title"].as_str().unwrap_or("API").to_owned();
    let previous = description.versions().take_while(|v| *v < version).last();
    let mut html = String::with_capacity(16 * 1024);
    let _ = write!(
        html,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title} — what {version} changed</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <a class=\"skip\" href=\"#main\">Skip to the changes</a>\n<header>\n<h1>What {version} changed</h1>\n\
         <nav aria-label=\"Versions\"><a href=\"../{version}\">The reference at {version}</a> · \
         <a href=\"../{version}#history\">The history</a></nav>\n</header>\n<main id=\"main\">\n",
        title = escape(&title),
    );
    let declared = description.api().history().iter().find(|m| m.version == version).map(|m| m.change);
    if let Some(declared) = declared {
        let _ = writeln!(html, "<p class=\"declared\">The declared change: {}</p>", prose(declared));
    }
    version_changes(&mut html, description, version);
    let Some(previous) = previous else {
        let _ = writeln!(
            html,
            "<p>{version} is the first version served: everything in <a href=\"../{version}\">its reference</a> \
             is new in it.</p>"
        );
        html.push_str("</main>\n</body>\n</html>\n");
        return html;
    };
    let changes = changes_of(description, version);
    let _ = writeln!(
        html,
        "<p>Against <a href=\"../{previous}\">{previous}</a>, compared as the frozen documents are: \
         <strong>compatible</strong> changes are additions a client may ignore, <strong>breaking</strong> \
         ones are not.</p>"
    );
    if changes.is_empty() {
        let _ = writeln!(
            html,
            "<p>Nothing this service describes changed: the operations, their parameters, bodies and \
             answers are those of {previous}.</p>"
        );
    }
    let mut operations: Vec<Option<String>> = Vec::new();
    for (operation, _, _) in &changes {
        if !operations.contains(operation) {
            operations.push(operation.clone());
        }
    }
    for operation in operations {
        let heading = operation.clone().unwrap_or_else(|| "The document".to_owned());
        let _ = writeln!(html, "<section>\n<h2><code>{}</code></h2>\n<ul>", escape(&heading));
        for (_, place, change) in changes.iter().filter(|(o, _, _)| *o == operation) {
            let kind = if change.breaking { "breaking" } else { "compatible" };
            let _ = writeln!(
                html,
                "<li class=\"{kind}\"><strong>{kind}</strong>: {}: {}</li>",
                escape(place),
                escape(&change.what)
            );
        }
        html.push_str("</ul>\n</section>\n");
    }
    html.push_str("</main>\n</body>\n</html>\n");
    html
}

/// The version changes made at `version`, each with what it says and
/// declares, and the operations that go through it.
fn version_changes(html: &mut String, description: &ApiDescription, version: Version) {
    let changes = description.version_changes_at(version);
    if changes.is_empty() {
        return;
    }
    html.push_str("<section aria-labelledby=\"version-changes\">\n<h2 id=\"version-changes\">Version changes</h2>\n<ul>\n");
    for (note, operations) in changes {
        let _ = write!(
            html,
            "<li><strong><code>{}</code></strong>: {}",
            escape(note.name),
            prose(note.description)
        );
        if !note.declares.is_empty() {
            let declared: Vec<String> = note.declares.iter().map(|d| prose(&d.to_string())).collect();
            let _ = write!(html, " ({})", declared.join("; "));
        }
        let operations: Vec<String> =
            operations.iter().map(|o| format!("<code>{}</code>", escape(o))).collect();
        let _ =
            writeln!(html, ". Served before {version} by its conversions in {}.</li>", operations.join(", "));
    }
    html.push_str("</ul>\n</section>\n");
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn a_change_is_named_by_its_operation_and_field() {
        let document =
            json!({"paths": {"/v2.1/flavors": {"get": {"parameters": [{"name": "minRam", "in": "query"}]}}}});
        let at = |pointer: &str| super::location(pointer, &document, &document);
        assert_eq!(
            at(
                "/paths/~1v2.1~1flavors/get/responses/200/content/application~1json/schema/properties/flavors/items/properties/description"
            ),
            (Some("GET /v2.1/flavors".to_owned()), "response 200 flavors[].description".to_owned())
        );
        assert_eq!(
            at("/paths/~1v2.1~1flavors/get/parameters/0/schema"),
            (Some("GET /v2.1/flavors".to_owned()), "parameter minRam".to_owned())
        );
        assert_eq!(
            at("/paths/~1v2.1~1flavors/get"),
            (Some("GET /v2.1/flavors".to_owned()), "the operation".to_owned())
        );
        assert_eq!(at("/paths/~1v2.1~1flavors").1, "the path, every method of it");
        assert!(super::names_the_version("/components/parameters/OpenStackApiVersion/schema/enum/0"));
    }
}
