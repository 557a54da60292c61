//! Every version a request names, by each reader its API declares
//! (docs/reference.md §2.4), and the target it is routed by once the
//! readers that live in the URL have taken their part out.

use std::borrow::Cow;

use super::negotiate::{VersionHeader, trim};
use crate::Api;
use crate::version::VersionReader;

/// The parts of a request besides its headers that can name its version:
/// its path and its query, as received (percent-encoded).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RequestTarget<'r> {
    /// The path, `/v2.5/servers`: under where the API is mounted when the
    /// framework routed a prefix already.
    pub path: &'r str,
    /// The query, without its `?`.
    pub query: Option<&'r str>,
}

impl<'r> RequestTarget<'r> {
    /// The target of a request for `path` with `query`.
    pub const fn new(path: &'r str, query: Option<&'r str>) -> RequestTarget<'r> {
        RequestTarget { path, query }
    }

    /// The target a path and query (`/servers?api-version=2.5`) names.
    pub fn parse(path_and_query: &'r str) -> RequestTarget<'r> {
        match path_and_query.split_once('?') {
            Some((path, query)) => RequestTarget { path, query: Some(query) },
            None => RequestTarget { path: path_and_query, query: None },
        }
    }
}

/// One version text a request names, and where.
#[derive(Clone, Debug)]
pub(crate) struct Named<'r> {
    pub(crate) text: Cow<'r, [u8]>,
    pub(crate) reader: VersionReader,
    pub(crate) header: VersionHeader,
}

/// Every version `headers` and `target` name by the readers of `api`, in
/// the readers' order, each reader's in the order received.
pub(crate) fn named<'r>(
    api: &Api,
    headers: &[(&'r [u8], &'r [u8])],
    target: RequestTarget<'r>,
) -> Vec<Named<'r>> {
    let mut found = Vec::new();
    for &reader in api.readers() {
        let mut add = |text: Cow<'r, [u8]>, header| found.push(Named { text, reader, header });
        match reader {
            VersionReader::Standard => {
                if let Some((text, header)) = api.requested(headers.iter().map(|(n, v)| (*n, *v))) {
                    add(Cow::Borrowed(text), header);
                }
            }
            VersionReader::Header(name) => {
                for value in values_of(headers, name.as_bytes()) {
                    for entry in value.split(|b| *b == b',') {
                        add(Cow::Borrowed(trim(entry)), VersionHeader::Named);
                    }
                }
            }
            VersionReader::MediaType(param) => {
                for value in values_of(headers, b"accept") {
                    for range in value.split(|b| *b == b',') {
                        if let Some(text) = media_type_parameter(range, param.as_bytes()) {
                            add(Cow::Borrowed(text), VersionHeader::MediaType);
                        }
                    }
                }
            }
            VersionReader::Query(name) => {
                for (key, value) in query_pairs(target.query) {
                    if *key == *name.as_bytes() {
                        add(value, VersionHeader::Query);
                    }
                }
            }
            VersionReader::PathSegment(prefix) => {
                if let Some((text, _)) = version_segment(target.path, prefix) {
                    add(text, VersionHeader::Path);
                }
            }
        }
    }
    found
}

/// Whether `api` reads its version from a request's path or query.
pub(crate) fn reads_target(api: &Api) -> bool {
    api.readers().iter().any(|r| matches!(r, VersionReader::PathSegment(_) | VersionReader::Query(_)))
}

/// The path and query `target` is routed by when a reader of `api` took its
/// part out of it: the version segment of the path, the version parameters
/// of the query (`/v2.5/servers?api-version=2.5&limit=1` is routed as
/// `/servers?limit=1`). `None` when it is routed as it came.
pub(crate) fn routed(api: &Api, target: RequestTarget<'_>) -> Option<String> {
    if !reads_target(api) {
        return None;
    }
    let mut path = Cow::Borrowed(target.path);
    let mut query = target.query.map(Cow::Borrowed);
    for reader in api.readers() {
        match *reader {
            VersionReader::PathSegment(prefix) => {
                if let Some((_, rest)) = version_segment(target.path, prefix) {
                    path = Cow::Owned(if rest.is_empty() { "/".to_owned() } else { rest.to_owned() });
                }
            }
            VersionReader::Query(name) => {
                let Some(current) = query.as_deref() else { continue };
                let mut kept = current.split('&').filter(|pair| {
                    let key = pair.split_once('=').map_or(*pair, |(key, _)| key);
                    *percent_decoded(key.as_bytes()) != *name.as_bytes()
                });
                let kept: Vec<&str> = kept.by_ref().collect();
                if kept.len() != current.split('&').count() {
                    query = (!kept.is_empty()).then(|| Cow::Owned(kept.join("&")));
                }
            }
            _ => {}
        }
    }
    if matches!(path, Cow::Borrowed(_)) && query.as_deref() == target.query {
        return None;
    }
    Some(match query {
        Some(query) => format!("{path}?{query}"),
        None => path.into_owned(),
    })
}

/// Every value of the headers named `name`.
fn values_of<'r, 'n>(
    headers: &'n [(&'r [u8], &'r [u8])],
    name: &'n [u8],
) -> impl Iterator<Item = &'r [u8]> + 'n {
    headers.iter().filter(move |(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| *v)
}

/// The value of the parameter `param` of one media range
/// (`application/json; version="2.5"`), unquoted.
fn media_type_parameter<'r>(range: &'r [u8], param: &[u8]) -> Option<&'r [u8]> {
    range.split(|b| *b == b';').skip(1).find_map(|parameter| {
        let at = parameter.iter().position(|b| *b == b'=')?;
        let (name, value) = (trim(&parameter[..at]), trim(&parameter[at + 1..]));
        if !name.eq_ignore_ascii_case(param) {
            return None;
        }
        Some(value.strip_prefix(b"\"").and_then(|v| v.strip_suffix(b"\"")).unwrap_or(value))
    })
}

/// Each `key=value` of a query, decoded as a form is (`%2E`, `+`).
fn query_pairs(query: Option<&str>) -> impl Iterator<Item = (Cow<'_, [u8]>, Cow<'_, [u8]>)> {
    query.into_iter().flat_map(|q| q.split('&')).filter(|pair| !pair.is_empty()).map(|pair| {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        (percent_decoded(key.as_bytes()), percent_decoded(value.as_bytes()))
    })
}

/// The version the first segment of `path` names after `prefix`
/// (`/v2.5/servers`: `2.5`), and the path after that segment (`/servers`).
/// A segment names one when a digit or `latest` follows the prefix.
fn version_segment<'r>(path: &'r str, prefix: &str) -> Option<(Cow<'r, [u8]>, &'r str)> {
    let rest = path.strip_prefix('/')?;
    let (segment, after) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let text = percent_decoded(segment.as_bytes());
    let version = text.strip_prefix(prefix.as_bytes())?;
    if !(version.first().is_some_and(u8::is_ascii_digit) || version == b"latest") {
        return None;
    }
    let version = match text {
        Cow::Borrowed(text) => Cow::Borrowed(&text[prefix.len()..]),
        Cow::Owned(text) => Cow::Owned(text[prefix.len()..].to_vec()),
    };
    Some((version, after))
}

/// `text` with its `%XX` escapes decoded and `+` read as a space; an escape
/// that is not one stays as it is.
fn percent_decoded(text: &[u8]) -> Cow<'_, [u8]> {
    if !text.iter().any(|b| matches!(b, b'%' | b'+')) {
        return Cow::Borrowed(text);
    }
    let hex = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        match text[i] {
            b'%' => match (text.get(i + 1).copied().and_then(hex), text.get(i + 2).copied().and_then(hex)) {
                (Some(high), Some(low)) => {
                    out.push(high << 4 | low);
                    i += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            b'+' => out.push(b' '),
            b => out.push(b),
        }
        i += 1;
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Microversion;

    const API: Api = Api::new("shop", &[Microversion::new("1.0", "a"), Microversion::new("1.1", "b")])
        .with_legacy_headers(&["X-Shop-Version"])
        .with_readers(&[
            VersionReader::PathSegment("v"),
            VersionReader::Query("api-version"),
            VersionReader::Header("Api-Version"),
            VersionReader::MediaType("version"),
            VersionReader::Standard,
        ]);

    fn texts(headers: &[(&str, &str)], target: &str) -> Vec<(String, &'static str)> {
        let headers: Vec<_> = headers.iter().map(|(n, v)| (n.as_bytes(), v.as_bytes())).collect();
        named(&API, &headers, RequestTarget::parse(target))
            .into_iter()
            .map(|n| (String::from_utf8_lossy(&n.text).into_owned(), n.reader.kind()))
            .collect()
    }

    #[test]
    fn each_reader_finds_its_versions_in_precedence_order() {
        let all = texts(
            &[
                ("Accept", "text/html, application/json; q=0.9; Version=\"1.1\""),
                ("openstack-api-version", "shop 1.0"),
                ("api-version", "1.1, 1.0"),
            ],
            "/v1.1/widgets?limit=2&api%2Dversion=1%2E0",
        );
        let expected = [
            ("1.1", "path"),
            ("1.0", "query"),
            ("1.1", "header"),
            ("1.0", "header"),
            ("1.1", "media-type"),
            ("1.0", "standard"),
        ];
        assert_eq!(all, expected.map(|(t, k)| (t.to_owned(), k)));
        assert_eq!(texts(&[("X-Shop-Version", "1.1")], "/widgets"), [("1.1".to_owned(), "standard")]);
        assert!(texts(&[("Accept", "application/json; charset=utf-8")], "/volumes/v1").is_empty());
    }

    #[test]
    fn a_path_segment_names_a_version_only_when_a_digit_or_latest_follows_its_prefix() {
        assert_eq!(
            version_segment("/v2.5/servers", "v").map(|(t, r)| (t.into_owned(), r)),
            Some((b"2.5".to_vec(), "/servers"))
        );
        assert_eq!(
            version_segment("/vlatest", "v").map(|(t, r)| (t.into_owned(), r)),
            Some((b"latest".to_vec(), ""))
        );
        assert_eq!(
            version_segment("/v2.x", "v").map(|(t, _)| t.into_owned()),
            Some(b"2.x".to_vec()),
            "malformed, refused"
        );
        assert_eq!(
            version_segment("/%76%32%2E%31/a", "v").map(|(t, r)| (t.into_owned(), r)),
            Some((b"2.1".to_vec(), "/a"))
        );
        for path in ["/volumes", "/v", "/", "", "servers/v2.5", "/V2.5"] {
            assert!(version_segment(path, "v").is_none(), "{path}");
        }
        assert!(version_segment("/2.5/x", "").is_some());
    }

    #[test]
    fn routing_takes_out_what_the_readers_read_and_keeps_the_rest() {
        let routed = |target| routed(&API, RequestTarget::parse(target));
        assert_eq!(routed("/v1.1/widgets?limit=2&api-version=1.1"), Some("/widgets?limit=2".to_owned()));
        assert_eq!(routed("/v1.1?api-version=1.1"), Some("/".to_owned()));
        assert_eq!(routed("/widgets?api%2Dversion=1.1&api-version=1.0"), Some("/widgets".to_owned()));
        assert_eq!(routed("/widgets?limit=2"), None);
        assert_eq!(routed("/volumes/v1.1"), None);
        assert_eq!(routed("/v1.1/"), Some("/".to_owned()));
        const STANDARD: Api = Api::new("shop", &[Microversion::new("1.0", "a")]);
        assert_eq!(super::routed(&STANDARD, RequestTarget::parse("/v1.0/x?api-version=1.0")), None);
    }

    #[test]
    fn escapes_decode_and_broken_ones_stay() {
        assert_eq!(&*percent_decoded(b"a%2Eb+c"), b"a.b c");
        assert_eq!(&*percent_decoded(b"%zz%4"), b"%zz%4");
        assert!(matches!(percent_decoded(b"plain"), Cow::Borrowed(_)));
    }
}
