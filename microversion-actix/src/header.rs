//! The headers of the contract (docs/reference.md §3, §12): their names,
//! as strings (shared with the core) and as actix header names, the bounds
//! on what is read from them, and [`append_vary`].

pub use microversion_core::header::*;

microversion_core::header_wire!(ActixHeaders, actix_web::http::header);

/// The core's plain answers (its documents) as actix's.
impl microversion_core::header::AnswerWire for ActixHeaders {
    type Answer = actix_web::HttpResponse;

    fn answer(status: u16, body: Option<Vec<u8>>) -> actix_web::HttpResponse {
        let status = actix_web::http::StatusCode::from_u16(status)
            .unwrap_or(actix_web::http::StatusCode::INTERNAL_SERVER_ERROR);
        let mut answer = match body {
            Some(body) => actix_web::HttpResponse::with_body(status, body).map_into_boxed_body(),
            None => actix_web::HttpResponse::new(status),
        };
        crate::error::close_after_timeout(&mut answer);
        answer
    }

    fn headers(answer: &mut actix_web::HttpResponse) -> &mut actix_web::http::header::HeaderMap {
        answer.headers_mut()
    }
}
