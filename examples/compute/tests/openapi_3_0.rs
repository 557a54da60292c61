//! The `openapi_3_0` suite (`suites/openapi_3_0.rs`), run against the compute example
//! served by each framework: one suite, the same answers asked of both.

// The suite's source (and what it loads) is compiled once per framework,
// on purpose.
#![allow(clippy::duplicate_mod)]

#[path = "suites"]
mod on_actix {
    const FRAMEWORK: compute::Framework = compute::Framework::Actix;
    #[path = "openapi_3_0.rs"]
    mod openapi_3_0;
}

#[path = "suites"]
mod on_axum {
    const FRAMEWORK: compute::Framework = compute::Framework::Axum;
    #[path = "openapi_3_0.rs"]
    mod openapi_3_0;
}
