//! The API reference as a page per version (docs/reference.md §14.8): the
//! operations live at the version with their parameters, bodies and
//! answers, each operation's and each field's first and last version as
//! OpenStack's api-ref shows them, an example of each body, the errors, a
//! version switcher, the deprecation notice of the version, and the history
//! of what each version changed, computed from the declarations.
//!
//! The page is self-contained HTML and CSS (no script or font from
//! elsewhere: it works offline and behind a firewall) with headings,
//! landmarks and a switcher usable from the keyboard (a form asking
//! `?version=`); a few lines of inline script only make it move on its own.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::{Map, Value};

use super::ApiDescription;
use crate::Version;

/// Where each operation and each field of its bodies is, across the served
/// versions: the first and last version that have it.
#[derive(Debug, Default)]
pub(crate) struct Spans {
    /// By operation (`GET /v2.1/flavors`).
    operations: BTreeMap<String, (Version, Version)>,
    /// By operation and field (`request name`, `response 200 flavors[].id`).
    fields: BTreeMap<(String, String), (Version, Version)>,
    /// The oldest version served, where everything is new.
    first: Option<Version>,
}

impl Spans {
    /// The spans of every operation and field of `description`'s documents.
    pub(crate) fn of(description: &ApiDescription) -> Spans {
        let mut spans = Spans { first: description.versions().next(), ..Spans::default() };
        for version in description.versions() {
            let document = description.document(version);
            for (operation, item) in operations(&document) {
                widen(&mut spans.operations, operation.clone(), version);
                for (field, _) in body_fields(item) {
                    widen(&mut spans.fields, (operation.clone(), field), version);
                }
                for parameter in item["parameters"].as_array().into_iter().flatten() {
                    if let Some(name) = parameter["name"].as_str() {
                        widen(
                            &mut spans.fields,
                            (operation.clone(), parameter_key(parameter, name)),
                            version,
                        );
                    }
                }
            }
        }
        spans
    }

    fn operation(&self, operation: &str) -> Option<(Version, Version)> {
        self.operations.get(operation).copied()
    }

    fn field(&self, operation: &str, field: &str) -> Option<(Version, Version)> {
        self.fields.get(&(operation.to_owned(), field.to_owned())).copied()
    }
}

/// Extends the span under `key` to `version` (versions come in order).
fn widen<K: Ord>(spans: &mut BTreeMap<K, (Version, Version)>, key: K, version: Version) {
    spans.entry(key).and_modify(|span| span.1 = version).or_insert((version, version));
}

/// Every operation of a document: `GET /path` and its object.
fn operations(document: &Value) -> Vec<(String, &Value)> {
    let mut found = Vec::new();
    for (path, item) in document["paths"].as_object().into_iter().flatten() {
        for (method, operation) in item.as_object().into_iter().flatten() {
            found.push((format!("{} {path}", method.to_ascii_uppercase()), operation));
        }
    }
    found
}

/// The schema of a request body or a response, if it has one.
fn content_schema(holder: &Value) -> Option<&Value> {
    holder["content"]["application/json"]["schema"]
        .as_object()
        .map(|_| &holder["content"]["application/json"]["schema"])
}

/// The example of a request body or an answer (`content.application/json.example`).
fn content_example(holder: &Value) -> Option<&Value> {
    holder.pointer("/content/application~1json/example")
}

/// Every field of an operation's bodies, named `request a.b` or
/// `response 200 a[].b`, with its schema.
fn body_fields(operation: &Value) -> Vec<(String, &Value)> {
    let mut fields = Vec::new();
    if let Some(schema) = content_schema(&operation["requestBody"]) {
        walk(schema, "request ", &mut fields, 0);
    }
    for (status, response) in operation["responses"].as_object().into_iter().flatten() {
        if status.starts_with('2')
            && let Some(schema) = content_schema(response)
        {
            walk(schema, &format!("response {status} "), &mut fields, 0);
        }
    }
    fields
}

/// How deep a body's fields are listed.
const MAX_DEPTH: usize = 6;

/// The fields of `schema` under `prefix`: properties by name, array items
/// as `[]`, every branch of `anyOf`/`oneOf`/`allOf`.
fn walk<'a>(schema: &'a Value, prefix: &str, fields: &mut Vec<(String, &'a Value)>, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    for (name, property) in schema["properties"].as_object().into_iter().flatten() {
        let path = format!("{prefix}{name}");
        if !fields.iter().any(|(seen, _)| *seen == path) {
            fields.push((path.clone(), property));
        }
        walk(property, &format!("{path}."), fields, depth + 1);
    }
    if schema["items"].is_object() {
        let inner = format!("{}[].", prefix.trim_end_matches('.'));
        walk(&schema["items"], &inner, fields, depth + 1);
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        for branch in schema[key].as_array().into_iter().flatten() {
            walk(branch, prefix, fields, depth + 1);
        }
    }
}

/// The page of `version`.
pub(crate) fn page(description: &ApiDescription, spans: &Spans, version: Version) -> String {
    let api = description.api();
    let document = description.document(version);
    let title = document["info"]["title"].as_str().unwrap_or("API").to_owned();
    let mut html = String::with_capacity(64 * 1024);
    let _ = write!(
        html,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{} — reference at {version}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <a class=\"skip\" href=\"#main\">Skip to the operations</a>\n<header>\n<h1>{}</h1>\n\
         <p>The API reference at version <strong id=\"shown-version\">{version}</strong>, of the versions \
         {} to {} that <code>{}</code> serves. Send <code>{}</code> \
         to get what this page shows.</p>\n",
        escape(&title),
        escape(&title),
        api.min(),
        api.max(),
        escape(api.service_type()),
        // Where the API reads a version first (docs/reference.md §2.6).
        escape(&api.readers()[0].example(api.service_type(), &version.to_string())),
    );
    switcher(&mut html, description, version);
    // The notice inside the header: every part of the page is in a landmark.
    if let Some(deprecation) = api.deprecation_for(version) {
        let _ = write!(
            html,
            "<div class=\"notice\" role=\"note\" id=\"deprecation\"><strong>Version {version} is deprecated</strong> \
             since {}",
            deprecation.deprecated_since()
        );
        if let Some(sunset) = deprecation.sunset_date() {
            let _ = write!(html, "; it stops being served on {sunset}");
        }
        html.push('.');
        if let Some(link) = deprecation.deprecation_link() {
            let _ = write!(html, " <a href=\"{}\">Why, and what to use instead</a>.", escape(link));
        }
        html.push_str("</div>\n");
    }
    html.push_str("</header>\n");
    html.push_str(
        "<main id=\"main\">\n<h2 id=\"operations\">Operations</h2>\n<nav aria-label=\"Operations\"><ul>\n",
    );
    let found = operations(&document);
    for (key, operation) in &found {
        let _ = writeln!(
            html,
            "<li><a href=\"#{}\">{}</a></li>",
            anchor(key),
            prose(&summary_of(key, operation))
        );
    }
    html.push_str("</ul></nav>\n");
    for (key, operation) in &found {
        let example = description.example_request(key, version);
        operation_section(&mut html, spans, key, operation, version, example.as_deref());
    }
    html.push_str("</main>\n");
    history(&mut html, description, spans, version);
    html.push_str(
        "<footer><p>Built from the service's own declarations; the same contract as \
                   <a href=\"../openapi.json\">its OpenAPI documents</a>.</p></footer>\n",
    );
    html.push_str(SCRIPT);
    html.push_str("</body>\n</html>\n");
    html
}

/// The version switcher: every served version, the previous and next as links.
fn switcher(html: &mut String, description: &ApiDescription, version: Version) {
    let versions: Vec<Version> = description.versions().collect();
    html.push_str(
        "<nav aria-label=\"Versions\" class=\"switcher\">\n<form id=\"switcher\" action=\"./\" method=\"get\">\n\
         <label for=\"version\">Version</label>\n<select id=\"version\" name=\"version\">\n",
    );
    for v in versions.iter().rev() {
        let selected = if *v == version { " selected" } else { "" };
        let _ = writeln!(html, "<option value=\"{v}\"{selected}>{v}</option>");
    }
    html.push_str("</select>\n<button type=\"submit\">Show</button>\n</form>\n");
    let at = versions.iter().position(|v| *v == version);
    if let Some(previous) = at.and_then(|i| i.checked_sub(1)).and_then(|i| versions.get(i)) {
        let _ = writeln!(html, "<a rel=\"prev\" href=\"{previous}\">Previous: {previous}</a>");
    }
    if let Some(next) = at.and_then(|i| versions.get(i + 1)) {
        let _ = writeln!(html, "<a rel=\"next\" href=\"{next}\">Next: {next}</a>");
    }
    let _ = writeln!(html, "<a href=\"{version}/changes\">What {version} changed</a>");
    html.push_str("</nav>\n");
}

/// `list (GET /v2.1/flavors)`.
fn summary_of(key: &str, operation: &Value) -> String {
    match operation["summary"].as_str() {
        Some(summary) => format!("{summary} ({key})"),
        None => key.to_owned(),
    }
}

/// One operation: its span, parameters, body, answers and errors.
fn operation_section(
    html: &mut String,
    spans: &Spans,
    key: &str,
    operation: &Value,
    shown: Version,
    example: Option<&str>,
) {
    let id = anchor(key);
    let (method, path) = key.split_once(' ').unwrap_or((key, ""));
    let _ = write!(
        html,
        "<section class=\"operation\" id=\"{id}\" aria-labelledby=\"{id}-title\">\n\
         <h3 id=\"{id}-title\"><span class=\"method\">{method}</span> <code>{}</code></h3>\n",
        escape(path)
    );
    if let Some(summary) = operation["summary"].as_str() {
        let _ = writeln!(html, "<p class=\"summary\">{}</p>", prose(summary));
    }
    for paragraph in operation["description"].as_str().unwrap_or_default().split("\n\n") {
        if !paragraph.trim().is_empty() {
            let _ = writeln!(html, "<p>{}</p>", prose(paragraph.trim()));
        }
    }
    if let Some(span) = spans.operation(key) {
        let _ = writeln!(
            html,
            "<p class=\"span\">{}{}</p>",
            span_text("The operation", span),
            new_in(spans, span, shown)
        );
    }
    if operation["deprecated"] == true {
        html.push_str("<p class=\"deprecated\" role=\"note\">Deprecated at this version.</p>\n");
    }
    parameters(html, spans, key, operation, shown);
    // Said where a body below shows the example.
    let responses = operation["responses"].as_object().into_iter().flatten();
    let example_shown = content_example(&operation["requestBody"]).is_some()
        || responses.filter(|(status, _)| status.starts_with('2')).any(|(_, r)| content_example(r).is_some());
    if let Some(request) = example.filter(|_| example_shown) {
        let _ = writeln!(
            html,
            "<p class=\"example\">The examples below answer <code>{}</code>.</p>",
            escape(request)
        );
    }
    if let Some(schema) = content_schema(&operation["requestBody"]) {
        let example = content_example(&operation["requestBody"]);
        body(html, spans, key, "Request body", "request ", (schema, example), shown);
    }
    let mut errors = Vec::new();
    for (status, response) in operation["responses"].as_object().into_iter().flatten() {
        if status.starts_with('2') {
            let title = format!("Response {status}");
            match content_schema(response) {
                Some(schema) => {
                    let shown_body = (schema, content_example(response));
                    body(html, spans, key, &title, &format!("response {status} "), shown_body, shown)
                }
                None => {
                    let _ = writeln!(html, "<h4>{title}</h4>\n<p>No body.</p>");
                }
            }
        } else {
            errors.push((status, response["description"].as_str().unwrap_or_default()));
        }
    }
    if !errors.is_empty() {
        html.push_str("<h4>Errors</h4>\n<dl class=\"errors\">\n");
        for (status, why) in errors {
            let _ = writeln!(html, "<dt>{}</dt><dd>{}</dd>", escape(status), escape(why));
        }
        html.push_str("</dl>\n");
    }
    html.push_str("</section>\n");
}

/// The path and query parameters (the version header is on every operation).
fn parameters(html: &mut String, spans: &Spans, key: &str, operation: &Value, shown: Version) {
    let listed: Vec<&Value> =
        operation["parameters"].as_array().into_iter().flatten().filter(|p| p["$ref"].is_null()).collect();
    if listed.is_empty() {
        return;
    }
    html.push_str(
        "<table class=\"fields\"><caption>Parameters</caption>\n<thead><tr><th scope=\"col\">Name</th>\
         <th scope=\"col\">In</th><th scope=\"col\">Required</th><th scope=\"col\">Type</th>\
         <th scope=\"col\">Description</th></tr></thead>\n<tbody>\n",
    );
    for parameter in listed {
        let name = parameter["name"].as_str().unwrap_or_default();
        let _ = writeln!(
            html,
            "<tr><th scope=\"row\"><code>{}</code>{}</th><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(name),
            spans
                .field(key, &parameter_key(parameter, name))
                .map(|span| new_in(spans, span, shown))
                .unwrap_or_default(),
            escape(parameter["in"].as_str().unwrap_or_default()),
            if parameter["required"] == true { "yes" } else { "no" },
            escape(&type_of(&parameter["schema"])),
            prose(parameter["description"].as_str().unwrap_or_default()),
        );
    }
    html.push_str("</tbody></table>\n");
}

/// A body: its fields with their versions, an example and the schema.
/// The example is the operation's own (`#[example]`, real values checked
/// against the service), else one built from the schema, said so.
fn body(
    html: &mut String,
    spans: &Spans,
    key: &str,
    title: &str,
    prefix: &str,
    (schema, example): (&Value, Option<&Value>),
    shown: Version,
) {
    let _ = writeln!(html, "<h4>{title}</h4>");
    let mut fields = Vec::new();
    walk(schema, "", &mut fields, 0);
    if !fields.is_empty() {
        let _ = write!(
            html,
            "<table class=\"fields\"><caption>{title}: fields</caption>\n<thead><tr><th scope=\"col\">Field</th>\
             <th scope=\"col\">Type</th><th scope=\"col\">Versions</th><th scope=\"col\">Description</th>\
             </tr></thead>\n<tbody>\n"
        );
        for (name, field) in &fields {
            let span = spans.field(key, &format!("{prefix}{name}"));
            let versions =
                span.map(|span| span_range(span) + &new_in(spans, span, shown)).unwrap_or_default();
            let _ = writeln!(
                html,
                "<tr><th scope=\"row\"><code>{}</code></th><td>{}</td><td>{versions}</td><td>{}</td></tr>",
                escape(name),
                escape(&type_of(field)),
                prose(field["description"].as_str().unwrap_or_default()),
            );
        }
        html.push_str("</tbody></table>\n");
    }
    let (label, example) = match example {
        Some(example) => ("Example", example.clone()),
        None => ("Example (built from the schema)", example_of(schema, 0)),
    };
    let example = serde_json::to_string_pretty(&example).unwrap_or_default();
    let pretty = serde_json::to_string_pretty(schema).unwrap_or_default();
    let _ = write!(
        html,
        "<details><summary>{label}</summary><pre>{}</pre></details>\n\
         <details><summary>JSON Schema</summary><pre>{}</pre></details>\n",
        escape(&example),
        escape(&pretty)
    );
}

/// `2.55 –` or `2.1 – 2.74`: from the first version to the last, open when
/// the last is the newest.
fn span_range((first, last): (Version, Version)) -> String {
    format!("{first} – {last}")
}

/// A parameter's key among an operation's fields: `parameter query minRam`.
fn parameter_key(parameter: &Value, name: &str) -> String {
    format!("parameter {} {name}", parameter["in"].as_str().unwrap_or_default())
}

/// ` <strong class="new">New in X.Y</strong>` beside what `shown` added, the
/// version's own changes page tells the rest; nothing for what is older, or
/// for the first version, where all is new.
fn new_in(spans: &Spans, (first, _): (Version, Version), shown: Version) -> String {
    if first == shown && spans.first.is_some_and(|oldest| oldest < shown) {
        format!(" <strong class=\"new\">New in {shown}</strong>")
    } else {
        String::new()
    }
}

/// What api-ref says of a span.
fn span_text(what: &str, (first, last): (Version, Version)) -> String {
    format!("{what} exists from version {first} to {last}.")
}

/// A short type: `string`, `integer | null`, `array of object`, `string (uuid)`.
fn type_of(schema: &Value) -> String {
    let base = match &schema["type"] {
        Value::String(kind) => kind.clone(),
        Value::Array(kinds) => kinds.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(" | "),
        _ if schema["enum"].is_array() => "enum".to_owned(),
        _ => match ["anyOf", "oneOf"].iter().find_map(|key| schema[*key].as_array()) {
            Some(branches) => branches.iter().map(type_of).collect::<Vec<_>>().join(" | "),
            None => match schema["$ref"].as_str() {
                Some(reference) => reference.rsplit('/').next().unwrap_or(reference).to_owned(),
                None => "any".to_owned(),
            },
        },
    };
    let mut shown = base;
    if shown.starts_with("array") && schema["items"].is_object() {
        shown = format!("{shown} of {}", type_of(&schema["items"]));
    }
    if let Some(format) = schema["format"].as_str() {
        shown = format!("{shown} ({format})");
    }
    if let Some(values) = schema["enum"].as_array() {
        let values: Vec<String> = values.iter().map(Value::to_string).collect();
        shown = format!("{shown}: {}", values.join(", "));
    }
    shown
}

/// An instance of `schema` to show: its `example` or `default`, else one
/// built from its type.
fn example_of(schema: &Value, depth: usize) -> Value {
    if let Some(example) = schema.get("example").or_else(|| schema.get("default")) {
        return example.clone();
    }
    if let Some(first) = schema["enum"].as_array().and_then(|values| values.first()) {
        return first.clone();
    }
    if depth > MAX_DEPTH {
        return Value::Null;
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(branch) = schema[key].as_array().and_then(|b| b.iter().find(|b| b["type"] != "null")) {
            return example_of(branch, depth + 1);
        }
    }
    let kind = match &schema["type"] {
        Value::Array(kinds) => {
            kinds.iter().filter_map(Value::as_str).find(|k| *k != "null").unwrap_or("null")
        }
        Value::String(kind) => kind.as_str(),
        _ if schema["properties"].is_object() => "object",
        _ => "null",
    };
    match kind {
        "object" => Value::Object(
            schema["properties"]
                .as_object()
                .into_iter()
                .flatten()
                .map(|(name, property)| (name.clone(), example_of(property, depth + 1)))
                .collect::<Map<String, Value>>(),
        ),
        "array" => Value::Array(vec![example_of(&schema["items"], depth + 1)]),
        "string" => Value::from(match schema["format"].as_str() {
            Some("date-time") => "2026-01-01T00:00:00Z",
            Some("uuid") => "5c1b1cb6-0f7e-4bd0-9d3b-0c9e2c0e5b1a",
            Some("uri") => "https://cloud.example/",
            _ => "string",
        }),
        "integer" => schema.get("minimum").cloned().unwrap_or(Value::from(0)),
        "number" => schema.get("minimum").cloned().unwrap_or(Value::from(0.0)),
        "boolean" => Value::Bool(true),
        _ => Value::Null,
    }
}

/// Every version's change in the declaration, and what it changed in the
/// operations and their fields, newest first; the shown version marked.
fn history(html: &mut String, description: &ApiDescription, spans: &Spans, shown: Version) {
    let versions: Vec<Version> = description.versions().collect();
    html.push_str("<section id=\"history\" aria-labelledby=\"history-title\">\n<h2 id=\"history-title\">History</h2>\n<ol class=\"history\">\n");
    for (i, version) in versions.iter().enumerate().rev() {
        let previous = i.checked_sub(1).and_then(|p| versions.get(p)).copied();
        let current = if *version == shown { " aria-current=\"page\" class=\"current\"" } else { "" };
        let _ = writeln!(
            html,
            "<li id=\"v{version}\"{current}><h3><a href=\"{version}\">{version}</a></h3>\n\
             <p><a href=\"{version}/changes\">What {version} changed</a></p>"
        );
        let change = description.api().history().iter().find(|m| m.version == *version).map(|m| m.change);
        if let Some(change) = change {
            let _ = writeln!(html, "<p>{}</p>", escape(change));
        }
        let mut changes = changes_at(spans, *version, previous);
        for (note, _) in description.version_changes_at(*version) {
            changes.push(format!("{}: {}", note.name, note.description));
        }
        if !changes.is_empty() {
            html.push_str("<ul>\n");
            for change in changes {
                let _ = writeln!(html, "<li>{}</li>", escape(&change));
            }
            html.push_str("</ul>\n");
        }
        html.push_str("</li>\n");
    }
    html.push_str("</ol>\n</section>\n");
}

/// What `version` changed from `previous`: operations and fields added
/// (their first version is this one) and removed (their last was the one
/// before).
fn changes_at(spans: &Spans, version: Version, previous: Option<Version>) -> Vec<String> {
    let Some(previous) = previous else { return Vec::new() };
    let mut changes = Vec::new();
    for (operation, (first, last)) in &spans.operations {
        if *first == version {
            changes.push(format!("Added {operation}."));
        }
        if *last == previous {
            changes.push(format!("Removed {operation}."));
        }
    }
    for ((operation, field), (first, last)) in &spans.fields {
        let alive = spans.operation(operation).is_some_and(|(f, l)| f < version && l >= version);
        if *first == version && alive {
            changes.push(format!("{operation}: {field} added."));
        }
        if *last == previous && alive {
            changes.push(format!("{operation}: {field} removed."));
        }
    }
    changes
}

/// An id for an operation: its key with every other character a dash.
fn anchor(key: &str) -> String {
    key.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect()
}

/// A doc comment's text as HTML: escaped, its lines joined, `` `code` ``
/// in `<code>`.
pub(super) fn prose(text: &str) -> String {
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    escape(&joined)
        .split('`')
        .enumerate()
        .map(|(i, part)| if i % 2 == 1 { format!("<code>{part}</code>") } else { part.to_owned() })
        .collect()
}

/// Text safe in HTML, in content and in quoted attributes.
pub(super) fn escape(text: &str) -> String {
    let mut safe = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => safe.push_str("&amp;"),
            '<' => safe.push_str("&lt;"),
            '>' => safe.push_str("&gt;"),
            '"' => safe.push_str("&quot;"),
            '\'' => safe.push_str("&#39;"),
            c => safe.push(c),
        }
    }
    safe
}

/// The page's look: readable type, tables, a visible focus.
pub(super) const STYLE: &str = "\
body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:72rem;padding:0 1rem;color:#1b1b1b;background:#fff}\
a{color:#0645ad}a:focus,button:focus,select:focus,summary:focus{outline:3px solid #f5a623;outline-offset:2px}\
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem}\
header{border-bottom:1px solid #ccc;padding-bottom:1rem}.switcher{display:flex;gap:1rem;align-items:center;flex-wrap:wrap}\
.switcher form{display:flex;gap:.5rem;align-items:center}\
.notice{border-left:6px solid #b00020;background:#fdecee;padding:.75rem 1rem;margin:1rem 0}\
.operation{border-top:1px solid #ddd;margin-top:2rem}.method{font-family:monospace;background:#e8eef9;padding:0 .4rem;border-radius:3px}\
.deprecated{color:#b00020;font-weight:bold}.span{color:#555}.new{color:#1a6b1a;white-space:nowrap}\
table{border-collapse:collapse;margin:.75rem 0;width:100%}caption{text-align:left;font-weight:bold}\
th,td{border:1px solid #ddd;padding:.25rem .5rem;text-align:left;vertical-align:top}\
pre{background:#f6f8fa;padding:.75rem;overflow:auto}.history .current{background:#fffbe6}\
footer{border-top:1px solid #ccc;margin-top:2rem;color:#555}";

/// The switcher moves on its own when a version is chosen; without script,
/// its button asks `./?version=X.Y` and the previous and next links move.
const SCRIPT: &str = "<script>document.getElementById('switcher').addEventListener('submit',function(e){\
e.preventDefault();location.href=document.getElementById('version').value;});\
document.getElementById('version').addEventListener('change',function(){location.href=this.value;});</script>\n";

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::super::{ApiDescription, Documents};
    use crate::{
        Api, Deprecation, Microversion, Version, VersionRange, operation::Example, operation::Operation,
        operation::OperationVariant, operation::SchemaDescription, operation::SchemaDocument,
    };

    const API: Api = Api::new(
        "compute",
        &[
            Microversion::new("2.1", "Initial <version>."),
            Microversion::new("2.2", "Servers have a description."),
            Microversion::new("2.3", "Locking is gone."),
        ],
    )
    .with_deprecation(Deprecation::versions("2.1", "2.1").since("2026-01-01").sunset("2027-01-01"));

    fn create_v2_1() -> Value {
        json!({"type": "object", "properties": {"server": {"type": "object",
            "properties": {"name": {"type": "string"}}}}})
    }

    fn create_v2_2() -> Value {
        json!({"type": "object", "properties": {"server": {"type": "object",
            "properties": {"name": {"type": "string"},
                "description": {"type": ["string", "null"], "description": "What the server is `for`."}}}}})
    }

    static OPERATIONS: [Operation; 2] = [
        Operation {
            name: "create",
            http_method: Some("POST"),
            path: Some("/servers"),
            variants: &[OperationVariant {
                range: VersionRange::ANY,
                schemas: &[
                    SchemaDescription {
                        name: "create_v2_1",
                        range: VersionRange::only(Version::new(2, 1)),
                        document: SchemaDocument::Fixed(create_v2_1),
                    },
                    SchemaDescription {
                        name: "create_v2_2",
                        range: VersionRange::from(Version::new(2, 2)),
                        document: SchemaDocument::Fixed(create_v2_2),
                    },
                ],
                query_schemas: &[],
                response: None,
                errors: &[409],
                deprecation: None,
                doc: "Creates a server.\n\nIts name need not be unique:\nids are.",
                changes: &[],
                examples: &[Example {
                    from: Version::new(2, 2),
                    path: "/servers",
                    request: Some(r#"{"server": {"name": "web-1", "description": "The <front> end."}}"#),
                    response: None,
                }],
            }],
            missing_status: 404,
        },
        Operation {
            name: "lock",
            http_method: Some("PUT"),
            path: Some("/servers/{id}/lock"),
            variants: &[OperationVariant {
                range: VersionRange::between(Version::new(2, 1), Version::new(2, 2)),
                schemas: &[],
                query_schemas: &[],
                response: None,
                errors: &[],
                deprecation: None,
                doc: "",
                changes: &[],
                examples: &[],
            }],
            missing_status: 404,
        },
    ];

    fn page(version: &str) -> String {
        let documents =
            Documents::new(ApiDescription::new(API).with_prefix("/v2.1").with_operations(&OPERATIONS));
        documents.reference_page(Some(version)).expect("a served version").body().to_owned()
    }

    /// An operation's own example shows from its version on, with its
    /// real values, in the page and in the document; before it, the page
    /// builds one from the schema and says so.
    #[test]
    fn an_operations_example_shows_from_its_version() {
        let (at_2_1, at_2_2) = (page("2.1"), page("2.2"));
        assert!(at_2_2.contains("<summary>Example</summary><pre>"), "{at_2_2}");
        assert!(at_2_2.contains("The examples below answer <code>POST /v2.1/servers</code>."), "{at_2_2}");
        assert!(at_2_2.contains("&quot;web-1&quot;") && at_2_2.contains("The &lt;front&gt; end."));
        assert!(
            !at_2_1.contains("web-1")
                && at_2_1.contains("<summary>Example (built from the schema)</summary>")
        );
        let description = ApiDescription::new(API).with_operations(&OPERATIONS);
        let example = |version: &str| {
            let document = description.document(Version::lit(version));
            document["paths"]["/servers"]["post"]["requestBody"]["content"]["application/json"]["example"]
                .clone()
        };
        assert_eq!(example("2.3")["server"]["name"], "web-1");
        assert!(example("2.1").is_null());
    }

    #[test]
    fn a_field_shows_at_the_versions_that_have_it_with_its_span() {
        let (at_2_1, at_2_2) = (page("2.1"), page("2.2"));
        assert!(!at_2_1.contains("<code>server.description</code>"), "2.1 has no description");
        assert!(
            at_2_2
                .contains("<code>server.description</code></th><td>string | null</td><td>2.2 – 2.3 <strong")
        );
        assert!(at_2_2.contains("<code>server.name</code></th><td>string</td><td>2.1 – 2.3</td>"));
        assert!(at_2_2.contains("The operation exists from version 2.1 to 2.2."), "lock ends at 2.2");
        assert!(!page("2.3").contains("/v2.1/servers/{id}/lock</code>"), "2.3 has no lock");
    }

    #[test]
    fn operations_and_fields_say_what_their_docs_say() {
        let at_2_2 = page("2.2");
        assert!(at_2_2.contains(
            "<p class=\"summary\">Creates a server.</p>\n<p>Its name need not be unique: ids are.</p>"
        ));
        assert!(
            at_2_2.contains("New in 2.2</strong></td><td>What the server is <code>for</code>.</td></tr>"),
            "{at_2_2}"
        );
        assert!(
            at_2_2.contains("<a href=\"#post--v2-1-servers\">Creates a server. (POST /v2.1/servers)</a>")
        );
        let document = ApiDescription::new(API).with_operations(&OPERATIONS).document(Version::lit("2.2"));
        let create = &document["paths"]["/servers"]["post"];
        assert_eq!(create["summary"], "Creates a server.");
        assert_eq!(create["description"], "Its name need not be unique:\nids are.");
        assert_eq!(document["paths"]["/servers/{id}/lock"]["put"]["summary"], "lock", "no doc: the name");
        assert!(document["paths"]["/servers/{id}/lock"]["put"].get("description").is_none());
        let history = ApiDescription::new(API).with_operations(&OPERATIONS).history_document();
        assert_eq!(history["paths"]["/servers"]["post"]["summary"], "Creates a server.");
    }

    #[test]
    fn each_version_has_a_page_of_what_it_changed_and_marks_what_is_new() {
        let documents =
            Documents::new(ApiDescription::new(API).with_prefix("/v2.1").with_operations(&OPERATIONS));
        let changes =
            |version: &str| documents.changes_page(Some(version)).expect("served").body().to_owned();
        let at_2_2 = changes("2.2");
        assert!(at_2_2.contains("<h1>What 2.2 changed</h1>"));
        assert!(at_2_2.contains("The declared change: Servers have a description.</p>"));
        assert!(changes("2.1").contains("The declared change: Initial &lt;version&gt;.</p>"), "escaped");
        assert!(at_2_2.contains("Against <a href=\"../2.1\">2.1</a>"));
        assert!(at_2_2.contains("<h2><code>POST /v2.1/servers</code></h2>"), "{at_2_2}");
        assert!(
            at_2_2.contains("<strong>compatible</strong>: request body server.description: "),
            "{at_2_2}"
        );
        assert!(!at_2_2.contains("info"), "the version each document is of is no change");
        let at_2_3 = changes("2.3");
        assert!(at_2_3.contains("<li class=\"breaking\"><strong>breaking</strong>: "), "{at_2_3}");
        assert!(at_2_3.contains("/v2.1/servers/{id}/lock"), "the lock's removal");
        assert!(changes("2.1").contains("2.1 is the first version served"));
        // The version pages link to it and mark what is new.
        let page_2_2 = page("2.2");
        assert!(page_2_2.contains("<a href=\"2.2/changes\">What 2.2 changed</a>"));
        assert!(
            page_2_2.contains("<td>2.2 – 2.3 <strong class=\"new\">New in 2.2</strong></td>"),
            "{page_2_2}"
        );
        assert!(!page_2_2.contains("<td>2.1 – 2.3 <strong class=\"new\">"), "older fields are not new");
        assert!(!page("2.1").contains("class=\"new\""), "at the first version nothing is marked");
        assert!(
            page("2.3").contains("<a href=\"2.1/changes\">What 2.1 changed</a>"),
            "the history links each"
        );
    }

    #[test]
    fn the_history_says_what_each_version_changed() {
        let at_2_3 = page("2.3");
        assert!(at_2_3.contains("<p>Initial &lt;version&gt;.</p>"), "the change is escaped");
        assert!(at_2_3.contains("<li>POST /v2.1/servers: request server.description added.</li>"));
        assert!(at_2_3.contains("<li>Removed PUT /v2.1/servers/{id}/lock.</li>"));
        assert!(at_2_3.contains("<li id=\"v2.3\" aria-current=\"page\" class=\"current\">"));
    }

    #[test]
    fn a_deprecated_version_says_so_and_the_switcher_lists_every_version() {
        let at_2_1 = page("2.1");
        assert!(at_2_1.contains("<strong>Version 2.1 is deprecated</strong> since 2026-01-01"), "{at_2_1}");
        assert!(at_2_1.contains("it stops being served on 2027-01-01"));
        assert!(!page("2.2").contains("id=\"deprecation\""));
        for version in ["2.1", "2.2", "2.3"] {
            assert!(at_2_1.contains(&format!("<option value=\"{version}\"")), "{version}");
        }
        assert!(at_2_1.contains("<option value=\"2.1\" selected>"));
        assert!(at_2_1.contains("<a rel=\"next\" href=\"2.2\">"));
        assert!(at_2_1.contains("<main id=\"main\">") && at_2_1.contains("<nav aria-label=\"Versions\""));
    }

    #[test]
    fn examples_are_built_from_the_schemas() {
        // 2.1: before the operation's own example.
        let at_2_1 = page("2.1");
        let example = at_2_1
            .split("<summary>Example (built from the schema)</summary><pre>")
            .nth(1)
            .expect("an example");
        let example = example.split("</pre>").next().unwrap_or_default().replace("&quot;", "\"");
        let example: Value = serde_json::from_str(&example).expect("the example is JSON");
        assert_eq!(example, json!({"server": {"name": "string"}}));
    }

    #[test]
    fn a_version_not_served_is_refused_as_negotiation_refuses_it() {
        let documents = Documents::new(ApiDescription::new(API).with_operations(&OPERATIONS));
        assert!(documents.reference_page(Some("2.9")).is_err());
        assert!(documents.reference_page(Some("two")).is_err());
        assert!(documents.reference_page(None).expect("the newest").body().contains("reference at 2.3"));
    }
}
