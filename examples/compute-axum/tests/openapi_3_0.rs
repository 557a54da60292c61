//! The compute example's `openapi_3_0` suite (examples/compute/tests/openapi_3_0.rs),
//! run against the axum build: its `compute` is this crate.

extern crate compute_axum as compute;

#[path = "../../compute/tests/openapi_3_0.rs"]
mod openapi_3_0;
