//! The whole compute example as an in-process actix service: any method,
//! target, headers (repeated, odd bytes) and body the HTTP codec would let
//! through. Every response keeps the contract of the hostile-input suite
//! (`examples/compute/tests/common/mod.rs`, `check_contract`): never a 5xx,
//! Nova fault bodies for errors, `Vary` and the negotiated version on the
//! versioned scope, the 400/406 of negotiation with the served range.
//!
//! Input: `METHOD TARGET`, header lines, an empty line, the body (see
//! seeds/compute_service).

#![no_main]

use libfuzzer_sys::fuzz_target;
use microversion_fuzz::{http, service};

fuzz_target!(|data: &[u8]| {
    let Some(case) = service::parse(data) else { return };
    let res = service::serve(&case);
    if let Err(broken) = http::check_contract(&case.method, &case.target, &case.headers, &res) {
        panic!("{} {}: {broken}", case.method, String::from_utf8_lossy(&case.target));
    }
});
