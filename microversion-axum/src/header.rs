//! The headers of the contract (docs/reference.md §3, §12): their names,
//! as strings (shared with the core) and as `http` header names, the
//! bounds on what is read from them, and [`append_vary`]. The same names
//! as `microversion_actix::header`.

pub use microversion_core::header::*;

/// `OpenStack-API-Version` as an `http` header name.
pub const STANDARD_HEADER_NAME: http::HeaderName =
    http::HeaderName::from_static(microversion_core::__header_names::STANDARD_NAME);
/// The default name of the header carrying the served minimum
/// ([`MIN_VERSION_HEADER`]) as an `http` header name.
pub const MIN_VERSION_HEADER_NAME: http::HeaderName =
    http::HeaderName::from_static(microversion_core::__header_names::MIN_NAME);
/// The default name of the header carrying the served maximum
/// ([`MAX_VERSION_HEADER`]) as an `http` header name.
pub const MAX_VERSION_HEADER_NAME: http::HeaderName =
    http::HeaderName::from_static(microversion_core::__header_names::MAX_NAME);

/// How the core's [`Stamp`] reads and writes axum's headers, which are the
/// `http` crate's ([`HttpHeaders`]); public for generated code, which
/// reaches it through the facade's `__private`.
#[doc(hidden)]
#[derive(Debug)]
pub enum AxumHeaders {}

impl HttpHeaders for AxumHeaders {}

/// The core's plain answers (its documents) as axum's.
impl AnswerWire for AxumHeaders {
    type Answer = axum::response::Response;

    fn answer(status: u16, body: Option<Vec<u8>>) -> axum::response::Response {
        let mut answer = axum::response::Response::new(body.map_or_else(axum::body::Body::empty, Into::into));
        *answer.status_mut() =
            http::StatusCode::from_u16(status).unwrap_or(http::StatusCode::INTERNAL_SERVER_ERROR);
        answer
    }

    fn headers(answer: &mut axum::response::Response) -> &mut http::HeaderMap {
        answer.headers_mut()
    }
}
