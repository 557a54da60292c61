//! The compute example's `request_ids` suite (examples/compute/tests/request_ids.rs),
//! run against the axum build: its `compute` is this crate.

extern crate compute_axum as compute;

#[path = "../../compute/tests/request_ids.rs"]
mod request_ids;
