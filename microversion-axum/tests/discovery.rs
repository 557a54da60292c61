//! Version discovery on axum (docs/reference.md §7): the documents'
//! links by the public URL, the nesting path and a proxy's prefix (§7.1),
//! `RequestLinks` on a request's parts, and the JSON 404/405 of other
//! one-segment paths.

use std::net::SocketAddr;

use axum::Router;
use axum::body::Body;
use axum::extract::{ConnectInfo, Request};
use http::StatusCode;
use http::header::{self, HeaderValue};
use http::request::Parts;
use http_body_util::BodyExt as _;
use microversion_axum::discovery::{PublicUrl, RequestLinks};
use microversion_axum::{Api, Discovery, DiscoverySettings, Microversion};
use tower::ServiceExt as _;

const API: Api = Api::new("compute", &[Microversion::new("2.1", "Initial version.")]);

/// The `self` link of `GET /v2.1/` and the answer's `Vary`, the request
/// carrying `in_request` in its extensions and forged forwarding headers.
async fn link(discovery: Discovery, in_request: Option<PublicUrl>) -> (String, String) {
    let mut req = Request::get("/v2.1/")
        .header("Host", "api.internal:8774")
        .header("X-Forwarded-Host", "cloud.example")
        .header("X-Forwarded-Proto", "https")
        .body(Body::empty())
        .unwrap();
    if let Some(public) = in_request {
        req.extensions_mut().insert(public);
    }
    let res = Router::from(discovery).oneshot(req).await.unwrap();
    let vary = res.headers().get(header::VARY).map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();
    let body = res.into_body().collect().await.unwrap().to_bytes();
    let doc: serde_json::Value = serde_json::from_slice(&body).unwrap();
    (doc["version"]["links"][0]["href"].as_str().unwrap().to_owned(), vary)
}

#[tokio::test]
async fn links_follow_the_discovery_s_public_url_then_the_request_s() {
    // None configured: the request's own `Host`, forged headers ignored.
    assert_eq!(
        link(Discovery::new(&[API]), None).await,
        ("http://api.internal:8774/v2.1/".into(), "Host".into())
    );
    // One in the request's extensions (a handler's `Extension`): it counts.
    let trusting = Some(PublicUrl::trust_all_proxies());
    let (href, vary) = link(Discovery::new(&[API]), trusting.clone()).await;
    assert_eq!(href, "https://cloud.example/v2.1/");
    assert_eq!(vary, microversion_core::discovery::FORWARDED_AND_HOST);
    // The discovery's own wins over the request's, and varies on nothing.
    let fixed = PublicUrl::fixed("https://public.example/compute").unwrap();
    let (href, vary) =
        link(Discovery::new(DiscoverySettings::new(&[API]).with_public_url(fixed)), trusting).await;
    assert_eq!((href.as_str(), vary.as_str()), ("https://public.example/compute/v2.1/", ""));
}

#[tokio::test]
async fn other_one_segment_paths_are_json_404s_for_every_method() {
    let answer = |method: &'static str, path: &'static str| async move {
        let req = Request::builder().method(method).uri(path).body(Body::empty()).unwrap();
        let res = Router::from(Discovery::new(&[API])).oneshot(req).await.unwrap();
        let (status, allow) = (res.status(), res.headers().get(header::ALLOW).cloned());
        let body = res.into_body().collect().await.unwrap().to_bytes();
        let doc: serde_json::Value = serde_json::from_slice(&body).expect("a JSON body");
        (status, allow, doc["errors"][0]["detail"].as_str().unwrap_or_default().to_owned())
    };
    let (status, allow, detail) = answer("GET", "/v3").await;
    assert_eq!((status, allow), (StatusCode::NOT_FOUND, None));
    assert_eq!(detail, "API version v3 does not exist; this service offers v2.1.");
    let (status, allow, _) = answer("DELETE", "/v3").await;
    assert_eq!((status, allow), (StatusCode::METHOD_NOT_ALLOWED, Some(HeaderValue::from_static("GET"))));
    for method in ["GET", "POST", "DELETE"] {
        let (status, allow, detail) = answer(method, "/servers").await;
        assert_eq!((status, allow), (StatusCode::NOT_FOUND, None), "{method} /servers");
        assert_eq!(detail, "The resource could not be found.");
    }
}

/// The `self` links of `GET {path}` through `app`, from the request's `Host`.
async fn hrefs(app: Router, path: &str) -> Vec<String> {
    let req = Request::get(path).header("Host", "api.internal:8774").body(Body::empty()).unwrap();
    let res = app.oneshot(req).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK, "{path}");
    let body = res.into_body().collect().await.unwrap().to_bytes();
    let doc: serde_json::Value = serde_json::from_slice(&body).unwrap();
    let entries = doc
        .get("versions")
        .and_then(|v| v.as_array().cloned())
        .unwrap_or_else(|| vec![doc["version"].clone()]);
    entries.iter().map(|entry| entry["links"][0]["href"].as_str().unwrap().to_owned()).collect()
}

#[tokio::test]
async fn links_name_the_nesting_path_and_the_proxy_s_prefix() {
    // Nested: the mount is in every link, whichever document is asked for.
    let nested = || Router::new().nest("/compute", Router::from(Discovery::new(&[API])));
    assert_eq!(hrefs(nested(), "/compute").await, ["http://api.internal:8774/compute/v2.1/"]);
    assert_eq!(hrefs(nested(), "/compute/v2.1").await, ["http://api.internal:8774/compute/v2.1/"]);
    assert_eq!(hrefs(nested(), "/compute/v2.1/").await, ["http://api.internal:8774/compute/v2.1/"]);
    // A proxy's prefix comes before the mount, trimmed of its slashes.
    let proxied = Router::new()
        .nest("/compute", Discovery::new(DiscoverySettings::new(&[API]).with_prefix("/edge/")).into());
    assert_eq!(hrefs(proxied, "/compute/v2.1/").await, ["http://api.internal:8774/edge/compute/v2.1/"]);
    let proxied: Router = Discovery::new(DiscoverySettings::new(&[API]).with_prefix("edge")).into();
    assert_eq!(hrefs(proxied, "/").await, ["http://api.internal:8774/edge/v2.1/"]);
    // A fixed URL carries its own prefix: the configured one is not added.
    let fixed = PublicUrl::fixed("https://cloud.example/c").unwrap();
    let app: Router =
        Discovery::new(DiscoverySettings::new(&[API]).with_prefix("/edge").with_public_url(fixed)).into();
    assert_eq!(hrefs(app, "/v2.1").await, ["https://cloud.example/c/v2.1/"]);
}

fn parts(public: Option<PublicUrl>, peer: Option<&str>) -> Parts {
    let (mut parts, ()) = http::Request::builder()
        .uri("/v2.1/")
        .header("Host", "api.internal:8774")
        .header("X-Forwarded-Host", "cloud.example")
        .header("X-Forwarded-Proto", "https")
        .body(())
        .unwrap()
        .into_parts();
    if let Some(peer) = peer {
        parts.extensions.insert(ConnectInfo(peer.parse::<SocketAddr>().unwrap()));
    }
    if let Some(public) = public {
        parts.extensions.insert(public);
    }
    parts
}

#[test]
fn forwarded_headers_count_only_from_trusted_peers() {
    let trusting = || Some(PublicUrl::trust_proxies([[10, 0, 0, 1].into()]));
    assert_eq!(parts(trusting(), Some("10.0.0.1:4000")).link_base(), "https://cloud.example");
    assert_eq!(
        parts(trusting(), Some("10.0.0.1:4000")).link_vary(),
        Some(microversion_core::discovery::FORWARDED_AND_HOST)
    );
    assert_eq!(parts(trusting(), Some("10.0.0.2:4000")).link_base(), "http://api.internal:8774");
    assert_eq!(parts(trusting(), Some("10.0.0.2:4000")).link_vary(), Some("Host"));
    // No connect info: no peer to trust.
    assert_eq!(parts(trusting(), None).link_base(), "http://api.internal:8774");
    assert_eq!(parts(Some(PublicUrl::trust_all_proxies()), None).link_base(), "https://cloud.example");
    assert_eq!(parts(None, Some("10.0.0.1:4000")).link_base(), "http://api.internal:8774");
    let fixed = parts(Some(PublicUrl::fixed("https://public.example/compute").unwrap()), None);
    assert_eq!(fixed.link_base(), "https://public.example/compute");
    assert_eq!(fixed.link_vary(), None);
}

#[test]
fn a_request_reads_as_its_parts() {
    let request = http::Request::from_parts(parts(Some(PublicUrl::trust_all_proxies()), None), ());
    assert_eq!(request.link_base(), "https://cloud.example");
    assert_eq!(request.link_vary(), Some(microversion_core::discovery::FORWARDED_AND_HOST));
}

#[test]
fn a_host_that_is_not_plain_is_not_written_into_links() {
    let (parts, ()) =
        http::Request::builder().header("Host", "evil.example/x?").body(()).unwrap().into_parts();
    assert_eq!(parts.link_base(), "http://localhost");
}
