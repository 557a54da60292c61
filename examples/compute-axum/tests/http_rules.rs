//! The compute example's `http_rules` suite (examples/compute/tests/http_rules.rs),
//! run against the axum build: its `compute` is this crate.

extern crate compute_axum as compute;

#[path = "../../compute/tests/http_rules.rs"]
mod http_rules;
