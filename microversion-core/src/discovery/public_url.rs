//! `PublicUrl`: where the scheme and host of the links a service writes come
//! from (docs/reference.md §7.1), one rule for both facades. Each facade
//! reads its request into a [`RequestOrigin`] and asks [`PublicUrl::base`].

use std::fmt;
use std::net::IpAddr;
use std::sync::Arc;

/// The headers a trusted proxy forwards the client's scheme and host in.
pub const FORWARDED_AND_HOST: &str = "Host, Forwarded, X-Forwarded-Host, X-Forwarded-Proto";

/// How the service root in links (discovery's `self` links, a resource's
/// `self` and `bookmark` links, a page's `next` link) is found.
///
/// Three modes, as OpenStack services have them:
///
/// - **a fixed public URL** ([`PublicUrl::fixed`], Nova's
///   `compute_link_prefix`, Keystone's `public_endpoint`): scheme, host and
///   an optional path prefix, whatever the request says; the links do not
///   depend on any request header, so nothing is added to `Vary`;
/// - **the request** (the default): the request's own `Host` (HTTP/2's
///   authority, else the server's configured host name) and the
///   connection's scheme; `Forwarded`, `X-Forwarded-Host` and
///   `X-Forwarded-Proto` are ignored, since any client can send them
///   (oslo.middleware's `enable_proxy_headers_parsing` is off by default).
///   Responses vary on `Host`;
/// - **the request, through trusted proxies** ([`PublicUrl::trust_all_proxies`],
///   [`PublicUrl::trust_proxies`]): the forwarded headers count when the
///   TCP peer is trusted (any peer, or one of the given addresses); then
///   responses vary on `Host` and the forwarded headers. From any other peer
///   they are ignored, as by default.
///
/// A host taken from a header is used only when it is a plain
/// `host[:port]` (no path, user information, spaces or controls), so no
/// header can put anything else into a link.
///
/// ```
/// use microversion_core::{discovery::PublicUrl, discovery::RequestOrigin};
///
/// let request = RequestOrigin {
///     peer: Some([10, 0, 0, 1].into()),
///     host: Some("api.internal:8774"),
///     forwarded_host: Some("cloud.example"),
///     forwarded_proto: Some("https"),
///     ..RequestOrigin::default()
/// };
/// assert_eq!(PublicUrl::from_request().base(&request), "http://api.internal:8774");
/// let behind_a_proxy = PublicUrl::trust_proxies([[10, 0, 0, 1].into()]);
/// assert_eq!(behind_a_proxy.base(&request), "https://cloud.example");
/// ```
#[derive(Clone, Default, PartialEq, Eq)]
pub struct PublicUrl {
    mode: Mode,
}

#[derive(Clone, Default, PartialEq, Eq)]
enum Mode {
    /// `scheme://host[/prefix]`, no trailing slash.
    Fixed(String),
    #[default]
    Request,
    TrustAll,
    Trust(Arc<[IpAddr]>),
}

impl fmt::Debug for PublicUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.mode {
            Mode::Fixed(url) => f.debug_tuple("PublicUrl::fixed").field(url).finish(),
            Mode::Request => f.write_str("PublicUrl::from_request()"),
            Mode::TrustAll => f.write_str("PublicUrl::trust_all_proxies()"),
            Mode::Trust(peers) => f.debug_tuple("PublicUrl::trust_proxies").field(peers).finish(),
        }
    }
}

/// Why a public URL is refused by [`PublicUrl::fixed`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidPublicUrl {
    url: String,
    why: &'static str,
}

impl fmt::Display for InvalidPublicUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid public URL {:?}: {}", self.url, self.why)
    }
}

impl std::error::Error for InvalidPublicUrl {}

/// What a request says of where it was sent, as a web framework reads it:
/// the input of [`PublicUrl::base`]. Header values are the first of their
/// name; a missing one is `None`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RequestOrigin<'a> {
    /// The TCP peer, when the server knows it.
    pub peer: Option<IpAddr>,
    /// Whether the connection itself is TLS (the URI's scheme, or the
    /// server's configuration).
    pub secure: bool,
    /// `Host`, else HTTP/2's `:authority`.
    pub host: Option<&'a str>,
    /// The server's configured host name, for a request whose `host` is
    /// missing or not plain; `localhost` when empty.
    pub configured_host: &'a str,
    /// `Forwarded` (RFC 7239).
    pub forwarded: Option<&'a str>,
    /// `X-Forwarded-Host`.
    pub forwarded_host: Option<&'a str>,
    /// `X-Forwarded-Proto`.
    pub forwarded_proto: Option<&'a str>,
}

/// A request target (a path and its query) with the percent-encoded
/// unreserved characters of its path decoded (`/%76%32%2e%31/flavors` is
/// `/v2.1/flavors`, RFC 3986 §6.2.2.2), as actix's router reads a path
/// before routing; `None` when there are none. Other escapes (`%2F`, `%25`,
/// bytes outside ASCII) stay as they are: decoding them would change what
/// the path says. The query is kept as it came.
///
/// ```
/// use microversion_core::discovery::decode_unreserved;
///
/// assert_eq!(decode_unreserved("/%76%32%2e%31/flavors?x=%41").as_deref(), Some("/v2.1/flavors?x=%41"));
/// assert_eq!(decode_unreserved("/a%2Fb?x=%41"), None);
/// ```
pub fn decode_unreserved(target: &str) -> Option<String> {
    let (path, query) = target.split_once('?').map_or((target, None), |(path, query)| (path, Some(query)));
    if !path.contains('%') {
        return None;
    }
    let unreserved = |byte: u8| byte.is_ascii_alphanumeric() || b"-._~".contains(&byte);
    let mut decoded = String::with_capacity(path.len());
    let mut rest = path;
    while let Some(at) = rest.find('%') {
        let (before, escape) = rest.split_at(at);
        decoded.push_str(before);
        let byte = escape.get(1..3).and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match byte.filter(|&byte| unreserved(byte)) {
            Some(byte) => {
                decoded.push(char::from(byte));
                rest = &escape[3..];
            }
            None => {
                decoded.push('%');
                rest = &escape[1..];
            }
        }
    }
    decoded.push_str(rest);
    if decoded == path {
        return None;
    }
    if let Some(query) = query {
        decoded.push('?');
        decoded.push_str(query);
    }
    Some(decoded)
}

/// A path prefix as links and routes carry it: `/compute` for `compute`,
/// `/compute/` or `//compute`; empty for `/` and the empty string.
///
/// ```
/// use microversion_core::discovery::path_prefix;
///
/// assert_eq!((path_prefix("compute/"), path_prefix("/")), ("/compute".to_owned(), String::new()));
/// ```
pub fn path_prefix(prefix: &str) -> String {
    match prefix.trim_matches('/') {
        "" => String::new(),
        trimmed => format!("/{trimmed}"),
    }
}

impl PublicUrl {
    /// Links from the request's own `Host` and the connection's scheme;
    /// forwarded headers ignored (the default).
    pub const fn from_request() -> PublicUrl {
        PublicUrl { mode: Mode::Request }
    }

    /// Links under `url` (`https://cloud.example` or
    /// `https://cloud.example/compute`), whatever the request: `http` or
    /// `https`, a host, an optional path prefix; no query, fragment or user
    /// information. A trailing slash is ignored; the scheme is lowercased.
    pub fn fixed(url: &str) -> Result<PublicUrl, InvalidPublicUrl> {
        let invalid = |why| InvalidPublicUrl { url: url.to_owned(), why };
        let (scheme, rest) = url.split_once("://").ok_or_else(|| invalid("not a URL"))?;
        let scheme = match scheme.to_ascii_lowercase().as_str() {
            "http" => "http",
            "https" => "https",
            _ => return Err(invalid("the scheme must be http or https")),
        };
        if rest.contains(['?', '#']) {
            return Err(invalid("a query or fragment is not allowed"));
        }
        let (authority, path) = rest.find('/').map_or((rest, ""), |slash| rest.split_at(slash));
        if authority.contains('@') {
            return Err(invalid("user information is not allowed"));
        }
        if !is_plain_host(authority) || authority.starts_with(':') {
            return Err(invalid("a host is required"));
        }
        // After the host (an IPv6 one is bracketed), an optional `:port`.
        let port = match authority.rsplit_once(']') {
            Some((_, after)) => after.strip_prefix(':'),
            None => authority.split_once(':').map(|(_, port)| port),
        };
        if port.is_some_and(|port| {
            port.is_empty() || !port.bytes().all(|b| b.is_ascii_digit()) || port.len() > 5
        }) {
            return Err(invalid("the port must be a number"));
        }
        if !path.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(invalid("the path must be printable ASCII without spaces"));
        }
        let path = path.trim_end_matches('/');
        Ok(PublicUrl { mode: Mode::Fixed(format!("{scheme}://{authority}{path}")) })
    }

    /// Links from the forwarded headers of any peer: only for a server that
    /// no client can reach but through proxies that set (or strip) them.
    pub fn trust_all_proxies() -> PublicUrl {
        PublicUrl { mode: Mode::TrustAll }
    }

    /// Links from the forwarded headers when the TCP peer is one of
    /// `proxies` (an IPv4 peer also as an IPv4-mapped IPv6 address); from
    /// the request's own `Host` otherwise.
    pub fn trust_proxies(proxies: impl IntoIterator<Item = IpAddr>) -> PublicUrl {
        PublicUrl { mode: Mode::Trust(proxies.into_iter().collect()) }
    }

    /// The root of a service's links: `base` (where this public URL points
    /// for the request), then `prefix`, a path a proxy strips
    /// ([`path_prefix`]), unless the URL is fixed (it carries its own path),
    /// then `mount`, the path the endpoints are mounted at.
    ///
    /// ```
    /// use microversion_core::discovery::PublicUrl;
    ///
    /// let from_request = PublicUrl::from_request();
    /// assert_eq!(from_request.service_root("http://h", "/edge", "/compute"), "http://h/edge/compute");
    /// let fixed = PublicUrl::fixed("https://cloud.example/c").unwrap();
    /// assert_eq!(fixed.service_root("https://cloud.example/c", "/edge", ""), "https://cloud.example/c");
    /// ```
    pub fn service_root(&self, base: &str, prefix: &str, mount: &str) -> String {
        let prefix = if self.fixed_url().is_some() { "" } else { prefix };
        format!("{base}{prefix}{mount}")
    }

    /// The fixed URL, if this is one (`https://cloud.example/compute`).
    pub fn fixed_url(&self) -> Option<&str> {
        match &self.mode {
            Mode::Fixed(url) => Some(url),
            _ => None,
        }
    }

    /// Whether the forwarded headers of a request from `peer` are read.
    pub fn trusts(&self, peer: Option<IpAddr>) -> bool {
        match &self.mode {
            Mode::TrustAll => true,
            Mode::Trust(peers) => peer.is_some_and(|ip| {
                let ip = match ip {
                    IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
                    v4 => v4,
                };
                peers.contains(&ip)
            }),
            Mode::Fixed(_) | Mode::Request => false,
        }
    }

    /// The service root as the client reaches it, without a trailing slash:
    /// `https://cloud.example/compute`, `http://127.0.0.1:8774`.
    pub fn base(&self, request: &RequestOrigin<'_>) -> String {
        if let Mode::Fixed(url) = &self.mode {
            return url.clone();
        }
        let own_scheme = if request.secure { "https" } else { "http" };
        let own_host =
            request.host.filter(|host| is_plain_host(host)).unwrap_or(match request.configured_host {
                "" => "localhost",
                configured => configured,
            });
        if !self.trusts(request.peer) {
            return format!("{own_scheme}://{own_host}");
        }
        let forwarded = request.forwarded.map(first_forwarded).unwrap_or_default();
        let scheme = forwarded
            .proto
            .or(request.forwarded_proto.map(first_listed))
            .and_then(|proto| ["https", "http"].into_iter().find(|known| proto.eq_ignore_ascii_case(known)))
            .unwrap_or(own_scheme);
        let host = forwarded
            .host
            .or(request.forwarded_host.map(first_listed))
            .filter(|host| is_plain_host(host))
            .unwrap_or(own_host);
        format!("{scheme}://{host}")
    }

    /// The request headers [`PublicUrl::base`] reads for a request from
    /// `peer`, for `Vary`: none for a fixed URL, `Host`, or `Host` and the
    /// forwarded headers when the peer is trusted.
    pub fn vary(&self, peer: Option<IpAddr>) -> Option<&'static str> {
        match &self.mode {
            Mode::Fixed(_) => None,
            _ if self.trusts(peer) => Some(FORWARDED_AND_HOST),
            _ => Some("Host"),
        }
    }
}

/// The `proto` and `host` of the first element of a `Forwarded` header
/// (the one the proxy nearest the client wrote), quotes removed.
#[derive(Default)]
struct ForwardedElement<'a> {
    proto: Option<&'a str>,
    host: Option<&'a str>,
}

fn first_forwarded(header: &str) -> ForwardedElement<'_> {
    let mut element = ForwardedElement::default();
    let first = header.split(',').next().unwrap_or_default();
    for pair in first.split(';') {
        let Some((name, value)) = pair.split_once('=') else { continue };
        let value = value.trim();
        let value = value.strip_prefix('"').and_then(|v| v.strip_suffix('"')).unwrap_or(value);
        match name.trim().to_ascii_lowercase().as_str() {
            "proto" => element.proto = Some(value),
            "host" => element.host = Some(value),
            _ => {}
        }
    }
    element
}

/// The first entry of a comma-separated `X-Forwarded-*` value.
fn first_listed(value: &str) -> &str {
    value.split(',').next().unwrap_or_default().trim()
}

/// `name`, `name:port`, `[v6]:port`: no user information, path, spaces or controls.
fn is_plain_host(host: &str) -> bool {
    !host.is_empty()
        && host.len() <= 255
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b':' | b'[' | b']'))
}

/// Where the links of a request's answer point: the [`PublicUrl`]
/// configured for the request, and the root it reads. Each facade
/// implements it for its framework's request types (`F` is the facade, so
/// that it may): what its discovery and a handler that writes links ask
/// (docs/reference.md §7.1).
pub trait RequestLinks<F> {
    /// The [`PublicUrl`] configured for the request, else
    /// [`PublicUrl::from_request`].
    fn public_url(&self) -> &PublicUrl;

    /// The service root as the client reaches it, without a trailing
    /// slash: `https://cloud.example/compute`, `http://127.0.0.1:8774`.
    fn link_base(&self) -> String;

    /// The request headers [`RequestLinks::link_base`] reads, for `Vary`:
    /// none for a fixed URL, `Host`, or `Host` and the forwarded headers
    /// when the peer is a trusted proxy.
    fn link_vary(&self) -> Option<&'static str>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unreserved_characters_are_decoded_and_nothing_else() {
        assert_eq!(decode_unreserved("/%76%32%2e%31/flavors").as_deref(), Some("/v2.1/flavors"));
        assert_eq!(decode_unreserved("/a%7Eb%2D").as_deref(), Some("/a~b-"));
        // The query is not the path's: kept as it came, even where the path changes.
        assert_eq!(decode_unreserved("/%76%32?x=%41&y=%2e").as_deref(), Some("/v2?x=%41&y=%2e"));
        assert_eq!(decode_unreserved("/plain?x=%41"), None);
        assert_eq!(decode_unreserved("/a%2Fb?%76"), None);
        // Reserved, `%` itself, bytes outside ASCII, broken escapes: kept.
        for kept in ["/a%2Fb", "/a%25b", "/caf%C3%A9", "/a%4", "/a%zz", "/a%", "/plain"] {
            assert_eq!(decode_unreserved(kept), None, "{kept}");
        }
        assert_eq!(decode_unreserved("/%%41").as_deref(), Some("/%A"));
    }

    #[test]
    fn fixed_urls_are_checked_and_trimmed() {
        let url = |text: &str| PublicUrl::fixed(text).map(|p| p.fixed_url().unwrap().to_owned());
        assert_eq!(url("https://cloud.example").unwrap(), "https://cloud.example");
        assert_eq!(url("HTTPS://cloud.example:8774/compute/").unwrap(), "https://cloud.example:8774/compute");
        assert_eq!(url("http://[::1]:8774").unwrap(), "http://[::1]:8774");
        assert_eq!(url("http://[::1]/compute").unwrap(), "http://[::1]/compute");
        for bad in [
            "cloud.example",
            "ftp://cloud.example",
            "https://u:p@cloud.example",
            "https://h/?a=1",
            "https://h/#top",
            "/x",
            "https://",
            "https://:80/x",
            "https://h/a b",
            "https://cloud.example:abc",
            "https://cloud.example:",
            "https://cloud.example:80:80",
            "http://[::1]:x",
        ] {
            assert!(PublicUrl::fixed(bad).is_err(), "{bad}");
        }
    }

    fn from(peer: &str) -> RequestOrigin<'static> {
        RequestOrigin {
            peer: Some(peer.parse().unwrap()),
            host: Some("api.internal:8774"),
            forwarded_host: Some("cloud.example"),
            forwarded_proto: Some("https"),
            ..RequestOrigin::default()
        }
    }

    #[test]
    fn forwarded_headers_count_only_from_trusted_peers() {
        let proxy: IpAddr = [10, 0, 0, 1].into();
        let trusting = PublicUrl::trust_proxies([proxy]);
        assert_eq!(trusting.base(&from("10.0.0.1")), "https://cloud.example");
        assert_eq!(trusting.vary(Some(proxy)), Some(FORWARDED_AND_HOST));
        assert_eq!(trusting.base(&from("::ffff:10.0.0.1")), "https://cloud.example");
        assert_eq!(trusting.base(&from("10.0.0.2")), "http://api.internal:8774");
        assert_eq!(trusting.vary(Some([10, 0, 0, 2].into())), Some("Host"));
        assert_eq!(trusting.vary(None), Some("Host"));
        assert_eq!(PublicUrl::default().base(&from("10.0.0.1")), "http://api.internal:8774");
        assert_eq!(PublicUrl::trust_all_proxies().base(&from("192.0.2.9")), "https://cloud.example");
        let fixed = PublicUrl::fixed("https://public.example/compute").unwrap();
        assert_eq!(fixed.base(&from("10.0.0.1")), "https://public.example/compute");
        assert_eq!(fixed.vary(Some(proxy)), None);
    }

    #[test]
    fn forwarded_wins_over_the_x_headers_and_is_read_from_its_first_element() {
        let request = RequestOrigin {
            forwarded: Some(
                r#"for=192.0.2.60;Proto=HTTPS;host="public.example:443", for=10.0.0.9;host=inner"#,
            ),
            ..from("10.0.0.1")
        };
        assert_eq!(PublicUrl::trust_all_proxies().base(&request), "https://public.example:443");
        let listed = RequestOrigin {
            forwarded_host: Some("one.example, two.example"),
            forwarded_proto: Some("http, https"),
            ..from("10.0.0.1")
        };
        assert_eq!(PublicUrl::trust_all_proxies().base(&listed), "http://one.example");
    }

    #[test]
    fn a_host_that_is_not_plain_is_never_written_into_a_link() {
        let bad = RequestOrigin {
            host: Some("evil.example/x?"),
            configured_host: "api.internal",
            ..Default::default()
        };
        assert_eq!(PublicUrl::default().base(&bad), "http://api.internal");
        assert_eq!(PublicUrl::default().base(&RequestOrigin::default()), "http://localhost");
        let forwarded = RequestOrigin {
            forwarded_host: Some("evil.example/x"),
            forwarded_proto: Some("javascript"),
            secure: true,
            ..from("10.0.0.1")
        };
        assert_eq!(PublicUrl::trust_all_proxies().base(&forwarded), "https://api.internal:8774");
    }
}
