//! The compute example served by axum (`examples/compute-axum`): the same
//! controllers, discovery, documents and Nova's faults as `serve_actix`
//! serves on actix-web, and a server for tests.

use std::io::ErrorKind;
use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use axum::http::header::{self, HeaderName, HeaderValue};
use axum::response::Response;
use microversion_axum::body::BodyTimeout;
use microversion_axum::discovery::RequestLinks;
use microversion_axum::error::NovaFaults;
use microversion_axum::middleware::{ClientDefault, ResponseValidation};
use microversion_axum::openapi::OpenApiService;
use microversion_axum::version::VersionCap;
use microversion_axum::{ApiError, Discovery, Version, VersionNegotiationLayer};

use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::sync::Semaphore;
use tower::ServiceExt as _;

use crate::settings::{self, MAX_CONNECTIONS, REQUEST_HEAD_TIMEOUT, SHUTDOWN_TIMEOUT, Settings};
use crate::{COMPUTE, Store, description, flavors, keypairs, request_id};

/// The header a client's token comes in (keystonemiddleware's).
pub const TOKEN_HEADER: &str = "X-Auth-Token";

/// A default version per client, as on actix: a token's first request
/// naming no version pins it to the served maximum of the moment.
pub fn token_pins(store: Arc<Store>, cap: VersionCap) -> ClientDefault {
    ClientDefault::new(&[TOKEN_HEADER], move |headers| {
        let token = headers.get(TOKEN_HEADER).and_then(|v| v.to_str().ok()).map(str::trim);
        let token = token.filter(|t| !t.is_empty()).map(str::to_owned);
        let (store, max) = (Arc::clone(&store), cap.get());
        async move {
            match token {
                Some(token) => store
                    .pinned_version(&token, max)
                    .await
                    .map(Some)
                    .map_err(|e| axum::response::IntoResponse::into_response(ApiError::from(e))),
                None => Ok(None),
            }
        }
    })
}

/// Discovery at `/` and `/v2.1`, the documents at `/openapi.json`, the API
/// under `/v2.1` with Nova-style faults, and a JSON 404 for every other path.
pub fn router(store: Arc<Store>, cap: VersionCap, settings: &Settings) -> Router {
    let api = *cap.declaration();
    let mut negotiation = VersionNegotiationLayer::new(api)
        .with_version_cap(cap.clone())
        .with_error_format(NovaFaults::default());
    let mut discovery = Discovery::new(&[api])
        .with_version_cap(cap.clone())
        .with_error_format(NovaFaults::default())
        .with_public_url(settings.public_url.clone());
    if settings.pin_versions {
        let pins = token_pins(Arc::clone(&store), cap);
        negotiation = negotiation.with_client_default(pins.clone());
        discovery = discovery.with_client_default(&api, pins);
    }
    let not_found = || async {
        ApiError::not_found("The resource could not be found.")
            .render(&NovaFaults::default(), Some(COMPUTE.service_type()))
    };
    let versioned = Router::new()
        .merge(flavors::Flavors::new(Arc::clone(&store)))
        .merge(flavors::FlavorExtraSpecs::new(Arc::clone(&store)))
        .merge(keypairs::Keypairs::new(store))
        // A path under `/v2.1` that no route takes is negotiated too, as
        // on actix: its 404 carries the version headers.
        .fallback(not_found)
        // Links come from the public URL: name what it read in `Vary`, or
        // a shared cache serves one client's links to all.
        .layer(axum::middleware::from_fn(links_vary))
        .layer(axum::Extension(settings.public_url.clone()))
        .layer(axum::Extension(BodyTimeout(settings.body_timeout.unwrap_or(BodyTimeout::DEFAULT.0))))
        .layer(axum::Extension(settings.response_validation))
        .layer(negotiation)
        // Every answer names its request id, the negotiation's 400 and 406
        // too, and a store failure the one it was logged under
        // (`store::Unavailable`).
        .layer(axum::middleware::map_response(request_id_headers));
    Router::from(discovery)
        .merge(Router::from(OpenApiService::new(description(api)).with_error_format(NovaFaults::default())))
        .nest("/v2.1", versioned)
        .fallback(not_found)
}

/// `Vary` names the headers the request's links were read from (none for a
/// fixed public URL).
async fn links_vary(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let read = req.link_vary();
    let mut res = next.run(req).await;
    if let Some(read) = read {
        let present: Vec<&str> =
            res.headers().get_all(header::VARY).iter().filter_map(|v| v.to_str().ok()).collect();
        let merged = microversion_core::append_vary(&present.join(", "), read);
        if let Ok(value) = HeaderValue::try_from(merged) {
            res.headers_mut().insert(header::VARY, value);
        }
    }
    res
}

/// Nova's request id headers: the id of the [`ApiError`] answered with, else a new one.
async fn request_id_headers(mut res: Response) -> Response {
    let carried = res.extensions().get::<ApiError>().and_then(ApiError::request_id);
    let id = HeaderValue::try_from(request_id::carried_or_new(carried))
        .unwrap_or_else(|_| HeaderValue::from_static("req-unnamed"));
    for name in request_id::HEADERS {
        res.headers_mut().insert(HeaderName::from_static(name), id.clone());
    }
    res
}

/// Serves `settings` on `listener` until the process stops: the example's
/// `main`, on a tokio runtime of two workers.
pub fn run(listener: TcpListener, settings: Settings) -> std::io::Result<()> {
    listener.set_nonblocking(true)?;
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    runtime.block_on(async move { Server::start(listener, settings).await?.serve(stop_signal()?).await })
}

/// Resolves at the first SIGTERM or SIGINT, as actix's server stops on them.
fn stop_signal() -> std::io::Result<impl Future<Output = ()>> {
    use tokio::signal::unix::{SignalKind, signal};
    let (mut terminate, mut interrupt) = (signal(SignalKind::terminate())?, signal(SignalKind::interrupt())?);
    Ok(async move {
        tokio::select! {
            _ = terminate.recv() => {}
            _ = interrupt.recv() => {}
        }
    })
}

/// A server running on a free loopback port in a background thread (a
/// tokio runtime of its own), stopped when dropped. For tests.
pub struct RunningServer {
    /// The root URL, `http://127.0.0.1:PORT`.
    pub url: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<std::io::Result<()>>>,
}

impl RunningServer {
    /// Starts a server on `127.0.0.1:0`, checking every answer against its
    /// declared schema.
    pub fn start() -> std::io::Result<RunningServer> {
        RunningServer::start_with_cap(None)
    }

    /// Starts a server on `127.0.0.1:0` with the served maximum capped,
    /// checking every answer against its declared schema (a wrong one
    /// answers 500 and fails the test), as the actix build's does.
    pub fn start_with_cap(cap: Option<Version>) -> std::io::Result<RunningServer> {
        RunningServer::start_with(Settings {
            cap,
            response_validation: ResponseValidation::Error,
            ..Settings::default()
        })
    }

    /// Starts a server on `127.0.0.1:0` with `settings`.
    pub fn start_with(settings: Settings) -> std::io::Result<RunningServer> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        listener.set_nonblocking(true)?;
        let url = format!("http://{}", listener.local_addr()?);
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let (started, ready) = std::sync::mpsc::channel();
        let thread = std::thread::spawn(move || {
            let runtime =
                tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
            runtime.block_on(async move {
                let server = match Server::start(listener, settings).await {
                    Ok(server) => server,
                    Err(e) => {
                        let _ = started.send(Err(e.to_string()));
                        return Err(e);
                    }
                };
                let _ = started.send(Ok(()));
                server
                    .serve(async move {
                        let _ = stopped.await;
                    })
                    .await
            })
        });
        match ready.recv() {
            Ok(Ok(())) => Ok(RunningServer { url, stop: Some(stop), thread: Some(thread) }),
            Ok(Err(why)) => Err(std::io::Error::other(why)),
            Err(_) => Err(std::io::Error::other("the server failed to start")),
        }
    }
}

impl Drop for RunningServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The server on a listener, started (store open, cap read) and ready to
/// serve. It serves HTTP/1.1 through hyper itself rather than
/// `axum::serve`, which sets no deadline on a request head: a client
/// sending one slowly, or never, would hold its connection forever.
struct Server {
    listener: tokio::net::TcpListener,
    app: Router,
    head_timeout: Duration,
}

impl Server {
    async fn start(listener: TcpListener, settings: Settings) -> std::io::Result<Server> {
        let (store, cap) = settings::start(&settings).await?;
        Ok(Server {
            listener: tokio::net::TcpListener::from_std(listener)?,
            app: router(store, cap, &settings),
            head_timeout: settings.head_timeout.unwrap_or(REQUEST_HEAD_TIMEOUT),
        })
    }

    /// Serves until `stop` resolves (docs/12-deploying.md): each request
    /// head within the head timeout, which also ends a connection kept
    /// alive and idle that long; at most [`MAX_CONNECTIONS`] at once, more
    /// waiting in the listen backlog; the peer's address given to the
    /// routes as axum's `ConnectInfo`, for trusted proxies. Then it takes
    /// no new connection and lets each open one finish the request in
    /// flight, for up to [`SHUTDOWN_TIMEOUT`].
    async fn serve(self, stop: impl Future<Output = ()>) -> std::io::Result<()> {
        let mut stop = std::pin::pin!(stop);
        let connections = Arc::new(Semaphore::new(MAX_CONNECTIONS));
        let (stopping, stopped) = tokio::sync::watch::channel(());
        loop {
            let permit = tokio::select! {
                permit = Arc::clone(&connections).acquire_owned() => permit,
                () = &mut stop => break,
            };
            let Ok(permit) = permit else { break };
            let accepted = tokio::select! {
                accepted = self.listener.accept() => accepted,
                () = &mut stop => break,
            };
            let (stream, peer) = match accepted {
                Ok(accepted) => accepted,
                // The client gave up before it was accepted.
                Err(e) if matches!(e.kind(), ErrorKind::ConnectionAborted | ErrorKind::ConnectionReset) => {
                    continue;
                }
                // Out of file descriptors, most often: wait for some to close.
                Err(e) => {
                    eprintln!("compute: cannot accept a connection: {e}");
                    tokio::time::sleep(ACCEPT_RETRY).await;
                    continue;
                }
            };
            let app = self.app.clone();
            let service = tower::service_fn(move |req: http::Request<Incoming>| {
                let read = read_request(req, peer);
                let app = app.clone();
                async move {
                    match read {
                        Some(req) => app.oneshot(req).await,
                        None => Ok(without_host()),
                    }
                }
            });
            let connection = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(self.head_timeout)
                .serve_connection(TokioIo::new(stream), TowerToHyperService::new(service));
            let mut stopped = stopped.clone();
            tokio::spawn(async move {
                let mut connection = std::pin::pin!(connection);
                // A connection's end, timely or not, is the client's business.
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
        drop(self.listener);
        let _ = stopping.send(());
        // Every permit back: every connection has ended.
        let drained = connections.acquire_many(u32::try_from(MAX_CONNECTIONS).unwrap_or(u32::MAX));
        let _ = tokio::time::timeout(SHUTDOWN_TIMEOUT, drained).await;
        Ok(())
    }
}

/// A request as hyper parsed it, read as actix's codec and router read
/// one before routing: the peer's address in axum's `ConnectInfo`, for
/// trusted proxies, and percent-encoded unreserved characters of the path
/// decoded. `None` for an HTTP/1.1 request without `Host` (RFC 9112 §3.2),
/// which hyper leaves to the service ([`without_host`]).
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

/// The answer to a request without `Host`, as actix's codec gives it: a
/// 400 with no body (never routed: no version, so no error format), the
/// connection closed.
fn without_host() -> Response {
    let mut res = Response::new(axum::body::Body::empty());
    *res.status_mut() = http::StatusCode::BAD_REQUEST;
    res.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
    res
}

/// The URI with the percent-encoded unreserved characters of its path
/// decoded (`/%76%32%2e%31/flavors` is `/v2.1/flavors`, RFC 3986 §6.2.2.2),
/// as actix's router reads a path; `None` when there are none. Other
/// encodings (`%2F`, `%25`, bytes outside ASCII) stay as they are.
fn with_unreserved_decoded(uri: &http::Uri) -> Option<http::Uri> {
    let path = uri.path();
    if !path.contains('%') {
        return None;
    }
    let unreserved = |byte: u8| byte.is_ascii_alphanumeric() || b"-._~".contains(&byte);
    let decode =
        |pair: &[u8]| std::str::from_utf8(pair).ok().and_then(|hex| u8::from_str_radix(hex, 16).ok());
    let bytes = path.as_bytes();
    let (mut decoded, mut at, mut changed) = (Vec::with_capacity(path.len()), 0, false);
    while at < bytes.len() {
        match bytes.get(at + 1..at + 3).filter(|_| bytes[at] == b'%').and_then(decode) {
            Some(byte) if unreserved(byte) => {
                decoded.push(byte);
                (at, changed) = (at + 3, true);
            }
            _ => {
                decoded.push(bytes[at]);
                at += 1;
            }
        }
    }
    if !changed {
        return None;
    }
    let decoded = String::from_utf8(decoded).ok()?;
    let target = match uri.query() {
        Some(query) => format!("{decoded}?{query}"),
        None => decoded,
    };
    let mut parts = uri.clone().into_parts();
    parts.path_and_query = Some(target.parse().ok()?);
    http::Uri::from_parts(parts).ok()
}

/// How long to wait before accepting again after the listener failed.
const ACCEPT_RETRY: Duration = Duration::from_millis(100);
