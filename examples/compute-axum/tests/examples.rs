//! The compute example's `examples` suite (examples/compute/tests/examples.rs),
//! run against the axum build: its `compute` is this crate.

extern crate compute_axum as compute;

#[path = "../../compute/tests/examples.rs"]
mod examples;
