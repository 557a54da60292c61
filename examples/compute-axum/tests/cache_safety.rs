//! The compute example's `cache_safety` suite (examples/compute/tests/cache_safety.rs),
//! run against the axum build: its `compute` is this crate.

extern crate compute_axum as compute;

#[path = "../../compute/tests/cache_safety.rs"]
mod cache_safety;
