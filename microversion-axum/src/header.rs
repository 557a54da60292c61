//! The headers of the contract (docs/reference.md §3, §12): their names,
//! as strings (shared with the core) and as `http` header names, the
//! bounds on what is read from them, and [`append_vary`]. The same names
//! as `microversion_actix::header`.

pub use microversion_core::header::*;

microversion_core::header_wire!(AxumHeaders, http::header);

/// The core's plain answers (its documents) as axum's.
impl microversion_core::header::AnswerWire for AxumHeaders {
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
