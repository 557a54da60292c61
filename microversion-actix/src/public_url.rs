//! `PublicUrl`: where the scheme and host of the links a service writes come
//! from (docs/reference.md §7.1).

use std::fmt;
use std::net::IpAddr;
use std::sync::Arc;

use actix_web::http::Uri;
use actix_web::http::header;
use actix_web::{HttpRequest, web};

/// The headers a trusted proxy forwards the client's scheme and host in.
const FORWARDED_AND_HOST: &str = "Host, Forwarded, X-Forwarded-Host, X-Forwarded-Proto";

/// How the service root in links (discovery's `self` links, a resource's
/// `self` and `bookmark` links, a page's `next` link) is found, configured
/// once as app data and read by [`Discovery`](crate::Discovery) and by
/// handlers with [`PublicUrl::of`].
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
/// ```
/// use actix_web::{test, App};
/// use microversion_actix::{Api, Discovery, Microversion, discovery::PublicUrl};
///
/// const API: Api = Api::new("compute", &[Microversion::new("2.1", "Initial version.")]);
///
/// # actix_web::rt::System::new().block_on(async {
/// let public = PublicUrl::fixed("https://cloud.example/compute").unwrap();
/// let app = test::init_service(App::new().app_data(public).service(Discovery::new(&[API]))).await;
/// let req = test::TestRequest::get().uri("/").insert_header(("X-Forwarded-Host", "evil.example"));
/// let doc: serde_json::Value = test::call_and_read_body_json(&app, req.to_request()).await;
/// assert_eq!(doc["versions"][0]["links"][0]["href"], "https://cloud.example/compute/v2.1/");
/// # });
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

impl PublicUrl {
    /// Links from the request's own `Host` and the connection's scheme;
    /// forwarded headers ignored (the default).
    pub fn from_request() -> PublicUrl {
        PublicUrl { mode: Mode::Request }
    }

    /// Links under `url` (`https://cloud.example` or
    /// `https://cloud.example/compute`), whatever the request: `http` or
    /// `https`, a host, an optional path prefix; no query, fragment or user
    /// information. A trailing slash is ignored.
    pub fn fixed(url: &str) -> Result<PublicUrl, InvalidPublicUrl> {
        let invalid = |why| InvalidPublicUrl { url: url.to_owned(), why };
        let uri: Uri = url.parse().map_err(|_| invalid("not a URL"))?;
        let scheme = match uri.scheme_str() {
            Some(s) if s.eq_ignore_ascii_case("http") || s.eq_ignore_ascii_case("https") => {
                s.to_ascii_lowercase()
            }
            _ => return Err(invalid("the scheme must be http or https")),
        };
        let authority = uri.authority().ok_or_else(|| invalid("a host is required"))?;
        if authority.as_str().contains('@') {
            return Err(invalid("user information is not allowed"));
        }
        if authority.host().is_empty() {
            return Err(invalid("a host is required"));
        }
        if uri.query().is_some() || url.contains('#') {
            return Err(invalid("a query or fragment is not allowed"));
        }
        let path = uri.path().trim_end_matches('/');
        Ok(PublicUrl { mode: Mode::Fixed(format!("{scheme}://{authority}{path}")) })
    }

    /// Links from the forwarded headers of any peer: only for a server that
    /// no client can reach but through proxies that set (or strip) them.
    pub fn trust_all_proxies() -> PublicUrl {
        PublicUrl { mode: Mode::TrustAll }
    }

    /// Links from the forwarded headers when the TCP peer is one of
    /// `proxies`; from the request's own `Host` otherwise.
    pub fn trust_proxies(proxies: impl IntoIterator<Item = IpAddr>) -> PublicUrl {
        PublicUrl { mode: Mode::Trust(proxies.into_iter().collect()) }
    }

    /// The one configured for `req`'s app (`PublicUrl` or
    /// `web::Data<PublicUrl>` in app data), else [`PublicUrl::from_request`].
    pub fn of(req: &HttpRequest) -> PublicUrl {
        req.app_data::<PublicUrl>()
            .or_else(|| req.app_data::<web::Data<PublicUrl>>().map(|d| d.get_ref()))
            .cloned()
            .unwrap_or_default()
    }

    /// The fixed URL, if this is one (`https://cloud.example/compute`).
    pub fn fixed_url(&self) -> Option<&str> {
        match &self.mode {
            Mode::Fixed(url) => Some(url),
            _ => None,
        }
    }

    /// Whether the forwarded headers of `req` are read.
    fn trusts(&self, req: &HttpRequest) -> bool {
        match &self.mode {
            Mode::TrustAll => true,
            Mode::Trust(peers) => req.peer_addr().is_some_and(|peer| {
                let ip = peer.ip();
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
    pub fn base(&self, req: &HttpRequest) -> String {
        if let Mode::Fixed(url) = &self.mode {
            return url.clone();
        }
        if self.trusts(req) {
            let info = req.connection_info();
            return format!("{}://{}", info.scheme(), info.host());
        }
        format!("{}://{}", own_scheme(req), own_host(req))
    }

    /// The request headers [`PublicUrl::base`] read for `req`, for `Vary`:
    /// none for a fixed URL, `Host`, or `Host` and the forwarded headers
    /// when the peer is trusted.
    pub fn vary(&self, req: &HttpRequest) -> Option<&'static str> {
        match &self.mode {
            Mode::Fixed(_) => None,
            _ if self.trusts(req) => Some(FORWARDED_AND_HOST),
            _ => Some("Host"),
        }
    }
}

/// The scheme of the connection itself (TLS or not), as the URI or the
/// server's configuration say; never a header.
fn own_scheme(req: &HttpRequest) -> &'static str {
    match req.uri().scheme_str() {
        Some(s) if s.eq_ignore_ascii_case("https") => "https",
        Some(_) => "http",
        None if req.app_config().secure() => "https",
        None => "http",
    }
}

/// The request's `Host` (or HTTP/2 authority) when it is a plain
/// `host[:port]`, else the server's configured host name.
fn own_host(req: &HttpRequest) -> String {
    let named = req
        .headers()
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .or_else(|| req.uri().authority().map(|a| a.as_str()))
        .filter(|host| is_plain_host(host));
    match named {
        Some(host) => host.to_owned(),
        None => req.app_config().host().to_owned(),
    }
}

/// `name`, `name:port`, `[v6]:port`: no user information, path, spaces or controls.
fn is_plain_host(host: &str) -> bool {
    !host.is_empty()
        && host.len() <= 255
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b':' | b'[' | b']'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    #[test]
    fn fixed_urls_are_checked_and_trimmed() {
        let url = |text: &str| PublicUrl::fixed(text).map(|p| p.fixed_url().unwrap().to_owned());
        assert_eq!(url("https://cloud.example").unwrap(), "https://cloud.example");
        assert_eq!(url("HTTPS://cloud.example:8774/compute/").unwrap(), "https://cloud.example:8774/compute");
        for bad in
            ["cloud.example", "ftp://cloud.example", "https://u:p@cloud.example", "https://h/?a=1", "/x"]
        {
            assert!(PublicUrl::fixed(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn forwarded_headers_count_only_from_trusted_peers() {
        let proxy: IpAddr = [10, 0, 0, 1].into();
        let req = |peer: &str| {
            TestRequest::get()
                .peer_addr(peer.parse().unwrap())
                .insert_header(("Host", "api.internal:8774"))
                .insert_header(("X-Forwarded-Host", "cloud.example"))
                .insert_header(("X-Forwarded-Proto", "https"))
                .to_http_request()
        };
        let trusting = PublicUrl::trust_proxies([proxy]);
        assert_eq!(trusting.base(&req("10.0.0.1:4000")), "https://cloud.example");
        assert_eq!(trusting.vary(&req("10.0.0.1:4000")), Some(FORWARDED_AND_HOST));
        assert_eq!(trusting.base(&req("[::ffff:10.0.0.1]:4000")), "https://cloud.example");
        assert_eq!(trusting.base(&req("10.0.0.2:4000")), "http://api.internal:8774");
        assert_eq!(trusting.vary(&req("10.0.0.2:4000")), Some("Host"));
        assert_eq!(PublicUrl::default().base(&req("10.0.0.1:4000")), "http://api.internal:8774");
        assert_eq!(PublicUrl::trust_all_proxies().base(&req("192.0.2.9:1")), "https://cloud.example");
        let fixed = PublicUrl::fixed("https://public.example/compute").unwrap();
        assert_eq!(fixed.base(&req("10.0.0.1:4000")), "https://public.example/compute");
        assert_eq!(fixed.vary(&req("10.0.0.1:4000")), None);
    }

    #[test]
    fn a_host_that_is_not_plain_falls_back_to_the_configured_one() {
        let req = TestRequest::get().insert_header(("Host", "evil.example/x?")).to_http_request();
        assert_eq!(PublicUrl::default().base(&req), "http://localhost:8080");
    }
}
