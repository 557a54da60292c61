//! The headers of the contract (docs/reference.md §3, §12): their names,
//! as strings (shared with the core) and as actix header names, the bounds
//! on what is read from them, and [`append_vary`].

pub use microversion_core::header::*;

use std::future::Future;

use actix_web::http::header::{HeaderMap, HeaderName, HeaderValue};
use futures_util::future::LocalBoxFuture;
use microversion_core::__header_names::{MAX_NAME, MIN_NAME, STANDARD_NAME, is_static_name};
use microversion_core::exchange::{BoxChoice, ChoiceWire, ClientChoice};

/// `OpenStack-API-Version` as actix's header name.
pub const STANDARD_HEADER_NAME: HeaderName = HeaderName::from_static(STANDARD_NAME);
/// The default name of the header carrying the served minimum
/// ([`MIN_VERSION_HEADER`]) as actix's header name.
pub const MIN_VERSION_HEADER_NAME: HeaderName = HeaderName::from_static(MIN_NAME);
/// The default name of the header carrying the served maximum
/// ([`MAX_VERSION_HEADER`]) as actix's header name.
pub const MAX_VERSION_HEADER_NAME: HeaderName = HeaderName::from_static(MAX_NAME);

/// How the core's [`Stamp`] reads and writes actix's headers: actix's own
/// `HeaderMap` over the `http` 0.2 crate's names and values. Public for
/// generated code, which reaches it through the facade's `__private`.
#[doc(hidden)]
#[derive(Debug)]
pub enum ActixHeaders {}

impl HeaderWire for ActixHeaders {
    type Map = HeaderMap;
    type Name = HeaderName;
    type Value = HeaderValue;

    fn name(name: &'static str) -> Option<HeaderName> {
        // Checked without the copy `try_from` makes of a custom name.
        is_static_name(name).then(|| HeaderName::from_static(name))
    }

    fn static_value(text: &'static str) -> Option<HeaderValue> {
        let value = HeaderValue::from_str(text).ok()?;
        // `from_static` takes visible ASCII only; `from_str` takes more.
        Some(if text.is_ascii() { HeaderValue::from_static(text) } else { value })
    }

    fn value(text: &str) -> Option<HeaderValue> {
        HeaderValue::from_str(text).ok()
    }

    fn get_all<'m>(map: &'m HeaderMap, name: &'m HeaderName) -> impl Iterator<Item = &'m HeaderValue> {
        map.get_all(name)
    }

    fn text(value: &HeaderValue) -> Option<&str> {
        value.to_str().ok()
    }

    fn insert(map: &mut HeaderMap, name: &HeaderName, value: &HeaderValue) {
        map.insert(name.clone(), value.clone());
    }

    fn append(map: &mut HeaderMap, name: &HeaderName, value: &HeaderValue) {
        map.append(name.clone(), value.clone());
    }

    fn remove(map: &mut HeaderMap, name: &HeaderName) {
        map.remove(name);
    }

    fn insert_if_absent(map: &mut HeaderMap, name: &HeaderName, value: &HeaderValue) -> bool {
        // One lookup: actix's map has no entry, but its insert gives back
        // the lines it replaced, which go back (rarely) in their order.
        let mut replaced = map.insert(name.clone(), value.clone());
        let Some(first) = replaced.next() else { return true };
        let rest: Vec<HeaderValue> = replaced.collect();
        map.insert(name.clone(), first);
        for value in rest {
            map.append(name.clone(), value);
        }
        false
    }
}

/// A request stays on the worker that accepted it: a client default's
/// future need not be `Send`.
impl ChoiceWire for ActixHeaders {
    type Choice = LocalBoxFuture<'static, ClientChoice>;
}

impl<Fut: Future<Output = ClientChoice> + 'static> BoxChoice<Fut> for ActixHeaders {
    fn boxed(future: Fut) -> LocalBoxFuture<'static, ClientChoice> {
        Box::pin(future)
    }
}

/// The core's plain answers (its documents) as actix's.
impl AnswerWire for ActixHeaders {
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

    fn headers(answer: &mut actix_web::HttpResponse) -> &mut HeaderMap {
        answer.headers_mut()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inserts_a_header_only_where_there_is_none() {
        let (vary, ours) =
            (HeaderName::from_static("vary"), HeaderValue::from_static("OpenStack-API-Version"));
        let mut empty = HeaderMap::new();
        assert!(ActixHeaders::insert_if_absent(&mut empty, &vary, &ours));
        assert_eq!(empty.get_all("vary").collect::<Vec<_>>(), [&ours]);
        let mut handlers = HeaderMap::new();
        handlers.append(vary.clone(), HeaderValue::from_static("Accept"));
        handlers.append(vary.clone(), HeaderValue::from_static("Accept-Encoding"));
        assert!(!ActixHeaders::insert_if_absent(&mut handlers, &vary, &ours));
        assert_eq!(handlers.get_all("vary").collect::<Vec<_>>(), ["Accept", "Accept-Encoding"]);
    }
}
