//! Shared code of the fuzz targets. The properties live beside the stable
//! tests that run them in `cargo test`, and are included from there, so
//! that the fuzzer and CI check exactly the same thing:
//! - `oracle`: `microversion-core/tests/support/negotiation_oracle.rs`;
//! - `body`: `microversion-actix/tests/support/hostile_body.rs`;
//! - `http`: `examples/compute/tests/common/mod.rs` (the response contract
//!   of the hostile-input suite);
//! - `service`: the compute example as an in-process actix service.

#[path = "../../microversion-core/tests/support/negotiation_oracle.rs"]
pub mod oracle;

#[path = "../../microversion-actix/tests/support/hostile_body.rs"]
pub mod body;

#[path = "../../examples/compute/tests/common/mod.rs"]
pub mod http;

pub mod service;
