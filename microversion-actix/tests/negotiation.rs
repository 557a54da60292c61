//! Reading the version from headers (docs/reference.md §2, every row of the
//! table) and outcomes and response headers (§3), end to end.

mod common;

use actix_web::http::{Method, StatusCode};
use actix_web::test::{self, TestRequest};
use common::*;
use microversion_actix::test::{TestRequestExt, call_at, header, read_json, versioned_request};
use microversion_actix::{Discovery, Negotiation, VersionNegotiation};

fn get_servers(headers: &[(&str, &str)]) -> TestRequest {
    headers.iter().fold(TestRequest::get().uri("/v2.1/servers"), |req, (n, v)| req.append_header((*n, *v)))
}

/// Sends `headers` and returns (status, negotiated version from the body, source).
async fn negotiate(headers: &[(&str, &str)]) -> (StatusCode, String, String) {
    let app = service().await;
    let res = test::call_service(&app, get_servers(headers).to_request()).await;
    let status = res.status();
    if status != StatusCode::OK {
        assert_no_version_headers(&res);
        return (status, String::new(), String::new());
    }
    let version = header(&res, LEGACY).unwrap();
    let body = read_json(res).await;
    assert_eq!(body["version"], version.as_str(), "the handler saw the version the headers name");
    (status, version, body_str(&body, "/source"))
}

#[actix_web::test]
async fn table_rows_that_negotiate() {
    let ok = |v: &str, source: &str| (StatusCode::OK, v.to_owned(), source.to_owned());
    assert_eq!(negotiate(&[]).await, ok("2.1", "Default"));
    assert_eq!(negotiate(&[(STD, "compute 2.5")]).await, ok("2.5", "Explicit"));
    assert_eq!(negotiate(&[(STD, "Compute 2.5")]).await, ok("2.5", "Explicit"));
    assert_eq!(negotiate(&[(STD, "  compute   2.5  ")]).await, ok("2.5", "Explicit"));
    assert_eq!(negotiate(&[("openstack-api-version", "compute 2.5")]).await, ok("2.5", "Explicit"));
    assert_eq!(negotiate(&[(STD, "volume 3.5")]).await, ok("2.1", "Default"));
    assert_eq!(negotiate(&[(STD, "volume 3.5"), (LEGACY, "2.7")]).await, ok("2.7", "Explicit"));
    assert_eq!(negotiate(&[(STD, "compute 2.3"), (LEGACY, "2.7")]).await, ok("2.3", "Explicit"));
    assert_eq!(negotiate(&[(STD, "compute 2.3"), (LEGACY, "garbage")]).await, ok("2.3", "Explicit"));
    assert_eq!(negotiate(&[(STD, "compute 2.1, compute 2.9")]).await, ok("2.9", "Explicit"));
    assert_eq!(negotiate(&[(STD, "compute 2.1"), (STD, "compute 2.9")]).await, ok("2.9", "Explicit"));
    assert_eq!(negotiate(&[(STD, "dogs 1.9, compute 2.4")]).await, ok("2.4", "Explicit"));
    assert_eq!(negotiate(&[(STD, "compute latest")]).await, ok("2.10", "Latest"));
    assert_eq!(negotiate(&[(LEGACY, "2.6")]).await, ok("2.6", "Explicit"));
    assert_eq!(negotiate(&[(STD, ""), (LEGACY, "2.6")]).await, ok("2.6", "Explicit"));
}

#[actix_web::test]
async fn table_rows_that_fail() {
    for bad in ["compute LATEST", "compute 2.1.3", "compute bogus", "compute 02.1", "compute 2.99999999"] {
        assert_eq!(negotiate(&[(STD, bad)]).await.0, StatusCode::BAD_REQUEST, "{bad}");
    }
    assert_eq!(negotiate(&[(LEGACY, "")]).await.0, StatusCode::BAD_REQUEST, "empty legacy header");
    for unsupported in ["compute 2.0", "compute 3.0", "compute 2.11", "compute 1.9"] {
        assert_eq!(negotiate(&[(STD, unsupported)]).await.0, StatusCode::NOT_ACCEPTABLE, "{unsupported}");
    }
}

#[actix_web::test]
async fn not_acceptable_names_the_range_in_body_and_headers() {
    let app = service().await;
    let res = test::call_service(&app, get_servers(&[(STD, "compute 3.7")]).to_request()).await;
    assert_eq!(res.status(), StatusCode::NOT_ACCEPTABLE);
    assert_no_version_headers(&res);
    assert_eq!(header(&res, "OpenStack-API-Minimum-Version").as_deref(), Some("2.1"));
    assert_eq!(header(&res, "OpenStack-API-Maximum-Version").as_deref(), Some("2.10"));
    assert_eq!(header(&res, "Content-Type").as_deref(), Some("application/json"));
    let body = read_json(res).await;
    assert_eq!(
        body,
        serde_json::json!({"errors": [{
            "code": "compute.version-not-supported", "status": 406, "title": "API version not supported",
            "detail": "Version 3.7 is not supported by the API. Minimum is 2.1 and maximum is 2.10.",
            "min_version": "2.1", "max_version": "2.10"
        }]})
    );
}

#[actix_web::test]
async fn malformed_version_is_400_with_range_and_vary() {
    let app = service().await;
    let res = test::call_service(&app, get_servers(&[(STD, "compute bogus")]).to_request()).await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert_no_version_headers(&res);
    assert_eq!(header(&res, "OpenStack-API-Minimum-Version").as_deref(), Some("2.1"));
    assert_eq!(header(&res, "OpenStack-API-Maximum-Version").as_deref(), Some("2.10"));
    let body = read_json(res).await;
    assert_eq!(body_str(&body, "/errors/0/code"), "compute.invalid-version");
    assert_eq!(body["errors"][0]["status"], 400);
    let detail = body_str(&body, "/errors/0/detail");
    assert!(
        detail.contains("\"bogus\"") && detail.contains("Minimum is 2.1 and maximum is 2.10"),
        "{detail}"
    );
}

/// Regression (reliability work): behind nginx with `proxy_cache_valid any`,
/// the 400 of an empty legacy header was stored and served to requests with
/// no version header (nginx folds empty into absent when it matches `Vary`).
/// Negotiation errors are never stored; negotiated responses may be.
#[actix_web::test]
async fn negotiation_errors_are_not_stored_by_caches() {
    let app = service().await;
    for headers in [&[(STD, "compute bogus")][..], &[(STD, "compute 3.7")], &[(LEGACY, "")]] {
        let res = test::call_service(&app, get_servers(headers).to_request()).await;
        assert!(res.status() == StatusCode::BAD_REQUEST || res.status() == StatusCode::NOT_ACCEPTABLE);
        assert_eq!(header(&res, "Cache-Control").as_deref(), Some("no-store"), "{headers:?}");
        assert!(header(&res, "Vary").is_some_and(|v| v.contains(LEGACY)), "{headers:?}");
    }
    let res = test::call_service(&app, get_servers(&[(STD, "compute 2.2")]).to_request()).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(header(&res, "Cache-Control"), None);
}

#[actix_web::test]
async fn success_carries_every_version_header() {
    let app = service().await;
    let res =
        test::call_service(&app, versioned_request(&API, "2.7").uri("/v2.1/servers").to_request()).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_version_headers(&res, "2.7");
    assert_eq!(header(&res, "OpenStack-API-Minimum-Version"), None, "min/max only on failures");
    // Without a header: the default version is still named.
    let res = test::call_service(&app, TestRequest::get().uri("/v2.1/servers").to_request()).await;
    assert_version_headers(&res, "2.1");
}

#[actix_web::test]
async fn errors_of_the_scope_carry_version_headers() {
    let app = service().await;
    // A method missing at this version (handler's ApiError 404).
    let res = call_at(&app, &API, "2.10", TestRequest::get().uri("/v2.1/keypairs")).await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert_version_headers(&res, "2.10");
    assert_eq!(
        body_str(&read_json(res).await, "/errors/0/detail"),
        "API version 2.10 is not supported on this method."
    );
    // An unknown path: the router's 404.
    let res = call_at(&app, &API, "2.4", TestRequest::get().uri("/v2.1/nothing/here")).await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert_version_headers(&res, "2.4");
    assert_eq!(body_str(&read_json(res).await, "/errors/0/code"), "compute.not-found");
    // A method the resource lacks: the router's 405.
    let res = call_at(&app, &API, "2.4", TestRequest::delete().uri("/v2.1/servers")).await;
    assert_eq!(res.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_version_headers(&res, "2.4");
    // A handler's 500.
    let res = call_at(&app, &API, "2.8", TestRequest::get().uri("/v2.1/db")).await;
    assert_eq!(res.status(), StatusCode::INTERNAL_SERVER_ERROR);
    assert_version_headers(&res, "2.8");
    // Extractor failures: a path parameter that is not a number (actix answers 404) and a
    // query that does not deserialize (400).
    let res = call_at(&app, &API, "2.3", TestRequest::get().uri("/v2.1/servers/abc")).await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert_version_headers(&res, "2.3");
    let res = call_at(&app, &API, "2.3", TestRequest::get().uri("/v2.1/query-actix?n=abc")).await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert_version_headers(&res, "2.3");
    // A handler's conflict.
    let res = call_at(&app, &API, "2.3", TestRequest::with_uri("/v2.1/locked").method(Method::POST)).await;
    assert_eq!(res.status(), StatusCode::CONFLICT);
    assert_version_headers(&res, "2.3");
}

#[actix_web::test]
async fn vary_is_appended_to_the_handlers_own() {
    let app = service().await;
    let res = call_at(&app, &API, "2.2", TestRequest::get().uri("/v2.1/cached")).await;
    assert_eq!(header(&res, "Vary").as_deref(), Some(format!("Accept-Encoding, {VARY}").as_str()));
    assert_eq!(header(&res, STD).as_deref(), Some("compute 2.2"));
    assert_eq!(test::read_body(res).await, "cached");
}

#[actix_web::test]
async fn the_cap_drives_406_and_latest() {
    let capped = VersionNegotiation::new(Negotiation::new(API).capped_at(v("2.5")).unwrap());
    let app = test::init_service(app_with(capped, Discovery::new(&[API]))).await;
    let res = call_at(&app, &API, "latest", TestRequest::get().uri("/v2.1/servers")).await;
    assert_version_headers(&res, "2.5");
    let res = call_at(&app, &API, "2.6", TestRequest::get().uri("/v2.1/servers")).await;
    assert_eq!(res.status(), StatusCode::NOT_ACCEPTABLE);
    assert_eq!(header(&res, "OpenStack-API-Maximum-Version").as_deref(), Some("2.5"));
    assert_eq!(body_str(&read_json(res).await, "/errors/0/max_version"), "2.5");
    // The cap set on the declaration works the same.
    let app = test::init_service(app_with(
        VersionNegotiation::new(API.capped_at(v("2.3")).unwrap()),
        Discovery::new(&[API]),
    ))
    .await;
    let res = call_at(&app, &API, "2.4", TestRequest::get().uri("/v2.1/servers")).await;
    assert_eq!(res.status(), StatusCode::NOT_ACCEPTABLE);
    assert!(Negotiation::new(API).capped_at(v("2.55")).is_err());
}

#[actix_web::test]
async fn min_max_header_names_are_configurable() {
    let mw = VersionNegotiation::new(Negotiation::new(API).with_min_max_headers(
        actix_web::http::header::HeaderName::from_static("x-min"),
        actix_web::http::header::HeaderName::from_static("x-max"),
    ));
    let app = test::init_service(app_with(mw, Discovery::new(&[API]))).await;
    let res = call_at(&app, &API, "9.9", TestRequest::get().uri("/v2.1/servers")).await;
    assert_eq!(res.status(), StatusCode::NOT_ACCEPTABLE);
    assert_eq!(header(&res, "x-min").as_deref(), Some("2.1"));
    assert_eq!(header(&res, "x-max").as_deref(), Some("2.10"));
    assert_eq!(header(&res, "OpenStack-API-Minimum-Version"), None);
}

#[actix_web::test]
async fn the_api_version_helper_sets_the_standard_header() {
    let req = TestRequest::get().api_version(&API, "2.4").to_http_request();
    assert_eq!(req.headers().get(STD).unwrap(), "compute 2.4");
}

/// The middleware finds the version headers by name rather than walking every
/// header in order: with repeated, interleaved and differently cased standard
/// and legacy headers among others, it negotiates what `Api::negotiate`
/// makes of the same headers in the order sent.
#[actix_web::test]
async fn lookup_by_name_negotiates_as_the_headers_in_order() {
    let cases: &[&[(&str, &str)]] = &[
        &[
            (LEGACY, "2.3"),
            ("Accept", "application/json"),
            (STD, "volume 3.1"),
            ("x-openstack-nova-api-version", "2.4"),
        ],
        &[(STD, "compute 2.2"), (LEGACY, "2.6"), ("openstack-api-version", "compute 2.5, volume 3.0")],
        &[("openstack-API-version", "volume 3.0"), (LEGACY, "2.7"), (STD, "image 2.1"), (LEGACY, "2.2, 2.6")],
        &[("User-Agent", "test"), (STD, "compute 2.4"), (STD, "compute 2.3"), (LEGACY, "2.9")],
        &[(LEGACY, "2.5"), ("X-OPENSTACK-NOVA-API-VERSION", "2.1")],
    ];
    for headers in cases {
        let expected =
            API.negotiate(headers.iter().map(|(n, v)| (*n, *v))).expect("each case negotiates").version;
        let (status, version, _) = negotiate(headers).await;
        assert_eq!((status, version), (StatusCode::OK, expected.to_string()), "{headers:?}");
    }
}
