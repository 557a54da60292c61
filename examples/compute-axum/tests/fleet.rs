//! The compute example's `fleet` suite (examples/compute/tests/fleet.rs),
//! run against the axum build: it starts this package's `compute-axum`.

#[path = "../../compute/tests/fleet.rs"]
mod fleet;
