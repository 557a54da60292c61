//! A version's life after release (docs/18-a-versions-life.md): its
//! deprecation and sunset ([`Deprecation`], announced with the `Deprecation`
//! and `Sunset` headers), retirement ([`RetireError`]), the dates they
//! carry ([`Timestamp`]), and the status discovery shows ([`VersionStatus`]).
//! The same names as `microversion_actix::lifecycle`.

pub use microversion_core::{
    Deprecation, DeprecationNotice, MAX_DEPRECATIONS, RetireError, Timestamp, TimestampError, VersionStatus,
};
