//! The `request_ids` suite (`suites/request_ids.rs`), run against the compute example
//! served by each framework: one suite, the same answers asked of both.

// The suite's source (and what it loads) is compiled once per framework,
// on purpose.
#![allow(clippy::duplicate_mod)]

#[path = "suites"]
mod on_actix {
    const FRAMEWORK: compute::Framework = compute::Framework::Actix;
    #[path = "request_ids.rs"]
    mod request_ids;
}

#[path = "suites"]
mod on_axum {
    const FRAMEWORK: compute::Framework = compute::Framework::Axum;
    #[path = "request_ids.rs"]
    mod request_ids;
}
