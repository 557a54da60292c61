//! A route that reads the version without the layer in front of it
//! negotiates from a declaration registered as an extension, as actix's do
//! from app data, and with neither answers 500 naming the mistake, not a
//! made-up version; with the layer, a cap
//! moved while serving changes the answers at once, and a `Versioned`
//! answer is rendered where the handler answers, so a middleware inside the
//! layer sees its status and body.

use axum::Router;
use axum::routing::get;
use http_body_util::BodyExt as _;
use microversion_axum::{
    Api, ApiVersion, Microversion, Native, Negotiation, Version, VersionNegotiation, version::VersionCap,
};
use tower::ServiceExt as _;

const API: Api = Api::new(
    "compute",
    &[Microversion::new("2.1", "a"), Microversion::new("2.2", "b"), Microversion::new("2.3", "c")],
);

async fn show(Native(version): Native<ApiVersion>) -> String {
    version.version().to_string()
}

async fn get_text(app: &Router, version: Option<&str>) -> (u16, String) {
    let mut req = http::Request::builder().uri("/servers");
    if let Some(version) = version {
        req = req.header("OpenStack-API-Version", format!("compute {version}"));
    }
    let res = app
        .clone()
        .oneshot(req.body(axum::body::Body::empty()).expect("a request"))
        .await
        .expect("infallible");
    let status = res.status().as_u16();
    let body = res.into_body().collect().await.expect("the body").to_bytes();
    (status, String::from_utf8_lossy(&body).into_owned())
}

#[tokio::test]
async fn without_the_layer_the_version_is_a_500_naming_the_mistake() {
    let app = Router::new().route("/servers", get(show));
    let (status, body) = get_text(&app, Some("2.2")).await;
    assert_eq!(status, 500);
    let body: serde_json::Value = serde_json::from_str(&body).expect("a JSON error");
    let detail = body["errors"][0]["detail"].as_str().unwrap_or_default();
    assert!(detail.contains("GET /servers") && detail.contains("no VersionNegotiation is in front of it"));
    assert!(detail.contains(".layer(microversion_axum::VersionNegotiation::new(API))"), "{detail}");
    assert!(detail.contains(".layer(axum::Extension(API))"), "{detail}");
}

/// As on actix with `.app_data(API)`: the declaration registered as an
/// extension negotiates where the version is read, in the API-SIG format,
/// and nothing stamps the answers.
#[tokio::test]
async fn without_the_layer_it_negotiates_from_a_registered_declaration() {
    let app = Router::new().route("/servers", get(show)).layer(axum::Extension(API));
    assert_eq!(get_text(&app, Some("2.2")).await, (200, "2.2".to_owned()));
    assert_eq!(get_text(&app, Some("latest")).await, (200, "2.3".to_owned()));
    assert_eq!(get_text(&app, None).await, (200, "2.1".to_owned()));
    let (status, body) = get_text(&app, Some("2.7")).await;
    assert_eq!(status, 406);
    let body: serde_json::Value = serde_json::from_str(&body).expect("a JSON error");
    assert_eq!(body["errors"][0]["code"], "version-not-supported", "{body}");
    assert_eq!(body["errors"][0]["max_version"], "2.3", "{body}");
    assert_eq!(get_text(&app, Some("2.x")).await.0, 400);
    let req = http::Request::get("/servers").header("OpenStack-API-Version", "compute 2.2");
    let res = app.oneshot(req.body(axum::body::Body::empty()).expect("a request")).await.expect("infallible");
    assert_eq!(res.headers().get("vary"), None, "no layer, no version headers (documented)");
}

/// A capped layer in front of an uncapped registered declaration: the
/// request's version is the layer's.
#[tokio::test]
async fn the_layer_wins_over_a_registered_declaration() {
    let capped = VersionNegotiation::new(
        Negotiation::new(API).capped_at(Version::lit("2.2")).expect("a declared version"),
    );
    let app = Router::new().route("/servers", get(show)).layer(capped).layer(axum::Extension(API));
    assert_eq!(get_text(&app, Some("latest")).await, (200, "2.2".to_owned()));
}

#[tokio::test]
async fn a_cap_moved_while_serving_applies_at_once() {
    let cap = VersionCap::new(&API.capped_at(Version::lit("2.2")).expect("a declared version"));
    let app = Router::new()
        .route("/servers", get(show))
        .layer(VersionNegotiation::new(Negotiation::new(API).with_version_cap(cap.clone())));
    assert_eq!(get_text(&app, Some("latest")).await, (200, "2.2".to_owned()));
    assert_eq!(get_text(&app, Some("2.3")).await.0, 406);
    cap.set(Version::lit("2.3")).expect("a declared version");
    assert_eq!(get_text(&app, Some("latest")).await, (200, "2.3".to_owned()));
    assert_eq!(get_text(&app, Some("2.3")).await, (200, "2.3".to_owned()));
    assert_eq!(get_text(&app, None).await, (200, "2.1".to_owned()));
}

/// The version read twice, with a pause between: each read must be the
/// request's own, whatever other request the thread polled meanwhile.
async fn show_twice(Native(before): Native<ApiVersion>) -> String {
    tokio::task::yield_now().await;
    let after = microversion_axum::version::version_of(&http::Request::new(()).into_parts().0)
        .map_or_else(|e| e.detail().to_owned(), |v| v.version().to_string());
    format!("{} {after}", before.version())
}

/// The layer puts the version in scope for its request alone: two requests
/// polled in turn on one thread each read their own, before and after a
/// pause, and a route outside the layer served next on that thread sees
/// none (the 500 naming the mistake), not the last request's.
#[tokio::test]
async fn the_version_in_scope_is_the_requests_own_and_none_after_it() {
    let app = Router::new().route("/servers", get(show_twice)).layer(VersionNegotiation::new(API));
    let (old, new) = tokio::join!(get_text(&app, Some("2.2")), get_text(&app, Some("2.3")));
    assert_eq!(old, (200, "2.2 2.2".to_owned()));
    assert_eq!(new, (200, "2.3 2.3".to_owned()));
    let outside = Router::new().route("/servers", get(show));
    assert_eq!(get_text(&outside, Some("2.2")).await.0, 500);
}

/// On a runtime that moves tasks between threads, each of many requests
/// at three versions, spawned at once, reads its own version after every
/// pause, whichever thread polls it then.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_request_reads_its_own_version_across_threads() {
    let app = Router::new().route("/servers", get(show_twice)).layer(VersionNegotiation::new(API));
    let requests: Vec<_> = (0..60)
        .map(|i| {
            let (app, version) = (app.clone(), ["2.1", "2.2", "2.3"][i % 3]);
            tokio::spawn(async move { (version, get_text(&app, Some(version)).await) })
        })
        .collect();
    for request in requests {
        let (version, answer) = request.await.expect("the request's task");
        assert_eq!(answer, (200, format!("{version} {version}")));
    }
}

/// A service inside the layer may read the version when it is called, not
/// only when its future is polled, as a controller's route does.
#[tokio::test]
async fn a_service_inside_the_layer_reads_the_version_when_called() {
    let read_when_called = tower::service_fn(|req: axum::extract::Request| {
        let version = microversion_axum::version::version_of(&req.into_parts().0);
        let text = version.map_or_else(|e| e.detail().to_owned(), |v| v.version().to_string());
        std::future::ready(Ok::<_, std::convert::Infallible>(text))
    });
    let app = Router::new().route_service("/servers", read_when_called).layer(VersionNegotiation::new(API));
    assert_eq!(get_text(&app, Some("2.3")).await, (200, "2.3".to_owned()));
    assert_eq!(get_text(&app, None).await, (200, "2.1".to_owned()));
}

/// A server as each version shows it.
#[derive(microversion_axum::VersionedModel)]
struct Server {
    id: u32,
    #[versioned(since = "2.2")]
    host: Option<String>,
}

async fn create() -> Native<microversion_axum::Versioned<Server>> {
    Native(microversion_axum::Versioned::created(Server { id: 7, host: Some("compute-1".into()) }))
}

/// What a middleware inside the layer sees of the answer, as headers.
async fn seen(res: axum::response::Response) -> axum::response::Response {
    let (mut parts, body) = res.into_parts();
    let bytes = body.collect().await.expect("the body").to_bytes();
    parts.headers.insert("x-seen-status", parts.status.as_str().parse().expect("a header value"));
    parts.headers.insert("x-seen-body", String::from_utf8_lossy(&bytes).parse().expect("a header value"));
    axum::response::Response::from_parts(parts, axum::body::Body::from(bytes))
}

#[tokio::test]
async fn a_middleware_inside_the_layer_sees_the_versioned_answer() {
    let app = Router::new()
        .route("/servers", axum::routing::post(create))
        .layer(axum::middleware::map_response(seen))
        .layer(VersionNegotiation::new(API));
    for (version, body) in [("2.1", r#"{"id":7}"#), ("2.2", r#"{"id":7,"host":"compute-1"}"#)] {
        let req =
            http::Request::post("/servers").header("OpenStack-API-Version", format!("compute {version}"));
        let res = app
            .clone()
            .oneshot(req.body(axum::body::Body::empty()).expect("a request"))
            .await
            .expect("infallible");
        assert_eq!(res.status(), 201, "{version}");
        let header = |name: &str| res.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
        assert_eq!(header("x-seen-status").as_deref(), Some("201"), "{version}: the status inside the layer");
        assert_eq!(header("x-seen-body").as_deref(), Some(body), "{version}: the body inside the layer");
        let answered = res.into_body().collect().await.expect("the body").to_bytes();
        assert_eq!(String::from_utf8_lossy(&answered), body, "{version}");
    }
}

/// A request-id middleware's header, as OpenStack's sets it.
async fn with_request_id(mut res: axum::response::Response) -> axum::response::Response {
    res.headers_mut().insert("x-openstack-request-id", http::HeaderValue::from_static("req-42"));
    res
}

async fn refuse() -> Result<String, microversion_axum::Error> {
    Err(microversion_axum::ApiError::bad_request("no"))?
}

async fn refuse_with_own_id() -> Result<String, microversion_axum::Error> {
    Err(microversion_axum::ApiError::bad_request("no").with_request_id("req-own"))?
}

/// As on actix: an error's body repeats the request id of a middleware
/// inside the layer (its header is on the answer the layer renders), not of
/// one outside it (not set yet), and an id the error carries is kept.
#[tokio::test]
async fn request_ids_are_repeated_in_the_error_body() {
    async fn request_id(app: Router, path: &str) -> (u16, Option<String>) {
        let req = http::Request::get(path).body(axum::body::Body::empty()).expect("a request");
        let res = app.oneshot(req).await.expect("infallible");
        let status = res.status().as_u16();
        let body: serde_json::Value =
            serde_json::from_slice(&res.into_body().collect().await.expect("the body").to_bytes())
                .expect("a JSON body");
        (status, body["errors"][0]["request_id"].as_str().map(str::to_owned))
    }
    let routes = || Router::new().route("/x", get(refuse)).route("/own", get(refuse_with_own_id));
    let inside =
        routes().layer(axum::middleware::map_response(with_request_id)).layer(VersionNegotiation::new(API));
    assert_eq!(request_id(inside.clone(), "/x").await, (400, Some("req-42".into())));
    assert_eq!(request_id(inside, "/own").await, (400, Some("req-own".into())));
    let outside =
        routes().layer(VersionNegotiation::new(API)).layer(axum::middleware::map_response(with_request_id));
    assert_eq!(request_id(outside, "/x").await, (400, None));
}
