//! Arbitrary body bytes and content types through `read_json_body` and
//! `VersionedSchemas::validate`, as a dispatcher runs them: the outcome the
//! rules of DESIGN 3.6 state (415, 413, 400, or the parsed document), a
//! validation that succeeds or lists bounded violations in a 400, errors
//! that render as JSON, and never a panic or a 5xx. The properties are
//! `microversion-actix/tests/support/hostile_body.rs`.
//!
//! Input: the content type on the first line (`~` alone for none), the
//! version on the second, then the body (see seeds/schema_body).

#![no_main]

use libfuzzer_sys::fuzz_target;
use microversion_fuzz::body;

fuzz_target!(|data: &[u8]| {
    if let Some(case) = body::parse_input(data)
        && let Err(broken) = body::check(&case)
    {
        panic!("{broken}");
    }
});
