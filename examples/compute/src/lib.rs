//! A small Nova-flavored compute API built with `microversion`: flavors and
//! keypairs following Nova's real microversion history, so that unmodified
//! OpenStack clients (python-novaclient, keystoneauth1) use it.
//!
//! Run it with `cargo run --example compute`; it listens on
//! `127.0.0.1:8774` with discovery at `/` and the API under `/v2.1`. The
//! controllers are one source, written with the core's portable types and
//! registered with both facades: [`on_actix`] serves them on actix-web (the
//! crate root's default), [`on_axum`] on axum (`cargo run -p
//! microversion-example-compute-axum`).

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
    DISCONNECT_TIMEOUT, KEEP_ALIVE, MAX_CONNECTIONS, REQUEST_HEAD_TIMEOUT, SHUTDOWN_TIMEOUT, Settings,
};
pub use store::Store;

/// Served by actix-web unless a caller picks [`on_axum`]: its routes, its
/// server and a server for tests (`examples/compute-axum` picks axum).
pub use on_actix::{RunningServer, routes, routes_with, run, server, server_with, token_pins};

/// The framework a build serves with, for the tests run on both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framework {
    /// actix-web ([`on_actix`]).
    Actix,
    /// axum ([`on_axum`]).
    Axum,
}

/// The framework the crate root serves with ([`run`], [`RunningServer`]).
pub const FRAMEWORK: Framework = Framework::Actix;

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
