//! The `shutdown` suite (`suites/shutdown.rs`), run against the compute example
//! served by each framework: one suite, the same answers asked of both.

// The suite's source (and what it loads) is compiled once per framework,
// on purpose.
#![allow(clippy::duplicate_mod)]

#[path = "suites"]
mod on_actix {
    const FRAMEWORK: compute::Framework = compute::Framework::Actix;
    #[path = "shutdown.rs"]
    mod shutdown;
}

#[path = "suites"]
mod on_axum {
    const FRAMEWORK: compute::Framework = compute::Framework::Axum;
    #[path = "shutdown.rs"]
    mod shutdown;
}
