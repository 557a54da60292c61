//! Version discovery documents as a server builds them from its
//! declarations (Nova's `GET /` and `GET /v2.1/`); a client reads them with
//! [`parse_discovery`](crate::client::parse_discovery).

use serde::{Deserialize, Serialize};

use crate::version::{STANDARD_HEADER, VersionReader};
use crate::{Api, Version, VersionCap, lifecycle::VersionStatus};

/// A link in a discovery document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Link {
    /// The target URL.
    pub href: String,
    /// The relation, `self` or `describedby`.
    pub rel: String,
    /// The media type of the target, if stated.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub media_type: Option<String>,
}

/// A media type the API version speaks (`GET /v2.1/` only).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MediaType {
    /// The base type, `application/json`.
    pub base: String,
    /// The vendor type, `application/vnd.openstack.compute+json;version=2.1`.
    #[serde(rename = "type")]
    pub media_type: String,
}

/// One place a request names its version ([`VersionReader`]), as a version
/// document lists it for an API that reads more than the standard header
/// (docs/reference.md §2.6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReaderDocument {
    /// `header`, `query`, `media-type` or `path`.
    #[serde(rename = "in")]
    pub place: String,
    /// The header's, parameter's or path prefix's name.
    pub name: String,
    /// A request naming the minimum there: `?api-version=2.1`.
    pub example: String,
}

impl ReaderDocument {
    fn of(api: &Api, reader: VersionReader) -> ReaderDocument {
        let (place, name) = match reader {
            VersionReader::Standard => ("header", STANDARD_HEADER),
            VersionReader::Header(name) => ("header", name),
            VersionReader::Query(name) => ("query", name),
            VersionReader::MediaType(param) => ("media-type", param),
            VersionReader::PathSegment(prefix) => ("path", prefix),
        };
        let example = reader.example(api.service_type(), &api.min().to_string());
        ReaderDocument { place: place.into(), name: name.into(), example }
    }
}

/// One API version entry, as Nova renders it, with the API-SIG guideline's
/// name for the maximum as well.
///
/// The served maximum is written twice, as Nova's `version` and as the
/// version-discovery guideline's `max_version`, so that readers of either
/// name find it (keystoneauth1 reads `max_version` first, then `version`).
/// Reading accepts a document with either or both; when both are present
/// they must agree.
///
/// ```
/// use microversion_core::{Version, discovery::VersionDocument};
///
/// let nova: VersionDocument = serde_json::from_str(
///     r#"{"id": "v2.1", "status": "CURRENT", "version": "2.96", "min_version": "2.1", "links": []}"#,
/// ).unwrap();
/// let guideline: VersionDocument = serde_json::from_str(
///     r#"{"id": "v2.1", "status": "CURRENT", "max_version": "2.96", "min_version": "2.1", "links": []}"#,
/// ).unwrap();
/// assert_eq!(nova, guideline);
/// assert_eq!(nova.version, Version::lit("2.96"));
/// let written = serde_json::to_value(&nova).unwrap();
/// assert_eq!((&written["version"], &written["max_version"]), (&"2.96".into(), &"2.96".into()));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "VersionDocumentWire", try_from = "VersionDocumentWire")]
pub struct VersionDocument {
    /// The API identifier, `v2.1`.
    pub id: String,
    /// CURRENT, SUPPORTED or DEPRECATED.
    pub status: VersionStatus,
    /// The served maximum microversion, written as both `version` and
    /// `max_version`.
    pub version: Version,
    /// The served minimum microversion.
    pub min_version: Version,
    /// The minimum planned next (the API-SIG guideline's `next_min_version`),
    /// when a deprecated range holding the minimum has a sunset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_min_version: Option<Version>,
    /// The date before which the minimum will not be raised (`not_before`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_before: Option<String>,
    /// When the API version last changed (ISO 8601), if declared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated: Option<String>,
    /// The version the asking client's requests get when they name none,
    /// where a client default chose one for it (docs/reference.md §3.6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_version: Option<Version>,
    /// `self` (and possibly other) links.
    pub links: Vec<Link>,
    /// Media types, present in the single-version document.
    #[serde(rename = "media-types", default, skip_serializing_if = "Vec::is_empty")]
    pub media_types: Vec<MediaType>,
    /// Where a request names its version, in the order of precedence, for
    /// an API that reads more than the standard header; empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub version_readers: Vec<ReaderDocument>,
    /// Whether a request must name its version ([`Api::with_version_required`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub version_required: bool,
}

/// [`VersionDocument`] as written: the maximum under both of its names.
#[derive(Serialize, Deserialize)]
struct VersionDocumentWire {
    id: String,
    status: VersionStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    version: Option<Version>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    max_version: Option<Version>,
    min_version: Version,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    next_min_version: Option<Version>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    not_before: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    updated: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    client_version: Option<Version>,
    links: Vec<Link>,
    #[serde(rename = "media-types", default, skip_serializing_if = "Vec::is_empty")]
    media_types: Vec<MediaType>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    version_readers: Vec<ReaderDocument>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    version_required: bool,
}

impl From<VersionDocument> for VersionDocumentWire {
    fn from(doc: VersionDocument) -> VersionDocumentWire {
        VersionDocumentWire {
            id: doc.id,
            status: doc.status,
            version: Some(doc.version),
            max_version: Some(doc.version),
            min_version: doc.min_version,
            next_min_version: doc.next_min_version,
            not_before: doc.not_before,
            updated: doc.updated,
            client_version: doc.client_version,
            links: doc.links,
            media_types: doc.media_types,
            version_readers: doc.version_readers,
            version_required: doc.version_required,
        }
    }
}

impl TryFrom<VersionDocumentWire> for VersionDocument {
    type Error = String;

    fn try_from(wire: VersionDocumentWire) -> Result<VersionDocument, String> {
        let version = match (wire.version, wire.max_version) {
            (Some(version), Some(max)) if version != max => {
                return Err(format!("`version` {version} and `max_version` {max} disagree"));
            }
            (Some(max), _) | (None, Some(max)) => max,
            (None, None) => return Err("neither `max_version` nor `version` is present".into()),
        };
        Ok(VersionDocument {
            id: wire.id,
            status: wire.status,
            version,
            min_version: wire.min_version,
            next_min_version: wire.next_min_version,
            not_before: wire.not_before,
            updated: wire.updated,
            client_version: wire.client_version,
            links: wire.links,
            media_types: wire.media_types,
            version_readers: wire.version_readers,
            version_required: wire.version_required,
        })
    }
}

/// `GET /`: every API version of the service.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VersionList {
    /// The entries, one per API.
    pub versions: Vec<VersionDocument>,
}

/// `GET /v2.1/`: one API version.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SingleVersion {
    /// The entry, with media types.
    pub version: VersionDocument,
}

/// Joins a root URL and the API's path (`/v2.1`), ending in `/`.
fn self_href(root_url: &str, path: &str) -> String {
    format!("{}{}/", root_url.trim_end_matches('/'), path)
}

impl Api {
    /// This API's entry for `GET /`, with its `self` link under `root_url`
    /// (the service root as clients reach it, path prefix included) and
    /// [`Api::path`] (`/v2.1` by default).
    ///
    /// ```
    /// use microversion_core::{Api, Microversion};
    ///
    /// const API: Api = Api::new("compute", &[
    ///     Microversion::new("2.1", "Initial."),
    ///     Microversion::new("2.2", "Keypair types."),
    /// ]);
    /// let doc = API.version_document("http://cloud.example/compute");
    /// assert_eq!(doc.id, "v2.1");
    /// assert_eq!(doc.links[0].href, "http://cloud.example/compute/v2.1/");
    /// assert_eq!(doc.version.to_string(), "2.2");
    /// ```
    pub fn version_document(&self, root_url: &str) -> VersionDocument {
        let id = self.id();
        let next_min = self.next_min_version();
        VersionDocument {
            links: vec![Link {
                href: self_href(root_url, &self.path()),
                rel: "self".into(),
                media_type: None,
            }],
            id: id.into_owned(),
            status: self.status(),
            version: self.max(),
            min_version: self.min(),
            next_min_version: next_min.map(|(v, _)| v),
            not_before: next_min.map(|(_, at)| at.iso8601()),
            updated: self.updated().map(str::to_owned),
            client_version: None,
            media_types: Vec::new(),
            version_readers: match self.readers() {
                [VersionReader::Standard] => Vec::new(),
                readers => readers.iter().map(|reader| ReaderDocument::of(self, *reader)).collect(),
            },
            version_required: self.version_required(),
        }
    }

    /// This API's document for `GET /v2.1/`, with media types.
    pub fn single_version_document(&self, root_url: &str) -> SingleVersion {
        let mut version = self.version_document(root_url);
        let bare_id = version.id.trim_start_matches('v').to_owned();
        version.media_types.push(MediaType {
            base: "application/json".into(),
            media_type: format!("application/vnd.openstack.{}+json;version={}", self.service_type(), bare_id),
        });
        SingleVersion { version }
    }
}

impl VersionList {
    /// The `GET /` document for every API of a service.
    pub fn new(apis: &[Api], root_url: &str) -> VersionList {
        VersionList { versions: apis.iter().map(|api| api.version_document(root_url)).collect() }
    }
}

/// Whether the one-segment path `path` (`/v3`, `/v2.1/`) names a version:
/// `v`, a digit, then digits and dots. Discovery answers such a path no
/// API declares with its 404 naming the versions it offers
/// (docs/reference.md §7), on every facade; any other path is left to the
/// service's routes.
///
/// ```
/// use microversion_core::discovery::is_version_like_path;
///
/// assert!(is_version_like_path("/v3") && is_version_like_path("/v2.1/") && is_version_like_path("/v2.1.7"));
/// assert!(!is_version_like_path("/servers") && !is_version_like_path("/v") && !is_version_like_path("/vx"));
/// assert!(!is_version_like_path("/v2/servers") && !is_version_like_path("/") && !is_version_like_path("/v2//"));
/// ```
pub fn is_version_like_path(path: &str) -> bool {
    let segment = path.strip_prefix('/').unwrap_or(path);
    let segment = segment.strip_suffix('/').unwrap_or(segment);
    segment.strip_prefix('v').is_some_and(|rest| {
        rest.starts_with(|c: char| c.is_ascii_digit())
            && rest.bytes().all(|b| b.is_ascii_digit() || b == b'.')
    })
}

/// The APIs a discovery service lists, in order, each with the cap handle
/// it follows and a hook of the framework layer's (`H`: its client
/// default), matched by [`Api::is_same_api`]: the bookkeeping the actix
/// and axum discovery services share.
///
/// ```
/// use microversion_core::{Api, discovery::ListedApis, Microversion, Version, VersionCap};
///
/// const API: Api = Api::new("compute", &[Microversion::new("2.1", "a"), Microversion::new("2.2", "b")]);
/// let cap = VersionCap::new(&API.capped_at(Version::lit("2.1")).unwrap());
/// let mut listed: ListedApis<&str> = ListedApis::new(&[API]);
/// listed.follow_cap(cap.clone());
/// listed.attach(&API, "hook");
/// assert_eq!(listed.current(0).max(), Version::lit("2.1"));
/// cap.set(Version::lit("2.2")).unwrap();
/// assert_eq!(listed.current(0).max(), Version::lit("2.2"));
/// assert_eq!((listed.declared().len(), listed.hook(0)), (1, Some(&"hook")));
/// ```
#[derive(Clone, Debug)]
pub struct ListedApis<H> {
    apis: Vec<Api>,
    caps: Vec<Option<VersionCap>>,
    hooks: Vec<Option<H>>,
}

impl<H> ListedApis<H> {
    /// `apis`, in this order, following no cap handle, without hooks.
    pub fn new(apis: &[Api]) -> ListedApis<H> {
        ListedApis {
            apis: apis.to_vec(),
            caps: apis.iter().map(|_| None).collect(),
            hooks: apis.iter().map(|_| None).collect(),
        }
    }

    /// The entry of `api`, added at the end when none is the same API.
    fn index_of(&mut self, api: &Api) -> usize {
        match self.apis.iter().position(|listed| listed.is_same_api(api)) {
            Some(i) => i,
            None => {
                self.apis.push(*api);
                self.caps.push(None);
                self.hooks.push(None);
                self.apis.len() - 1
            }
        }
    }

    /// The API of `cap` follows it: its served maximum is the handle's when
    /// a document is asked for, and its declaration the handle's (a
    /// retirement shows too).
    pub fn follow_cap(&mut self, cap: VersionCap) {
        let declared = *cap.declaration();
        let i = self.index_of(&declared);
        self.apis[i] = declared;
        self.caps[i] = Some(cap);
    }

    /// Gives `api` the hook `hook`.
    pub fn attach(&mut self, api: &Api, hook: H) {
        let i = self.index_of(api);
        self.hooks[i] = Some(hook);
    }

    /// The declarations, in order.
    pub fn declared(&self) -> &[Api] {
        &self.apis
    }

    /// API `index` as served now: with the value of its cap handle.
    pub fn current(&self, index: usize) -> Api {
        self.caps[index].as_ref().map_or(self.apis[index], VersionCap::api)
    }

    /// The hook of API `index`, if it has one.
    pub fn hook(&self, index: usize) -> Option<&H> {
        self.hooks[index].as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Microversion, client::parse_discovery};
    use serde_json::json;

    const API: Api = Api::new("compute", &[Microversion::new("2.1", "a"), Microversion::new("2.96", "b")])
        .with_updated("2013-07-23T11:33:21Z");

    #[test]
    fn nova_list_document() {
        let doc = serde_json::to_value(VersionList::new(&[API], "http://h:8774/")).unwrap();
        assert_eq!(
            doc,
            json!({"versions": [{
                "id": "v2.1", "status": "CURRENT", "version": "2.96", "max_version": "2.96",
                "min_version": "2.1", "updated": "2013-07-23T11:33:21Z",
                "links": [{"href": "http://h:8774/v2.1/", "rel": "self"}]
            }]})
        );
    }

    #[test]
    fn nova_single_document_follows_the_cap() {
        let capped = API.capped_at(Version::new(2, 1)).unwrap();
        let doc = serde_json::to_value(capped.single_version_document("http://h/compute")).unwrap();
        assert_eq!(doc["version"]["version"], "2.1");
        assert_eq!(doc["version"]["max_version"], "2.1");
        assert_eq!(doc["version"]["links"][0]["href"], "http://h/compute/v2.1/");
        assert_eq!(
            doc["version"]["media-types"],
            json!([{"base": "application/json", "type": "application/vnd.openstack.compute+json;version=2.1"}])
        );
    }

    #[test]
    fn the_self_link_follows_the_path_not_the_id() {
        const VOLUME: Api =
            Api::new("volume", &[Microversion::new("3.0", "a"), Microversion::new("3.70", "b")])
                .with_path("/v3");
        let doc = VOLUME.version_document("http://h:8776/");
        assert_eq!(doc.id, "v3.0");
        assert_eq!(doc.links[0].href, "http://h:8776/v3/");
    }

    #[test]
    fn parses_our_own_documents_back() {
        let list = serde_json::to_string(&VersionList::new(&[API], "http://h")).unwrap();
        let single = serde_json::to_string(&API.single_version_document("http://h")).unwrap();
        for doc in [list, single] {
            let got = parse_discovery(&doc).unwrap();
            assert_eq!(got[0].id, "v2.1");
            assert_eq!((got[0].min, got[0].max), (Some(Version::new(2, 1)), Some(Version::new(2, 96))));
        }
    }

    /// A reader of either name finds the maximum: `parse_discovery` and
    /// `VersionDocument` read a document with only `max_version`, one with
    /// only `version`, and ours with both, alike.
    #[test]
    fn the_maximum_is_read_from_max_version_or_version() {
        let ours = serde_json::to_value(VersionList::new(&[API], "http://h")).unwrap();
        let entry = &ours["versions"][0];
        assert_eq!((&entry["version"], &entry["max_version"]), (&json!("2.96"), &json!("2.96")));
        let mut only_max = entry.clone();
        only_max.as_object_mut().unwrap().remove("version");
        let mut only_version = entry.clone();
        only_version.as_object_mut().unwrap().remove("max_version");
        for (name, doc) in [("both", entry), ("only max_version", &only_max), ("only version", &only_version)]
        {
            let list = json!({"versions": [doc]}).to_string();
            let got = parse_discovery(&list).unwrap();
            assert_eq!(
                (got[0].min, got[0].max),
                (Some(Version::new(2, 1)), Some(Version::new(2, 96))),
                "{name}"
            );
            let single = json!({"version": doc}).to_string();
            assert_eq!(parse_discovery(&single).unwrap()[0].max, Some(Version::new(2, 96)), "{name}");
            let typed: VersionDocument = serde_json::from_value(doc.clone()).unwrap();
            assert_eq!(typed, API.version_document("http://h"), "{name}");
            let typed: VersionList = serde_json::from_str(&list).unwrap();
            assert_eq!(typed.versions[0].version, Version::new(2, 96), "{name}");
        }
        // `parse_discovery` prefers `max_version`, as keystoneauth1 does.
        let both = r#"{"versions": [{"id": "v1.0", "max_version": "1.39", "version": "1.2", "min_version": "1.0"}]}"#;
        assert_eq!(parse_discovery(both).unwrap()[0].max, Some(Version::new(1, 39)));
        // The typed document holds one maximum: two that disagree, or none, are refused.
        let mut disagree = entry.clone();
        disagree["max_version"] = json!("2.95");
        assert!(serde_json::from_value::<VersionDocument>(disagree).is_err());
        let mut neither = only_max.clone();
        neither.as_object_mut().unwrap().remove("max_version");
        assert!(serde_json::from_value::<VersionDocument>(neither).is_err());
    }
}
