//! The whole history in one document, in the encoding OpenStack's own specs
//! use and its SDK generator reads (docs/17-describing-the-api.md):
//! `x-openstack` `min-ver`/`max-ver` on operations, parameters and schemas;
//! per-version request and response bodies as components named with their
//! first version (`FlavorsCreate_255`), gathered in a `oneOf` container with
//! `x-openstack: {discriminator: microversion}`; operations that stopped
//! existing are `deprecated: true`.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::{ApiDescription, error_response, operation_id, path_parameters, query_parameters};
use crate::{Version, VersionRange, operation::Operation, operation::SchemaDocument};

/// A stretch of versions over which a schema stays the same.
struct Segment {
    first: Version,
    /// The last version, `None` when it lasts to the newest and beyond.
    last: Option<Version>,
    schema: Value,
}

impl ApiDescription {
    /// The document of every version at once, in OpenStack's encoding, with
    /// `info.version` the newest declared version.
    pub fn history_document(&self) -> Value {
        let mut paths = Map::new();
        let mut schemas = Map::new();
        schemas.insert("Error".into(), self.error_schema.clone());
        for op in &self.operations {
            let (path, method) = self.route(op);
            let operation = self.history_operation(op, &path, method, &mut schemas);
            let item = paths.entry(path).or_insert_with(|| json!({}));
            item[method.to_ascii_lowercase()] = operation;
        }
        let newest = self.api.compiled_max();
        let mut document = self.document(newest);
        let deprecations = self.deprecations();
        if !deprecations.is_empty() {
            document["info"]["x-openstack-deprecations"] = Value::Array(deprecations);
        }
        document["paths"] = Value::Object(paths);
        document["components"]["schemas"] = Value::Object(schemas);
        if let Some(parameters) = document["components"]["parameters"].as_object_mut() {
            for parameter in parameters.values_mut() {
                parameter["schema"] = json!({"type": "string"});
            }
        }
        document["components"]["headers"]["OpenStackApiVersion"]["schema"] = json!({"type": "string"});
        document
    }

    fn history_operation(
        &self,
        op: &Operation,
        path: &str,
        method: &str,
        schemas: &mut Map<String, Value>,
    ) -> Value {
        let base = base_name(path, &self.prefix, op.name);
        let first = op.variants.first().and_then(|v| v.range.min());
        let last = op.variants.last().and_then(|v| v.range.max());
        let mut operation = json!({
            "operationId": operation_id(path, &self.prefix, method),
            "parameters": self.history_parameters(op, path),
            "responses": self.history_responses(op, &base, schemas),
        });
        let newest = op.variants.last().and_then(|v| v.range.max()).unwrap_or(self.api.compiled_max());
        super::describe(&mut operation, op.name, op.doc_at(newest));
        let ranges = self.openstack_range(first, last);
        if !ranges.is_empty() {
            operation["x-openstack"] = Value::Object(ranges);
        }
        if last.is_some_and(|last| last < self.api.compiled_max()) {
            operation["deprecated"] = json!(true);
        }
        let bodies: Vec<Segment> = op
            .variants
            .iter()
            .flat_map(|v| v.schemas.iter().flat_map(move |s| self.segments(s.document, s.range, v.range)))
            .collect();
        if !bodies.is_empty() {
            let schema = self.components_of(&bodies, &base, &format!("{base}Request"), schemas);
            operation["requestBody"] =
                json!({"required": true, "content": {"application/json": {"schema": schema}}});
        }
        operation
    }

    /// Path parameters, then each query parameter once with the versions
    /// that accept it, then the version header.
    fn history_parameters(&self, op: &Operation, path: &str) -> Vec<Value> {
        let mut parameters = path_parameters(path);
        let mut query: Vec<(String, Value, Version, Option<Version>)> = Vec::new();
        for variant in op.variants {
            for schema in variant.query_schemas {
                for segment in self.segments(schema.document, schema.range, variant.range) {
                    for parameter in query_parameters(&segment.schema, schema.reads_typed_values()) {
                        let name = parameter["name"].as_str().unwrap_or_default().to_owned();
                        match query.iter_mut().find(|(n, ..)| *n == name) {
                            Some((_, latest, _, last)) => {
                                *latest = parameter;
                                *last = segment.last;
                            }
                            None => query.push((name, parameter, segment.first, segment.last)),
                        }
                    }
                }
            }
        }
        for (_, mut parameter, first, last) in query {
            let ranges = self.openstack_range(Some(first), last);
            if !ranges.is_empty() {
                parameter["x-openstack"] = Value::Object(ranges);
            }
            parameters.push(parameter);
        }
        parameters.extend(super::version_parameter_refs(&self.api));
        parameters
    }

    /// One response per declared status, its bodies per version; errors in
    /// the API's format.
    fn history_responses(&self, op: &Operation, base: &str, schemas: &mut Map<String, Value>) -> Value {
        let mut responses = Map::new();
        let mut statuses: Vec<u16> =
            op.variants.iter().filter_map(|v| v.response.map(|r| r.status)).collect();
        statuses.dedup();
        for status in &statuses {
            let variants = op.variants.iter().filter(|v| v.response.is_some_and(|r| r.status == *status));
            let (first, last) = (
                variants.clone().next().and_then(|v| v.range.min()),
                variants.clone().next_back().and_then(|v| v.range.max()),
            );
            let bodies: Vec<Segment> = variants
                .filter_map(|v| v.response.and_then(|r| r.body).map(|body| (body, v.range)))
                .flat_map(|(body, range)| self.segments(body, VersionRange::ANY, range))
                .collect();
            let mut response = json!({"description": format!("`{}` succeeded.", op.name)});
            if !bodies.is_empty() {
                let name = if statuses.len() > 1 {
                    format!("{base}Response{status}")
                } else {
                    format!("{base}Response")
                };
                let schema = self.components_of(&bodies, &name, &name, schemas);
                response["content"] = json!({"application/json": {"schema": schema}});
            }
            let ranges = self.openstack_range(first, last);
            if statuses.len() > 1 && !ranges.is_empty() {
                response["x-openstack"] = Value::Object(ranges);
            }
            responses.insert(status.to_string(), response);
        }
        if statuses.is_empty() {
            responses.insert("2XX".into(), json!({"description": format!("`{}` succeeded.", op.name)}));
        }
        for (status, response) in self.history_errors(op) {
            responses.insert(status.to_string(), response);
        }
        Value::Object(responses)
    }

    /// Each error status the operation answers at some version, with the
    /// versions that answer it when not all of the operation's do.
    fn history_errors(&self, op: &Operation) -> BTreeMap<u16, Value> {
        let live: Vec<Version> =
            self.api.history().iter().map(|m| m.version).filter(|v| op.variant_at(*v).is_some()).collect();
        let mut seen: BTreeMap<u16, (Vec<&'static str>, Vec<Version>)> = BTreeMap::new();
        for version in &live {
            let Some(variant) = op.variant_at(*version) else { continue };
            for (status, why) in self.error_statuses(op, variant, *version) {
                let (reasons, versions) = seen.entry(status).or_default();
                reasons.extend(why.into_iter().filter(|w| !reasons.contains(w)).collect::<Vec<_>>());
                versions.push(*version);
            }
        }
        seen.into_iter()
            .map(|(status, (reasons, versions))| {
                let mut response = error_response(status, &reasons);
                if versions.len() < live.len() {
                    let last = versions.last().copied().filter(|v| Some(v) != live.last());
                    let ranges = self.openstack_range(versions.first().copied(), last);
                    if !ranges.is_empty() {
                        response["x-openstack"] = Value::Object(ranges);
                    }
                }
                (status, response)
            })
            .collect()
    }

    /// Each segment as a component `{base}_{version}` (`FlavorsCreate_255`);
    /// one is referenced directly, several through `container`,
    /// discriminated by microversion.
    fn components_of(
        &self,
        segments: &[Segment],
        base: &str,
        container: &str,
        schemas: &mut Map<String, Value>,
    ) -> Value {
        let mut refs = Vec::new();
        for segment in segments {
            let name = format!("{base}_{}", compact(segment.first));
            let mut schema = segment.schema.clone();
            let ranges = self.openstack_range(Some(segment.first), segment.last);
            if let (Some(object), false) = (schema.as_object_mut(), ranges.is_empty()) {
                object.insert("x-openstack".into(), Value::Object(ranges));
            }
            schemas.insert(name.clone(), schema);
            refs.push(json!({"$ref": format!("#/components/schemas/{name}")}));
        }
        if refs.len() == 1 {
            return refs.remove(0);
        }
        schemas.insert(
            container.to_owned(),
            json!({"oneOf": refs, "x-openstack": {"discriminator": "microversion"}}),
        );
        json!({"$ref": format!("#/components/schemas/{container}")})
    }

    /// The stretches of declared versions in `schema ∩ variant` over which
    /// `document` stays the same; the last one is open-ended when the range is.
    fn segments(
        &self,
        document: SchemaDocument,
        schema: VersionRange,
        variant: VersionRange,
    ) -> Vec<Segment> {
        let Some(range) = schema.intersection(variant) else { return Vec::new() };
        let mut versions = self.api.history().iter().map(|m| m.version).filter(|v| range.contains(*v));
        let mut segments: Vec<Segment> = Vec::new();
        match document {
            // The same document at every version: one stretch.
            SchemaDocument::Fixed(fixed) => {
                if let Some(first) = versions.next() {
                    let last = versions.next_back().unwrap_or(first);
                    segments.push(Segment { first, last: Some(last), schema: fixed() });
                }
            }
            SchemaDocument::AtVersion(_) => {
                for version in versions {
                    let schema = document.at(version);
                    match segments.last_mut() {
                        Some(segment) if segment.schema == schema => segment.last = Some(version),
                        _ => segments.push(Segment { first: version, last: Some(version), schema }),
                    }
                }
            }
        }
        if range.max().is_none()
            && let Some(segment) = segments.last_mut()
        {
            segment.last = None;
        }
        segments
    }

    /// The declared deprecations: the versions (`min-ver`/`max-ver`, none
    /// for the whole API version), the date, and the sunset and links when
    /// declared. Only the history document has them: a per-version document
    /// is that version's contract, which a deprecation does not change.
    fn deprecations(&self) -> Vec<Value> {
        self.api
            .deprecations()
            .iter()
            .map(|d| {
                let mut entry = match d.versions_covered() {
                    Some(range) => Value::Object(self.openstack_range(range.min(), range.max())),
                    None => json!({"whole-api": true}),
                };
                entry["since"] = json!(d.deprecated_since().iso8601());
                if let Some(sunset) = d.sunset_date() {
                    entry["sunset"] = json!(sunset.iso8601());
                }
                if let Some(link) = d.deprecation_link() {
                    entry["link"] = json!(link);
                }
                if let Some(link) = d.sunset_link_url() {
                    entry["sunset-link"] = json!(link);
                }
                entry
            })
            .collect()
    }

    /// `min-ver` unless it is the API's minimum, `max-ver` when bounded.
    fn openstack_range(&self, first: Option<Version>, last: Option<Version>) -> Map<String, Value> {
        let mut ranges = Map::new();
        if let Some(first) = first.filter(|first| *first > self.api.min()) {
            ranges.insert("min-ver".into(), json!(first.to_string()));
        }
        if let Some(last) = last {
            ranges.insert("max-ver".into(), json!(last.to_string()));
        }
        ranges
    }
}

/// `255` for 2.55: the version suffix of a component's name.
fn compact(version: Version) -> String {
    format!("{}{}", version.major(), version.minor())
}

/// `FlavorsCreate` for `create` on `/v2.1/flavors`,
/// `FlavorsOsExtraSpecsUpdate` for `update` on
/// `/v2.1/flavors/{id}/os-extra_specs/{key}`: the path's resource names, then
/// the operation's.
fn base_name(path: &str, prefix: &str, operation: &str) -> String {
    let resources: String = path
        .strip_prefix(prefix)
        .unwrap_or(path)
        .split('/')
        .filter(|s| !s.is_empty() && !s.starts_with('{'))
        .map(title_case)
        .collect();
    format!("{resources}{}", title_case(operation))
}

fn title_case(text: &str) -> String {
    text.split(['-', '_', '.'])
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars();
            chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn component_names_follow_openstacks() {
        assert_eq!(base_name("/v2.1/flavors/{id}", "/v2.1", "update"), "FlavorsUpdate");
        assert_eq!(
            base_name("/v2.1/flavors/{id}/os-extra_specs/{key}", "/v2.1", "update"),
            "FlavorsOsExtraSpecsUpdate"
        );
        assert_eq!(base_name("/v2.1/os-keypairs", "/v2.1", "list_detail"), "OsKeypairsListDetail");
        assert_eq!(compact(Version::new(2, 55)), "255");
    }
}
