//! Arbitrary body bytes and content types through `read_json_body` and
//! `VersionedSchemas::validate`, as a dispatcher runs them: the outcome the
//! rules of docs/reference.md §6.2 state (415, 413, 400, or the parsed document), a
//! validation that succeeds or lists bounded violations at paths of the
//! document in a 400 (the verdict of documents known per version), errors
//! that render as JSON, and never a panic or a 5xx. The properties are
//! `microversion_testkit::body`.
//!
//! Input: the content type on the first line (`~` alone for none), the
//! version on the second, then the body (see seeds/schema_body).

#![no_main]

use libfuzzer_sys::fuzz_target;
use microversion_testkit::fuzz;

fuzz_target!(|data: &[u8]| {
    if let Err(broken) = fuzz::schema_body(data) {
        panic!("{broken}");
    }
});
