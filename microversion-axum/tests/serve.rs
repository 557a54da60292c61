//! [`serve`](microversion_axum::serve): what it does as actix-web's
//! `HttpServer` does (docs/12-deploying.md): the connection limit, the 408
//! of a late first head, a first head read in pieces; and a router behind
//! the negotiation, served as a router is.

use std::future::IntoFuture as _;
use std::net::SocketAddr;
use std::time::Duration;

use axum::Router;
use microversion_axum::serve::{Serve, serve};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::{TcpListener, TcpStream};

const REQUEST: &[u8] = b"GET / HTTP/1.1\r\nHost: test\r\n\r\n";

/// Reads one answer of `stream` up to its body, `ok`.
async fn answered(stream: &mut TcpStream) -> String {
    let mut answer = Vec::new();
    let mut buf = [0u8; 256];
    while !answer.ends_with(b"ok") {
        let n = stream.read(&mut buf).await.expect("readable");
        assert!(n > 0, "closed before the answer: {:?}", String::from_utf8_lossy(&answer));
        answer.extend_from_slice(&buf[..n]);
    }
    String::from_utf8_lossy(&answer).into_owned()
}

/// A server of `ok` at `/`, set up by `configure`: its address, what
/// stops it, and its task.
async fn serving_ok(
    configure: impl FnOnce(Serve) -> Serve,
) -> (SocketAddr, tokio::sync::oneshot::Sender<()>, tokio::task::JoinHandle<std::io::Result<()>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let addr = listener.local_addr().expect("bound");
    let app = Router::new().route("/", axum::routing::get(|| async { "ok" }));
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let stopped = async move {
        let _ = stopped.await;
    };
    let server = configure(serve(listener, app)).with_graceful_shutdown(stopped);
    (addr, stop, tokio::spawn(server.into_future()))
}

#[tokio::test]
async fn a_connection_beyond_the_limit_waits_for_one_to_close() {
    let (addr, stop, server) = serving_ok(|serve| serve.max_connections(1)).await;

    // The first connection, kept alive, holds the only place.
    let mut first = TcpStream::connect(addr).await.expect("connects");
    first.write_all(REQUEST).await.expect("writes");
    assert!(answered(&mut first).await.starts_with("HTTP/1.1 200"));
    // The second waits in the backlog, unanswered (the wait only bounds
    // the check: a server without the limit answers at once).
    let mut second = TcpStream::connect(addr).await.expect("connects");
    second.write_all(REQUEST).await.expect("writes");
    let mut byte = [0u8; 1];
    let early = tokio::time::timeout(Duration::from_millis(300), second.read(&mut byte)).await;
    assert!(early.is_err(), "answered beyond the limit: {early:?}");
    // Served once the first closes.
    drop(first);
    let answer = tokio::time::timeout(Duration::from_secs(10), answered(&mut second)).await;
    assert!(answer.expect("answered in time").starts_with("HTTP/1.1 200"));

    drop(second);
    let _ = stop.send(());
    server.await.expect("the server task").expect("a clean stop");
}

#[tokio::test]
async fn a_late_first_head_is_answered_408_then_closed() {
    let (addr, _stop, _) = serving_ok(|serve| serve.head_timeout(Duration::from_millis(200))).await;
    for start in [&b""[..], b"GET / HTTP/1.1\r\nHost: te"] {
        let mut stream = TcpStream::connect(addr).await.expect("connects");
        stream.write_all(start).await.expect("writes");
        // Read to the end: the bound only keeps a server that never
        // closes from hanging the test.
        let mut answer = Vec::new();
        let read = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer)).await;
        assert!(read.expect("closed in time").is_ok());
        let answer = String::from_utf8_lossy(&answer);
        assert!(answer.starts_with("HTTP/1.1 408 Request Timeout\r\n"), "{answer:?}");
        assert!(answer.contains("\r\ncontent-length: 0\r\n"), "{answer:?}");
        assert!(answer.contains("\r\ndate: "), "{answer:?}");
    }
}

#[tokio::test]
async fn a_first_head_read_in_pieces_reaches_the_app_whole_with_what_follows() {
    let (addr, _stop, _) = serving_ok(|serve| serve).await;
    let mut stream = TcpStream::connect(addr).await.expect("connects");
    // The head's blank line split over two writes, a second request
    // pipelined behind it.
    stream.write_all(b"GET / HTTP/1.1\r\nHost: test\r\n\r").await.expect("writes");
    stream.flush().await.expect("flushes");
    tokio::task::yield_now().await;
    stream.write_all(b"\nGET / HTTP/1.1\r\nHost: test\r\n\r\n").await.expect("writes");
    // Both answers, however the reads split them.
    let mut answers = String::new();
    while answers.matches("HTTP/1.1 200").count() < 2 || !answers.ends_with("ok") {
        let more = tokio::time::timeout(Duration::from_secs(10), answered(&mut stream)).await;
        answers.push_str(&more.expect("answered in time"));
    }
    assert_eq!(answers.matches("HTTP/1.1 ").count(), 2, "{answers:?}");
}

/// One request to `addr` at `version`, read to its end (the server closes).
async fn asked_at(addr: SocketAddr, path: &str, version: &str) -> String {
    let mut stream = TcpStream::connect(addr).await.expect("connects");
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: test\r\nOpenStack-API-Version: compute {version}\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.expect("writes");
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer)).await;
    read.expect("answered in time").expect("readable");
    String::from_utf8_lossy(&answer).into_owned()
}

#[tokio::test]
async fn a_router_behind_the_negotiation_is_served_by_either_server() {
    use axum::ServiceExt as _;
    use microversion_axum::{Api, Microversion, VersionNegotiation};
    const COMPUTE: Api = Api::new(
        "compute",
        &[Microversion::new("2.1", "Initial version."), Microversion::new("2.2", "Keypairs gain a type.")],
    );
    let app = || {
        VersionNegotiation::new(COMPUTE)
            .around(Router::new().route("/", axum::routing::get(|| async { "ok" })))
    };

    let ours = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let axums = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let addrs = [ours.local_addr().expect("bound"), axums.local_addr().expect("bound")];
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(
        serve(ours, app())
            .with_graceful_shutdown(async move {
                let _ = stopped.await;
            })
            .into_future(),
    );
    let axum_server = tokio::spawn(axum::serve(axums, app().into_make_service()).into_future());
    for addr in addrs {
        // Routed and unrouted, each negotiated at the version asked; an
        // unserved version refused with the served range.
        for (path, version, status, body) in [
            ("/", "2.2", "200 OK", "ok"),
            ("/nowhere", "2.2", "404 Not Found", r#""detail":"The resource could not be found.""#),
            ("/", "2.9", "406 Not Acceptable", r#""max_version":"2.2""#),
        ] {
            let answer = asked_at(addr, path, version).await;
            assert!(answer.starts_with(&format!("HTTP/1.1 {status}\r\n")), "{answer}");
            let (_, content) = answer.split_once("\r\n\r\n").expect("a head and a body");
            assert!(content.contains(body), "{path}: {answer}");
            let named = answer.to_ascii_lowercase().contains("\r\nopenstack-api-version: compute 2.2\r\n");
            assert_eq!(named, version == "2.2", "{path} at {version}: {answer}");
        }
    }
    let _ = stop.send(());
    server.await.expect("the server task").expect("a clean stop");
    axum_server.abort();
}
