//! What the macros' expansions call. Not public API: names here change
//! without notice. Generated code reaches the runtime only through this
//! module: the core's (`microversion_core::__private`, the same through
//! every facade) and axum's registration of the core's `Routes` that
//! `#[controller]` implements (`register_controller!`).

pub use axum;
pub use microversion_core::__private::*;
pub use microversion_macros::{history, version_gates};

pub use crate::route::{RoutesFn, router};

/// The facade, as its registration names it.
pub type Marker = crate::route::Axum;

/// The registration of a controller: it converts into an axum `Router` of
/// any state ([`router`]), so that `Router::merge(controller)` serves its
/// routes. The one piece of generated code that names axum, written here:
/// `#[controller]` calls it with the controller's type when it has routes
/// (`routes`), or without. It names the controller's `Routes::route` where
/// the controller's type is known, so that rustc sees its future is `Send`,
/// as axum requires.
#[macro_export]
#[doc(hidden)]
macro_rules! __microversion_axum_register_controller {
    ($controller:ty, routes) => {
        #[automatically_derived]
        impl<S> ::core::convert::From<$controller> for $crate::__private::axum::Router<S>
        where
            S: ::core::clone::Clone + ::core::marker::Send + ::core::marker::Sync + 'static,
        {
            fn from(controller: $controller) -> Self {
                $crate::__private::router(
                    controller,
                    <$controller as $crate::__private::Routes<$crate::__private::Marker, _>>::route,
                )
            }
        }
    };
    ($controller:ty) => {
        #[automatically_derived]
        impl<S> ::core::convert::From<$controller> for $crate::__private::axum::Router<S>
        where
            S: ::core::clone::Clone + ::core::marker::Send + ::core::marker::Sync + 'static,
        {
            fn from(_: $controller) -> Self {
                $crate::__private::axum::Router::new()
            }
        }
    };
}
pub use __microversion_axum_register_controller as register_controller;

/// Whether axum routes `path`, as `#[controller]` asks in a `const` per
/// route path: a path starts with `/`, and its parameters are `{name}` or a
/// last `{*rest}`, without patterns (`{id:\d+}`) or actix's tails
/// (`{tail}*`), which axum refuses at start-up or reads as literals.
///
/// # Panics
///
/// At compile time, at the path, when axum cannot route it.
#[track_caller]
pub const fn check_route_path(path: &str) {
    let syntax = microversion_core::operation::PathSyntax::of(path);
    if !syntax.rooted || syntax.patterns || syntax.tails {
        panic!(
            "axum cannot route this path: a path starts with `/`, and its parameters are `{{name}}` \
             or a last `{{*rest}}`, without patterns"
        );
    }
}
