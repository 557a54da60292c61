//! The compute example served by axum: the compute library, whose one
//! controller source both facades serve, with its crate-root server
//! ([`run`], [`RunningServer`], [`FRAMEWORK`]) taken from `on_axum`, so
//! that the example's program and suites, built here, run on axum. The
//! actix-only items of the library's root (`routes`, `server`) are not
//! here: a suite that needs them runs on actix only.

pub use compute_library::on_axum::{RunningServer, router, run, token_pins};
pub use compute_library::{
    COMPUTE, CapChange, DISCONNECT_TIMEOUT, Framework, KEEP_ALIVE, MAX_CONNECTIONS, PublicUrl,
    REQUEST_HEAD_TIMEOUT, SHUTDOWN_TIMEOUT, Settings, Store, TOKEN_HEADER, Version, api, client, description,
    on_actix, on_axum, read_cap_file, reload_cap,
};

/// The framework this crate's root serves with.
pub const FRAMEWORK: Framework = Framework::Axum;
