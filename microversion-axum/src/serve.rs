//! Serving a [`Router`] over HTTP/1.1 as actix-web's `HttpServer` serves an
//! app (docs/12-deploying.md): [`serve`].
//!
//! `axum::serve` sets no deadline on a request head (half a head holds its
//! connection for ever), no limit on connections, closes a connection whose
//! client half-closes after sending its request without answering it, and
//! stops on no signal. [`Serve`] does what actix's server does for each:
//!
//! | | actix-web's `HttpServer` | [`Serve`] |
//! | --- | --- | --- |
//! | a request head that does not arrive | 408, closed (`client_request_timeout`) | closed ([`Serve::head_timeout`], every head, so it also ends an idle keep-alive) |
//! | connections at once | `max_connections` per worker | [`Serve::max_connections`] in all; more wait in the listen backlog |
//! | a client that half-closes after its request | answered | answered (hyper's `half_close`) |
//! | SIGTERM, SIGINT | stop taking connections, finish the requests in flight for `shutdown_timeout` | the same ([`Serve::shutdown_timeout`], [`Serve::with_graceful_shutdown`]) |
//! | an HTTP/1.1 request without `Host` | 400, no body, closed | the same |
//! | `%76%32%2E%31` in a path | read as `v2.1` before routing | the same (RFC 3986 §6.2.2.2) |
//! | the peer's address | `HttpRequest::peer_addr` | axum's [`ConnectInfo`], for trusted proxies ([`PublicUrl`](crate::discovery::PublicUrl)) |
//!
//! ```no_run
//! use axum::{Router, routing::get};
//! use std::time::Duration;
//!
//! # async fn run() -> std::io::Result<()> {
//! let app = Router::new().route("/", get(|| async { "hello" }));
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8774").await?;
//! microversion_axum::serve(listener, app).head_timeout(Duration::from_secs(5)).await
//! # }
//! ```

use std::convert::Infallible;
use std::future::{Future, IntoFuture};
use std::io::ErrorKind;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::response::Response;
use http::{HeaderValue, StatusCode, header};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use microversion_core::decode_unreserved;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tower::ServiceExt as _;

/// How long a request head may take to arrive unless set (actix's
/// `client_request_timeout` is 5 s; a slow client on a long link gets more).
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// Connections served at once unless set (actix's default per worker is 25,000).
pub const MAX_CONNECTIONS: usize = 10_000;
/// How long a stopping server lets the requests in flight finish unless set
/// (actix's default).
pub const SHUTDOWN_TIMEOUT: Duration = Duration::from_secs(30);
/// How long to wait before accepting again after the listener failed (most
/// often out of file descriptors, which closing connections give back).
const ACCEPT_RETRY: Duration = Duration::from_millis(100);

/// Serves `app` on `listener` over HTTP/1.1, as actix-web's `HttpServer`
/// serves an app (see the [module](self)): await the returned [`Serve`].
pub fn serve(listener: TcpListener, app: Router) -> Serve {
    Serve {
        listener,
        app,
        head_timeout: HEAD_TIMEOUT,
        max_connections: MAX_CONNECTIONS,
        shutdown_timeout: SHUTDOWN_TIMEOUT,
        stop: None,
    }
}

/// A server to await, made by [`serve`]; it resolves once stopped and
/// drained, or with the error that kept it from serving.
#[must_use = "a server does nothing until awaited"]
pub struct Serve {
    listener: TcpListener,
    app: Router,
    head_timeout: Duration,
    max_connections: usize,
    shutdown_timeout: Duration,
    stop: Option<Pin<Box<dyn Future<Output = ()> + Send>>>,
}

impl Serve {
    /// How long each request head may take to arrive ([`HEAD_TIMEOUT`]
    /// unless set); a connection whose head is late, or kept alive and idle
    /// that long, is closed.
    pub fn head_timeout(mut self, timeout: Duration) -> Serve {
        self.head_timeout = timeout;
        self
    }

    /// How many connections are served at once ([`MAX_CONNECTIONS`] unless
    /// set, at least one); more wait in the listen backlog.
    pub fn max_connections(mut self, connections: usize) -> Serve {
        self.max_connections = connections.clamp(1, Semaphore::MAX_PERMITS);
        self
    }

    /// How long a stopping server lets each open connection finish the
    /// request in flight ([`SHUTDOWN_TIMEOUT`] unless set).
    pub fn shutdown_timeout(mut self, timeout: Duration) -> Serve {
        self.shutdown_timeout = timeout;
        self
    }

    /// Stops gracefully when `signal` resolves, instead of at the first
    /// SIGTERM or SIGINT (the default, as actix's server).
    pub fn with_graceful_shutdown(mut self, signal: impl Future<Output = ()> + Send + 'static) -> Serve {
        self.stop = Some(Box::pin(signal));
        self
    }

    /// The address the server listens on (port 0 bound to a free one).
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    async fn run(self) -> std::io::Result<()> {
        let Serve { listener, app, head_timeout, max_connections, shutdown_timeout, stop } = self;
        let mut stop = match stop {
            Some(stop) => stop,
            None => Box::pin(stop_signal()?),
        };
        let connections = Arc::new(Semaphore::new(max_connections));
        let (stopping, stopped) = watch::channel(());
        loop {
            let permit = tokio::select! {
                permit = Arc::clone(&connections).acquire_owned() => permit,
                () = &mut stop => break,
            };
            let Ok(permit) = permit else { break };
            let accepted = tokio::select! {
                accepted = listener.accept() => accepted,
                () = &mut stop => break,
            };
            let (stream, peer) = match accepted {
                Ok(accepted) => accepted,
                // The client gave up before it was accepted.
                Err(e) if matches!(e.kind(), ErrorKind::ConnectionAborted | ErrorKind::ConnectionReset) => {
                    continue;
                }
                Err(e) => {
                    log::warn!("cannot accept a connection: {e}");
                    tokio::time::sleep(ACCEPT_RETRY).await;
                    continue;
                }
            };
            let app = app.clone();
            let service = tower::service_fn(move |req: http::Request<Incoming>| {
                let read = read_request(req, peer);
                let app = app.clone();
                async move {
                    match read {
                        Some(req) => app.oneshot(req).await,
                        None => Ok::<_, Infallible>(without_host()),
                    }
                }
            });
            let connection = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(head_timeout)
                // A client may shut its side down once its request is sent
                // (`curl --no-keepalive`, `nc -N`): it still gets its answer.
                .half_close(true)
                .serve_connection(TokioIo::new(stream), TowerToHyperService::new(service));
            let mut stopped = stopped.clone();
            tokio::spawn(async move {
                let mut connection = std::pin::pin!(connection);
                // How a connection ends, timely or not, is its client's business.
                tokio::select! {
                    _ = connection.as_mut() => {}
                    _ = stopped.changed() => {
                        connection.as_mut().graceful_shutdown();
                        let _ = connection.await;
                    }
                }
                drop(permit);
            });
        }
        drop(listener);
        let _ = stopping.send(());
        // Every permit back: every connection has ended.
        let all = u32::try_from(max_connections).unwrap_or(u32::MAX);
        let _ = tokio::time::timeout(shutdown_timeout, connections.acquire_many(all)).await;
        Ok(())
    }
}

impl IntoFuture for Serve {
    type Output = std::io::Result<()>;
    type IntoFuture = Pin<Box<dyn Future<Output = std::io::Result<()>> + Send>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.run())
    }
}

/// Resolves at the first SIGTERM or SIGINT (Ctrl-C elsewhere than Unix).
fn stop_signal() -> std::io::Result<impl Future<Output = ()> + Send> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let (mut terminate, mut interrupt) =
            (signal(SignalKind::terminate())?, signal(SignalKind::interrupt())?);
        Ok(async move {
            tokio::select! {
                _ = terminate.recv() => {}
                _ = interrupt.recv() => {}
            }
        })
    }
    #[cfg(not(unix))]
    Ok(async {
        let _ = tokio::signal::ctrl_c().await;
    })
}

/// A request as hyper parsed it, read as actix's codec and router read one
/// before routing: the peer's address in axum's `ConnectInfo`, and the
/// percent-encoded unreserved characters of the path decoded. `None` for an
/// HTTP/1.1 request without `Host` (RFC 9112 §3.2), which hyper leaves to
/// the service ([`without_host`]).
fn read_request(mut req: http::Request<Incoming>, peer: SocketAddr) -> Option<http::Request<Incoming>> {
    if req.version() == http::Version::HTTP_11 && !req.headers().contains_key(header::HOST) {
        return None;
    }
    req.extensions_mut().insert(ConnectInfo(peer));
    if let Some(uri) = with_unreserved_decoded(req.uri()) {
        *req.uri_mut() = uri;
    }
    Some(req)
}

/// The answer to a request without `Host`, as actix's codec gives it: a 400
/// with no body (never routed: no version, so no error format), and the
/// connection closed.
fn without_host() -> Response {
    let mut res = Response::new(Body::empty());
    *res.status_mut() = StatusCode::BAD_REQUEST;
    res.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
    res
}

/// The URI with the percent-encoded unreserved characters of its path
/// decoded, as actix's router reads a path ([`decode_unreserved`]); `None`
/// when there are none.
fn with_unreserved_decoded(uri: &http::Uri) -> Option<http::Uri> {
    let decoded = decode_unreserved(uri.path())?;
    let target = match uri.query() {
        Some(query) => format!("{decoded}?{query}"),
        None => decoded,
    };
    let mut parts = uri.clone().into_parts();
    parts.path_and_query = Some(target.parse().ok()?);
    http::Uri::from_parts(parts).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    use tokio::net::TcpStream;

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

    #[tokio::test]
    async fn a_connection_beyond_the_limit_waits_for_one_to_close() {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
        let addr = listener.local_addr().expect("bound");
        let app = Router::new().route("/", axum::routing::get(|| async { "ok" }));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let stopped = async move {
            let _ = stopped.await;
        };
        let server = tokio::spawn(
            serve(listener, app).max_connections(1).with_graceful_shutdown(stopped).into_future(),
        );

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

    #[test]
    fn the_query_is_kept_as_it_came() {
        let uri = "/%76%32%2e%31/flavors?x=%41".parse().unwrap();
        assert_eq!(
            with_unreserved_decoded(&uri).map(|uri| uri.to_string()).as_deref(),
            Some("/v2.1/flavors?x=%41")
        );
        assert_eq!(with_unreserved_decoded(&"/a%2Fb?x=%41".parse().unwrap()), None);
    }
}
