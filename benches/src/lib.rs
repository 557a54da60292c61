//! Fixtures shared by the benchmarks, the load server and the tests of
//! `microversion-benches` (performance targets, docs/reference.md §11): generated controllers
//! with their hand-written twins, a realistic request schema and body, one
//! handler mounted plain and through the framework, and large version
//! histories built at run time.
//!
//! Run the benchmarks with `cargo bench -p microversion-benches`; the figures
//! and how to reproduce them are in `docs/performance.md`.

pub mod axum_server;
pub mod changes;
pub mod dispatch;
pub mod hand;
pub mod history;
pub mod schema;
pub mod server;
