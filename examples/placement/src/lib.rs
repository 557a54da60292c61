//! OpenStack Placement built with `microversion`: resource providers,
//! inventories, usages, resource classes, traits, aggregates, allocations
//! and consumers, and the reshaper, versions 1.0 to 1.39, stored in SQLite
//! or PostgreSQL.
//!
//! Run it with `cargo run --example placement -- --listen HOST:PORT
//! --database PATH|URL`. Placement's own gabbi tests run against it in
//! `tests/gabbi.rs`.

mod aggregates;
mod allocations;
pub mod api;
mod candidates;
#[path = "../../common/database.rs"]
mod database;
pub mod db;
pub mod deadline;
mod departure;
pub mod errors;
mod http;
mod inventories;
mod query;
mod reshaper;
mod resource_classes;
mod resource_providers;
mod root;
pub mod standard;
pub mod store;
mod traits;
mod usages;

use std::net::TcpListener;
use std::path::Path;
use std::sync::Arc;

use actix_web::{App, HttpServer, web};
use microversion_actix::{Negotiation, VersionNegotiation};

pub use api::PLACEMENT;
pub use errors::PlacementErrors;
pub use store::Store;

/// `database` fit for a log line, its password replaced by `***`.
pub fn redacted(database: &str) -> String {
    database::redacted(database)
}

/// Registers the whole API at the root, as Placement serves it.
pub fn routes(store: Arc<Store>) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        let budget = store.deadline();
        // Placement's version middleware (microversion-parse's) names its
        // header in `Vary` in lower case and sends no `Cache-Control` on a
        // refusal, and webob makes a `Location` absolute: declared, so that
        // the answers are Placement's bytes.
        // Every answer names its request id (oslo's `RequestId`), the one
        // a failure was logged under (`errors::internal`) for a failure.
        let negotiation = Negotiation::new(PLACEMENT)
            .with_error_format(PlacementErrors)
            .with_lowercase_vary()
            .without_no_store_on_refusals()
            .with_absolute_locations()
            .with_request_ids(&["x-openstack-request-id"]);
        let microversions = VersionNegotiation::new(negotiation);
        // A target no scope matches (`*`): actix's own 404 has an empty body.
        let outside = microversions.default_service();
        cfg.service(
            web::scope("")
                .wrap(actix_web::middleware::from_fn(http::placement_rules))
                .wrap(microversions)
                .wrap(actix_web::middleware::from_fn(http::placement_outer))
                // Outermost: the deadline counts from the request's arrival.
                .wrap(actix_web::middleware::from_fn(move |req, next| deadline::within(budget, req, next)))
                .service(root::Root)
                .service(resource_providers::ResourceProviders::new(store.clone()))
                .service(inventories::Inventories::new(store.clone()))
                .service(usages::Usages::new(store.clone()))
                .service(aggregates::Aggregates::new(store.clone()))
                .service(resource_classes::ResourceClasses::new(store.clone()))
                .service(traits::Traits::new(store.clone()))
                .service(allocations::Allocations::new(store.clone()))
                .service(reshaper::Reshaper::new(store.clone()))
                .service(candidates::Candidates::new(store))
                .default_service(web::to(http::not_found)),
        )
        .default_service(outside);
    }
}

/// The HTTP server on `listener` over the SQLite database at `database`
/// (created on first start). Await it inside an actix system.
pub async fn server(listener: TcpListener, database: &Path) -> std::io::Result<actix_web::dev::Server> {
    server_at(listener, &database.to_string_lossy()).await
}

/// The HTTP server on `listener` over `database`: a `postgres://` URL or a
/// SQLite file (created on first start). Await it inside an actix system.
pub async fn server_at(listener: TcpListener, database: &str) -> std::io::Result<actix_web::dev::Server> {
    serve(listener, Store::connect(database).await.map_err(std::io::Error::other)?)
}

/// The HTTP server on `listener` over `store` (with its deadline), which
/// may still be preparing ([`Store::open`]). Await it inside an actix
/// system.
pub fn serve(listener: TcpListener, store: impl Into<Arc<Store>>) -> std::io::Result<actix_web::dev::Server> {
    serve_with(listener, store, None)
}

/// [`serve`], a client given `head_timeout` (actix's 5 s unless given) to
/// send its request's head.
fn serve_with(
    listener: TcpListener,
    store: impl Into<Arc<Store>>,
    head_timeout: Option<std::time::Duration>,
) -> std::io::Result<actix_web::dev::Server> {
    let store = store.into();
    let mut server = HttpServer::new(move || App::new().configure(routes(store.clone())))
        .on_connect(departure::watch)
        .workers(2);
    if let Some(timeout) = head_timeout {
        server = server.client_request_timeout(timeout);
    }
    Ok(server.listen(listener)?.run())
}

/// A server running on a free loopback port in a background thread, stopped
/// when dropped. For tests.
pub struct RunningServer {
    /// The root URL, `http://127.0.0.1:PORT`.
    pub url: String,
    handle: actix_web::dev::ServerHandle,
    thread: Option<std::thread::JoinHandle<std::io::Result<()>>>,
}

impl RunningServer {
    /// Starts a server on `127.0.0.1:0` over the SQLite database at `database`.
    pub fn start(database: &Path) -> std::io::Result<RunningServer> {
        RunningServer::start_at(&database.to_string_lossy())
    }

    /// Starts a server on `127.0.0.1:0` over `database`, a `postgres://`
    /// URL or a SQLite file.
    pub fn start_at(database: &str) -> std::io::Result<RunningServer> {
        RunningServer::spawn(database, None)
    }

    /// Starts a server as [`start`](Self::start) does, but one that waits
    /// `wait` where it would give up sooner: a request's deadline (not
    /// [`deadline::DEFAULT`]) and the time a client has to send a request's
    /// head (not actix's 5 s). For a test that compares its answers with a
    /// server that has neither, where a loaded machine must not turn into a
    /// difference.
    pub fn start_unhurried(database: &Path, wait: std::time::Duration) -> std::io::Result<RunningServer> {
        RunningServer::spawn(&database.to_string_lossy(), Some(wait))
    }

    fn spawn(database: &str, wait: Option<std::time::Duration>) -> std::io::Result<RunningServer> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let url = format!("http://{}", listener.local_addr()?);
        let database = database.to_owned();
        let (sender, receiver) = std::sync::mpsc::channel();
        let thread = std::thread::spawn(move || {
            actix_web::rt::System::new().block_on(async move {
                let store = Store::connect(&database).await.map_err(std::io::Error::other)?;
                let store = match wait {
                    Some(wait) => store.with_deadline(wait),
                    None => store,
                };
                let server = serve_with(listener, store, wait)?;
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
