//! The compute example's `interop` suite (examples/compute/tests/interop.rs),
//! run against the axum build: its `compute` is this crate.

extern crate compute_axum as compute;

#[path = "../../compute/tests/interop.rs"]
mod interop;
