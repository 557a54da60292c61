//! Error answers that read their request (docs/reference.md §5.5): what a
//! format may know of the request it answers ([`ErrorRequest`]), and a body
//! other than the JSON document ([`ErrorPage`]).

use crate::header::HeaderWire;

/// What an error format may read of the request an error answers: its
/// method and the `Accept` and `Content-Type` it sent (each `None` when not
/// sent, or not text). A facade reads it only for a format that asks
/// ([`ErrorFormat::reads_request`](super::ErrorFormat::reads_request)), so
/// that other APIs pay nothing for it; the format finds it in
/// [`Problem::request`](super::Problem::request).
///
/// ```
/// use microversion_core::error::ErrorRequest;
/// use microversion_core::header::HttpWire;
///
/// let mut headers = http::HeaderMap::new();
/// headers.insert("accept", "text/html".parse().unwrap());
/// let request = ErrorRequest::read::<HttpWire>("GET", &headers);
/// assert_eq!((request.method.as_str(), request.accept.as_deref()), ("GET", Some("text/html")));
/// assert_eq!(request.content_type, None);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ErrorRequest {
    /// The request's method (`GET`).
    pub method: String,
    /// The first `Accept` header.
    pub accept: Option<String>,
    /// The first `Content-Type` header.
    pub content_type: Option<String>,
}

impl ErrorRequest {
    /// The facts of a request whose method is `method` and whose headers
    /// are `headers`, in any facade's header map.
    pub fn read<W: HeaderWire>(method: &str, headers: &W::Map) -> ErrorRequest {
        let text = |name| {
            let name = W::name(name)?;
            W::get_all(headers, &name).next().and_then(W::text).map(str::to_owned)
        };
        ErrorRequest { method: method.to_owned(), accept: text("accept"), content_type: text("content-type") }
    }

    /// Whether the request is a `HEAD`, whose answer has no body: a format
    /// may still name the type the body would have had.
    pub fn is_head(&self) -> bool {
        self.method == "HEAD"
    }
}

/// The body of an error answer when it is not the format's JSON document
/// ([`ErrorFormat::page`](super::ErrorFormat::page)): an HTML or plain
/// page for a client that asked for one, as webob answers for Placement.
///
/// The answer keeps every other header of an error answer (the served
/// range on a refusal, the version headers, the request id).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorPage {
    /// The answer's `Content-Type` (`text/html; charset=UTF-8`).
    pub content_type: &'static str,
    /// The page.
    pub body: String,
}
