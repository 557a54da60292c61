#![doc = include_str!("../README.md")]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod api_version;
pub mod body;
pub mod discovery;
pub mod error;
pub mod header;
pub mod middleware;
pub mod model;
mod native;
#[cfg(feature = "openapi")]
#[cfg_attr(docsrs, doc(cfg(feature = "openapi")))]
pub mod openapi;
pub mod params;
mod public_url;
mod response_validation;
mod route;
pub mod serve;
pub mod test;
pub mod version;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

// The core's modules that this facade adds nothing to, by name.
#[doc(inline)]
pub use microversion_core::{lifecycle, operation};
microversion_core::facade_face!();
pub use serve::serve;

#[doc(inline)]
pub use microversion_macros::{
    AxumVersionedModel as VersionedModel, api_version, axum_controller as controller,
    axum_version_change as version_change, schema,
};

/// A version history, checked where it is written: one
/// `"X.Y" => "the change it made"` per version, oldest first, for
/// `Api::new`. A malformed version, one out of order or declared twice, or
/// an empty history is a compile error on the literal itself.
///
/// ```
/// use microversion_axum::{Api, Version, history};
///
/// const VOLUME: Api = Api::new("volume", history!["3.0" => "Initial version.", "3.1" => "Types."]);
/// assert_eq!(VOLUME.max(), Version::lit("3.1"));
/// ```
#[doc(inline)]
pub use crate::__microversion_axum_history as history;

/// The guide's pages that show axum, compiled as doctests so that their
/// snippets stay true: the README and chapters 1 and 3, which show
/// actix-web and axum side by side, and the chapter on axum. Their
/// actix-web blocks are compiled here too, against `microversion-actix` (a
/// dev-dependency): rustdoc compiles every block of a file it includes.
#[cfg(doctest)]
mod guide {
    #[doc = include_str!("../../README.md")]
    struct Readme;
    #[doc = include_str!("../../docs/01-getting-started.md")]
    struct GettingStarted;
    #[doc = include_str!("../../docs/03-controllers.md")]
    struct Controllers;
    #[doc = include_str!("../../docs/19-axum.md")]
    struct Axum;
    #[doc = include_str!("../../docs/21-writing-a-facade.md")]
    struct WritingAFacade;
    #[doc = include_str!("../../docs/22-version-changes.md")]
    struct VersionChanges;
}
