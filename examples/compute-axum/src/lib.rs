//! The compute example served by axum: the compute library, whose one
//! controller source both facades serve, with its crate-root server
//! ([`run`], [`RunningServer`], [`FRAMEWORK`]) taken from `on_axum`, so
//! that the example's program and suites, built here, run on axum.

pub use compute_library::on_axum::{RunningServer, router, run, token_pins};
pub use compute_library::*;

/// The framework this crate's root serves with.
pub const FRAMEWORK: Framework = Framework::Axum;
