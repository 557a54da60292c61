//! What the macros' expansions call. Not public API: names here change
//! without notice. Generated code reaches the runtime only through this
//! module, so that users depend on `microversion-actix` alone: the core's
//! (`microversion_core::__private`, the same through every facade) and
//! actix's registration of the core's `Routes` that `#[controller]`
//! implements (`register_controller!`).

pub use actix_web;
pub use microversion_core::__private::*;
pub use microversion_macros::{history, version_gates};

pub use crate::route::{RoutesFn, register};

/// The facade, as its registration names it.
pub type Marker = crate::route::Actix;

/// The registration of a controller: an `HttpServiceFactory`, so that
/// `App::service(controller)` registers its routes ([`register`], by the
/// core's `Routes` that `#[controller]` implements). The one piece of
/// generated code that names actix, written here: `#[controller]` calls it
/// with the controller's type when it has routes (`routes`), or without
/// (nothing to register).
#[macro_export]
#[doc(hidden)]
macro_rules! __microversion_actix_register_controller {
    ($controller:ty, routes) => {
        #[automatically_derived]
        impl $crate::__private::actix_web::dev::HttpServiceFactory for $controller {
            fn register(self, config: &mut $crate::__private::actix_web::dev::AppService) {
                $crate::__private::register(
                    self,
                    config,
                    <$controller as $crate::__private::Routes<$crate::__private::Marker, _>>::route,
                )
            }
        }
    };
    ($controller:ty) => {
        #[automatically_derived]
        impl $crate::__private::actix_web::dev::HttpServiceFactory for $controller {
            fn register(self, _: &mut $crate::__private::actix_web::dev::AppService) {}
        }
    };
}
pub use __microversion_actix_register_controller as register_controller;

/// Whether actix routes `path`: every path actix reads is taken (its
/// patterns and tails too). `#[controller]` calls it in a `const` per route
/// path, where another facade refuses what its router cannot read.
pub const fn check_route_path(path: &str) {
    let _ = path;
}
