//! Header negotiation on arbitrary header names and bytes, repeated headers
//! included: the outcome is the one docs/reference.md §2 states (the naive oracle of
//! `microversion_testkit::negotiation`), a served
//! version or a 400/406 naming the served range, for six declarations
//! (legacy headers, default, disabled versions, cap) and Nova's.
//!
//! Input: header lines `name: value`, one per `\n` (see seeds/negotiate).

#![no_main]

use libfuzzer_sys::fuzz_target;
use microversion_testkit::fuzz;

fuzz_target!(|data: &[u8]| {
    if let Err(broken) = fuzz::negotiate(data) {
        panic!("{broken}");
    }
});
