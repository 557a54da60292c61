//! The client's side: the versions a server announces, read from any of
//! OpenStack's discovery shapes, and which version to ask it for.

use std::fmt;

use serde_json::Value;

use crate::{Version, VersionRange};

/// What the client's user asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClientRequest {
    /// The highest version both sides support (novaclient's `2.latest`).
    HighestCommon,
    /// Exactly this version, or fail (the user pinned it).
    Exactly(Version),
}

/// Why a client and a server have no version to talk with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientNegotiationError {
    /// The server announces no microversions at all.
    ServerHasNoMicroversions {
        /// The client's range.
        client: VersionRange,
    },
    /// The two ranges do not meet.
    NoCommonVersion {
        /// The client's range.
        client: VersionRange,
        /// The server's range.
        server: VersionRange,
    },
    /// The pinned version is outside one of the ranges.
    RequestedUnsupported {
        /// The pinned version.
        requested: Version,
        /// The client's range.
        client: VersionRange,
        /// The server's range.
        server: VersionRange,
    },
}

impl fmt::Display for ClientNegotiationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientNegotiationError::ServerHasNoMicroversions { client } => {
                write!(f, "the server announces no microversions; the client supports {client}")
            }
            ClientNegotiationError::NoCommonVersion { client, server } => {
                write!(f, "no version in common: the client supports {client} and the server {server}")
            }
            ClientNegotiationError::RequestedUnsupported { requested, client, server } => write!(
                f,
                "version {requested} was requested but the client supports {client} and the server {server}"
            ),
        }
    }
}

impl std::error::Error for ClientNegotiationError {}

/// Picks the version a client with range `client` sends to `server`:
/// the pinned version if both sides support it, otherwise the highest common one.
///
/// ```
/// use microversion_core::{client::choose_version, client::ClientRequest, client::ServerVersion, Version, VersionRange};
///
/// // Seed 001: client 1.1-1.3, server 1.1-1.2, nothing pinned: use 1.2.
/// let client = VersionRange::between(Version::lit("1.1"), Version::lit("1.3"));
/// let server = ServerVersion::from_range(Version::lit("1.1"), Version::lit("1.2"));
/// assert_eq!(choose_version(client, ClientRequest::HighestCommon, &server), Ok(Version::lit("1.2")));
/// // Pinned to 1.3: report it to the user.
/// assert!(choose_version(client, ClientRequest::Exactly(Version::lit("1.3")), &server).is_err());
/// ```
pub fn choose_version(
    client: VersionRange,
    request: ClientRequest,
    server: &ServerVersion,
) -> Result<Version, ClientNegotiationError> {
    let (Some(server_min), Some(server_max)) = (server.min, server.max) else {
        return Err(ClientNegotiationError::ServerHasNoMicroversions { client });
    };
    let server_range =
        VersionRange::new(Some(server_min), Some(server_max)).unwrap_or(VersionRange::only(server_max));
    match request {
        ClientRequest::Exactly(requested)
            if client.contains(requested) && server_range.contains(requested) =>
        {
            Ok(requested)
        }
        ClientRequest::Exactly(requested) => {
            Err(ClientNegotiationError::RequestedUnsupported { requested, client, server: server_range })
        }
        ClientRequest::HighestCommon => client
            .intersection(server_range)
            .and_then(|common| common.max())
            .ok_or(ClientNegotiationError::NoCommonVersion { client, server: server_range }),
    }
}

/// One API version as a client reads it from any discovery shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerVersion {
    /// The identifier (`v2.1`, `v1`, `v1.0`); empty if the document has none.
    pub id: String,
    /// The status as written (`CURRENT`, ...); empty if absent.
    pub status: String,
    /// The minimum microversion; `None` if the server has no microversions.
    pub min: Option<Version>,
    /// The maximum microversion; `None` if the server has no microversions.
    pub max: Option<Version>,
    /// The `self` link, if any.
    pub self_link: Option<String>,
    /// The minimum announced next (`next_min_version`), if any.
    pub next_min: Option<Version>,
    /// The date before which the minimum will not be raised (`not_before`), as written.
    pub not_before: Option<String>,
}

impl ServerVersion {
    /// A server known only by the range it announced, for example in the
    /// minimum and maximum headers of a 406 answer.
    pub fn from_range(min: Version, max: Version) -> ServerVersion {
        ServerVersion {
            id: String::new(),
            status: String::new(),
            min: Some(min),
            max: Some(max),
            self_link: None,
            next_min: None,
            not_before: None,
        }
    }
}

/// A discovery document that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiscoveryParseError(String);

impl fmt::Display for DiscoveryParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unreadable version discovery document: {}", self.0)
    }
}

impl std::error::Error for DiscoveryParseError {}

/// Reads the versions from a discovery document of any of the OpenStack
/// shapes: Nova's list (`versions` with `version`/`min_version`), Nova's
/// single version (`version`), Placement's list (`max_version`), Ironic's
/// root (`versions` and `default_version`). The maximum is read from
/// `max_version` (the API-SIG guideline's name) or, without it, from
/// `version` (Nova's), as keystoneauth1 does. Empty version strings mean
/// "no microversions", as Nova's legacy `v2.0` entry has them.
///
/// ```
/// use microversion_core::{client::parse_discovery, Version};
///
/// let placement = r#"{"versions": [{"id": "v1.0", "max_version": "1.39",
///     "min_version": "1.0", "status": "CURRENT", "links": []}]}"#;
/// let found = parse_discovery(placement).unwrap();
/// assert_eq!(found[0].max, Some(Version::lit("1.39")));
/// ```
pub fn parse_discovery(json: &str) -> Result<Vec<ServerVersion>, DiscoveryParseError> {
    let value: Value = serde_json::from_str(json).map_err(|e| DiscoveryParseError(e.to_string()))?;
    match (&value.get("versions"), &value.get("version"), &value.get("default_version")) {
        (Some(Value::Array(list)), _, _) => list.iter().map(parse_entry).collect(),
        (Some(Value::Object(wrapped)), _, _) => match wrapped.get("values") {
            // Keystone's historical `{"versions": {"values": [...]}}`.
            Some(Value::Array(list)) => list.iter().map(parse_entry).collect(),
            _ => Err(DiscoveryParseError("`versions` has no list of entries".into())),
        },
        (_, Some(entry @ Value::Object(_)), _) | (_, _, Some(entry @ Value::Object(_))) => {
            Ok(vec![parse_entry(entry)?])
        }
        _ => Err(DiscoveryParseError("neither `versions` nor `version` is present".into())),
    }
}

fn parse_entry(entry: &Value) -> Result<ServerVersion, DiscoveryParseError> {
    let text = |key: &str| entry.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
    let version = |key: &str| -> Result<Option<Version>, DiscoveryParseError> {
        match entry.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) if s.is_empty() => Ok(None),
            Some(Value::String(s)) => {
                s.parse().map(Some).map_err(|e| DiscoveryParseError(format!("`{key}` is {s:?}: {e}")))
            }
            Some(other) => Err(DiscoveryParseError(format!("`{key}` is not a string: {other}"))),
        }
    };
    if !entry.is_object() {
        return Err(DiscoveryParseError(format!("a version entry is not an object: {entry}")));
    }
    let max = match version("max_version")? {
        Some(v) => Some(v),
        None => version("version")?,
    };
    let self_link = entry.get("links").and_then(Value::as_array).and_then(|links| {
        links
            .iter()
            .find(|l| l.get("rel").and_then(Value::as_str) == Some("self"))
            .and_then(|l| l.get("href"))
            .and_then(Value::as_str)
            .map(str::to_owned)
    });
    let not_before = entry.get("not_before").and_then(Value::as_str).map(str::to_owned);
    Ok(ServerVersion {
        id: text("id"),
        status: text("status"),
        min: version("min_version")?,
        max,
        self_link,
        next_min: version("next_min_version")?,
        not_before,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        s.parse().unwrap()
    }

    fn server(min: &str, max: &str) -> ServerVersion {
        ServerVersion::from_range(v(min), v(max))
    }

    #[test]
    fn seed_001_cases() {
        let client = VersionRange::between(v("1.1"), v("1.3"));
        let watcher = server("1.1", "1.2");
        assert_eq!(choose_version(client, ClientRequest::HighestCommon, &watcher), Ok(v("1.2")));
        assert_eq!(
            choose_version(client, ClientRequest::Exactly(v("1.3")), &watcher),
            Err(ClientNegotiationError::RequestedUnsupported {
                requested: v("1.3"),
                client,
                server: VersionRange::between(v("1.1"), v("1.2"))
            })
        );
        assert_eq!(choose_version(client, ClientRequest::Exactly(v("1.1")), &watcher), Ok(v("1.1")));
    }

    #[test]
    fn seed_003_nodepool_against_four_clouds() {
        let clouds = [("2.100", "2.300"), ("2.200", "2.450"), ("2.300", "2.600"), ("2.400", "2.800")];
        // A client supporting 2.100 to 2.500 reaches each cloud at its best common version.
        let client = VersionRange::between(v("2.100"), v("2.500"));
        let picked: Vec<String> = clouds
            .iter()
            .map(|(lo, hi)| {
                choose_version(client, ClientRequest::HighestCommon, &server(lo, hi)).unwrap().to_string()
            })
            .collect();
        assert_eq!(picked, ["2.300", "2.450", "2.500", "2.500"]);
        // No one version is in all four: pinning 2.300 fails on cloud D and says why.
        let err = choose_version(client, ClientRequest::Exactly(v("2.300")), &server("2.400", "2.800"))
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "version 2.300 was requested but the client supports 2.100 to 2.500 and the server 2.400 to 2.800"
        );
        // An old client cannot reach the newest cloud at all.
        let old = VersionRange::between(v("2.100"), v("2.350"));
        let err = choose_version(old, ClientRequest::HighestCommon, &server("2.400", "2.800")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "no version in common: the client supports 2.100 to 2.350 and the server 2.400 to 2.800"
        );
    }

    #[test]
    fn server_without_microversions() {
        let legacy = ServerVersion { min: None, max: None, ..server("2.1", "2.1") };
        let client = VersionRange::from(v("2.1"));
        assert_eq!(
            choose_version(client, ClientRequest::HighestCommon, &legacy),
            Err(ClientNegotiationError::ServerHasNoMicroversions { client })
        );
    }

    #[test]
    fn open_client_range_takes_the_server_max() {
        assert_eq!(
            choose_version(
                VersionRange::from(v("2.1")),
                ClientRequest::HighestCommon,
                &server("2.1", "2.96")
            ),
            Ok(v("2.96"))
        );
    }

    #[test]
    fn parses_nova_list_with_legacy_entry() {
        let nova = r#"{"versions": [
            {"id": "v2.0", "status": "SUPPORTED", "version": "", "min_version": "", "updated": "2011-01-21T11:33:21Z",
             "links": [{"href": "http://h/v2/", "rel": "self"}]},
            {"id": "v2.1", "status": "CURRENT", "version": "2.96", "min_version": "2.1",
             "links": [{"href": "http://h/v2.1/", "rel": "self"}]}]}"#;
        let got = parse_discovery(nova).unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!((got[0].min, got[0].max), (None, None));
        assert_eq!(got[1].max, Some(Version::new(2, 96)));
        assert_eq!(got[1].self_link.as_deref(), Some("http://h/v2.1/"));
    }

    #[test]
    fn parses_ironic_root() {
        let ironic = r#"{"name": "OpenStack Ironic API", "description": "...",
            "default_version": {"id": "v1", "links": [], "status": "CURRENT", "min_version": "1.1", "version": "1.87"},
            "versions": [{"id": "v1", "links": [], "status": "CURRENT", "min_version": "1.1", "version": "1.87"}]}"#;
        let got = parse_discovery(ironic).unwrap();
        assert_eq!((got[0].min, got[0].max), (Some(Version::new(1, 1)), Some(Version::new(1, 87))));
        let only_default = r#"{"default_version": {"id": "v1", "min_version": "1.1", "version": "1.87"}}"#;
        assert_eq!(parse_discovery(only_default).unwrap()[0].id, "v1");
    }

    #[test]
    fn rejects_unreadable_documents() {
        assert!(parse_discovery("not json").is_err());
        assert!(parse_discovery("{}").is_err());
        assert!(parse_discovery(r#"{"versions": [{"version": "2.01"}]}"#).is_err());
        assert!(parse_discovery(r#"{"versions": [{"version": 2.1}]}"#).is_err());
        assert!(parse_discovery(r#"{"versions": [3]}"#).is_err());
    }
}
