//! Versions, ranges of them, the served maximum that moves at run time
//! ([`VersionCap`]), and what negotiating a request gives: the version and
//! where it came from ([`Negotiated`]), or why none was chosen
//! ([`NegotiationError`]). The same names as `microversion_actix::version`.

/// Behaviours that each begin at a version, read together (docs/05-in-handler-checks.md).
#[doc(inline)]
pub use crate::__microversion_axum_version_gates as version_gates;
pub use microversion_core::version::*;

pub use crate::api_version::version_of;

/// `version_gates!` and `history!` through this facade: the procedural
/// macros, told the facade's own path (`$crate`) whatever name the calling
/// crate gives it.
#[doc(hidden)]
#[macro_export]
macro_rules! __microversion_axum_version_gates {
    ($($gates:tt)*) => {
        $crate::__private::version_gates! { crate = $crate; $($gates)* }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __microversion_axum_history {
    // Said here, where the user's empty brackets are the call site.
    () => {
        ::core::compile_error!("a version history lists at least one version, e.g. history![\"2.1\" => \"Initial version.\"]")
    };
    ($($entries:tt)+) => {
        $crate::__private::history! { crate = $crate; $($entries)* }
    };
}
