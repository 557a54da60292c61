//! The compute example's `shutdown` suite (examples/compute/tests/shutdown.rs),
//! run against the axum build: it starts this package's `compute-axum`.

#[path = "../../compute/tests/shutdown.rs"]
mod shutdown;
