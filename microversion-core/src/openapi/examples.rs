//! The check of the operations' examples against the service
//! (docs/reference.md §14.10): each example is a request to send at the
//! first and the last version it shows, and the answer it must get. The
//! core says what to send and judges what came back; the test sends it,
//! over whatever transport it likes.

use serde_json::Value;

use super::ApiDescription;
use crate::Version;
use crate::operation::Example;

/// One example's request at one version, and the answer it shows.
#[derive(Clone, Debug)]
pub struct ExampleCase {
    /// The operation's name.
    pub operation: &'static str,
    /// The HTTP method.
    pub method: &'static str,
    /// The path and query to send, the description's prefix included.
    pub path: String,
    /// The version to ask for.
    pub version: Version,
    /// The request's JSON body, if any.
    pub request: Option<&'static str>,
    /// The success status the operation declares at the version, if it does.
    pub status: Option<u16>,
    /// The answer's JSON body the example shows, if any.
    pub response: Option<&'static str>,
}

impl ExampleCase {
    /// Whether `status` and `body` are the answer the example shows: the
    /// declared success status (else any 2xx), and the same JSON (an
    /// example without an answer body expects an empty one). The error
    /// says which example, at which version, and how the answer differs.
    pub fn judge(&self, status: u16, body: &[u8]) -> Result<(), String> {
        let what = format!(
            "the example of `{}` at {} ({} {})",
            self.operation, self.version, self.method, self.path
        );
        let status_ok = match self.status {
            Some(declared) => status == declared,
            None => (200..300).contains(&status),
        };
        if !status_ok {
            let body = String::from_utf8_lossy(body);
            let expected = self.status.map_or_else(|| "a 2xx".to_owned(), |s| s.to_string());
            return Err(format!("{what}: the service answered {status} ({body}), not {expected}"));
        }
        let Some(shown) = self.response else {
            return match body.is_empty() {
                true => Ok(()),
                false => Err(format!(
                    "{what}: shows no body, the service answered {}",
                    String::from_utf8_lossy(body)
                )),
            };
        };
        let shown: Value =
            serde_json::from_str(shown).map_err(|e| format!("{what}: its answer file is not JSON: {e}"))?;
        let answered: Value = serde_json::from_slice(body).map_err(|e| {
            format!("{what}: the service's answer is not JSON ({e}): {}", String::from_utf8_lossy(body))
        })?;
        match first_difference(&shown, &answered, "") {
            None => Ok(()),
            Some(difference) => Err(format!("{what}: {difference}\nthe service answered:\n{answered:#}")),
        }
    }
}

/// Where two JSON values first differ, as a JSON pointer and both sides.
fn first_difference(shown: &Value, answered: &Value, at: &str) -> Option<String> {
    match (shown, answered) {
        (Value::Object(a), Value::Object(b)) => {
            let keys = a.keys().chain(b.keys().filter(|k| !a.contains_key(*k)));
            keys.into_iter().find_map(|key| {
                let inner = format!("{at}/{}", key.replace('~', "~0").replace('/', "~1"));
                match (a.get(key), b.get(key)) {
                    (Some(x), Some(y)) => first_difference(x, y, &inner),
                    (Some(x), None) => Some(format!("{inner}: shown as {x}, absent from the answer")),
                    (None, Some(y)) => Some(format!("{inner}: answered {y}, absent from the example")),
                    (None, None) => None,
                }
            })
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            a.iter().zip(b).enumerate().find_map(|(i, (x, y))| first_difference(x, y, &format!("{at}/{i}")))
        }
        _ if shown == answered => None,
        _ => Some(format!("{}: shown as {shown}, answered {answered}", if at.is_empty() { "/" } else { at })),
    }
}

impl ApiDescription {
    /// The request line of the example `key`'s operation (`GET
    /// /v2.1/flavors`) shows at `version`, if it has one: `GET
    /// /v2.1/flavors?limit=2`, for the reference page.
    pub(crate) fn example_request(&self, key: &str, version: Version) -> Option<String> {
        self.operations.iter().find_map(|op| {
            let (path, method) = self.route(op);
            if format!("{method} {path}") != key {
                return None;
            }
            let example = op.variant_at(version)?.example_at(version)?;
            Some(format!("{method} {}{}", self.prefix, example.path))
        })
    }

    /// Every example of the described operations, each at the first and
    /// the last served version it shows (from its version to the
    /// next example's, inside its variant's versions): the requests a test
    /// sends to check that no example drifted from the service.
    pub fn example_cases(&self) -> Vec<ExampleCase> {
        // The versions served: a retired or capped one would refuse it.
        let history: Vec<Version> = self.versions().collect();
        let mut cases = Vec::new();
        for op in &self.operations {
            let (Some(method), Some(_)) = (op.http_method, op.path) else { continue };
            // A variant with version changes is described band by band, each
            // with the variant's examples: each example once, at the versions
            // of every band that shows it.
            let mut shown: Vec<(&'static Example, Vec<Version>)> = Vec::new();
            for variant in op.variants {
                for example in variant.examples {
                    let at = history
                        .iter()
                        .copied()
                        .filter(|v| variant.range.contains(*v) && variant.example_at(*v) == Some(example));
                    match shown.iter_mut().find(|(e, _)| *e == example) {
                        Some((_, versions)) => versions.extend(at),
                        None => shown.push((example, at.collect())),
                    }
                }
            }
            for (example, mut versions) in shown {
                versions.sort();
                versions.dedup();
                let ends = match (versions.first(), versions.last()) {
                    (Some(first), Some(last)) if first == last => vec![*first],
                    (Some(first), Some(last)) => vec![*first, *last],
                    _ => Vec::new(),
                };
                for version in ends {
                    let status = op.variant_at(version).and_then(|v| v.response).map(|r| r.status);
                    cases.push(ExampleCase {
                        operation: op.name,
                        method,
                        path: format!("{}{}", self.prefix, example.path),
                        version,
                        request: example.request,
                        status,
                        response: example.response,
                    });
                }
            }
        }
        cases
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::operation::{Operation, OperationVariant, ResponseDescription};
    use crate::{Api, Microversion, VersionRange};

    const API: Api = Api::new(
        "compute",
        &[
            Microversion::new("2.1", "Initial."),
            Microversion::new("2.2", "Nothing on flavors."),
            Microversion::new("2.3", "Flavors have a description."),
            Microversion::new("2.4", "Nothing on flavors."),
        ],
    );

    static SHOW: [Operation; 1] = [Operation {
        name: "show",
        http_method: Some("GET"),
        path: Some("/flavors/{id}"),
        variants: &[OperationVariant {
            range: VersionRange::ANY,
            schemas: &[],
            query_schemas: &[],
            response: Some(ResponseDescription { status: 200, body: None, body_name: None }),
            errors: &[],
            deprecation: None,
            doc: "",
            changes: &[],
            examples: &[
                Example {
                    from: Version::new(2, 1),
                    path: "/flavors/1",
                    request: None,
                    response: Some(r#"{"flavor": {"id": "1"}}"#),
                },
                Example {
                    from: Version::new(2, 3),
                    path: "/flavors/1",
                    request: None,
                    response: Some(r#"{"flavor": {"id": "1", "description": null}}"#),
                },
            ],
        }],
        missing_status: 404,
    }];

    fn cases() -> Vec<ExampleCase> {
        ApiDescription::new(API).with_prefix("/v2.1").with_operations(&SHOW).example_cases()
    }

    #[test]
    fn each_example_is_sent_at_the_first_and_last_version_it_shows() {
        let sent: Vec<(String, String)> =
            cases().iter().map(|c| (c.version.to_string(), c.path.clone())).collect();
        let expected = [
            ("2.1", "/v2.1/flavors/1"),
            ("2.2", "/v2.1/flavors/1"),
            ("2.3", "/v2.1/flavors/1"),
            ("2.4", "/v2.1/flavors/1"),
        ];
        assert_eq!(sent, expected.map(|(v, p)| (v.to_owned(), p.to_owned())));
        assert!(cases().iter().all(|c| c.status == Some(200) && c.method == "GET"));
        // A capped API is asked at the versions it serves only.
        let capped = ApiDescription::new(API.capped_at(Version::new(2, 3)).expect("a declared version"))
            .with_operations(&SHOW)
            .example_cases();
        let versions: Vec<String> = capped.iter().map(|c| c.version.to_string()).collect();
        assert_eq!(versions, ["2.1", "2.2", "2.3"]);
    }

    #[test]
    fn an_answer_that_drifted_from_its_example_is_named_where_it_differs() {
        let at_2_3 = &cases()[2];
        assert_eq!(at_2_3.judge(200, br#"{"flavor":{"description":null,"id":"1"}}"#), Ok(()));
        let drift = at_2_3.judge(200, br#"{"flavor":{"id":"1","description":"small"}}"#).unwrap_err();
        assert!(drift.contains("/flavor/description: shown as null, answered \"small\""), "{drift}");
        let missing = at_2_3.judge(200, br#"{"flavor":{"id":"1"}}"#).unwrap_err();
        assert!(missing.contains("/flavor/description: shown as null, absent from the answer"), "{missing}");
        let extra = cases()[0].judge(200, br#"{"flavor":{"id":"1","description":null}}"#).unwrap_err();
        assert!(extra.contains("absent from the example"), "{extra}");
        let status = at_2_3.judge(404, b"{}").unwrap_err();
        assert!(status.contains("answered 404 ({}), not 200"), "{status}");
    }
}
