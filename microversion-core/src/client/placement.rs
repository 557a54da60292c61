//! Where a client names the version of its request: the first place the
//! API reads it ([`VersionReader`], docs/reference.md §2.6).

use crate::version::{STANDARD_HEADER, VersionReader};
use crate::{Api, Version};

/// A request's path, query and version headers once it names its version
/// where the API reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionedCall {
    /// The path under the endpoint, `/v2.5/servers` for a path reader.
    pub path: String,
    /// The query, without its `?`, empty for none.
    pub query: String,
    /// The headers that name the version.
    pub headers: Vec<(&'static str, String)>,
}

/// The call to `path` with `query` at `version` of `api`, the version named
/// by the API's first reader: `OpenStack-API-Version` and the legacy
/// headers (as novaclient sends both), a header of the API's own, the
/// query parameter, `Accept`'s parameter, or the path's first segment.
///
/// ```
/// use microversion_core::{Api, Microversion, Version, client::versioned_call, version::VersionReader};
///
/// const SHOP: Api = Api::new("shop", &[Microversion::new("1.0", "a"), Microversion::new("1.1", "b")])
///     .with_readers(&[VersionReader::Query("api-version"), VersionReader::Standard]);
/// let call = versioned_call(&SHOP, Version::lit("1.1"), "/widgets", "limit=2");
/// assert_eq!((call.path.as_str(), call.query.as_str()), ("/widgets", "limit=2&api-version=1.1"));
/// assert!(call.headers.is_empty());
/// ```
pub fn versioned_call(api: &Api, version: Version, path: &str, query: &str) -> VersionedCall {
    let (mut path, mut query, mut headers) = (path.to_owned(), query.to_owned(), Vec::new());
    match api.readers().first().copied().unwrap_or(VersionReader::Standard) {
        VersionReader::Standard => {
            headers.push((STANDARD_HEADER, format!("{} {version}", api.service_type())));
            headers.extend(api.legacy_headers().iter().map(|name| (*name, version.to_string())));
        }
        VersionReader::Header(name) => headers.push((name, version.to_string())),
        VersionReader::MediaType(param) => {
            headers.push(("Accept", format!("application/json; {param}={version}")))
        }
        VersionReader::Query(name) => {
            if !query.is_empty() {
                query.push('&');
            }
            query.push_str(&format!("{name}={version}"));
        }
        VersionReader::PathSegment(prefix) => path = format!("/{prefix}{version}{path}"),
    }
    VersionedCall { path, query, headers }
}
