//! A default version per client (docs/reference.md §3.6) at the
//! middleware: the hook is asked only when a request names no version, its
//! version reaches the handler as `VersionSource::Client`, a failing hook
//! answers its error, and `Vary` names what it reads on every answer.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use actix_web::http::StatusCode;
use actix_web::test::{self, TestRequest};
use actix_web::{App, HttpResponse, web};
use microversion_actix::middleware::ClientDefault;
use microversion_actix::test::{header, read_json};
use microversion_actix::version::VersionSource;
use microversion_actix::{
    Api, ApiError, ApiVersion, Microversion, Native, Negotiation, Version, VersionNegotiation,
};

const API: Api = Api::new(
    "compute",
    &[
        Microversion::new("2.1", "a"),
        Microversion::new("2.2", "b"),
        Microversion::new("2.3", "c"),
        Microversion::new("2.4", "d"),
    ],
);

async fn show(Native(version): Native<ApiVersion>) -> HttpResponse {
    let source = match version.source() {
        VersionSource::Client => "client",
        VersionSource::Default => "default",
        VersionSource::Latest => "latest",
        VersionSource::Explicit => "explicit",
    };
    HttpResponse::Ok().json(serde_json::json!({"version": version.version().to_string(), "source": source}))
}

/// The hook: `X-Account: pinned` is 2.2, `future` 9.9 (above what is
/// served: pinned by a newer release, rolled back since), `ancient` 1.0
/// (below it), `broken` a store failure, anything else the API's default.
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

#[actix_web::test]
async fn the_hook_chooses_only_for_requests_naming_no_version() {
    let calls = Arc::new(AtomicUsize::new(0));
    let app = test::init_service(
        App::new().service(
            web::scope("/v2.1")
                .wrap(VersionNegotiation::new(
                    Negotiation::new(API).with_client_default(accounts(calls.clone())),
                ))
                .route("/servers", web::get().to(show)),
        ),
    )
    .await;
    let get = |headers: &[(&'static str, &'static str)]| {
        headers
            .iter()
            .fold(TestRequest::get().uri("/v2.1/servers"), |req, h| req.insert_header(*h))
            .to_request()
    };

    let res = test::call_service(&app, get(&[("X-Account", "pinned")])).await;
    assert_eq!(header(&res, "OpenStack-API-Version").as_deref(), Some("compute 2.2"));
    assert!(header(&res, "Vary").unwrap_or_default().contains("X-Account"));
    let body = read_json(res).await;
    assert_eq!((body["version"].as_str(), body["source"].as_str()), (Some("2.2"), Some("client")));
    assert_eq!(calls.load(Ordering::SeqCst), 1);

    // A named version wins; the hook is not even asked.
    let res =
        test::call_service(&app, get(&[("X-Account", "pinned"), ("OpenStack-API-Version", "compute 2.4")]))
            .await;
    let body = read_json(res).await;
    assert_eq!((body["version"].as_str(), body["source"].as_str()), (Some("2.4"), Some("explicit")));
    let res = test::call_service(
        &app,
        get(&[("X-Account", "pinned"), ("OpenStack-API-Version", "compute latest")]),
    )
    .await;
    assert_eq!(read_json(res).await["source"], "latest");
    assert_eq!(calls.load(Ordering::SeqCst), 1);

    // A pin above what is served is served at the maximum.
    let body = read_json(test::call_service(&app, get(&[("X-Account", "future")])).await).await;
    assert_eq!((body["version"].as_str(), body["source"].as_str()), (Some("2.4"), Some("client")));
    // No pin, or one below what is served: the API's default.
    for account in ["someone", "ancient"] {
        let body = read_json(test::call_service(&app, get(&[("X-Account", account)])).await).await;
        assert_eq!(
            (body["version"].as_str(), body["source"].as_str()),
            (Some("2.1"), Some("default")),
            "{account}"
        );
    }
    let body = read_json(test::call_service(&app, get(&[])).await).await;
    assert_eq!(body["source"], "default");
    assert_eq!(calls.load(Ordering::SeqCst), 5);

    // A hook that fails answers its error in the API's format, uncached.
    let res = test::call_service(&app, get(&[("X-Account", "broken")])).await;
    assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(header(&res, "Vary").unwrap_or_default().contains("X-Account"));
    assert_eq!(read_json(res).await["errors"][0]["detail"], "The store is down.");

    // Refusals name the hook's header in Vary too.
    let res = test::call_service(&app, get(&[("OpenStack-API-Version", "compute 2.9")])).await;
    assert_eq!(res.status(), StatusCode::NOT_ACCEPTABLE);
    assert!(header(&res, "Vary").unwrap_or_default().contains("X-Account"));
}

/// A header name that could not be named in `Vary` stops the service at
/// start-up rather than leaving `Vary` without it.
#[test]
#[should_panic(expected = "\"X Account\" is not a header name")]
fn a_hook_reading_an_invalid_header_name_is_refused_at_start_up() {
    let _ = ClientDefault::new(&["X Account"], |_| async { Ok(None) });
}
