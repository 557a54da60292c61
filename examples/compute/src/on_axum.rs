//! The compute example served by axum (`--framework axum`):
//! the same controller source, discovery, documents and Nova's faults as
//! [`on_actix`](crate::on_actix) serves on actix-web, the metrics
//! endpoint, and a server for tests.

use std::net::TcpListener;
use std::sync::Arc;

use axum::Router;
use axum::http::header::{self, HeaderValue};
use axum::response::Response;
use microversion_axum::body::BodyTimeout;
use microversion_axum::discovery::RequestLinks;
use microversion_axum::middleware::ClientDefault;
use microversion_axum::openapi::{OpenApiService, OpenApiSettings};
use microversion_axum::serve::Serve;
use microversion_axum::version::VersionCap;
use microversion_axum::{Discovery, VersionNegotiation};

use crate::settings::{self, MAX_CONNECTIONS, REQUEST_HEAD_TIMEOUT, SHUTDOWN_TIMEOUT, Settings};
use crate::{Store, TOKEN_HEADER, description, flavor_access, flavors, fleet, keypairs};

/// Discovery at `/` and `/v2.1`, the documents at `/openapi.json`, the API
/// under `/v2.1` with Nova-style faults, and a JSON 404 for every other path.
pub fn router(store: Arc<Store>, cap: VersionCap, settings: &Settings) -> Router {
    let api = *cap.declaration();
    let pins = settings.pin_versions.then(|| token_pins(Arc::clone(&store), cap.clone()));
    let (negotiation, discovery) = crate::nova_settings(&cap, pins);
    let discovery = discovery.with_public_url(settings.public_url.clone());
    let (negotiation, discovery) = (VersionNegotiation::new(negotiation), Discovery::new(discovery));
    let not_found = negotiation.default_service();
    let documents = OpenApiService::new(
        OpenApiSettings::new(description(api))
            .with_reference()
            .with_error_renderer(negotiation.error_renderer()),
    );
    let versioned = Router::new()
        .merge(flavors::Flavors::new(Arc::clone(&store)))
        .merge(flavors::FlavorExtraSpecs::new(Arc::clone(&store)))
        .merge(flavor_access::FlavorAccess::new(Arc::clone(&store)))
        .merge(keypairs::Keypairs::new(store))
        // A path under `/v2.1` that no route takes is negotiated too, as
        // on actix: its 404 carries the version headers.
        .fallback_service(not_found.clone())
        // Links come from the public URL: name what it read in `Vary`, or
        // a shared cache serves one client's links to all.
        .layer(axum::middleware::from_fn(links_vary))
        .layer(axum::Extension(settings.public_url.clone()))
        .layer(axum::Extension(BodyTimeout(settings.body_timeout.unwrap_or(BodyTimeout::DEFAULT.0))))
        .layer(axum::Extension(settings.response_validation))
        .layer(negotiation);
    Router::from(discovery)
        .merge(Router::from(documents))
        .nest("/v2.1", versioned)
        .fallback_service(not_found)
}

/// Each client token pinned to a version (`fleet::pinned_version`).
pub fn token_pins(store: Arc<Store>, cap: VersionCap) -> ClientDefault {
    ClientDefault::new(&[TOKEN_HEADER], move |headers| {
        let token = headers.get(TOKEN_HEADER).and_then(|v| v.to_str().ok());
        fleet::pinned_version(&store, &cap, token)
    })
}

/// Serves the per-version request counts in Prometheus text at
/// `GET /metrics` on `addr`, outside the API, on the server's runtime;
/// once per process.
fn serve_metrics(addr: std::net::SocketAddr) -> std::io::Result<()> {
    let handle = fleet::metrics_recorder()?;
    let listener = TcpListener::bind(addr)?;
    listener.set_nonblocking(true)?;
    let listener = tokio::net::TcpListener::from_std(listener)?;
    let metrics = axum::routing::get(move || {
        let text = handle.render();
        async move { ([(header::CONTENT_TYPE, fleet::METRICS_CONTENT_TYPE)], text) }
    });
    let app = Router::new().route("/metrics", metrics);
    tokio::spawn(async move {
        if let Err(why) = axum::serve(listener, app).await {
            eprintln!("compute: the metrics listener stopped: {why}");
        }
    });
    Ok(())
}

/// `Vary` names the headers the request's links were read from (none for a
/// fixed public URL).
async fn links_vary(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let read = req.link_vary();
    let mut res = next.run(req).await;
    if let Some(read) = read {
        let present: Vec<&str> =
            res.headers().get_all(header::VARY).iter().filter_map(|v| v.to_str().ok()).collect();
        let merged = microversion_core::header::append_vary(&present.join(", "), read);
        if let Ok(value) = HeaderValue::try_from(merged) {
            res.headers_mut().insert(header::VARY, value);
        }
    }
    res
}

/// Serves `settings` on `listener` until the process stops (SIGTERM,
/// SIGINT): the example's `main`, on a tokio runtime of two workers.
pub fn run(listener: TcpListener, settings: Settings) -> std::io::Result<()> {
    listener.set_nonblocking(true)?;
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    runtime.block_on(async move { server(listener, settings).await?.await })
}

/// The server on `listener`, started (store open, cap read) and ready to
/// await, with the deadlines and limits of docs/12-deploying.md: those of
/// the actix build, by the facade's [`serve`](microversion_axum::serve()).
async fn server(listener: TcpListener, settings: Settings) -> std::io::Result<Serve> {
    let (store, cap) = settings::start(&settings).await?;
    if let Some(addr) = settings.metrics_listen {
        serve_metrics(addr)?;
    }
    let app = router(store, cap, &settings);
    Ok(microversion_axum::serve(tokio::net::TcpListener::from_std(listener)?, app)
        .head_timeout(settings.head_timeout.unwrap_or(REQUEST_HEAD_TIMEOUT))
        .max_connections(MAX_CONNECTIONS)
        .shutdown_timeout(SHUTDOWN_TIMEOUT))
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
                let server = match server(listener, settings).await {
                    Ok(server) => server,
                    Err(e) => {
                        let _ = started.send(Err(e.to_string()));
                        return Err(e);
                    }
                };
                let _ = started.send(Ok(()));
                server
                    .with_graceful_shutdown(async move {
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
