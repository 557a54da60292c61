//! The axum layer answers exactly as the actix middleware does: the same
//! declarations served by both, and for every request of a matrix (header
//! sets a client sends, mistakes, a deprecated version, a handler with its
//! own `Vary`, a cap, Nova's faults, discovery) the same status, the same
//! contract headers and the same JSON body.

use actix_web::test as actix_test;
use axum::Router;
use axum::routing::get;
use http_body_util::BodyExt as _;
use microversion_axum::serve::App;
use microversion_core::portable::{ApiVersion, Path, Query};
use microversion_core::{Api, Deprecation, Microversion, Version, error::NovaFaults};
use serde_json::{Value, json};
use tower::ServiceExt as _;

const API: Api = Api::new(
    "compute",
    &[
        Microversion::new("2.1", "Initial version."),
        Microversion::new("2.2", "Keypairs gain a type."),
        Microversion::new("2.3", "Servers show their host."),
        Microversion::new("2.4", "Servers can be locked."),
        Microversion::new("2.5", "Servers show their locked reason."),
    ],
)
.with_legacy_headers(&["X-OpenStack-Nova-API-Version"])
.with_deprecation(
    Deprecation::versions("2.1", "2.2")
        .since("2026-01-01")
        .sunset("2030-07-01")
        .link("https://docs.example/compute/migrate"),
);

/// The same history, its first version past its sunset: it can be retired.
const RETIRING: Api = Api::new("compute", API.history())
    .with_legacy_headers(&["X-OpenStack-Nova-API-Version"])
    .with_deprecation(Deprecation::versions("2.1", "2.1").since("2024-01-01").sunset("2025-01-01"));

/// The headers of the contract, compared between the two.
const CONTRACT_HEADERS: [&str; 12] = [
    "x-compute-minimum-version",
    "x-compute-maximum-version",
    "openstack-api-version",
    "x-openstack-nova-api-version",
    "vary",
    "openstack-api-minimum-version",
    "openstack-api-maximum-version",
    "cache-control",
    "deprecation",
    "sunset",
    "link",
    "content-type",
];

const HEADER_SETS: [&[(&str, &str)]; 13] = [
    &[],
    &[("OpenStack-API-Version", "compute 2.3")],
    &[("OpenStack-API-Version", "compute 2.1")],
    &[("OpenStack-API-Version", "compute latest")],
    &[("OpenStack-API-Version", "volume 3.1, compute 2.5")],
    &[("OpenStack-API-Version", "volume 3.1")],
    &[("X-OpenStack-Nova-API-Version", "2.4")],
    &[("X-OpenStack-Nova-API-Version", "")],
    &[("OpenStack-API-Version", "compute 2.x")],
    &[("OpenStack-API-Version", "compute 2.9")],
    &[("OpenStack-API-Version", "compute 1.0")],
    &[("OpenStack-API-Version", "compute 2.2"), ("X-OpenStack-Nova-API-Version", "2.4")],
    &[("OpenStack-API-Version", "compute 99999999999.1")],
];

/// One answer, as compared: status, the contract's headers, the body.
type Answer = (u16, Vec<(String, Option<String>)>, Value);

fn contract_headers<'a>(get_all: impl Fn(&str) -> Vec<&'a [u8]>) -> Vec<(String, Option<String>)> {
    CONTRACT_HEADERS
        .iter()
        .map(|name| {
            let values: Vec<String> =
                get_all(name).into_iter().map(|v| String::from_utf8_lossy(v).into_owned()).collect();
            (name.to_string(), (!values.is_empty()).then(|| values.join(", ")))
        })
        .collect()
}

/// A JSON body, or the text of a page (whose content type is compared too).
fn body_json(bytes: &[u8]) -> Value {
    if bytes.is_empty() {
        return Value::Null;
    }
    serde_json::from_slice(bytes).unwrap_or_else(|_| String::from_utf8_lossy(bytes).into_owned().into())
}

async fn actix_answer<S, B>(app: &S, method: &str, path: &str, headers: &[(&str, &str)]) -> Answer
where
    S: actix_web::dev::Service<
            actix_http::Request,
            Response = actix_web::dev::ServiceResponse<B>,
            Error = actix_web::Error,
        >,
    B: actix_web::body::MessageBody,
{
    let mut req = actix_test::TestRequest::default()
        .method(method.parse().expect("a method"))
        .uri(path)
        .insert_header(("Host", "cloud.example"));
    for header in headers {
        req = req.append_header(*header);
    }
    let res = actix_test::call_service(app, req.to_request()).await;
    let status = res.status().as_u16();
    let named = contract_headers(|name| res.headers().get_all(name).map(|v| v.as_bytes()).collect());
    let body = actix_test::read_body(res).await;
    (status, named, body_json(&body))
}

async fn axum_answer(app: &impl App, method: &str, path: &str, headers: &[(&str, &str)]) -> Answer {
    let mut req = http::Request::builder().method(method).uri(path).header("Host", "cloud.example");
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    let res = app
        .clone()
        .oneshot(req.body(axum::body::Body::empty()).expect("a request"))
        .await
        .expect("infallible");
    let status = res.status().as_u16();
    let named = contract_headers(|name| res.headers().get_all(name).iter().map(|v| v.as_bytes()).collect());
    let body = res.into_body().collect().await.expect("the body").to_bytes();
    (status, named, body_json(&body))
}

/// The link a handler's error carries.
fn help() -> microversion_core::discovery::Link {
    microversion_core::discovery::Link {
        href: "https://docs.example/compute/locks".into(),
        rel: "help".into(),
        media_type: Some("text/html".into()),
    }
}

/// How both frameworks' services are set up, beside the declaration.
#[derive(Clone, Copy, Debug, Default)]
struct Setup {
    /// Nova's faults rather than API-SIG errors.
    nova: bool,
    /// The versions below this one retired.
    retire_below: Option<&'static str>,
    /// The served range in headers of the service's own names.
    renamed_range: bool,
}

/// Both frameworks' services for `api` as `setup` says, with a JSON 404
/// for any other path.
async fn compare(api: Api, setup: Setup) {
    let Setup { nova, retire_below, renamed_range } = setup;
    let range_names = || {
        let name = http::HeaderName::from_static;
        (name("x-compute-minimum-version"), name("x-compute-maximum-version"))
    };
    let served = match retire_below {
        Some(below) => api.retire_below(Version::lit(below)).expect("a version to retire below"),
        None => api,
    };
    use actix_web::{App, HttpResponse, web};

    async fn actix_show(
        microversion_actix::Native(version): microversion_actix::Native<ApiVersion>,
    ) -> HttpResponse {
        HttpResponse::Ok().json(json!({"version": version.version().to_string()}))
    }
    async fn actix_varying(
        microversion_actix::Native(version): microversion_actix::Native<ApiVersion>,
    ) -> HttpResponse {
        HttpResponse::Ok()
            .insert_header(("Vary", "Accept-Encoding"))
            .json(json!({"version": version.version().to_string()}))
    }
    async fn actix_locked() -> Result<HttpResponse, microversion_actix::Error> {
        Err(microversion_actix::ApiError::conflict("Server is locked.").with_link(help()))?
    }
    let mut middleware = microversion_actix::Negotiation::new(api);
    let mut discovery = microversion_actix::DiscoverySettings::new(&[served]);
    if nova {
        middleware = middleware.with_error_format(NovaFaults::default());
        discovery = discovery.with_error_format(NovaFaults::default());
    }
    if let Some(below) = retire_below {
        middleware = middleware.retire_below(Version::lit(below)).expect("a version to retire below");
    }
    if renamed_range {
        let (min, max) = range_names();
        let actix_name = |name: http::HeaderName| {
            actix_web::http::header::HeaderName::try_from(name.as_str()).expect("a header name")
        };
        middleware = middleware.with_min_max_headers(actix_name(min), actix_name(max));
    }
    let middleware = microversion_actix::VersionNegotiation::new(middleware);
    let discovery = microversion_actix::Discovery::new(discovery);
    let fallback = middleware.default_service();
    let actix = actix_test::init_service(
        App::new().default_service(fallback).service(discovery).service(
            web::scope("/v2.1")
                .wrap(middleware)
                .route("/servers", web::get().to(actix_show))
                .route("/servers/varying", web::get().to(actix_varying))
                .route("/servers/locked", web::get().to(actix_locked)),
        ),
    )
    .await;

    let mut layer = microversion_axum::Negotiation::new(api);
    let mut axum_discovery = microversion_axum::DiscoverySettings::new(&[served]);
    if nova {
        layer = layer.with_error_format(NovaFaults::default());
        axum_discovery = axum_discovery.with_error_format(NovaFaults::default());
    }
    if let Some(below) = retire_below {
        layer = layer.retire_below(Version::lit(below)).expect("a version to retire below");
    }
    if renamed_range {
        let (min, max) = range_names();
        layer = layer.with_min_max_headers(min, max);
    }
    let layer = microversion_axum::VersionNegotiation::new(layer);
    let axum_discovery = microversion_axum::Discovery::new(axum_discovery);
    let fallback = layer.default_service();
    let routes = Router::new()
        .route(
            "/v2.1/servers",
            get(|microversion_axum::Native(version): microversion_axum::Native<ApiVersion>| async move {
                axum::Json(json!({"version": version.version().to_string()}))
            }),
        )
        .route(
            "/v2.1/servers/varying",
            get(|microversion_axum::Native(version): microversion_axum::Native<ApiVersion>| async move {
                ([("Vary", "Accept-Encoding")], axum::Json(json!({"version": version.version().to_string()})))
            }),
        )
        .route(
            "/v2.1/servers/locked",
            get(|| async {
                Err::<(), _>(microversion_axum::Error(
                    microversion_axum::ApiError::conflict("Server is locked.").with_link(help()),
                ))
            }),
        );
    let axum =
        Router::from(axum_discovery).merge(routes.clone().layer(layer.clone())).fallback_service(fallback);
    // Discovery, outside the negotiation, and any other path.
    let outside = [
        ("GET", "/"),
        ("GET", "/v2.1"),
        ("GET", "/v2.1/"),
        ("GET", "/v3"),
        ("POST", "/"),
        ("GET", "/nowhere"),
    ];
    for (method, path) in outside {
        let expected = actix_answer(&actix, method, path, &[]).await;
        let got = axum_answer(&axum, method, path, &[]).await;
        assert_eq!(got, expected, "{method} {path} ({setup:?})");
    }
    // The API's routes answer alike with the layer in the router and with
    // the negotiation around an app that is only the API. A handler's error
    // with a link: its code qualified by the service, its links in the
    // document, on both (one `ApiError` declaration).
    let mut expected = Vec::new();
    for path in ["/v2.1/servers", "/v2.1/servers/varying", "/v2.1/servers/locked"] {
        for headers in HEADER_SETS {
            expected.push((path, headers, actix_answer(&actix, "GET", path, headers).await));
        }
    }
    // Around the router, no fallback is needed for a path no route takes.
    let around = layer.around(routes);
    compare_api(&expected, &axum, setup, api, "in the router").await;
    compare_api(&expected, &around, setup, api, "around the router").await;
    // A path of the API that no route takes is negotiated around the router,
    // as in actix's scope, its empty 404 put in the API's format (in the
    // router, only under a fallback inside the layer, as the compute example
    // has).
    for headers in HEADER_SETS {
        let expected = actix_answer(&actix, "GET", "/v2.1/nowhere", headers).await;
        let got = axum_answer(&around, "GET", "/v2.1/nowhere", headers).await;
        assert_eq!(got, expected, "GET /v2.1/nowhere with {headers:?} ({setup:?})");
    }
}

/// A request of the API (its path and headers) and actix's answer to it.
type Expected<'a> = (&'a str, &'a [(&'a str, &'a str)], Answer);

/// What `axum` answers on the API's paths, its negotiation installed as
/// `install` says, compared with actix's answers to the same requests
/// (`expected`).
async fn compare_api(expected: &[Expected<'_>], axum: &impl App, setup: Setup, api: Api, install: &str) {
    let Setup { nova, retire_below, renamed_range } = setup;
    for (path, headers, expected) in expected {
        let got = axum_answer(axum, "GET", path, headers).await;
        let cap = api.max();
        assert_eq!(&got, expected, "GET {path} with {headers:?} ({setup:?}, cap {cap}, {install})");
    }
    if let Some(below) = retire_below {
        let retired = [("OpenStack-API-Version", "compute 2.1")];
        let (status, headers, _) = axum_answer(axum, "GET", "/v2.1/servers", &retired).await;
        assert_eq!(status, 406, "{headers:?}");
        let minimum =
            if renamed_range { "x-compute-minimum-version" } else { "openstack-api-minimum-version" };
        assert!(headers.contains(&(minimum.to_owned(), Some(below.to_owned()))), "{headers:?}");
    }
    // Another method on a route inside the layer: axum's router answers 405
    // with `Allow` and no body (actix's scope hands it to the app's default
    // service, a 404); the layer puts it in the API's format, as the actix
    // middleware does an empty 405, with its version headers.
    let req = http::Request::delete("/v2.1/servers").header("Host", "cloud.example");
    let res = axum.clone().oneshot(req.body(axum::body::Body::empty()).unwrap()).await.unwrap();
    assert_eq!(res.status(), 405);
    assert_eq!(res.headers().get("allow").map(|v| v.to_str().unwrap()), Some("GET,HEAD"));
    assert!(res.headers().contains_key("openstack-api-version"));
    let body: Value = serde_json::from_slice(&res.into_body().collect().await.unwrap().to_bytes()).unwrap();
    let detail = if nova { &body["badMethod"]["message"] } else { &body["errors"][0]["detail"] };
    assert_eq!(detail, "The method is not allowed for this resource.", "{body}");
    if !nova {
        let (status, _, body) = axum_answer(axum, "GET", "/v2.1/servers/locked", &[]).await;
        assert_eq!(status, 409);
        assert_eq!(body["errors"][0]["code"], "compute.conflict", "{body}");
        assert_eq!(body["errors"][0]["links"][0]["href"], "https://docs.example/compute/locks", "{body}");
    }
}

#[actix_web::test]
async fn the_axum_layer_answers_as_the_actix_middleware() {
    compare(API, Setup::default()).await;
}

#[actix_web::test]
async fn with_nova_faults_and_a_cap_too() {
    let capped = API.capped_at(Version::lit("2.4")).expect("a declared version");
    compare(capped, Setup { nova: true, ..Setup::default() }).await;
}

#[actix_web::test]
async fn with_retired_versions_and_the_range_under_other_names() {
    let setup = Setup { retire_below: Some("2.2"), renamed_range: true, ..Setup::default() };
    compare(RETIRING, setup).await;
    compare(RETIRING, Setup { nova: true, ..setup }).await;
}

/// `params::Path` and `params::Query` read the same values on both, and
/// refuse alike: a parameter that is not its type is a 404 `not-found`, a
/// query string that is not its type a 400 `bad-request`, in the API's
/// format with the version headers, in the same words.
#[actix_web::test]
async fn path_and_query_read_and_refuse_alike() {
    use actix_web::{App, web};

    #[derive(serde::Deserialize)]
    struct Page {
        limit: Option<u32>,
    }
    async fn actix_show(
        microversion_actix::Native(id): microversion_actix::Native<Path<u32>>,
        microversion_actix::Native(page): microversion_actix::Native<Query<Page>>,
    ) -> String {
        format!("{id} {:?}", page.limit)
    }
    let actix = actix_test::init_service(
        App::new().service(
            web::scope("/v2.1")
                .wrap(microversion_actix::VersionNegotiation::new(API))
                .route("/servers/{id}", web::get().to(actix_show)),
        ),
    )
    .await;
    let axum = Router::new()
        .route(
            "/v2.1/servers/{id}",
            get(
                |microversion_axum::Native(id): microversion_axum::Native<Path<u32>>,
                 microversion_axum::Native(page): microversion_axum::Native<Query<Page>>| async move {
                    format!("{id} {:?}", page.limit)
                },
            ),
        )
        .layer(microversion_axum::VersionNegotiation::new(API));

    for (uri, status, code) in [
        ("/v2.1/servers/abc", 404, "compute.not-found"),
        ("/v2.1/servers/7?limit=many", 400, "compute.bad-request"),
        ("/v2.1/servers/4294967296", 404, "compute.not-found"),
    ] {
        let (actix_status, actix_headers, actix_body) = actix_answer(&actix, "GET", uri, &[]).await;
        let (axum_status, axum_headers, axum_body) = axum_answer(&axum, "GET", uri, &[]).await;
        assert_eq!((actix_status, axum_status), (status, status), "{uri}: {actix_body} {axum_body}");
        assert_eq!(actix_headers, axum_headers, "{uri}");
        for body in [&actix_body, &axum_body] {
            assert_eq!(body["errors"][0]["code"], code, "{uri}: {body}");
        }
    }
    for framework in ["actix", "axum"] {
        let res = match framework {
            "actix" => {
                let req = actix_test::TestRequest::get().uri("/v2.1/servers/7?limit=3").to_request();
                actix_test::read_body(actix_test::call_service(&actix, req).await).await.to_vec()
            }
            _ => {
                let req =
                    http::Request::get("/v2.1/servers/7?limit=3").body(axum::body::Body::empty()).unwrap();
                let res = axum.clone().oneshot(req).await.expect("infallible");
                res.into_body().collect().await.expect("the body").to_bytes().to_vec()
            }
        };
        assert_eq!(String::from_utf8_lossy(&res), "7 Some(3)", "{framework}");
    }
}

/// `GET /v2.1/servers/locked`, a handler's 409, on actix and on axum, each
/// behind its negotiation with errors in `format`'s format.
async fn locked_on_both<F: microversion_core::error::ErrorFormat>(
    format: impl Fn() -> F,
) -> (
    impl actix_web::dev::Service<
        actix_http::Request,
        Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>,
        Error = actix_web::Error,
    >,
    Router,
) {
    use actix_web::{App, web};

    async fn actix_locked() -> Result<String, microversion_actix::Error> {
        Err(microversion_actix::ApiError::conflict("Locked."))?
    }
    let actix = actix_test::init_service(
        App::new().service(
            web::scope("/v2.1")
                .wrap(microversion_actix::VersionNegotiation::new(
                    microversion_actix::Negotiation::new(API).with_error_format(format()),
                ))
                .route("/servers/locked", web::get().to(actix_locked)),
        ),
    )
    .await;
    let axum = Router::new()
        .route(
            "/v2.1/servers/locked",
            get(|| async {
                Err::<String, _>(microversion_axum::Error(microversion_axum::ApiError::conflict("Locked.")))
            }),
        )
        .layer(microversion_axum::VersionNegotiation::new(
            microversion_axum::Negotiation::new(API).with_error_format(format()),
        ));
    (actix, axum)
}

/// A format that reads the version an error's request was served at (as
/// Placement's names a `code` from 1.23) sees the same on both: the
/// negotiated version for a handler's error and the router's 404, none for
/// a refused version.
#[actix_web::test]
async fn an_error_format_reads_the_served_version_alike() {
    use microversion_core::error::{ErrorFormat, Problem};

    struct ByVersion;
    impl ErrorFormat for ByVersion {
        fn render(&self, problem: &Problem<'_>, _: Option<&str>) -> Value {
            json!({"status": problem.status, "at": problem.version.map(|v| v.to_string())})
        }
    }
    let (actix, axum) = locked_on_both(|| ByVersion).await;
    for (path, version, expected) in [
        ("/v2.1/servers/locked", "2.2", json!({"status": 409, "at": "2.2"})),
        ("/v2.1/servers/locked", "2.5", json!({"status": 409, "at": "2.5"})),
        ("/v2.1/nowhere", "2.3", json!({"status": 404, "at": "2.3"})),
        ("/v2.1/servers/locked", "2.99", json!({"status": 406, "at": null})),
        ("/v2.1/servers/locked", "two", json!({"status": 400, "at": null})),
    ] {
        let version = format!("compute {version}");
        let headers = [("OpenStack-API-Version", version.as_str())];
        let (_, _, actix_body) = actix_answer(&actix, "GET", path, &headers).await;
        let (_, _, axum_body) = axum_answer(&axum, "GET", path, &headers).await;
        assert_eq!((&actix_body, &axum_body), (&expected, &expected), "{path} at {version}");
    }
}

/// An error format that reads the request it answers (its method and
/// `Accept`) and answers an HTML page to a client asking for one, as
/// Placement's webob pages: the same document or page on both, for a
/// handler's error, the router's 404 and 405, and a refused version.
#[actix_web::test]
async fn an_error_format_reads_the_request_and_answers_its_pages_alike() {
    use microversion_core::error::{ErrorFormat, ErrorPage, Problem};

    struct Pages;
    impl ErrorFormat for Pages {
        fn reads_request(&self) -> bool {
            true
        }
        fn render(&self, problem: &Problem<'_>, _: Option<&str>) -> Value {
            let request = problem.request.expect("the request, for a format that reads it");
            json!({"status": problem.status, "method": request.method, "accept": request.accept})
        }
        fn page(&self, problem: &Problem<'_>, _: Option<&str>) -> Option<ErrorPage> {
            let request = problem.request?;
            request.accept.as_deref().filter(|accept| accept.contains("text/html"))?;
            let body = format!("<h1>{} {}</h1><p>{}</p>", problem.status, problem.title, request.method);
            Some(ErrorPage { content_type: "text/html; charset=UTF-8", body })
        }
    }
    let (actix, axum) = locked_on_both(|| Pages).await;
    let page = |status: &str, method: &str| json!(format!("<h1>{status}</h1><p>{method}</p>"));
    for (method, path, version, accept, expected, content_type) in [
        (
            "GET",
            "/v2.1/servers/locked",
            "2.2",
            "text/html",
            page("409 Conflict", "GET"),
            "text/html; charset=UTF-8",
        ),
        (
            "GET",
            "/v2.1/servers/locked",
            "2.2",
            "application/json",
            json!({"status": 409, "method": "GET", "accept": "application/json"}),
            "application/json",
        ),
        (
            "GET",
            "/v2.1/nowhere",
            "2.3",
            "text/html, */*",
            page("404 Not Found", "GET"),
            "text/html; charset=UTF-8",
        ),
        (
            "GET",
            "/v2.1/servers/locked",
            "2.99",
            "text/html",
            page("406 API version not supported", "GET"),
            "text/html; charset=UTF-8",
        ),
        (
            "DELETE",
            "/v2.1/servers/locked",
            "two",
            "application/xml",
            json!({"status": 400, "method": "DELETE", "accept": "application/xml"}),
            "application/json",
        ),
    ] {
        let headers = [("OpenStack-API-Version", &*format!("compute {version}")), ("Accept", accept)];
        let actix = actix_answer(&actix, method, path, &headers).await;
        let axum = axum_answer(&axum, method, path, &headers).await;
        assert_eq!(actix, axum, "{method} {path} at {version}, accepting {accept}");
        let named = |name: &str| actix.1.iter().find(|(n, _)| n == name).and_then(|(_, v)| v.clone());
        assert_eq!(
            (&actix.2, named("content-type").as_deref()),
            (&expected, Some(content_type)),
            "{method} {path}"
        );
    }
}

/// The negotiation of [`API`] on each facade, with `declare` applied to
/// each when `declared`.
fn negotiations(
    declared: bool,
    declare_actix: fn(microversion_actix::Negotiation) -> microversion_actix::Negotiation,
    declare_axum: fn(microversion_axum::Negotiation) -> microversion_axum::Negotiation,
) -> (microversion_actix::Negotiation, microversion_axum::Negotiation) {
    let (actix, axum) = (microversion_actix::Negotiation::new(API), microversion_axum::Negotiation::new(API));
    if declared { (declare_actix(actix), declare_axum(axum)) } else { (actix, axum) }
}

/// `Negotiation::with_absolute_locations`: a success's `Location` path is
/// made absolute under the request's link base (its `Host`), alike on both;
/// an error's stays, and so does every `Location` without the setting.
#[actix_web::test]
async fn a_location_is_made_absolute_alike_when_declared() {
    use actix_web::{App, HttpResponse, web};

    async fn actix_created() -> HttpResponse {
        HttpResponse::Created().insert_header(("Location", "/v2.1/servers/1")).finish()
    }
    async fn actix_refused() -> HttpResponse {
        HttpResponse::Conflict().insert_header(("Location", "/v2.1/servers/1")).json(json!({"conflict": 1}))
    }
    fn axum_created() -> axum::response::Response {
        axum::response::IntoResponse::into_response((
            http::StatusCode::CREATED,
            [("location", "/v2.1/servers/1")],
        ))
    }
    fn axum_refused() -> axum::response::Response {
        axum::response::IntoResponse::into_response((
            http::StatusCode::CONFLICT,
            [("location", "/v2.1/servers/1")],
            axum::Json(json!({"conflict": 1})),
        ))
    }
    for absolute in [true, false] {
        let (actix_settings, axum_settings) = negotiations(
            absolute,
            microversion_actix::Negotiation::with_absolute_locations,
            microversion_axum::Negotiation::with_absolute_locations,
        );
        let actix = actix_test::init_service(
            App::new().service(
                web::scope("/v2.1")
                    .wrap(microversion_actix::VersionNegotiation::new(actix_settings))
                    .route("/servers", web::post().to(actix_created))
                    .route("/servers/refused", web::post().to(actix_refused)),
            ),
        )
        .await;
        let axum = Router::new()
            .route("/v2.1/servers", axum::routing::post(|| async { axum_created() }))
            .route("/v2.1/servers/refused", axum::routing::post(|| async { axum_refused() }))
            .layer(microversion_axum::VersionNegotiation::new(axum_settings));
        for (path, status, expected) in [
            (
                "/v2.1/servers",
                201,
                if absolute { "http://cloud.example/v2.1/servers/1" } else { "/v2.1/servers/1" },
            ),
            ("/v2.1/servers/refused", 409, "/v2.1/servers/1"),
        ] {
            let req = actix_test::TestRequest::post().uri(path).insert_header(("Host", "cloud.example"));
            let res = actix_test::call_service(&actix, req.to_request()).await;
            let actix_location = res.headers().get("location").map(|v| v.to_str().expect("text").to_owned());
            assert_eq!(
                (res.status().as_u16(), actix_location.as_deref()),
                (status, Some(expected)),
                "actix {path}"
            );
            let req =
                http::Request::post(path).header("Host", "cloud.example").body(axum::body::Body::empty());
            let res = axum.clone().oneshot(req.expect("a request")).await.expect("infallible");
            let axum_location = res.headers().get("location").map(|v| v.to_str().expect("text").to_owned());
            assert_eq!(
                (res.status().as_u16(), axum_location.as_deref()),
                (status, Some(expected)),
                "axum {path}"
            );
        }
    }
}

/// `Negotiation::with_lowercase_vary` and `without_no_store_on_refusals`
/// (Placement's bytes): the same answers on both facades, and without them
/// the contract's own.
#[actix_web::test]
async fn an_existing_services_bytes_are_declared_alike() {
    use actix_web::{App, HttpResponse, web};

    for declared in [true, false] {
        let (actix_settings, axum_settings) = negotiations(
            declared,
            |n| n.with_lowercase_vary().without_no_store_on_refusals(),
            |n| n.with_lowercase_vary().without_no_store_on_refusals(),
        );
        let actix = actix_test::init_service(
            App::new().service(
                web::scope("/v2.1")
                    .wrap(microversion_actix::VersionNegotiation::new(actix_settings))
                    .route("/servers", web::get().to(HttpResponse::Ok)),
            ),
        )
        .await;
        let axum = Router::new()
            .route("/v2.1/servers", get(|| async { http::StatusCode::OK }))
            .layer(microversion_axum::VersionNegotiation::new(axum_settings));
        let vary = if declared {
            "openstack-api-version, x-openstack-nova-api-version"
        } else {
            "OpenStack-API-Version, X-OpenStack-Nova-API-Version"
        };
        for (version, status, cache_control) in
            [("compute 2.3", 200, None), ("compute 2.9", 406, (!declared).then_some("no-store"))]
        {
            let headers = [("OpenStack-API-Version", version)];
            let (actix_status, actix_headers, _) =
                actix_answer(&actix, "GET", "/v2.1/servers", &headers).await;
            let (axum_status, axum_headers, _) = axum_answer(&axum, "GET", "/v2.1/servers", &headers).await;
            assert_eq!(
                (actix_status, &actix_headers),
                (axum_status, &axum_headers),
                "{version} ({declared})"
            );
            let named =
                |name: &str| actix_headers.iter().find(|(n, _)| n == name).and_then(|(_, v)| v.as_deref());
            assert_eq!(actix_status, status, "{version}");
            assert_eq!(named("vary"), Some(vary), "{version} ({declared})");
            assert_eq!(named("cache-control"), cache_control, "{version} ({declared})");
        }
    }
}

/// Both facades take a contract header name by `HeaderName::from_static`
/// after the core's check, without a copy: the check takes exactly the
/// names `http` takes as they are (a token in lower case), so that no name
/// can make `from_static` panic and none it takes is refused.
#[test]
fn a_static_header_name_is_checked_as_http_checks_it() {
    use microversion_core::header::HeaderWire;
    let mut names: Vec<String> = (0u8..=255).map(|b| format!("x-{}-y", char::from(b))).collect();
    names.extend(["", "a", "A", "x-OpenStack", "allow", "x-ünï", "x y", "x:y"].map(String::from));
    for name in names {
        let http_takes =
            http::HeaderName::try_from(name.as_str()).is_ok_and(|parsed| parsed.as_str() == name);
        let leaked: &'static str = Box::leak(name.clone().into_boxed_str());
        assert_eq!(
            microversion_axum::header::AxumHeaders::name(leaked).is_some(),
            http_takes,
            "axum: {name:?}"
        );
        assert_eq!(
            microversion_actix::header::ActixHeaders::name(leaked).is_some(),
            http_takes,
            "actix: {name:?}"
        );
    }
}
