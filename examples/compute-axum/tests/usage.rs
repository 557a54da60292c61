//! The compute example's `usage` suite (examples/compute/tests/usage.rs),
//! run against the axum build: its `compute` is this crate.

extern crate compute_axum as compute;

#[path = "../../compute/tests/usage.rs"]
mod usage;
