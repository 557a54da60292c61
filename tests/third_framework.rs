//! A third HTTP stack, from the core's public API alone
//! (docs/21-writing-a-facade.md): a facade for plain hyper 1 in
//! `third_framework/facade.rs`, which no crate of the project ships,
//! serves the controller of the same-bytes tests over real HTTP on
//! loopback, and answers every request byte for byte as actix-web and axum
//! do: its status, version headers, content type, `Allow` and body.

#[path = "third_framework/facade.rs"]
mod facade;
#[path = "portable/servers.rs"]
mod servers;

use http_body_util::BodyExt as _;
use microversion_axum::test as on_axum;
use microversion_core::{exchange::Negotiation, header::HttpWire};
use microversion_tests::API;
use serde_json::json;
use servers::{
    Answer, CASES, Case, Front, Servers, on_actix, on_actix_behind, on_axum, on_axum_behind, text,
};

/// A hyper server on 127.0.0.1 serving [`Servers`], on this thread's
/// `LocalSet` (stopped with it, at the end of the test); its address.
async fn start(served: facade::Served<Servers>) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port on loopback");
    let address = listener.local_addr().expect("the listener's address");
    tokio::task::spawn_local(facade::serve(served, listener));
    address
}

/// The server's answer to one request, over a connection of its own.
async fn on_hyper(address: std::net::SocketAddr, case: &Case) -> Answer {
    on_hyper_accepting(address, case, None).await
}

/// [`on_hyper`], the request naming `accept` in its `Accept` when given.
async fn on_hyper_accepting(address: std::net::SocketAddr, case: &Case, accept: Option<&str>) -> Answer {
    let (method, uri, version, body) = case;
    let mut request =
        on_axum::versioned_request(&API, version).method(*method).uri(*uri).header("Host", "cloud.example");
    if let Some(accept) = accept {
        request = request.header("Accept", accept);
    }
    if body.is_some() {
        request = request.header("Content-Type", "application/json");
    }
    let body = http_body_util::Full::new(bytes::Bytes::from(body.unwrap_or_default()));
    let stream = tokio::net::TcpStream::connect(address).await.expect("a connection to the server");
    let (mut sender, connection) =
        hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
            .await
            .expect("a handshake");
    tokio::task::spawn_local(connection);
    let response = sender.send_request(request.body(body).expect("a request")).await.expect("an answer");
    let header = |name: &str| facade::header_text(response.headers(), leak(name));
    let (status, version, content_type, allow) = (
        response.status().as_u16(),
        header("openstack-api-version"),
        header("content-type"),
        header("allow"),
    );
    let body = response.into_body().collect().await.expect("the whole body").to_bytes().to_vec();
    Answer { status, version, content_type, allow, body }
}

fn leak(name: &str) -> &'static str {
    Box::leak(name.to_owned().into_boxed_str())
}

#[actix_web::test]
async fn a_facade_written_from_the_cores_api_answers_as_actix_and_axum_do() {
    let address = start(facade::Served::new(API, Servers)).await;
    for case in CASES {
        let (hyper, actix, axum) = (on_hyper(address, case).await, on_actix(case).await, on_axum(case).await);
        assert_eq!(hyper, actix, "{case:?}: hyper {} / actix {}", text(&hyper.body), text(&actix.body));
        assert_eq!(hyper, axum, "{case:?}: hyper {} / axum {}", text(&hyper.body), text(&axum.body));
    }
}

/// The refusals before any route (a version out of range, one that is not
/// a version) and a path no route has: each in the API's format, stamped
/// as the negotiations of actix and axum stamp them.
#[actix_web::test]
async fn refusals_and_unrouted_paths_answer_as_the_other_facades_do() {
    let address = start(facade::Served::new(API, Servers)).await;
    let cases: &[Case] = &[
        ("GET", "/v2.1/servers/7", "9.9", None),
        ("GET", "/v2.1/servers/7", "2.x", None),
        ("GET", "/v2.1/volumes", "2.3", None),
    ];
    for case in cases {
        let (hyper, axum) = (on_hyper(address, case).await, on_axum(case).await);
        assert_eq!(hyper, axum, "{case:?}: hyper {} / axum {}", text(&hyper.body), text(&axum.body));
    }
    let refused = on_hyper(address, &cases[0]).await;
    let error: serde_json::Value = serde_json::from_slice(&refused.body).expect("a JSON error");
    assert_eq!((refused.status, &error["errors"][0]["code"]), (406, &json!("compute.version-not-supported")));
    let nowhere = on_hyper(address, &cases[2]).await;
    assert_eq!(
        (nowhere.status, nowhere.version.as_deref()),
        (404, Some("compute 2.3")),
        "a routed refusal is stamped"
    );
}

/// The facade's settings: errors in another format (Nova's faults), and
/// answers checked against their declarations.
#[actix_web::test]
async fn errors_take_the_apis_format_and_answers_are_checked() {
    let negotiation =
        Negotiation::<HttpWire>::new(API).with_error_format(microversion_core::error::NovaFaults::default());
    let served = facade::Served::new(negotiation, Servers)
        .with_setting(microversion_core::schema::ResponseValidation::Error);
    let address = start(served).await;
    let conflict = on_hyper(address, &("PUT", "/v2.1/servers/7", "2.2", Some(r#"{"name":"taken"}"#))).await;
    let fault: serde_json::Value = serde_json::from_slice(&conflict.body).expect("a JSON fault");
    assert_eq!(conflict.status, 409);
    assert_eq!(fault["conflictingRequest"]["message"], "Server 7 cannot take that name.", "{fault}");
    let created = on_hyper(address, &("POST", "/v2.1/servers", "2.1", Some(r#"{"name":"web"}"#))).await;
    let body: serde_json::Value = serde_json::from_slice(&created.body).expect("a JSON answer");
    assert_eq!((created.status, body), (201, json!({"name": "web", "servers": 1})), "its declaration holds");
}

/// An error format that reads the request it answers and may answer a
/// page (Placement's webob pages): the facade reads the request for it and
/// answers each case as actix and axum do, pages and documents alike.
#[actix_web::test]
async fn error_pages_that_read_the_request_answer_as_the_other_facades_do() {
    let negotiation = Negotiation::<HttpWire>::new(API).with_error_format(microversion_tests::Pages);
    let address = start(facade::Served::new(negotiation, Servers)).await;
    let accept = servers::accept(Front::Pages);
    let mut pages = 0;
    for case in
        CASES.iter().chain(&[("GET", "/v2.1/servers/7", "9.9", None), ("GET", "/v2.1/volumes", "2.3", None)])
    {
        let hyper = on_hyper_accepting(address, case, accept).await;
        let (actix, axum) =
            (on_actix_behind(Front::Pages, case).await, on_axum_behind(Front::Pages, case).await);
        assert_eq!(hyper, actix, "{case:?}: hyper {} / actix {}", text(&hyper.body), text(&actix.body));
        assert_eq!(hyper, axum, "{case:?}: hyper {} / axum {}", text(&hyper.body), text(&axum.body));
        if hyper.status >= 400 {
            assert_eq!(hyper.content_type.as_deref(), Some("text/html; charset=UTF-8"), "{case:?}");
            let method = format!("<p>{}</p>", case.0);
            assert!(text(&hyper.body).ends_with(&method), "{case:?}: {}", text(&hyper.body));
            pages += 1;
        }
    }
    assert!(pages >= 4, "the cases hold errors of every kind: {pages} pages");
}
