//! Version discovery (docs/reference.md §7): both documents, both paths, prefix, cap,
//! statuses, version headers ignored, routing next to the API scope, the
//! public URL of links (§7.1), read from a request by `RequestLinks`, and
//! an API path apart from its id (§7.2).

mod common;

use std::net::IpAddr;

use actix_web::http::StatusCode;
use actix_web::test::{self, TestRequest};
use actix_web::{HttpRequest, web};
use common::*;
use microversion_actix::test::{TestRequestExt, call_at, header, read_json};
use microversion_actix::{
    Api, Discovery, DiscoverySettings, Microversion, Negotiation, VersionNegotiation,
    client::parse_discovery,
    discovery::{PublicUrl, RequestLinks},
    error::{ErrorRenderer, NovaFaults},
    lifecycle::VersionStatus,
};
use microversion_core::discovery::FORWARDED_AND_HOST;
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
    let app = test::init_service(app_with(
        VersionNegotiation::new(API),
        Discovery::new(DiscoverySettings::new(&[API]).with_prefix("compute/")),
    ))
    .await;
    let req = TestRequest::get().uri("/v2.1").insert_header(("Host", "cloud.example:8774")).to_request();
    let doc = read_json(test::call_service(&app, req).await).await;
    assert_eq!(doc["version"]["links"][0]["href"], "http://cloud.example:8774/compute/v2.1/");
    // The scheme is the connection's, not a header's.
    let req = TestRequest::get().uri("https://cloud.example/v2.1").to_request();
    let doc = read_json(test::call_service(&app, req).await).await;
    assert_eq!(doc["version"]["links"][0]["href"], "https://cloud.example/compute/v2.1/");

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

/// The forwarding headers of a request (any client can send them), and
/// whether the links named the forged host or scheme.
fn forged(path: &str, peer: &str) -> actix_http::Request {
    TestRequest::get()
        .uri(path)
        .peer_addr(peer.parse().unwrap())
        .insert_header(("Host", "api.internal:8774"))
        .insert_header(("X-Forwarded-Host", "evil.example"))
        .insert_header(("X-Forwarded-Proto", "https"))
        .insert_header(("Forwarded", "host=evil.example;proto=https"))
        .to_request()
}

fn app_trusting(
    public: PublicUrl,
) -> actix_web::App<
    impl actix_web::dev::ServiceFactory<
        actix_web::dev::ServiceRequest,
        Config = (),
        Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    app_with(VersionNegotiation::new(API), Discovery::new(&[API])).app_data(public)
}

/// Regression (reliability work): `X-Forwarded-Host: evil.example` from any
/// client put `http://evil.example/v2.1/` into the documents. By default
/// (oslo.middleware's `enable_proxy_headers_parsing = False`) the
/// forwarding headers are not read, and `Vary` names only `Host`.
#[actix_web::test]
async fn forwarded_headers_from_an_untrusted_peer_change_nothing() {
    for public in [PublicUrl::default(), PublicUrl::trust_proxies(["10.0.0.1".parse().unwrap()])] {
        let app = test::init_service(app_trusting(public.clone())).await;
        for path in ["/", "/v2.1", "/v2.1/"] {
            let res = test::call_service(&app, forged(path, "192.0.2.7:40000")).await;
            assert_eq!(header(&res, "Vary").as_deref(), Some("Host"), "{public:?} {path}");
            let doc = read_json(res).await.to_string();
            assert!(doc.contains("\"http://api.internal:8774/v2.1/\""), "{public:?} {path}: {doc}");
            assert!(!doc.contains("evil.example") && !doc.contains("https"), "{public:?} {path}: {doc}");
        }
    }
}

#[actix_web::test]
async fn trusted_proxies_forward_the_scheme_and_host() {
    let trusted = "10.0.0.1".parse().unwrap();
    for (public, peer) in [
        (PublicUrl::trust_all_proxies(), "192.0.2.7:40000"),
        (PublicUrl::trust_proxies([trusted]), "10.0.0.1:40000"),
    ] {
        let app = test::init_service(app_trusting(public.clone())).await;
        for path in ["/", "/v2.1", "/v2.1/"] {
            let res = test::call_service(&app, forged(path, peer)).await;
            assert_eq!(
                header(&res, "Vary").as_deref(),
                Some("Host, Forwarded, X-Forwarded-Host, X-Forwarded-Proto"),
                "{public:?} {path}"
            );
            let doc = read_json(res).await.to_string();
            assert!(doc.contains("\"https://evil.example/v2.1/\""), "{public:?} {path}: {doc}");
        }
    }
    // `X-Forwarded-Host` alone, from a trusted proxy, also counts.
    let app = test::init_service(app_trusting(PublicUrl::trust_proxies([trusted]))).await;
    let req = TestRequest::get()
        .uri("/")
        .peer_addr("10.0.0.1:1".parse().unwrap())
        .insert_header(("X-Forwarded-Host", "cloud.example"))
        .to_request();
    let doc = read_json(test::call_service(&app, req).await).await;
    assert_eq!(doc["versions"][0]["links"][0]["href"], "http://cloud.example/v2.1/");
}

#[actix_web::test]
async fn a_fixed_public_url_wins_and_adds_no_vary() {
    let public = PublicUrl::fixed("https://cloud.example/compute/").unwrap();
    let app = test::init_service(
        app_with(
            VersionNegotiation::new(API),
            Discovery::new(DiscoverySettings::new(&[API]).with_prefix("/ignored")),
        )
        .app_data(public),
    )
    .await;
    for peer in ["192.0.2.7:40000", "10.0.0.1:40000"] {
        for path in ["/", "/v2.1", "/v2.1/"] {
            let res = test::call_service(&app, forged(path, peer)).await;
            assert_eq!(header(&res, "Vary"), None, "{path}");
            let doc = read_json(res).await.to_string();
            assert!(doc.contains("\"https://cloud.example/compute/v2.1/\""), "{path}: {doc}");
            assert!(!doc.contains("evil.example") && !doc.contains("ignored"), "{path}: {doc}");
        }
    }
    // In `web::Data` too.
    let public = actix_web::web::Data::new(PublicUrl::fixed("http://public.example").unwrap());
    let app =
        test::init_service(app_with(VersionNegotiation::new(API), Discovery::new(&[API])).app_data(public))
            .await;
    let doc = read_json(test::call_service(&app, TestRequest::get().uri("/").to_request()).await).await;
    assert_eq!(doc["versions"][0]["links"][0]["href"], "http://public.example/v2.1/");
}

/// Discovery's own public URL wins over the app's, as on axum: links and
/// `Vary` follow it, and the app's other routes keep the app's.
#[actix_web::test]
async fn discovery_s_own_public_url_wins_over_the_app_s() {
    let own = PublicUrl::fixed("https://cloud.example/compute/").unwrap();
    let app_wide = PublicUrl::fixed("http://internal.example").unwrap();
    let app = test::init_service(
        app_with(
            VersionNegotiation::new(API),
            Discovery::new(DiscoverySettings::new(&[API]).with_public_url(own)),
        )
        .app_data(app_wide),
    )
    .await;
    for path in ["/", "/v2.1", "/v2.1/"] {
        let res = test::call_service(&app, forged(path, "192.0.2.7:40000")).await;
        assert_eq!(header(&res, "Vary"), None, "{path}: a fixed URL reads no header");
        let doc = read_json(res).await.to_string();
        assert!(doc.contains("\"https://cloud.example/compute/v2.1/\""), "{path}: {doc}");
        assert!(!doc.contains("internal.example"), "{path}: {doc}");
    }
    // A URL read from the request, given to discovery alone, names `Host` in `Vary`.
    let app = test::init_service(
        app_with(
            VersionNegotiation::new(API),
            Discovery::new(DiscoverySettings::new(&[API]).with_public_url(PublicUrl::default())),
        )
        .app_data(PublicUrl::fixed("http://internal.example").unwrap()),
    )
    .await;
    let res = test::call_service(&app, forged("/", "192.0.2.7:40000")).await;
    assert_eq!(header(&res, "Vary").as_deref(), Some("Host"));
    let doc = read_json(res).await.to_string();
    assert!(!doc.contains("internal.example"), "{doc}");
}

/// Regression (reliability work): Cinder's API has the id `v3.0` and lives
/// under `/v3`; discovery advertised `/v3.0/` and `GET /v3/` answered "v3
/// does not exist" while `/v3/volumes` worked.
#[actix_web::test]
async fn an_api_path_apart_from_its_id() {
    static VOLUME_HISTORY: [Microversion; 3] = [
        Microversion::new("3.0", "Initial version."),
        Microversion::new("3.27", "Attachments."),
        Microversion::new("3.70", "Encrypted volume transfers."),
    ];
    const VOLUME: Api = Api::new("volume", &VOLUME_HISTORY).with_path("/v3");
    let app = test::init_service(
        actix_web::App::new().service(Discovery::new(&[VOLUME])).service(
            actix_web::web::scope("/v3")
                .wrap(VersionNegotiation::new(VOLUME))
                .route("/volumes", actix_web::web::get().to(actix_web::HttpResponse::Ok)),
        ),
    )
    .await;
    let doc = read_json(test::call_service(&app, TestRequest::get().uri("/").to_request()).await).await;
    assert_eq!(doc["versions"][0]["id"], "v3.0");
    assert_eq!(doc["versions"][0]["max_version"], "3.70");
    assert_eq!(doc["versions"][0]["links"][0]["href"], "http://localhost:8080/v3/");
    for path in ["/v3", "/v3/"] {
        let res = test::call_service(&app, TestRequest::get().uri(path).to_request()).await;
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        let doc = read_json(res).await;
        assert_eq!(doc["version"]["id"], "v3.0", "{path}");
        assert_eq!(doc["version"]["links"][0]["href"], "http://localhost:8080/v3/", "{path}");
    }
    let res = test::call_service(&app, TestRequest::get().uri("/v3/volumes").to_request()).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(header(&res, STD).as_deref(), Some("volume 3.0"));
    // The id is not a path.
    let res = test::call_service(&app, TestRequest::get().uri("/v3.0/").to_request()).await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert!(read_json(res).await["errors"][0]["detail"].as_str().unwrap().contains("offers v3.0"));
}

#[actix_web::test]
async fn paths_outside_every_scope_get_a_json_404() {
    let middleware = VersionNegotiation::new(Negotiation::new(API).with_error_format(NovaFaults::default()));
    let fallback = middleware.default_service();
    let app =
        test::init_service(app_with(middleware, Discovery::new(&[API])).default_service(fallback)).await;
    for path in ["/healthcheck", "/v9/servers", "/"] {
        let req = TestRequest::post().uri(path).to_request();
        let res = test::call_service(&app, req).await;
        let status = res.status();
        let body = read_json(res).await;
        if path == "/" {
            assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED, "discovery keeps its own 405");
            continue;
        }
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(
            body,
            json!({"itemNotFound": {"code": 404, "message": "The resource could not be found."}})
        );
    }
    // The renderer's own, in the API-SIG format with the service prefix.
    let renderer = ErrorRenderer::default().with_service("compute");
    let app = test::init_service(
        actix_web::App::new().default_service(microversion_actix::error::default_service(&renderer)),
    )
    .await;
    let res = test::call_service(&app, TestRequest::get().uri("/x").to_request()).await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert_eq!(read_json(res).await["errors"][0]["code"], "compute.not-found");
}

#[actix_web::test]
async fn the_cap_and_statuses_show() {
    const OLD: Api = Api::new("compute", &[Microversion::new("2.0", "Legacy.")])
        .with_id("v2.0")
        .with_status(VersionStatus::Deprecated);
    let capped = API.capped_at(v("2.4")).unwrap();
    let app =
        test::init_service(app_with(VersionNegotiation::new(capped), Discovery::new(&[OLD, capped]))).await;
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
    for path in ["/v3", "/v2.2/", "/v10.0.1"] {
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
/// request's host, so they name it in `Vary`; a proxy that keys its cache on
/// its upstream's name while passing the client's `Host` keeps one copy per
/// host.
#[actix_web::test]
async fn documents_vary_on_the_headers_their_links_come_from() {
    let app = service().await;
    for path in ["/", "/v2.1", "/v2.1/"] {
        let req = TestRequest::get().uri(path).insert_header(("Host", "cloud.example")).to_request();
        let res = test::call_service(&app, req).await;
        assert_eq!(header(&res, "Vary").as_deref(), Some("Host"), "{path}");
        assert!(read_json(res).await.to_string().contains("http://cloud.example/v2.1/"), "{path}");
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
            .service(actix_web::web::scope("/v2.1").wrap(VersionNegotiation::new(API)).configure(routes))
            .service(Discovery::new(&[API])),
    )
    .await;
    let res = test::call_service(&app, TestRequest::get().uri("/v2.1").to_request()).await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert_version_headers(&res, "2.1");
    let res = test::call_service(&app, TestRequest::get().uri("/").to_request()).await;
    assert_eq!(res.status(), StatusCode::OK);
}

/// A request through a proxy at `peer`, with `public` as app data.
fn proxied(public: PublicUrl, peer: &str) -> HttpRequest {
    TestRequest::get()
        .app_data(public)
        .peer_addr(peer.parse().unwrap())
        .insert_header(("Host", "api.internal:8774"))
        .insert_header(("X-Forwarded-Host", "cloud.example"))
        .insert_header(("X-Forwarded-Proto", "https"))
        .to_http_request()
}

#[test]
fn forwarded_headers_count_only_from_trusted_peers() {
    let proxy: IpAddr = [10, 0, 0, 1].into();
    let trusting = || PublicUrl::trust_proxies([proxy]);
    assert_eq!(proxied(trusting(), "10.0.0.1:4000").link_base(), "https://cloud.example");
    assert_eq!(proxied(trusting(), "10.0.0.1:4000").link_vary(), Some(FORWARDED_AND_HOST));
    assert_eq!(proxied(trusting(), "[::ffff:10.0.0.1]:4000").link_base(), "https://cloud.example");
    assert_eq!(proxied(trusting(), "10.0.0.2:4000").link_base(), "http://api.internal:8774");
    assert_eq!(proxied(trusting(), "10.0.0.2:4000").link_vary(), Some("Host"));
    let default = proxied(PublicUrl::default(), "10.0.0.1:4000");
    assert_eq!(default.link_base(), "http://api.internal:8774");
    assert_eq!(proxied(PublicUrl::trust_all_proxies(), "192.0.2.9:1").link_base(), "https://cloud.example");
    let fixed = proxied(PublicUrl::fixed("https://public.example/compute").unwrap(), "10.0.0.1:4000");
    assert_eq!(fixed.link_base(), "https://public.example/compute");
    assert_eq!(fixed.link_vary(), None);
}

#[test]
fn without_app_data_links_come_from_the_request() {
    let req = TestRequest::get().insert_header(("X-Forwarded-Host", "evil.example")).to_http_request();
    assert_eq!(*req.public_url(), PublicUrl::from_request());
    let data = TestRequest::get()
        .app_data(web::Data::new(PublicUrl::fixed("https://cloud.example").unwrap()))
        .to_http_request();
    assert_eq!(data.link_base(), "https://cloud.example");
}

#[test]
fn a_host_that_is_not_plain_falls_back_to_the_configured_one() {
    let req = TestRequest::get().insert_header(("Host", "evil.example/x?")).to_http_request();
    assert_eq!(req.link_base(), "http://localhost:8080");
}
