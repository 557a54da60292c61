//! A small Nova-flavored compute API built with `microversion`: flavors and
//! keypairs following Nova's real microversion history, so that unmodified
//! OpenStack clients (python-novaclient, keystoneauth1) use it.
//!
//! Run it with `cargo run --example compute`; it listens on
//! `127.0.0.1:8774` with discovery at `/` and the API under `/v2.1`.

pub mod api;
mod flavors;
mod keypairs;
mod listing;
mod store;
mod time;

use std::net::TcpListener;
use std::sync::Arc;

use actix_web::http::header;
use actix_web::middleware::DefaultHeaders;
use actix_web::{App, HttpResponse, HttpServer, web};
use microversion_actix::{
    ApiError, Discovery, ErrorRenderer, FORWARDING_HEADERS, Microversions, NovaFaults, Version,
};

pub use api::COMPUTE;
pub use store::Store;

/// Registers discovery at `/` and `/v2.1` and the API under `/v2.1`, with
/// Nova-style fault bodies, and a JSON 404 for every other path. `cap`
/// lowers the served maximum (Ironic-style pinning during a rolling upgrade).
pub fn routes(store: Arc<Store>, cap: Option<Version>) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        let api = match cap {
            Some(cap) => COMPUTE.capped_at(cap).expect("the cap was checked at start-up"),
            None => COMPUTE,
        };
        cfg.service(Discovery::new(&[api]).error_format(NovaFaults::default()))
            .service(
                web::scope("/v2.1")
                    // Flavor and keypair links are built from the forwarded host and
                    // scheme: say so, or a shared cache serves one client's links to all.
                    .wrap(DefaultHeaders::new().add((header::VARY, FORWARDING_HEADERS)))
                    .wrap(Microversions::new(api).error_format(NovaFaults::default()))
                    .service(flavors::Flavors::new(store.clone()))
                    .service(flavors::FlavorExtraSpecs::new(store.clone()))
                    .service(keypairs::Keypairs::new(store)),
            )
            .default_service(web::to(not_found));
    }
}

/// A path outside discovery and the API: actix's own 404 has an empty body.
async fn not_found() -> HttpResponse {
    ErrorRenderer::new(NovaFaults::default())
        .service(COMPUTE.service_type())
        .render(&ApiError::not_found("The resource could not be found."))
}

/// The HTTP server on `listener`, with fresh in-memory state (a few flavors).
/// Await it inside an actix system.
pub fn server(listener: TcpListener, cap: Option<Version>) -> std::io::Result<actix_web::dev::Server> {
    let store = Arc::new(Store::with_default_flavors());
    Ok(HttpServer::new(move || App::new().configure(routes(store.clone(), cap)))
        .workers(2)
        .listen(listener)?
        .run())
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
    /// Starts a server on `127.0.0.1:0`.
    pub fn start() -> std::io::Result<RunningServer> {
        RunningServer::start_with_cap(None)
    }

    /// Starts a server on `127.0.0.1:0` with the served maximum capped.
    pub fn start_with_cap(cap: Option<Version>) -> std::io::Result<RunningServer> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let url = format!("http://{}", listener.local_addr()?);
        let (sender, receiver) = std::sync::mpsc::channel();
        let thread = std::thread::spawn(move || {
            actix_web::rt::System::new().block_on(async move {
                let server = server(listener, cap)?;
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
