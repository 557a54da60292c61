#![doc = include_str!("../README.md")]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod api_version;
pub mod body;
mod client_default;
pub mod discovery;
pub mod error;
pub mod header;
pub mod middleware;
pub mod model;
mod native;
#[cfg(feature = "openapi")]
pub mod openapi;
pub mod params;
mod public_url;
mod response_validation;
mod route;
pub mod test;
pub mod version;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

// The core's modules that this facade adds nothing to, by name.
#[doc(inline)]
pub use microversion_core::{lifecycle, operation};
microversion_core::facade_face!();

/// A setting of the app's, registered as app data bare (`.app_data(x)`)
/// or in `web::Data`.
fn app_setting<T: 'static>(req: &actix_web::HttpRequest) -> Option<&T> {
    req.app_data::<T>().or_else(|| req.app_data::<actix_web::web::Data<T>>().map(|d| d.get_ref()))
}

/// ```
/// use microversion_actix::{Api, Microversion, controller};
///
/// const API: Api = Api::new("compute", &[Microversion::new("2.1", "a"), Microversion::new("2.2", "b")]);
/// struct Flavors;
///
/// #[controller(api = API)]
/// impl Flavors {
///     #[get("/flavors")]
///     #[api_version("2.1", "2.1")]
///     async fn list(&self) -> &'static str { "[]" }
///
///     #[get("/flavors")]
///     #[api_version("2.2")]
///     async fn list(&self) -> &'static str { "[ ]" }
/// }
/// # let _ = actix_web::App::new().service(Flavors);
/// ```
#[doc(inline)]
pub use microversion_macros::actix_controller as controller;

#[doc(inline)]
pub use microversion_macros::{
    ActixVersionedModel as VersionedModel, actix_version_change as version_change, api_version, schema,
};

/// A version history, checked where it is written: one
/// `"X.Y" => "the change it made"` per version, oldest first, for
/// `Api::new`. A malformed version, one out of order or declared twice, or
/// an empty history is a compile error on the literal itself.
///
/// ```
/// use microversion_actix::{Api, Version, history};
///
/// const VOLUME: Api = Api::new("volume", history![
///     "3.0" => "Initial version.",
///     "3.1" => "Volumes show their type.",
/// ]);
/// assert_eq!(VOLUME.max(), Version::lit("3.1"));
/// ```
///
/// ```compile_fail
/// use microversion_actix::{Api, history};
///
/// // error: invalid version "3.O" in the history: a version must be MAJOR.MINOR: ...
/// const VOLUME: Api = Api::new("volume", history!["3.0" => "Initial.", "3.O" => "Types."]);
/// ```
#[doc(inline)]
pub use crate::__microversion_actix_history as history;

/// The guide in `docs/`, compiled as doctests so that its snippets stay true.
/// The README and chapters 1 and 3, which show actix-web and axum side by
/// side, are compiled by `microversion-axum`, whose tests depend on both:
/// rustdoc compiles every block of a file it includes.
#[cfg(doctest)]
mod guide {
    macro_rules! chapters {
        ($($name:ident = $file:literal),* $(,)?) => {$(
            #[doc = include_str!(concat!("../../docs/", $file))]
            struct $name;
        )*};
    }

    chapters! {
        DeclaringAnApi = "02-declaring-an-api.md",
        VersionedHelpers = "04-versioned-helpers.md",
        InHandlerChecks = "05-in-handler-checks.md",
        Schemas = "06-schemas.md",
        Models = "07-models.md",
        Errors = "08-errors.md",
        Discovery = "09-discovery.md",
        ClientNegotiation = "10-client-negotiation.md",
        Testing = "11-testing.md",
        Deploying = "12-deploying.md",
        NeedAMicroversion = "13-do-i-need-a-microversion.md",
        FromNova = "14-from-nova.md",
        Diagnostics = "15-diagnostics.md",
        DescribingTheApi = "17-describing-the-api.md",
        VersionsLife = "18-a-versions-life.md",
    }
}
