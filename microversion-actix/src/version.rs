//! Versions, ranges of them, the served maximum that moves at run time
//! ([`VersionCap`]), and what negotiating a request gives: the version and
//! where it came from ([`Negotiated`]), or why none was chosen
//! ([`NegotiationError`]).

/// Behaviours that each begin at a version, read together (docs/05-in-handler-checks.md):
///
/// ```
/// use microversion_actix::{Api, Microversion, Version, version::version_gates};
///
/// const PLACEMENT: Api = Api::new("placement", &[
///     Microversion::new("1.0", "Initial."),
///     Microversion::new("1.22", "Forbidden traits."),
///     Microversion::new("1.24", "member_of repeated."),
/// ]);
///
/// version_gates! {
///     /// What the trait and aggregate filters accept at a version.
///     #[derive(Clone, Copy, Debug, PartialEq, Eq)]
///     pub struct Syntax for PLACEMENT {
///         /// `!TRAIT`: a forbidden trait.
///         pub forbidden_traits: "1.22",
///         /// `member_of` repeated, each one more condition.
///         pub repeated_member_of: "1.24",
///     }
/// }
///
/// let syntax = Syntax::at(Version::lit("1.22"));
/// assert!(syntax.forbidden_traits && !syntax.repeated_member_of);
/// assert_eq!(Syntax::INTRODUCED[1], ("repeated_member_of", Version::lit("1.24")));
/// ```
///
/// A version the API does not declare does not compile:
///
/// ```compile_fail
/// use microversion_actix::{Api, Microversion, version::version_gates};
/// const API: Api = Api::new("placement", &[Microversion::new("1.0", "Initial.")]);
/// version_gates! {
///     struct Syntax for API {
///         forbidden_traits: "1.22",
///     }
/// }
/// ```
#[doc(inline)]
pub use crate::__microversion_actix_version_gates as version_gates;
pub use microversion_core::version::*;

pub use crate::api_version::version_of;

/// `version_gates!` and `history!` through this facade: the procedural
/// macros, told the facade's own path (`$crate`) whatever name the calling
/// crate gives it.
#[doc(hidden)]
#[macro_export]
macro_rules! __microversion_actix_version_gates {
    ($($gates:tt)*) => {
        $crate::__private::version_gates! { crate = $crate; $($gates)* }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __microversion_actix_history {
    // Said here, where the user's empty brackets are the call site.
    () => {
        ::core::compile_error!("a version history lists at least one version, e.g. history![\"2.1\" => \"Initial version.\"]")
    };
    ($($entries:tt)+) => {
        $crate::__private::history! { crate = $crate; $($entries)* }
    };
}
