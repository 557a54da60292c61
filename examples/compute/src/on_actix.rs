//! The compute example served by actix-web: routes, the HTTP server and
//! its deadlines, the metrics endpoint, and a server for tests. The
//! controllers are the same source as [`on_axum`](crate::on_axum)'s.

use std::net::TcpListener;
use std::sync::Arc;

use actix_web::dev::Service as _;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{App, HttpServer, web};
use microversion_actix::openapi::{OpenApiService, OpenApiSettings};
use microversion_actix::{
    Discovery, Version, VersionNegotiation, body::BodyTimeout, discovery::RequestLinks,
    middleware::ClientDefault, version::VersionCap,
};

use crate::settings::{
    self, DISCONNECT_TIMEOUT, KEEP_ALIVE, MAX_CONNECTIONS, REQUEST_HEAD_TIMEOUT, SHUTDOWN_TIMEOUT, Settings,
};
use crate::{COMPUTE, Store, TOKEN_HEADER, description, flavor_access, flavors, fleet, keypairs};

/// Registers discovery at `/` and `/v2.1` and the API under `/v2.1`, with
/// Nova-style fault bodies, and a JSON 404 for every other path. `cap`
/// lowers the served maximum (Ironic-style pinning during a rolling upgrade).
/// Links come from the [`PublicUrl`](crate::PublicUrl) in app data (see [`Settings`]).
pub fn routes(store: Arc<Store>, cap: Option<Version>) -> impl FnOnce(&mut web::ServiceConfig) {
    let api = match cap {
        Some(cap) => COMPUTE.capped_at(cap).expect("the cap was checked at start-up"),
        None => COMPUTE,
    };
    routes_with(store, VersionCap::new(&api), false)
}

/// [`routes`] with a cap that can change while serving: the middleware and
/// discovery share `cap` (docs/reference.md §13.4). With `pin_versions`,
/// each client token keeps the version of its first request naming none
/// ([`token_pins`]).
pub fn routes_with(
    store: Arc<Store>,
    cap: VersionCap,
    pin_versions: bool,
) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        let api = *cap.declaration();
        let pins = pin_versions.then(|| token_pins(store.clone(), cap.clone()));
        let (negotiation, discovery) = crate::nova_settings(&cap, pins);
        let (microversions, discovery) = (VersionNegotiation::new(negotiation), Discovery::new(discovery));
        let not_found = microversions.default_service();
        let documents = OpenApiService::new(
            OpenApiSettings::new(description(api))
                .with_reference()
                .with_error_renderer(microversions.error_renderer()),
        );
        cfg.service(discovery)
            .service(documents)
            .service(
                web::scope("/v2.1")
                    // Flavor and keypair links are built from the public URL: name the
                    // headers it read, or a shared cache serves one client's links to all.
                    .wrap_fn(|req, service| {
                        let vary = req.request().link_vary();
                        let response = service.call(req);
                        async move {
                            let mut res = response.await?;
                            if let Some(vary) = vary
                                && !res.headers().contains_key(header::VARY)
                            {
                                res.headers_mut().insert(header::VARY, HeaderValue::from_static(vary));
                            }
                            Ok(res)
                        }
                    })
                    .wrap(microversions)
                    .service(flavors::Flavors::new(store.clone()))
                    .service(flavors::FlavorExtraSpecs::new(store.clone()))
                    .service(flavor_access::FlavorAccess::new(store.clone()))
                    .service(keypairs::Keypairs::new(store)),
            )
            // A path outside discovery and the API: actix's own 404 has an empty body.
            .default_service(not_found);
    }
}

/// Each client token pinned to a version (`fleet::pinned_version`).
pub fn token_pins(store: Arc<Store>, cap: VersionCap) -> ClientDefault {
    ClientDefault::new(&[TOKEN_HEADER], move |headers| {
        let token = headers.get(TOKEN_HEADER).and_then(|v| v.to_str().ok());
        fleet::pinned_version(&store, &cap, token)
    })
}

/// Serves the per-version request counts in Prometheus text at
/// `GET /metrics` on `addr`, outside the API. Call it inside the server's
/// runtime; once per process.
fn serve_metrics(addr: std::net::SocketAddr) -> std::io::Result<()> {
    use actix_web::HttpResponse;
    let handle = fleet::metrics_recorder()?;
    let server = HttpServer::new(move || {
        let handle = handle.clone();
        App::new().route(
            "/metrics",
            web::get().to(move || {
                let text = handle.render();
                async move { HttpResponse::Ok().content_type(fleet::METRICS_CONTENT_TYPE).body(text) }
            }),
        )
    })
    .workers(1)
    .disable_signals()
    .bind(addr)?
    .run();
    actix_web::rt::spawn(server);
    Ok(())
}

/// The HTTP server on `listener`, with fresh in-memory state (a few flavors).
/// Await it inside an actix system.
pub async fn server(listener: TcpListener, cap: Option<Version>) -> std::io::Result<actix_web::dev::Server> {
    server_with(listener, Settings { cap, ..Settings::default() }).await
}

/// The HTTP server on `listener` with `settings`, and deadlines for every
/// phase of a connection (docs/12-deploying.md): the first request head,
/// a request body, keep-alive idleness and closing.
///
/// With a cap file or a metrics address, call it inside an actix system (as
/// `main` does): SIGHUP then reloads the cap without a restart; an
/// unreadable file or an undeclared version is logged and the running cap
/// kept (docs/reference.md §13.4).
pub async fn server_with(
    listener: TcpListener,
    settings: Settings,
) -> std::io::Result<actix_web::dev::Server> {
    let (store, version_cap) = settings::start(&settings).await?;
    if let Some(addr) = settings.metrics_listen {
        serve_metrics(addr)?;
    }
    let body_timeout = BodyTimeout(settings.body_timeout.unwrap_or(BodyTimeout::DEFAULT.0));
    let head_timeout = settings.head_timeout.unwrap_or(REQUEST_HEAD_TIMEOUT);
    let (public_url, validation, pins) =
        (settings.public_url, settings.response_validation, settings.pin_versions);
    Ok(HttpServer::new(move || {
        App::new()
            .app_data(public_url.clone())
            .app_data(body_timeout)
            .app_data(validation)
            .configure(routes_with(store.clone(), version_cap.clone(), pins))
    })
    .workers(2)
    .client_request_timeout(head_timeout)
    .client_disconnect_timeout(DISCONNECT_TIMEOUT)
    .keep_alive(KEEP_ALIVE)
    .max_connections(MAX_CONNECTIONS)
    // SIGTERM and SIGINT stop it gracefully (actix's own signal handling).
    .shutdown_timeout(SHUTDOWN_TIMEOUT.as_secs())
    .listen(listener)?
    .run())
}

/// Serves `settings` on `listener` until the process stops: the example's
/// `main`.
pub fn run(listener: TcpListener, settings: Settings) -> std::io::Result<()> {
    actix_web::rt::System::new().block_on(async move { server_with(listener, settings).await?.await })
}

/// A server running on a free loopback port in a background thread, stopped
/// when dropped. For tests and load scripts.
pub struct RunningServer {
    /// The root URL, `http://127.0.0.1:PORT`.
    pub url: String,
    handle: actix_web::dev::ServerHandle,
    thread: Option<std::thread::JoinHandle<std::io::Result<()>>>,
}

impl RunningServer {
    /// Starts a server on `127.0.0.1:0` with `settings`.
    pub fn start_with(settings: Settings) -> std::io::Result<RunningServer> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let url = format!("http://{}", listener.local_addr()?);
        let (sender, receiver) = std::sync::mpsc::channel();
        let thread = std::thread::spawn(move || {
            actix_web::rt::System::new().block_on(async move {
                let server = server_with(listener, settings).await?;
                let _ = sender.send(server.handle());
                server.await
            })
        });
        let handle = receiver.recv().map_err(|_| std::io::Error::other("the server failed to start"))?;
        Ok(RunningServer { url, handle, thread: Some(thread) })
    }
}

impl Drop for RunningServer {
    fn drop(&mut self) {
        actix_web::rt::System::new().block_on(self.handle.stop(true));
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
