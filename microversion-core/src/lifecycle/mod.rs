//! A version's life (docs/reference.md §13): its [`Deprecation`] and
//! sunset (announced with the `Deprecation` and `Sunset` headers),
//! retirement ([`RetireError`]), the dates they carry ([`Timestamp`]), the
//! status discovery shows ([`VersionStatus`]), and what a client reads of
//! them ([`DeprecationNotice`]).

mod deprecation;
mod notice;
mod timestamp;

pub use deprecation::{DEPRECATION_HEADER, Deprecation, LINK_HEADER, RetireError, SUNSET_HEADER};
pub use notice::DeprecationNotice;
pub use timestamp::{Timestamp, TimestampError};

pub use crate::version::api::{MAX_DEPRECATIONS, VersionStatus};
