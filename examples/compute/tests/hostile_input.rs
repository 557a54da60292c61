//! The `hostile_input` suite (`suites/hostile_input.rs`), run against the compute example
//! served by each framework: one suite, the same answers asked of both.

// The suite's source (and what it loads) is compiled once per framework,
// on purpose.
#![allow(clippy::duplicate_mod)]

#[path = "suites"]
mod on_actix {
    const FRAMEWORK: compute::Framework = compute::Framework::Actix;
    #[path = "hostile_input.rs"]
    mod hostile_input;
}

#[path = "suites"]
mod on_axum {
    const FRAMEWORK: compute::Framework = compute::Framework::Axum;
    #[path = "hostile_input.rs"]
    mod hostile_input;
}
