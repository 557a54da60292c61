//! The `validation_errors` suite (`suites/validation_errors.rs`), run against the compute example
//! served by each framework: one suite, the same answers asked of both.

// The suite's source (and what it loads) is compiled once per framework,
// on purpose.
#![allow(clippy::duplicate_mod)]

#[path = "suites"]
mod on_actix {
    const FRAMEWORK: compute::Framework = compute::Framework::Actix;
    #[path = "validation_errors.rs"]
    mod validation_errors;
}

#[path = "suites"]
mod on_axum {
    const FRAMEWORK: compute::Framework = compute::Framework::Axum;
    #[path = "validation_errors.rs"]
    mod validation_errors;
}
