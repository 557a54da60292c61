//! The web framework under the controllers. The compute example is built on
//! actix-web; `examples/compute-axum` builds these very sources on axum
//! (with `cfg(compute_on_axum)`), and the controllers read only the names
//! here: the facade, the path and query extractors, the answer and its
//! status, and [`Origin`], where links point (the facade's `LinkRoot`).

#[cfg(not(compute_on_axum))]
pub(crate) use microversion_actix as framework;
#[cfg(compute_on_axum)]
pub(crate) use microversion_axum as framework;

/// The route's parameters and the query string, read into types with the
/// API's errors: the same names on both facades.
pub(crate) use framework::params::{Path, Query};

#[cfg(not(compute_on_axum))]
pub(crate) use actix_web::{HttpResponse as Response, http::StatusCode};
#[cfg(compute_on_axum)]
pub(crate) use axum::{http::StatusCode, response::Response};

/// The public root URL of a request (`http://cloud.example:8774`), where
/// the links of its answer point, by the framework's `PublicUrl`: the
/// configured public URL, else the request's own `Host`, or the forwarded
/// headers of a trusted proxy. The same name on both facades.
pub(crate) use framework::discovery::LinkRoot as Origin;

/// A JSON answer.
pub(crate) fn json_response(status: StatusCode, body: &impl serde::Serialize) -> Response {
    #[cfg(not(compute_on_axum))]
    return Response::build(status).json(body);
    #[cfg(compute_on_axum)]
    return axum::response::IntoResponse::into_response((status, axum::Json(body)));
}

/// An answer without a body.
pub(crate) fn empty_response(status: StatusCode) -> Response {
    #[cfg(not(compute_on_axum))]
    return Response::new(status);
    #[cfg(compute_on_axum)]
    return axum::response::IntoResponse::into_response(status);
}
