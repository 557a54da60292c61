//! The compute example's `hostile_input` suite (examples/compute/tests/hostile_input.rs),
//! run against the axum build: its `compute` is this crate.

extern crate compute_axum as compute;

#[path = "../../compute/tests/hostile_input.rs"]
mod hostile_input;
