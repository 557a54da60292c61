//! A small Nova-flavored compute API built with `microversion`: flavors and
//! keypairs following Nova's real microversion history, so that unmodified
//! OpenStack clients (python-novaclient, keystoneauth1) use it.
//!
//! Run it with `cargo run --example compute`; it listens on
//! `127.0.0.1:8774` with discovery at `/` and the API under `/v2.1`.

pub mod api;
#[path = "../../common/database.rs"]
mod database;
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

#[cfg(not(compute_on_axum))]
mod serve_actix;
#[cfg(compute_on_axum)]
mod serve_axum;

pub use api::COMPUTE;
pub use fleet::{CapChange, TOKEN_HEADER, read_cap_file, reload_cap, token_pins};
pub use settings::{
    DISCONNECT_TIMEOUT, KEEP_ALIVE, MAX_CONNECTIONS, REQUEST_HEAD_TIMEOUT, SHUTDOWN_TIMEOUT, Settings,
};
pub use store::Store;

#[cfg(not(compute_on_axum))]
pub use serve_actix::*;
#[cfg(compute_on_axum)]
pub use serve_axum::*;

/// The version type of the framework the example is built on.
pub use web::framework::Version;
/// Where links point (`--public-url`, `--trust-proxies`), on either framework.
pub use web::framework::discovery::PublicUrl;

/// The API's description: its OpenAPI documents per version and for the
/// whole history, built from the controllers' declarations.
pub fn description(api: microversion_core::Api) -> microversion_core::openapi::ApiDescription {
    use microversion_core::openapi::ApiDescription;
    ApiDescription::new(api)
        .with_title("Compute API (microversion example)")
        .with_prefix("/v2.1")
        .controller::<flavors::Flavors>()
        .controller::<flavors::FlavorExtraSpecs>()
        .controller::<keypairs::Keypairs>()
        .with_error_format(&microversion_core::NovaFaults::default())
}
