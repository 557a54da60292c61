//! The `ApiVersion` extractor: `matches` at range boundaries, comparisons,
//! negotiation from app data without the middleware, and the error with neither.

mod common;

use actix_web::http::StatusCode;
use actix_web::test::{self, TestRequest};
use actix_web::{App, HttpResponse, web};
use common::*;
use microversion_actix::test::{TestRequestExt, call_at, header, read_json};
use microversion_actix::{ApiVersion, Native, version::VersionSource};

#[actix_web::test]
async fn matches_at_the_boundaries_of_a_handlers_ranges() {
    let app = service().await;
    // keypairs exists for 2.2 ..= 2.9.
    for (version, status) in
        [("2.1", 404), ("2.2", 200), ("2.3", 200), ("2.9", 200), ("2.10", 404), ("latest", 404)]
    {
        let res = call_at(&app, &API, version, TestRequest::get().uri("/v2.1/keypairs")).await;
        assert_eq!(res.status().as_u16(), status, "{version}");
    }
    // A field added at 2.3: absent at 2.2, present at 2.3 and later.
    for (version, present) in [("2.2", false), ("2.3", true), ("2.10", true)] {
        let res = call_at(&app, &API, version, TestRequest::get().uri("/v2.1/servers/7")).await;
        let body = read_json(res).await;
        assert_eq!(body["server"].get("OS-EXT-SRV-ATTR:host").is_some(), present, "{version}: {body}");
        assert_eq!(body["server"]["id"], 7);
    }
}

#[test]
fn comparisons_and_matches() {
    let at = |text: &str| {
        ApiVersion::from(microversion_actix::version::Negotiated {
            version: v(text),
            source: VersionSource::Explicit,
            header: microversion_actix::version::VersionHeader::Standard,
        })
    };
    let v2_10 = at("2.10");
    assert!(v2_10 > v("2.9") && v2_10 >= v("2.10") && v2_10 <= v("2.10") && v2_10 < v("3.0"));
    assert!(v2_10 == v("2.10") && v2_10 != v("2.1"));
    assert!(v2_10.matches(None, None));
    assert!(v2_10.matches(Some(v("2.10")), Some(v("2.10"))));
    assert!(!v2_10.matches(Some(v("2.11")), None));
    assert!(!v2_10.matches(None, Some(v("2.9"))));
    assert!(v2_10.is_in(microversion_actix::version::VersionRange::from(v("2.2"))));
    assert_eq!(v2_10.to_string(), "2.10");
    assert_eq!(v2_10.source(), VersionSource::Explicit);
}

async fn show(Native(version): Native<ApiVersion>) -> HttpResponse {
    HttpResponse::Ok().body(format!("{version} {:?}", version.source()))
}

#[actix_web::test]
async fn without_middleware_it_negotiates_from_app_data() {
    let app = test::init_service(App::new().app_data(API).route("/v", web::get().to(show))).await;
    {
        let res =
            test::call_service(&app, TestRequest::get().uri("/v").api_version(&API, "2.4").to_request())
                .await;
        assert_eq!(test::read_body(res).await, "2.4 Explicit");
        let res = test::call_service(&app, TestRequest::get().uri("/v").to_request()).await;
        assert_eq!(header(&res, "Vary"), None, "no middleware, no headers (documented)");
        assert_eq!(test::read_body(res).await, "2.1 Default");
        let res =
            test::call_service(&app, TestRequest::get().uri("/v").api_version(&API, "3.7").to_request())
                .await;
        assert_eq!(res.status(), StatusCode::NOT_ACCEPTABLE);
        assert_eq!(header(&res, "OpenStack-API-Maximum-Version").as_deref(), Some("2.10"));
        let body = read_json(res).await;
        assert_eq!(body["errors"][0]["code"], "version-not-supported");
        assert_eq!(body["errors"][0]["max_version"], "2.10");
    }
    // In web::Data as well.
    let app =
        test::init_service(App::new().app_data(web::Data::new(API)).route("/v", web::get().to(show))).await;
    let res =
        test::call_service(&app, TestRequest::get().uri("/v").api_version(&API, "latest").to_request()).await;
    assert_eq!(test::read_body(res).await, "2.10 Latest");
}

#[actix_web::test]
async fn with_neither_it_says_what_to_add() {
    let app = test::init_service(App::new().route("/v", web::get().to(show))).await;
    let res = test::call_service(&app, TestRequest::get().uri("/v").to_request()).await;
    assert_eq!(res.status(), StatusCode::INTERNAL_SERVER_ERROR);
    let body = read_json(res).await;
    let detail = body["errors"][0]["detail"].as_str().unwrap();
    assert!(detail.contains(".wrap(microversion_actix::VersionNegotiation::new(API))"), "{detail}");
    assert!(detail.contains(".app_data(API)"), "{detail}");
    assert!(detail.contains("GET /v"), "{detail}");
}

#[actix_web::test]
async fn the_middleware_wins_over_app_data() {
    // A capped middleware and an uncapped declaration in app data: the request's
    // version is the middleware's negotiation.
    let capped = microversion_actix::VersionNegotiation::new(
        microversion_actix::Negotiation::new(API).capped_at(v("2.4")).unwrap(),
    );
    let app = test::init_service(
        App::new().app_data(API).service(web::scope("/s").wrap(capped).route("/v", web::get().to(show))),
    )
    .await;
    let res = call_at(&app, &API, "latest", TestRequest::get().uri("/s/v")).await;
    assert_eq!(test::read_body(res).await, "2.4 Latest");
}
