//! The compute example's `typed_client` suite (examples/compute/tests/typed_client.rs),
//! run against the axum build: its `compute` is this crate.

extern crate compute_axum as compute;

#[path = "../../compute/tests/typed_client.rs"]
mod typed_client;
