//! The compute example's `pinned_tokens` suite (examples/compute/tests/pinned_tokens.rs),
//! run against the axum build: it starts this package's `compute-axum`.

#[path = "../../compute/tests/pinned_tokens.rs"]
mod pinned_tokens;
