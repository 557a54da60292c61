//! Where a request names its version (docs/reference.md §2.6): the
//! readers an API declares ([`Api::with_readers`](crate::Api::with_readers)),
//! in their order of precedence.

use std::fmt;

use super::api::{STANDARD_HEADER, eq_ignore_ascii_case, is_token};

/// One place a request can name the version it asks for.
///
/// An API reads [`VersionReader::Standard`] unless it declares its readers
/// with [`Api::with_readers`](crate::Api::with_readers). With several, a
/// request may name its version in any of them; one that names two
/// different versions is refused (400, [`NegotiationError::Ambiguous`]).
///
/// [`NegotiationError::Ambiguous`]: crate::NegotiationError::Ambiguous
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VersionReader {
    /// `OpenStack-API-Version: compute 2.5`, then the API's legacy headers
    /// (`X-OpenStack-Nova-API-Version: 2.5`) when it names none for this
    /// service: the OpenStack rules (docs/reference.md §2).
    Standard,
    /// A header of this name whose value is the version: `Api-Version: 2.5`.
    Header(&'static str),
    /// A query parameter of this name: `?api-version=2.5`. It is taken
    /// out of the query before the request is routed, so that handlers and
    /// their query schemas never see it.
    Query(&'static str),
    /// A parameter of this name on a media range of `Accept`:
    /// `Accept: application/json; version=2.5`.
    MediaType(&'static str),
    /// The first segment of the path, this prefix then the version:
    /// `/v2.5/servers` for `PathSegment("v")`. The segment is taken out of
    /// the path before the request is routed: `/v2.5/servers` is routed as
    /// `/servers`. A first segment that is not the prefix followed by a
    /// digit or by `latest` (`/volumes`) names no version and stays.
    PathSegment(&'static str),
}

/// The readers of an API that declares none.
pub const STANDARD_READERS: &[VersionReader] = &[VersionReader::Standard];

/// How many readers one API may declare.
pub const MAX_READERS: usize = 8;

impl VersionReader {
    /// `standard`, `header`, `query`, `media-type` or `path`: a label for
    /// metrics and logs.
    pub const fn kind(self) -> &'static str {
        match self {
            VersionReader::Standard => "standard",
            VersionReader::Header(_) => "header",
            VersionReader::Query(_) => "query",
            VersionReader::MediaType(_) => "media-type",
            VersionReader::PathSegment(_) => "path",
        }
    }

    /// The request header this reader reads, if it reads one (`Accept` for
    /// a media type parameter): the names an answer lists in `Vary`.
    pub const fn header_name(self) -> Option<&'static str> {
        match self {
            VersionReader::Standard => Some(STANDARD_HEADER),
            VersionReader::Header(name) => Some(name),
            VersionReader::MediaType(_) => Some("Accept"),
            VersionReader::Query(_) | VersionReader::PathSegment(_) => None,
        }
    }

    /// How a request names `version` (a bare `2.5`) with this reader, for
    /// the API of `service`: what a client sends and a document shows.
    pub fn example(self, service: &str, version: &str) -> String {
        match self {
            VersionReader::Standard => format!("{STANDARD_HEADER}: {service} {version}"),
            VersionReader::Header(name) => format!("{name}: {version}"),
            VersionReader::Query(name) => format!("?{name}={version}"),
            VersionReader::MediaType(param) => format!("Accept: application/json; {param}={version}"),
            VersionReader::PathSegment(prefix) => format!("/{prefix}{version}/..."),
        }
    }

    /// Panics (a compile error in a `const`) unless this reader can be
    /// read: a header name that is a token and not one the standard reader
    /// reads, a query parameter name of unreserved characters, a media type
    /// parameter that is a token, a path prefix of letters.
    #[track_caller]
    pub(crate) const fn check(self, legacy: &[&str]) {
        match self {
            VersionReader::Standard => {}
            VersionReader::Header(name) => {
                assert!(is_token(name), "a version header's name must be a valid HTTP header name");
                assert!(
                    !eq_ignore_ascii_case(name.as_bytes(), STANDARD_HEADER.as_bytes()),
                    "OpenStack-API-Version is read by VersionReader::Standard"
                );
                assert!(
                    !eq_ignore_ascii_case(name.as_bytes(), b"accept"),
                    "a version in Accept is read by VersionReader::MediaType"
                );
                let mut i = 0;
                while i < legacy.len() {
                    assert!(
                        !eq_ignore_ascii_case(name.as_bytes(), legacy[i].as_bytes()),
                        "a legacy header is read by VersionReader::Standard"
                    );
                    i += 1;
                }
            }
            VersionReader::Query(name) => {
                assert!(
                    is_unreserved(name),
                    "a version query parameter's name must be unreserved characters"
                );
            }
            VersionReader::MediaType(param) => {
                assert!(is_token(param), "a media type parameter's name must be a token");
            }
            VersionReader::PathSegment(prefix) => {
                let bytes = prefix.as_bytes();
                let mut i = 0;
                while i < bytes.len() {
                    assert!(
                        bytes[i].is_ascii_alphabetic(),
                        "a version path segment's prefix must be letters"
                    );
                    i += 1;
                }
            }
        }
    }

    /// Whether `self` and `other` read the same thing.
    pub(crate) const fn same_place(self, other: VersionReader) -> bool {
        match (self, other) {
            (VersionReader::Standard, VersionReader::Standard)
            | (VersionReader::PathSegment(_), VersionReader::PathSegment(_)) => true,
            // Query names compare without case too: an API reading `v` and `V` reads one place twice.
            (VersionReader::Header(a), VersionReader::Header(b))
            | (VersionReader::MediaType(a), VersionReader::MediaType(b))
            | (VersionReader::Query(a), VersionReader::Query(b)) => {
                eq_ignore_ascii_case(a.as_bytes(), b.as_bytes())
            }
            _ => false,
        }
    }
}

impl fmt::Display for VersionReader {
    /// Where the version is read, as a refusal names it: `the
    /// OpenStack-API-Version header`, `the api-version query parameter`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VersionReader::Standard => write!(f, "the {STANDARD_HEADER} header"),
            VersionReader::Header(name) => write!(f, "the {name} header"),
            VersionReader::Query(name) => write!(f, "the {name} query parameter"),
            VersionReader::MediaType(param) => write!(f, "the {param} parameter of Accept"),
            VersionReader::PathSegment(prefix) => {
                write!(f, "the path's first segment (/{prefix}MAJOR.MINOR/)")
            }
        }
    }
}

const fn is_unreserved(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.is_empty() {
        return false;
    }
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if !(b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')) {
            return false;
        }
        i += 1;
    }
    true
}
