//! Version discovery (docs/reference.md §7): both documents, both paths, prefix, cap,
//! statuses, version headers ignored, and routing next to the API scope.

mod common;

use actix_web::http::StatusCode;
use actix_web::test::{self, TestRequest};
use common::*;
use microversion_actix::test::{TestRequestExt, call_at, header, read_json};
use microversion_actix::{Api, Discovery, Microversion, Microversions, VersionStatus, parse_discovery};
use serde_json::json;

fn entry(href: &str, max: &str) -> serde_json::Value {
    json!({"id": "v2.1", "status": "CURRENT", "version": max, "max_version": max, "min_version": "2.1",
        "updated": "2013-07-23T11:33:21Z", "links": [{"href": href, "rel": "self"}]})
}

#[actix_web::test]
async fn root_lists_versions() {
    let app = service().await;
    let res = test::call_service(&app, TestRequest::get().uri("/").to_request()).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(header(&res, STD), None, "discovery is not versioned");
    assert_eq!(read_json(res).await, json!({"versions": [entry("http://localhost:8080/v2.1/", "2.10")]}));
}

#[actix_web::test]
async fn single_version_with_and_without_slash_next_to_the_api_scope() {
    let app = service().await;
    let mut expected = json!({"version": entry("http://localhost:8080/v2.1/", "2.10")});
    expected["version"]["media-types"] =
        json!([{"base": "application/json", "type": "application/vnd.openstack.compute+json;version=2.1"}]);
    for path in ["/v2.1", "/v2.1/"] {
        let res = test::call_service(&app, TestRequest::get().uri(path).to_request()).await;
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        assert_eq!(read_json(res).await, expected, "{path}");
    }
    // The API scope still serves its own resources.
    let res = call_at(&app, &API, "2.3", TestRequest::get().uri("/v2.1/servers")).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_version_headers(&res, "2.3");
}

#[actix_web::test]
async fn version_headers_are_ignored() {
    let app = service().await;
    for version in ["9.9", "bogus", "latest"] {
        let res =
            test::call_service(&app, TestRequest::get().uri("/").api_version(&API, version).to_request())
                .await;
        assert_eq!(res.status(), StatusCode::OK, "{version}");
        let res = test::call_service(
            &app,
            TestRequest::get().uri("/v2.1/").insert_header((LEGACY, version)).to_request(),
        )
        .await;
        assert_eq!(res.status(), StatusCode::OK, "{version}");
    }
}

#[actix_web::test]
async fn prefix_host_and_scheme_make_the_self_links() {
    let app =
        test::init_service(app_with(Microversions::new(API), Discovery::new(&[API]).prefix("compute/")))
            .await;
    let req = TestRequest::get()
        .uri("/v2.1")
        .insert_header(("Host", "cloud.example:8774"))
        .insert_header(("X-Forwarded-Proto", "https"))
        .to_request();
    let doc = read_json(test::call_service(&app, req).await).await;
    assert_eq!(doc["version"]["links"][0]["href"], "https://cloud.example:8774/compute/v2.1/");

    // Mounted inside an app scope: the mount path is part of the links.
    let app = test::init_service(
        actix_web::App::new().service(actix_web::web::scope("/compute").service(Discovery::new(&[API]))),
    )
    .await;
    let doc =
        read_json(test::call_service(&app, TestRequest::get().uri("/compute/").to_request()).await).await;
    assert_eq!(doc["versions"][0]["links"][0]["href"], "http://localhost:8080/compute/v2.1/");
    let doc =
        read_json(test::call_service(&app, TestRequest::get().uri("/compute/v2.1").to_request()).await).await;
    assert_eq!(doc["version"]["links"][0]["href"], "http://localhost:8080/compute/v2.1/");
}

#[actix_web::test]
async fn the_cap_and_statuses_show() {
    const OLD: Api = Api::new("compute", &[Microversion::new("2.0", "Legacy.")])
        .id("v2.0")
        .status(VersionStatus::Deprecated);
    let capped = API.capped_at(v("2.4")).unwrap();
    let app = test::init_service(app_with(Microversions::new(capped), Discovery::new(&[OLD, capped]))).await;
    let doc = read_json(test::call_service(&app, TestRequest::get().uri("/").to_request()).await).await;
    assert_eq!(doc["versions"][0]["id"], "v2.0");
    assert_eq!(doc["versions"][0]["status"], "DEPRECATED");
    assert_eq!(doc["versions"][1]["version"], "2.4");
    assert_eq!(doc["versions"][1]["max_version"], "2.4");
    let doc = read_json(test::call_service(&app, TestRequest::get().uri("/v2.0/").to_request()).await).await;
    assert_eq!(doc["version"]["id"], "v2.0");
    let doc = read_json(test::call_service(&app, TestRequest::get().uri("/v2.1").to_request()).await).await;
    assert_eq!(doc["version"]["version"], "2.4");
    assert_eq!(doc["version"]["max_version"], "2.4");
    // What a client reads from it (keystoneauth / novaclient negotiation).
    let parsed = parse_discovery(&doc.to_string()).unwrap();
    assert_eq!((parsed[0].min, parsed[0].max), (Some(v("2.1")), Some(v("2.4"))));
}

#[actix_web::test]
async fn unknown_ids_are_json_404s() {
    let app = service().await;
    for path in ["/v3", "/v2.2/"] {
        let res = test::call_service(&app, TestRequest::get().uri(path).to_request()).await;
        assert_eq!(res.status(), StatusCode::NOT_FOUND, "{path}");
        let body = read_json(res).await;
        assert_eq!(body["errors"][0]["code"], "compute.not-found");
        assert!(body["errors"][0]["detail"].as_str().unwrap().contains("offers v2.1"), "{body}");
    }
    // Other single segments are not claimed by discovery.
    let res = test::call_service(&app, TestRequest::get().uri("/healthcheck").to_request()).await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert!(test::read_body(res).await.is_empty());
}

/// Regression (reliability work): the documents are built from the
/// forwarded host and scheme, so they name those headers in `Vary`; without
/// it one request with `X-Forwarded-Host` poisoned a shared cache's copy
/// (examples/compute/tests/cache_safety.rs shows it behind nginx).
#[actix_web::test]
async fn documents_vary_on_the_headers_their_links_come_from() {
    let app = service().await;
    for path in ["/", "/v2.1", "/v2.1/"] {
        let req =
            TestRequest::get().uri(path).insert_header(("X-Forwarded-Host", "evil.example")).to_request();
        let res = test::call_service(&app, req).await;
        assert_eq!(
            header(&res, "Vary").as_deref(),
            Some("Host, Forwarded, X-Forwarded-Host, X-Forwarded-Proto"),
            "{path}"
        );
        assert!(read_json(res).await.to_string().contains("evil.example"), "{path}");
    }
}

/// Regression (reliability work): actix's own 405 for a method other than
/// GET had an empty body; it is a JSON error in the configured format.
#[actix_web::test]
async fn other_methods_are_json_405s() {
    let app = service().await;
    for (method, path) in
        [("POST", "/"), ("DELETE", "/v2.1"), ("PUT", "/v2.1/"), ("PATCH", "/v3"), ("HEAD", "/")]
    {
        let method = actix_web::http::Method::from_bytes(method.as_bytes()).unwrap();
        let req = TestRequest::default().method(method.clone()).uri(path).to_request();
        let res = test::call_service(&app, req).await;
        assert_eq!(res.status(), StatusCode::METHOD_NOT_ALLOWED, "{method} {path}");
        assert_eq!(header(&res, "allow").as_deref(), Some("GET"), "{method} {path}");
        let body = read_json(res).await;
        assert_eq!(body["errors"][0]["code"], "compute.method-not-allowed", "{method} {path}: {body}");
        assert_eq!(body["errors"][0]["status"], 405, "{method} {path}: {body}");
    }
}

#[actix_web::test]
async fn discovery_must_come_before_the_api_scope() {
    // The documented requirement: registered after the scope, `/v2.1` belongs to the scope.
    let app = test::init_service(
        actix_web::App::new()
            .service(actix_web::web::scope("/v2.1").wrap(Microversions::new(API)).configure(routes))
            .service(Discovery::new(&[API])),
    )
    .await;
    let res = test::call_service(&app, TestRequest::get().uri("/v2.1").to_request()).await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert_version_headers(&res, "2.1");
    let res = test::call_service(&app, TestRequest::get().uri("/").to_request()).await;
    assert_eq!(res.status(), StatusCode::OK);
}
