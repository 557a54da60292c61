//! [`HttpWire`]: the headers of every stack built on the `http` 1 crate
//! (hyper, tower, axum), as the core reads and writes them, written once
//! for every wire that says its headers are `http`'s ([`HttpHeaders`]).

use http::header::{HeaderMap, HeaderName, HeaderValue};

use std::future::Future;
use std::pin::Pin;

use super::negotiation::{BoxChoice, ChoiceWire, ClientChoice};
use super::stamp::{AnswerWire, HeaderWire};

/// `OpenStack-API-Version` as an `http` header name.
pub const STANDARD_HEADER_NAME: HeaderName = HeaderName::from_static(super::stamp::STANDARD_NAME);
/// The default name of the header carrying the served minimum
/// ([`MIN_VERSION_HEADER`](crate::header::MIN_VERSION_HEADER)) as an `http` header name.
pub const MIN_VERSION_HEADER_NAME: HeaderName = HeaderName::from_static(super::stamp::MIN_NAME);
/// The default name of the header carrying the served maximum
/// ([`MAX_VERSION_HEADER`](crate::header::MAX_VERSION_HEADER)) as an `http` header name.
pub const MAX_VERSION_HEADER_NAME: HeaderName = HeaderName::from_static(super::stamp::MAX_NAME);

/// How the core reads and writes `http::HeaderMap`: the wire of a facade
/// over hyper, tower, or any stack whose requests and answers are the
/// `http` crate's.
#[derive(Debug)]
pub enum HttpWire {}

impl HttpHeaders for HttpWire {}

/// A wire whose headers are the `http` 1 crate's: it is a [`HeaderWire`]
/// with no code of its own, reading and writing `http::HeaderMap` as
/// [`HttpWire`] does. A facade whose framework answers with a type of its
/// own (axum's `Response`) declares its wire with this marker and writes
/// only its [`AnswerWire`].
pub trait HttpHeaders {}

impl<W: HttpHeaders> HeaderWire for W {
    type Map = HeaderMap;
    type Name = HeaderName;
    type Value = HeaderValue;

    fn name(name: &'static str) -> Option<HeaderName> {
        // Checked without the copy `try_from` makes of a custom name.
        crate::__header_names::is_static_name(name).then(|| HeaderName::from_static(name))
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
        map.get_all(name).into_iter()
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
        match map.entry(name) {
            http::header::Entry::Vacant(vacant) => {
                vacant.insert(value.clone());
                true
            }
            http::header::Entry::Occupied(_) => false,
        }
    }
}

/// The servers of the `http` crate's stacks (hyper, axum) move a request
/// between threads: a client default's future is `Send`.
impl<W: HttpHeaders> ChoiceWire for W {
    type Choice = Pin<Box<dyn Future<Output = ClientChoice> + Send>>;
}

impl<W: HttpHeaders, Fut: Future<Output = ClientChoice> + Send + 'static> BoxChoice<Fut> for W {
    fn boxed(future: Fut) -> Self::Choice {
        Box::pin(future)
    }
}

/// An answer as `http::Response` with its whole body, for a stack that
/// sends bytes (hyper's `Full`, a test).
impl AnswerWire for HttpWire {
    type Answer = http::Response<Vec<u8>>;

    fn answer(status: u16, body: Option<Vec<u8>>) -> http::Response<Vec<u8>> {
        let mut answer = http::Response::new(body.unwrap_or_default());
        *answer.status_mut() =
            http::StatusCode::from_u16(status).unwrap_or(http::StatusCode::INTERNAL_SERVER_ERROR);
        answer
    }

    fn headers(answer: &mut http::Response<Vec<u8>>) -> &mut HeaderMap {
        answer.headers_mut()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_an_http_header_map() {
        let name = HttpWire::name("openstack-api-version").unwrap();
        assert!(HttpWire::name("Not A Name").is_none());
        let mut map = HeaderMap::new();
        HttpWire::insert(&mut map, &name, &HttpWire::static_value("compute 2.1").unwrap());
        HttpWire::append(&mut map, &name, &HttpWire::value("compute 2.2").unwrap());
        let values: Vec<&str> = HttpWire::get_all(&map, &name).filter_map(HttpWire::text).collect();
        assert_eq!(values, ["compute 2.1", "compute 2.2"]);
        HttpWire::remove(&mut map, &name);
        assert!(map.is_empty());
    }

    #[test]
    fn inserts_a_header_only_where_there_is_none() {
        let (vary, ours) =
            (HttpWire::name("vary").unwrap(), HttpWire::static_value("OpenStack-API-Version").unwrap());
        let mut empty = HeaderMap::new();
        assert!(HttpWire::insert_if_absent(&mut empty, &vary, &ours));
        assert_eq!(empty.get_all("vary").iter().collect::<Vec<_>>(), [&ours]);
        let mut handlers = HeaderMap::new();
        handlers.append("vary", HeaderValue::from_static("Accept"));
        handlers.append("vary", HeaderValue::from_static("Accept-Encoding"));
        assert!(!HttpWire::insert_if_absent(&mut handlers, &vary, &ours));
        assert_eq!(handlers.get_all("vary").iter().collect::<Vec<_>>(), ["Accept", "Accept-Encoding"]);
    }
}
