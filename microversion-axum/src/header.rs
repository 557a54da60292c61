//! The headers of the contract (docs/reference.md §3, §12): the core's
//! `header` module whole (their names as strings and as `http` header
//! names, the bounds on what is read from them, [`append_vary`]), and
//! axum's wire. The same names as `microversion_actix::header`.

pub use microversion_core::header::*;

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
