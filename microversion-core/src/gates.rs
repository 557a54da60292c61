//! Behaviours that each begin at a version, gathered in one struct of
//! `bool`s: [`version_gates!`](crate::version_gates) (docs/05-in-handler-checks.md).

/// Declares a struct of behaviours, each a `bool` that is `true` from the
/// version it was introduced in, and `at(version)` to read them all at
/// once: a handler asks `gates.forbidden_traits`, not `version >= V1_22`,
/// and the table of versions is written once, where it is read.
///
/// Every version must be declared by the API named after `for`; a
/// malformed one, or one outside the history, is a compile error at the
/// declaration. `INTRODUCED` lists each behaviour's name and version, in
/// the order written (for documentation and tests).
///
/// ```
/// use microversion_core::{Api, Microversion, Version, version_gates};
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
/// use microversion_core::{Api, Microversion, version_gates};
/// const API: Api = Api::new("placement", &[Microversion::new("1.0", "Initial.")]);
/// version_gates! {
///     struct Syntax for API {
///         forbidden_traits: "1.22",
///     }
/// }
/// ```
#[macro_export]
macro_rules! version_gates {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident for $api:path {
            $(
                $(#[$field_meta:meta])*
                $field_vis:vis $field:ident : $since:literal
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $( $(#[$field_meta])* $field_vis $field: bool, )*
        }

        impl $name {
            /// Each behaviour's name and the version it was introduced in.
            #[allow(dead_code)]
            $vis const INTRODUCED: &'static [(&'static str, $crate::Version)] =
                &[$((::core::stringify!($field), $crate::Version::lit($since))),*];

            /// Each behaviour at `version`: on from the version it was introduced in.
            #[allow(dead_code)]
            $vis fn at(version: $crate::Version) -> $name {
                $name { $($field: version >= const { $crate::Version::lit($since) }),* }
            }
        }

        const _: () = {
            const API: &$crate::Api = &$api;
            $(::core::assert!(
                API.declares($crate::VersionRange::only($crate::Version::lit($since))),
                ::core::concat!(
                    "`", ::core::stringify!($field), "` begins at ", $since,
                    ", a version `", ::core::stringify!($api),
                    "` does not declare: declare it in its version history first"
                ),
            );)*
        };
    };
}
