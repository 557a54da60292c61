//! A small Nova-flavored compute API built with `microversion`: flavors and
//! keypairs following Nova's real microversion history, so that unmodified
//! OpenStack clients (python-novaclient, keystoneauth1) use it.
//!
//! Run it with `cargo run --example compute`; it listens on
//! `127.0.0.1:8774` with discovery at `/` and the API under `/v2.1`. The
//! controllers are one source, written with the core's portable types and
//! registered with both facades: [`on_actix`] serves them on actix-web (the
//! default), [`on_axum`] on axum (`cargo run --example compute --
//! --framework axum`), as [`Settings::framework`] names.

pub mod api;
pub mod client;
#[path = "../../common/database.rs"]
mod database;
mod extra_specs;
mod flavor_access;
mod flavors;
mod fleet;
mod keypairs;
mod listing;
mod pkcs12;
mod request_id;
mod settings;
mod store;
mod time;
mod web;

pub mod on_actix;
pub mod on_axum;

pub use api::COMPUTE;
pub use fleet::{CapChange, TOKEN_HEADER, read_cap_file, reload_cap};
pub use keypairs::KEYPAIR_QUOTA;
pub use settings::{
    DISCONNECT_TIMEOUT, Framework, KEEP_ALIVE, MAX_CONNECTIONS, REQUEST_HEAD_TIMEOUT, SHUTDOWN_TIMEOUT,
    Settings,
};
pub use store::Store;

/// The actix-web build's routes and server, for tests that call its
/// service in-process (`actix_web::test`).
pub use on_actix::{routes, routes_with, server, server_with};

/// Serves `settings` on `listener` until the process stops, on the
/// framework the settings name: the example's `main`.
pub fn run(listener: std::net::TcpListener, settings: Settings) -> std::io::Result<()> {
    match settings.framework {
        Framework::Actix => on_actix::run(listener, settings),
        Framework::Axum => on_axum::run(listener, settings),
    }
}

/// A server running on a free loopback port in a background thread, on
/// either framework, stopped when dropped. For tests and load scripts.
pub struct RunningServer {
    /// The root URL, `http://127.0.0.1:PORT`.
    pub url: String,
    /// The framework's own running server, which stops it when dropped.
    _running: Box<dyn Send>,
}

impl RunningServer {
    /// Starts a server on `framework` with [`Settings::checked`].
    pub fn start(framework: Framework) -> std::io::Result<RunningServer> {
        RunningServer::start_with(Settings::checked(framework, None))
    }

    /// Starts a server on `framework`, its served maximum capped, with
    /// [`Settings::checked`].
    pub fn start_with_cap(framework: Framework, cap: Option<Version>) -> std::io::Result<RunningServer> {
        RunningServer::start_with(Settings::checked(framework, cap))
    }

    /// Starts a server with `settings`, on the framework they name.
    pub fn start_with(settings: Settings) -> std::io::Result<RunningServer> {
        Ok(match settings.framework {
            Framework::Actix => {
                let server = on_actix::RunningServer::start_with(settings)?;
                RunningServer { url: server.url.clone(), _running: Box::new(server) }
            }
            Framework::Axum => {
                let server = on_axum::RunningServer::start_with(settings)?;
                RunningServer { url: server.url.clone(), _running: Box::new(server) }
            }
        })
    }
}

pub use microversion_core::{Version, discovery::PublicUrl};

/// The API's description: its OpenAPI documents per version and for the
/// whole history, built from the controllers' declarations.
pub fn description(api: microversion_core::Api) -> microversion_core::openapi::ApiDescription {
    use microversion_core::openapi::ApiDescription;
    ApiDescription::new(api)
        .with_title("Compute API (microversion example)")
        .with_prefix("/v2.1")
        .controller::<flavors::Flavors>()
        .controller::<flavors::FlavorExtraSpecs>()
        .controller::<flavor_access::FlavorAccess>()
        .controller::<keypairs::Keypairs>()
        .with_error_format(&microversion_core::error::NovaFaults::default())
}

/// Nova's negotiation and discovery settings over a facade's headers (one
/// source for both builds): its faults, the served maximum `cap`, its
/// request ids on every answer (the negotiation's 400 and 406 too, and a
/// store failure's the one it was logged under, `store::Unavailable`), and
/// `pins` choosing the version of a client that names none, when the
/// deployment pins versions to tokens.
fn nova_settings<W: microversion_core::exchange::ChoiceWire>(
    cap: &microversion_core::version::VersionCap,
    pins: Option<microversion_core::exchange::ClientDefault<W>>,
) -> (microversion_core::exchange::Negotiation<W>, microversion_core::discovery::DiscoverySettings<W>) {
    use microversion_core::error::NovaFaults;
    let api = *cap.declaration();
    let negotiation = microversion_core::exchange::Negotiation::new(api)
        .with_version_cap(cap.clone())
        .with_error_format(NovaFaults::default())
        .with_request_ids(&request_id::HEADERS);
    let discovery = microversion_core::discovery::DiscoverySettings::new(&[api])
        .with_version_cap(cap.clone())
        .with_error_format(NovaFaults::default());
    match pins {
        Some(pins) => {
            (negotiation.with_client_default(pins.clone()), discovery.with_client_default(&api, pins))
        }
        None => (negotiation, discovery),
    }
}
