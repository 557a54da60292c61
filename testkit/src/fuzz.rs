//! The property each fuzz target checks, on the bytes libFuzzer hands it.
//! The targets in `fuzz/fuzz_targets/` only call these, and the stable
//! tests replay every seed of `fuzz/seeds/<target>/` through the same
//! functions, so the fuzzer and `cargo test` check exactly the same thing.

use crate::{body, http, negotiation, service};

/// What a property made of an input it did not find broken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checked {
    /// The input was a case, and the property holds.
    Held,
    /// The input is not a case (bytes the HTTP codec would refuse, or a
    /// malformed input); nothing was checked.
    NotACase,
}

/// A property: what it made of the input, or the broken property described.
pub type Property = fn(&[u8]) -> Result<Checked, String>;

/// Every fuzz target, by name (its binary in `fuzz/` and its seed
/// directory), with its property.
pub const TARGETS: [(&str, Property); 3] =
    [("negotiate", negotiate), ("schema_body", schema_body), ("compute_service", compute_service)];

/// Header lines `name: value`, one per `\n`: the negotiation oracle agrees
/// with `Api::negotiate` for six declarations and for the compute example's.
pub fn negotiate(data: &[u8]) -> Result<Checked, String> {
    let headers = negotiation::parse_lines(data);
    negotiation::check_all(&headers)?;
    let pairs: Vec<(&[u8], &[u8])> = headers.iter().map(|(n, v)| (n.as_slice(), v.as_slice())).collect();
    negotiation::check(&compute::COMPUTE, &pairs)?;
    Ok(Checked::Held)
}

/// The content type on the first line (`~` alone for none), the version on
/// the second, then the body: [`body::check`].
pub fn schema_body(data: &[u8]) -> Result<Checked, String> {
    let Some(case) = body::parse_input(data) else { return Ok(Checked::NotACase) };
    body::check(&case)?;
    Ok(Checked::Held)
}

/// `METHOD TARGET`, header lines, an empty line, the body: served in
/// process by the compute example and checked with [`http::check_contract`].
pub fn compute_service(data: &[u8]) -> Result<Checked, String> {
    let Some(case) = service::parse(data) else { return Ok(Checked::NotACase) };
    let res = service::serve(&case);
    http::check_contract(&case.method, &case.target, &case.headers, &res)
        .map_err(|broken| format!("{} {}: {broken}", case.method, String::from_utf8_lossy(&case.target)))?;
    Ok(Checked::Held)
}
