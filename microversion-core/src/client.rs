//! Client-side negotiation: which version to ask a server for.

use std::fmt;

use crate::{ServerVersion, Version, VersionRange};

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
/// use microversion_core::{choose_version, ClientRequest, ServerVersion, Version, VersionRange};
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
}
