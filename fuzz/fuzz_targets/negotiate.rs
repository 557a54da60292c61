//! Header negotiation on arbitrary header names and bytes, repeated headers
//! included: the outcome is the one DESIGN 3.2 states (a naive oracle,
//! shared with `microversion-core/tests/fuzz_properties.rs`), a served
//! version or a 400/406 naming the served range, for six declarations
//! (legacy headers, default, disabled versions, cap) and Nova's.
//!
//! Input: header lines `name: value`, one per `\n` (see seeds/negotiate).

#![no_main]

use libfuzzer_sys::fuzz_target;
use microversion_fuzz::oracle;

fuzz_target!(|data: &[u8]| {
    let headers = oracle::parse_lines(data);
    if let Err(disagreement) = oracle::check_all(&headers) {
        panic!("{disagreement}");
    }
    let pairs: Vec<(&[u8], &[u8])> = headers.iter().map(|(n, v)| (n.as_slice(), v.as_slice())).collect();
    if let Err(disagreement) = oracle::check(&compute::COMPUTE, &pairs) {
        panic!("{disagreement}");
    }
});
