//! The compute example's `links` suite (examples/compute/tests/links.rs),
//! run against the axum build: its `compute` is this crate.

extern crate compute_axum as compute;

#[path = "../../compute/tests/links.rs"]
mod links;
