//! Versions, ranges of them, the served maximum that moves at run time
//! ([`VersionCap`]), and what negotiating a request gives: the version and
//! where it came from ([`Negotiated`]), or why none was chosen
//! ([`NegotiationError`]). The same names as `microversion_actix::version`.

pub use microversion_core::{
    CapError, InvertedRange, Negotiated, NegotiationError, ParseVersionError, Version, VersionCap,
    VersionHeader, VersionRange, VersionSource,
};
/// Behaviours that each begin at a version, read together (docs/05-in-handler-checks.md).
#[doc(inline)]
pub use microversion_macros::version_gates;
