//! What the controllers are written with: the core's portable arguments
//! and answers, which every facade serves (docs/reference.md §4.8), so
//! that one source is registered with actix-web ([`on_actix`](crate::on_actix))
//! and with axum ([`on_axum`](crate::on_axum)).

pub(crate) use microversion_core::portable::{
    ApiError, ApiVersion, Json, JsonQuery, Path, Reply as Response, StatusCode, Versioned,
};

/// The public root URL of a request (`http://cloud.example:8774`), where
/// the links of its answer point, by the facade's `PublicUrl`: the
/// configured public URL, else the request's own `Host`, or the forwarded
/// headers of a trusted proxy.
pub(crate) use microversion_core::portable::LinkRoot as Origin;

/// The macros expand the same whichever facade's name they are imported by.
pub(crate) use microversion_actix::version::version_gates;
pub(crate) use microversion_actix::{VersionedModel, controller, history, version_change};

/// A JSON answer.
pub(crate) fn json_response(status: StatusCode, body: &impl serde::Serialize) -> Response {
    Response::json(status, body)
}

/// An answer without a body.
pub(crate) fn empty_response(status: StatusCode) -> Response {
    Response::empty(status)
}
