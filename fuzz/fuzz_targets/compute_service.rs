//! The whole compute example as an in-process actix service: any method,
//! target, headers (repeated, odd bytes) and body the HTTP codec would let
//! through. Every response keeps the contract of the hostile-input suite
//! (`microversion_testkit::http::check_contract`): never a 5xx,
//! Nova fault bodies for errors, `Vary` and the negotiated version on the
//! versioned scope, the 400/406 of negotiation with the served range.
//!
//! Input: `METHOD TARGET`, header lines, an empty line, the body (see
//! seeds/compute_service).

#![no_main]

use libfuzzer_sys::fuzz_target;
use microversion_testkit::fuzz;

fuzz_target!(|data: &[u8]| {
    if let Err(broken) = fuzz::compute_service(data) {
        panic!("{broken}");
    }
});
