//! A default version per client (docs/reference.md §3.6): with
//! `pin_versions`, a token's first request naming no version pins it to the
//! served maximum of the moment, and its later requests naming none keep
//! that version when the maximum moves, while the middleware, discovery and
//! shared caches (`Vary`) agree.

use std::sync::Arc;

use actix_web::{App, test as actix_test};
use compute::{COMPUTE, RunningServer, Settings, Store, TOKEN_HEADER};
use microversion_actix::Version;
use microversion_actix::test::{header, read_json};
use microversion_actix::version::VersionCap;

fn v(text: &str) -> Version {
    text.parse().expect("a version")
}

/// `GET path` with these headers: the status, the version served and `Vary`.
async fn get<S, B>(app: &S, path: &str, headers: &[(&str, &str)]) -> (u16, Option<String>, String)
where
    S: actix_web::dev::Service<
            actix_http::Request,
            Response = actix_web::dev::ServiceResponse<B>,
            Error = actix_web::Error,
        >,
    B: actix_web::body::MessageBody,
{
    let mut req = actix_test::TestRequest::get().uri(path);
    for header in headers {
        req = req.insert_header(*header);
    }
    let res = actix_test::call_service(app, req.to_request()).await;
    let version = header(&res, "OpenStack-API-Version");
    let vary = header(&res, "Vary").unwrap_or_default();
    (res.status().as_u16(), version, vary)
}

#[actix_web::test]
async fn a_pinned_token_keeps_its_version_when_the_maximum_moves() {
    let cap = VersionCap::new(&COMPUTE.capped_at(v("2.50")).expect("a declared version"));
    let store = Arc::new(Store::with_default_flavors().await);
    let app =
        actix_test::init_service(App::new().configure(compute::routes_with(store, cap.clone(), true))).await;
    let (a, b) = ([(TOKEN_HEADER, "token-a")], [(TOKEN_HEADER, "token-b")]);

    // The first request of token A names no version: A is pinned to 2.50.
    let (status, version, vary) = get(&app, "/v2.1/flavors", &a).await;
    assert_eq!((status, version.as_deref()), (200, Some("compute 2.50")));
    assert!(vary.contains(TOKEN_HEADER), "the answer depends on the token: Vary {vary:?}");

    // The deployer raises the maximum: A keeps 2.50, a new token gets 2.60.
    cap.set(v("2.60")).expect("a declared version");
    assert_eq!(get(&app, "/v2.1/flavors", &a).await.1.as_deref(), Some("compute 2.50"));
    assert_eq!(get(&app, "/v2.1/flavors", &b).await.1.as_deref(), Some("compute 2.60"));
    assert_eq!(get(&app, "/v2.1/flavors", &b).await.1.as_deref(), Some("compute 2.60"));

    // No token: the API's default, as for every client that names nothing.
    assert_eq!(get(&app, "/v2.1/flavors", &[]).await.1.as_deref(), Some("compute 2.1"));
    // A version named in the request wins over the pin, and does not move it.
    let explicit = [(TOKEN_HEADER, "token-a"), ("OpenStack-API-Version", "compute 2.55")];
    assert_eq!(get(&app, "/v2.1/flavors", &explicit).await.1.as_deref(), Some("compute 2.55"));
    let legacy = [(TOKEN_HEADER, "token-a"), ("X-OpenStack-Nova-API-Version", "2.3")];
    assert_eq!(get(&app, "/v2.1/flavors", &legacy).await.1.as_deref(), Some("compute 2.3"));
    assert_eq!(get(&app, "/v2.1/flavors", &a).await.1.as_deref(), Some("compute 2.50"));

    // The maximum goes below the pin: A is served at the maximum, not refused.
    cap.set(v("2.40")).expect("a declared version");
    assert_eq!(get(&app, "/v2.1/flavors", &a).await.1.as_deref(), Some("compute 2.40"));
    // ... and gets its pin back when the maximum is raised again.
    cap.set(v("2.60")).expect("a declared version");
    assert_eq!(get(&app, "/v2.1/flavors", &a).await.1.as_deref(), Some("compute 2.50"));

    // A 404 of the scope carries the pinned version and Vary too.
    let (status, version, vary) = get(&app, "/v2.1/flavors/nope", &a).await;
    assert_eq!((status, version.as_deref()), (404, Some("compute 2.50")));
    assert!(vary.contains(TOKEN_HEADER), "Vary {vary:?}");
}

#[actix_web::test]
async fn discovery_shows_each_client_its_version() {
    let cap = VersionCap::new(&COMPUTE.capped_at(v("2.50")).expect("a declared version"));
    let store = Arc::new(Store::with_default_flavors().await);
    let app =
        actix_test::init_service(App::new().configure(compute::routes_with(store, cap.clone(), true))).await;
    let token = (TOKEN_HEADER, "token-a");
    // Pinned by its first request, at 2.50.
    get(&app, "/v2.1/flavors", &[token]).await;
    cap.set(v("2.60")).expect("a declared version");

    for path in ["/", "/v2.1", "/v2.1/"] {
        let req = actix_test::TestRequest::get().uri(path).insert_header(token).to_request();
        let res = actix_test::call_service(&app, req).await;
        let vary = header(&res, "Vary").unwrap_or_default();
        assert!(vary.contains(TOKEN_HEADER), "{path}: Vary {vary:?}");
        let doc = read_json(res).await;
        let entry = if path == "/" { &doc["versions"][0] } else { &doc["version"] };
        assert_eq!(entry["client_version"], "2.50", "{path}: {doc}");
        assert_eq!(entry["version"], "2.60", "{path}: the maximum is the API's");

        let req = actix_test::TestRequest::get().uri(path).to_request();
        let doc = read_json(actix_test::call_service(&app, req).await).await;
        let entry = if path == "/" { &doc["versions"][0] } else { &doc["version"] };
        assert!(entry.get("client_version").is_none(), "{path} without a token: {doc}");
    }
}

#[actix_web::test]
async fn without_pins_a_token_changes_nothing() {
    let store = Arc::new(Store::with_default_flavors().await);
    let app = actix_test::init_service(App::new().configure(compute::routes(store, None))).await;
    let (_, version, vary) = get(&app, "/v2.1/flavors", &[(TOKEN_HEADER, "token-a")]).await;
    assert_eq!(version.as_deref(), Some("compute 2.1"));
    assert!(!vary.contains(TOKEN_HEADER), "Vary {vary:?}");
}

/// The pin lives in the database: a server restarted with a higher maximum
/// (a new release) serves the token at its old version, over real HTTP.
#[test]
fn a_pin_survives_a_restart_with_a_higher_maximum() {
    let dir = std::env::temp_dir().join(format!("compute-pins-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let database = dir.join("compute.sqlite3").to_string_lossy().into_owned();
    let settings = |cap: &str| Settings {
        cap: Some(v(cap)),
        database: Some(database.clone()),
        pin_versions: true,
        ..Settings::default()
    };
    let served = |url: &str, token: &str| served_version(&format!("{url}/v2.1/flavors"), token);

    let server = RunningServer::start_with(settings("2.50")).expect("the server starts");
    assert_eq!(served(&server.url, "token-a"), "compute 2.50");
    drop(server);

    let server = RunningServer::start_with(settings("2.70")).expect("the server starts again");
    assert_eq!(served(&server.url, "token-a"), "compute 2.50");
    assert_eq!(served(&server.url, "token-b"), "compute 2.70");
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

/// `GET url` with a token over a plain TCP connection: the
/// `OpenStack-API-Version` of the answer.
fn served_version(url: &str, token: &str) -> String {
    use std::io::{Read as _, Write as _};
    let rest = url.strip_prefix("http://").expect("an http URL");
    let (host, path) = rest.split_once('/').expect("a path");
    let mut stream = std::net::TcpStream::connect(host).expect("the server accepts");
    let request = format!(
        "GET /{path} HTTP/1.1\r\nHost: {host}\r\n{TOKEN_HEADER}: {token}\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).expect("the request is sent");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("the answer is read");
    let head = answer.split("\r\n\r\n").next().unwrap_or_default();
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    head.lines()
        .find_map(|line| {
            let (name, value) = line.split_once(':')?;
            name.eq_ignore_ascii_case("openstack-api-version").then(|| value.trim().to_owned())
        })
        .expect("a version header")
}
