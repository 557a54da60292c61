//! The compute example's `store_failures` suite (examples/compute/tests/store_failures.rs),
//! run against the axum build: it starts this package's `compute-axum`.

#[path = "../../compute/tests/store_failures.rs"]
mod store_failures;
