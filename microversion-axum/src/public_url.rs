//! Where the scheme and host of the links a service writes come from
//! (docs/reference.md §7.1): the core's [`PublicUrl`] over an axum request.

use std::net::{IpAddr, SocketAddr};

use axum::extract::ConnectInfo;
use http::header;
use http::request::Parts;
use http::{Extensions, HeaderMap, Request, Uri};
use microversion_core::discovery::RequestOrigin;

pub use microversion_core::discovery::{InvalidPublicUrl, PublicUrl, RequestLinks};

use crate::route::Axum;

/// What a request without a [`PublicUrl`] in its extensions is read by.
static FROM_REQUEST: PublicUrl = PublicUrl::from_request();

/// Where the links of an axum request's answer point, by the [`PublicUrl`] in the
/// request's extensions (`.layer(Extension(public_url))`), else
/// [`PublicUrl::from_request`]: what a handler that writes links asks, as
/// on actix. [`Discovery`](crate::Discovery) asks it too, unless given its
/// own ([`DiscoverySettings::with_public_url`](microversion_core::discovery::DiscoverySettings::with_public_url)).
///
/// The TCP peer that [`PublicUrl::trust_proxies`] checks is axum's
/// [`ConnectInfo<SocketAddr>`](axum::extract::ConnectInfo): serve with
/// `into_make_service_with_connect_info::<SocketAddr>()`, since a request
/// from an unknown peer is trusted by none.
///
/// ```
/// use axum::{Extension, Router, http::request::Parts, routing::get};
/// use microversion_axum::discovery::{PublicUrl, RequestLinks};
///
/// async fn show(parts: Parts) -> String {
///     format!("{}/v2.1/servers/42", parts.link_base())
/// }
///
/// let public = PublicUrl::fixed("https://cloud.example/compute").unwrap();
/// let app: Router = Router::new().route("/v2.1/servers/42", get(show)).layer(Extension(public));
/// ```
impl RequestLinks<Axum> for Parts {
    fn public_url(&self) -> &PublicUrl {
        configured(&self.extensions)
    }

    fn link_base(&self) -> String {
        base(self.public_url(), &self.uri, &self.headers, &self.extensions)
    }

    fn link_vary(&self) -> Option<&'static str> {
        self.public_url().vary(peer(&self.extensions))
    }
}

/// As for [`Parts`].
impl<B> RequestLinks<Axum> for Request<B> {
    fn public_url(&self) -> &PublicUrl {
        configured(self.extensions())
    }

    fn link_base(&self) -> String {
        base(self.public_url(), self.uri(), self.headers(), self.extensions())
    }

    fn link_vary(&self) -> Option<&'static str> {
        self.public_url().vary(peer(self.extensions()))
    }
}

fn configured(extensions: &Extensions) -> &PublicUrl {
    extensions.get::<PublicUrl>().unwrap_or(&FROM_REQUEST)
}

/// `public`'s root for a request: what axum knows of it read into the core's
/// [`RequestOrigin`].
pub(crate) fn base(public: &PublicUrl, uri: &Uri, headers: &HeaderMap, extensions: &Extensions) -> String {
    let first = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    public.base(&RequestOrigin {
        peer: peer(extensions),
        secure: uri.scheme_str().is_some_and(|scheme| scheme.eq_ignore_ascii_case("https")),
        host: first(header::HOST.as_str()).or_else(|| uri.authority().map(|a| a.as_str())),
        configured_host: "localhost",
        forwarded: first(header::FORWARDED.as_str()),
        forwarded_host: first("x-forwarded-host"),
        forwarded_proto: first("x-forwarded-proto"),
    })
}

/// The TCP peer, when the server was started with connect info.
pub(crate) fn peer(extensions: &Extensions) -> Option<IpAddr> {
    extensions.get::<ConnectInfo<SocketAddr>>().map(|ConnectInfo(addr)| addr.ip())
}
