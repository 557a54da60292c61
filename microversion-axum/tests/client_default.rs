//! A default version per client on axum (docs/reference.md §3.6), as on
//! actix: the hook is asked only when a request names no version, its
//! version reaches the handler as `VersionSource::Client` and is served
//! within the range, a failing hook's answer is given, and `Vary` names
//! what it reads on every answer.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::Router;
use axum::routing::get;
use http::StatusCode;
use http_body_util::BodyExt as _;
use microversion_axum::{
    Api, ApiError, ApiVersion, Microversion, Native, Negotiation, Version, VersionNegotiation,
    middleware::ClientDefault, version::VersionSource,
};
use tower::ServiceExt as _;

const API: Api = Api::new(
    "compute",
    &[
        Microversion::new("2.1", "a"),
        Microversion::new("2.2", "b"),
        Microversion::new("2.3", "c"),
        Microversion::new("2.4", "d"),
    ],
);

async fn show(Native(version): Native<ApiVersion>) -> String {
    let source = match version.source() {
        VersionSource::Client => "client",
        VersionSource::Default => "default",
        VersionSource::Latest => "latest",
        VersionSource::Explicit => "explicit",
    };
    format!("{} {source}", version.version())
}

fn accounts(calls: Arc<AtomicUsize>) -> ClientDefault {
    ClientDefault::new(&["X-Account"], move |headers| {
        calls.fetch_add(1, Ordering::SeqCst);
        let account = headers.get("X-Account").and_then(|v| v.to_str().ok()).map(str::to_owned);
        async move {
            match account.as_deref() {
                Some("pinned") => Ok(Some(Version::lit("2.2"))),
                Some("future") => Ok(Some(Version::new(9, 9))),
                Some("ancient") => Ok(Some(Version::new(1, 0))),
                Some("broken") => {
                    Err(ApiError::from_status(StatusCode::SERVICE_UNAVAILABLE, "The store is down."))
                }
                _ => Ok(None),
            }
        }
    })
}

async fn get_with(app: &Router, headers: &[(&str, &str)]) -> (u16, String, String) {
    let mut req = http::Request::builder().uri("/servers");
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    let res = app
        .clone()
        .oneshot(req.body(axum::body::Body::empty()).expect("a request"))
        .await
        .expect("infallible");
    let status = res.status().as_u16();
    let vary = res.headers().get("vary").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    let body = res.into_body().collect().await.expect("the body").to_bytes();
    (status, String::from_utf8_lossy(&body).into_owned(), vary)
}

#[tokio::test]
async fn the_hook_chooses_only_for_requests_naming_no_version() {
    let calls = Arc::new(AtomicUsize::new(0));
    let negotiation = Negotiation::new(API).with_client_default(accounts(calls.clone()));
    // The builders after it keep the hook.
    let negotiation = negotiation.capped_at(Version::lit("2.4")).expect("a declared version");
    let app = Router::new().route("/servers", get(show)).layer(VersionNegotiation::new(negotiation));

    let (status, body, vary) = get_with(&app, &[("X-Account", "pinned")]).await;
    assert_eq!((status, body.as_str()), (200, "2.2 client"));
    assert!(vary.contains("X-Account"), "Vary {vary:?}");
    assert_eq!(calls.load(Ordering::SeqCst), 1);

    let named = [("X-Account", "pinned"), ("OpenStack-API-Version", "compute 2.4")];
    assert_eq!(get_with(&app, &named).await.1, "2.4 explicit");
    assert_eq!(calls.load(Ordering::SeqCst), 1, "a named version wins without asking the hook");

    assert_eq!(get_with(&app, &[("X-Account", "future")]).await.1, "2.4 client");
    assert_eq!(get_with(&app, &[("X-Account", "ancient")]).await.1, "2.1 default");
    assert_eq!(get_with(&app, &[("X-Account", "someone")]).await.1, "2.1 default");
    assert_eq!(get_with(&app, &[]).await.1, "2.1 default");

    // The hook's error is answered in the API's format, with its service.
    let (status, body, vary) = get_with(&app, &[("X-Account", "broken")]).await;
    assert_eq!(status, 503);
    let error: serde_json::Value = serde_json::from_str(&body).expect("a JSON error");
    assert_eq!(error["errors"][0]["detail"], "The store is down.", "{body}");
    assert_eq!(error["errors"][0]["code"], "compute.service-unavailable", "{body}");
    assert!(vary.contains("X-Account"), "Vary {vary:?}");

    let (status, _, vary) = get_with(&app, &[("OpenStack-API-Version", "compute 2.9")]).await;
    assert_eq!(status, 406);
    assert!(vary.contains("X-Account"), "refusals name the hook's header too: Vary {vary:?}");
}

#[tokio::test]
async fn discovery_shows_each_client_its_version() {
    use microversion_axum::{Discovery, DiscoverySettings};
    let hook = accounts(Arc::new(AtomicUsize::new(0)));
    let app: Router = Discovery::new(DiscoverySettings::new(&[API]).with_client_default(&API, hook)).into();
    for path in ["/", "/v2.1", "/v2.1/"] {
        for (account, expected) in
            [(Some("pinned"), Some("2.2")), (Some("future"), Some("2.4")), (None, None)]
        {
            let mut req = http::Request::builder().uri(path).header("Host", "cloud.example");
            if let Some(account) = account {
                req = req.header("X-Account", account);
            }
            let res = app
                .clone()
                .oneshot(req.body(axum::body::Body::empty()).expect("a request"))
                .await
                .expect("infallible");
            let vary = res.headers().get("vary").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
            assert!(vary.contains("X-Account") && vary.contains("Host"), "{path}: Vary {vary:?}");
            let body = res.into_body().collect().await.expect("the body").to_bytes();
            let doc: serde_json::Value = serde_json::from_slice(&body).expect("JSON");
            let entry = if path == "/" { &doc["versions"][0] } else { &doc["version"] };
            assert_eq!(entry["client_version"].as_str(), expected, "{path} for {account:?}: {doc}");
        }
    }
    let req = http::Request::builder().uri("/v2.1").header("X-Account", "broken");
    let res = app
        .clone()
        .oneshot(req.body(axum::body::Body::empty()).expect("a request"))
        .await
        .expect("infallible");
    assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body = res.into_body().collect().await.expect("the body").to_bytes();
    let error: serde_json::Value = serde_json::from_slice(&body).expect("a JSON error");
    assert_eq!(error["errors"][0]["code"], "compute.service-unavailable", "{error}");
}

/// A header name that could not be named in `Vary` stops the service at
/// start-up, as on actix, rather than leaving `Vary` without it.
#[test]
#[should_panic(expected = "\"X Account\" is not a header name")]
fn a_hook_reading_an_invalid_header_name_is_refused_at_start_up() {
    let _ = ClientDefault::new(&["X Account"], |_| async { Ok(None) });
}
