//! Versions and the API's declaration: [`Version`] and [`VersionRange`],
//! the one [`Api`] declaration with its history, the deployer's
//! [`VersionCap`], and the version a request is served at
//! ([`Negotiated`], from [`Api::negotiate`], or [`NegotiationError`], its
//! 400 or 406).

pub(crate) mod api;
mod cap;
mod number;
mod range;
mod reader;
mod syntax;

#[doc(hidden)]
pub use api::STANDARD_HEADER;
pub use api::{Api, CapError, MAX_LEGACY_HEADERS, Microversion};
pub use cap::VersionCap;
pub use number::{ParseVersionError, Version};
pub use range::{InvertedRange, VersionRange};
pub use reader::{MAX_READERS, STANDARD_READERS, VersionReader};
pub(crate) use syntax::VersionText;
pub use syntax::{VersionSyntax, is_python_int};

pub use crate::protocol::negotiate::{
    MAX_ECHOED_BYTES, NamedVersion, Negotiated, NegotiationError, VersionHeader, VersionSource,
    VersionUnknown, not_negotiated_detail, version_of_request,
};
pub use crate::protocol::read::RequestTarget;
