//! The compute example's `openapi` suite (examples/compute/tests/openapi.rs),
//! run against the axum build: its `compute` is this crate.

extern crate compute_axum as compute;

#[path = "../../compute/tests/openapi.rs"]
mod openapi;
