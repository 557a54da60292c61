//! Serving an [`App`] over HTTP/1.1 as actix-web's `HttpServer` serves an
//! app (docs/12-deploying.md): [`serve`].
//!
//! `axum::serve` sets no deadline on a request head (half a head holds its
//! connection for ever), no limit on connections, closes a connection whose
//! client half-closes after sending its request without answering it, and
//! stops on no signal. [`Serve`] does what actix's server does for each:
//!
//! | | actix-web's `HttpServer` | [`Serve`] |
//! | --- | --- | --- |
//! | a connection's first request head that does not arrive | 408, closed (`client_request_timeout`) | the same ([`Serve::head_timeout`]) |
//! | a later head, or a kept-alive connection left idle | closed (`keep_alive`) | closed after [`Serve::head_timeout`] (hyper's `header_read_timeout`) |
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
use axum::extract::ConnectInfo;
use axum::extract::Request;
use axum::response::{IntoResponse as _, Response};
use http::{HeaderValue, StatusCode, header};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use microversion_core::discovery::decode_unreserved;
use tokio::io::{AsyncRead, AsyncReadExt as _, AsyncWrite, AsyncWriteExt as _};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};
use tower::{Service, ServiceExt as _};

/// What [`serve`] serves: a [`Router`], or a service answering as one, such
/// as a router behind [`VersionNegotiation::around`](crate::VersionNegotiation::around).
pub trait App:
    Service<Request, Response = Response, Error = Infallible, Future: Send> + Clone + Send + 'static
{
}

impl<S: Service<Request, Response = Response, Error = Infallible, Future: Send> + Clone + Send + 'static> App
    for S
{
}

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
pub fn serve<S: App>(listener: TcpListener, app: S) -> Serve<S> {
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
pub struct Serve<S = Router> {
    listener: TcpListener,
    app: S,
    head_timeout: Duration,
    max_connections: usize,
    shutdown_timeout: Duration,
    stop: Option<Pin<Box<dyn Future<Output = ()> + Send>>>,
}

impl<S: App> Serve<S> {
    /// How long each request head may take to arrive ([`HEAD_TIMEOUT`]
    /// unless set); a connection whose head is late, or kept alive and idle
    /// that long, is closed.
    pub fn head_timeout(mut self, timeout: Duration) -> Self {
        self.head_timeout = timeout;
        self
    }

    /// How many connections are served at once ([`MAX_CONNECTIONS`] unless
    /// set, at least one); more wait in the listen backlog.
    pub fn max_connections(mut self, connections: usize) -> Self {
        self.max_connections = connections.clamp(1, Semaphore::MAX_PERMITS);
        self
    }

    /// How long a stopping server lets each open connection finish the
    /// request in flight ([`SHUTDOWN_TIMEOUT`] unless set).
    pub fn shutdown_timeout(mut self, timeout: Duration) -> Self {
        self.shutdown_timeout = timeout;
        self
    }

    /// Stops gracefully when `signal` resolves, instead of at the first
    /// SIGTERM or SIGINT (the default, as actix's server).
    pub fn with_graceful_shutdown(mut self, signal: impl Future<Output = ()> + Send + 'static) -> Self {
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
            let mut stopped = stopped.clone();
            tokio::spawn(async move {
                serve_connection(stream, peer, app, head_timeout, &mut stopped).await;
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

/// Serves one connection until it ends, or until `stopped` changes and its
/// request in flight is answered. Its first request head is read here,
/// within `head_timeout` of the connection, so that a late one is answered
/// 408 as actix answers it; hyper reads every later head, within the same
/// time each, and closes a connection whose head is late.
async fn serve_connection(
    mut stream: TcpStream,
    peer: SocketAddr,
    app: impl App,
    head_timeout: Duration,
    stopped: &mut watch::Receiver<()>,
) {
    let first = tokio::select! {
        first = tokio::time::timeout(head_timeout, read_first_head(&mut stream)) => first,
        _ = stopped.changed() => return,
    };
    let head = match first {
        Ok(Ok(head)) => head,
        // The client is gone.
        Ok(Err(_)) => return,
        Err(_late) => return request_timeout(stream).await,
    };
    let service = tower::service_fn(move |req: http::Request<Incoming>| {
        let (read, app) = (read_request(req, peer), app.clone());
        async move {
            match read {
                Some(req) => app.oneshot(req.map(axum::body::Body::new)).await,
                None => Ok::<_, Infallible>((StatusCode::BAD_REQUEST, [CLOSE]).into_response()),
            }
        }
    });
    let connection = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(head_timeout)
        // A client may shut its side down once its request is sent
        // (`curl --no-keepalive`, `nc -N`): it still gets its answer.
        .half_close(true)
        .serve_connection(TokioIo::new(rewound(head, stream)), TowerToHyperService::new(service));
    let mut connection = std::pin::pin!(connection);
    // How a connection ends, timely or not, is its client's business.
    tokio::select! {
        _ = connection.as_mut() => {}
        _ = stopped.changed() => {
            connection.as_mut().graceful_shutdown();
            let _ = connection.await;
        }
    }
}

/// The most of a first request head read before hyper takes the connection,
/// kept with it until it closes: the rest of a longer head is hyper's to read
/// within `head_timeout` (431 past its limit; if late, closed without a 408).
const FIRST_HEAD_LIMIT: usize = 8192;

/// Reads until the bytes read hold a whole request head (its blank line),
/// the client stops sending, or [`FIRST_HEAD_LIMIT`]: what was read, for
/// hyper to parse ([`rewound`]).
async fn read_first_head(stream: &mut TcpStream) -> std::io::Result<Vec<u8>> {
    let mut read = Vec::with_capacity(1024);
    let mut chunk = [0u8; 4096];
    loop {
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            return Ok(read);
        }
        // The blank line may straddle two reads.
        let from = read.len().saturating_sub(3);
        read.extend_from_slice(&chunk[..n]);
        if ends_a_head(&read[from..]) || read.len() >= FIRST_HEAD_LIMIT {
            return Ok(read);
        }
    }
}

/// Whether `bytes` hold the blank line that ends a head: `\r\n\r\n`, or a
/// bare `\n` where a line ends, which hyper's parser takes too.
fn ends_a_head(bytes: &[u8]) -> bool {
    bytes.windows(2).any(|pair| pair == b"\n\n") || bytes.windows(3).any(|three| three == b"\n\r\n")
}

/// The connection whose first bytes were read already (`head`): it reads
/// them again, then the stream.
fn rewound(head: Vec<u8>, stream: TcpStream) -> impl AsyncRead + AsyncWrite + Unpin {
    let (read, write) = stream.into_split();
    tokio::io::join(std::io::Cursor::new(head).chain(read), write)
}

/// How long a 408 may take to be written to a client that reads nothing.
const REQUEST_TIMEOUT_WRITE: Duration = Duration::from_secs(1);

/// The answer to a first request head that came too late, as actix's
/// codec gives it: a 408 with no body (never routed: no version, so no
/// error format), and the connection closed.
async fn request_timeout(mut stream: TcpStream) {
    let date = microversion_core::lifecycle::Timestamp::now().http_date();
    let answer = format!(
        "HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\ndate: {date}\r\n\r\n"
    );
    let written = async {
        stream.write_all(answer.as_bytes()).await?;
        stream.shutdown().await
    };
    let _ = tokio::time::timeout(REQUEST_TIMEOUT_WRITE, written).await;
}

impl<S: App> IntoFuture for Serve<S> {
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
/// percent-encoded unreserved characters of the path decoded. An HTTP/1.1
/// request without `Host` (RFC 9112 §3.2), which hyper leaves to the
/// service, is `None`: answered as actix's codec answers it, 400 with no
/// body (never routed: no version, so no error format), and the connection
/// closed ([`CLOSE`]).
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

/// `Connection: close`.
const CLOSE: (header::HeaderName, HeaderValue) = (header::CONNECTION, HeaderValue::from_static("close"));

/// The URI with the percent-encoded unreserved characters of its path
/// decoded, as actix's router reads a path ([`decode_unreserved`]); `None`
/// when there are none.
fn with_unreserved_decoded(uri: &http::Uri) -> Option<http::Uri> {
    let target = decode_unreserved(uri.path_and_query()?.as_str())?;
    let mut parts = uri.clone().into_parts();
    parts.path_and_query = Some(target.parse().ok()?);
    http::Uri::from_parts(parts).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_head_ends_at_its_blank_line() {
        assert!(ends_a_head(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n"));
        assert!(ends_a_head(b"GET / HTTP/1.1\nHost: a\n\n"));
        assert!(ends_a_head(b"\n\r\n"));
        assert!(!ends_a_head(b"GET / HTTP/1.1\r\nHost: a\r\n"));
        assert!(!ends_a_head(b"\r\n\r"));
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
