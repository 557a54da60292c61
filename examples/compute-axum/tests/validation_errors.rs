//! The compute example's `validation_errors` suite (examples/compute/tests/validation_errors.rs),
//! run against the axum build: its `compute` is this crate.

extern crate compute_axum as compute;

#[path = "../../compute/tests/validation_errors.rs"]
mod validation_errors;
