//! The arguments and answers of a controller that every facade serves
//! (docs/reference.md §4.8): one controller source, registered with
//! actix-web and with axum alike.
//!
//! A facade's own types (`microversion_actix::Json`, ...) are each a
//! distinct type, because only the facade may make a type its framework's
//! extractor or response. The types here belong to no framework: the core
//! reads and writes them for every facade ([`Facade`](super::Facade)), in
//! `#[controller]` routes. A crate that depends on several facades has its
//! controllers registered with each.
//!
//! ```
//! use microversion_core::portable::{ApiError, Json, Path, Reply, StatusCode};
//!
//! async fn rename(id: Path<u32>, body: Json<serde_json::Value>) -> Result<Reply, ApiError> {
//!     match body.get("name").and_then(|name| name.as_str()) {
//!         Some(name) => Ok(Reply::json(StatusCode::OK, &serde_json::json!({ "id": *id, "name": name }))),
//!         None => Err(ApiError::bad_request("a server has a name")),
//!     }
//! }
//! ```

pub use http::StatusCode;

pub use crate::error::ApiError;

crate::facade_versioned! {
    /// A model answered at the negotiated version, with its status
    /// (docs/reference.md §4.8): a facade's `Versioned<T>`, for any facade.
    status = StatusCode;
}

crate::facade_json! {
    /// The request body, parsed (and validated by the variant's
    /// `#[schema]`, when one covers the version) into `T`, as each
    /// facade's `Json<T>` reads it.
    pub struct Json;
    /// The query string as the object a query schema validated: every key
    /// to the list of its values, as each facade's `JsonQuery` reads it.
    pub struct JsonQuery;
}

crate::facade_api_version! {
    /// The negotiated version, as each facade's `ApiVersion` reads it.
    pub struct ApiVersion;
}

crate::facade_params! {
    /// The route's parameters read into `T`, with each facade's refusals
    /// (404 `not-found`).
    pub struct Path;
    /// The query string read into `T`, with each facade's refusals (400
    /// `bad-request`).
    pub struct Query;
}

/// The public root URL of the request (`http://cloud.example:8774`), where
/// the links of its answer point: each facade's `LinkRoot`, by its
/// `PublicUrl` (docs/reference.md §7.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkRoot(String);

impl LinkRoot {
    /// A root, without a trailing `/`. Facades build it; a test may too.
    pub fn new(root: impl Into<String>) -> LinkRoot {
        let mut root = root.into();
        while root.ends_with('/') {
            root.pop();
        }
        LinkRoot(root)
    }

    /// The root, without a trailing `/`.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A request header the service reads into a type of its own
/// ([`RequestHeader`]): an argument a version change may upgrade, as when a
/// header is renamed (docs/reference.md §4.10).
///
/// ```
/// use microversion_core::portable::{ApiError, Header, RequestHeader};
///
/// struct Clerk(String);
///
/// impl RequestHeader for Clerk {
///     const NAME: &'static str = "Shop-Clerk";
///     fn read(value: Option<&str>) -> Result<Clerk, ApiError> {
///         Ok(Clerk(value.unwrap_or("nobody").to_owned()))
///     }
/// }
///
/// async fn whoami(Header(Clerk(clerk)): Header<Clerk>) -> String {
///     clerk
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header<H>(pub H);

/// A request header's name, and how its value is read: the type of a
/// [`Header`] argument.
pub trait RequestHeader: Sized {
    /// The header's name, a token (`Shop-Clerk`).
    const NAME: &'static str;

    /// The value of the request's header (the first, when it is repeated),
    /// `None` when it has none or it is not text; an error is the
    /// request's answer, in the API's format.
    fn read(value: Option<&str>) -> Result<Self, ApiError>;
}

/// An answer built by hand: a status and a JSON body, or no body.
#[derive(Debug)]
pub struct Reply {
    status: StatusCode,
    body: ReplyBody,
}

/// What a [`Reply`] carries.
#[derive(Debug)]
enum ReplyBody {
    Empty,
    Json(Vec<u8>),
    /// A value that did not serialize: the facade answers 500 in the API's format.
    Unserializable(String),
}

impl Reply {
    /// `status` with `body` as JSON (`application/json`).
    pub fn json(status: StatusCode, body: &impl serde::Serialize) -> Reply {
        let body = match serde_json::to_vec(body) {
            Ok(bytes) => ReplyBody::Json(bytes),
            Err(e) => ReplyBody::Unserializable(format!("the answer could not be written as JSON: {e}")),
        };
        Reply { status, body }
    }

    /// `status` without a body (`204 No Content`, `202 Accepted`).
    pub fn empty(status: StatusCode) -> Reply {
        Reply { status, body: ReplyBody::Empty }
    }

    /// The status it is answered with.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// What a facade sends: the status and the JSON bytes, if any; or the
    /// 500 of a body that did not serialize.
    pub fn into_parts(self) -> Result<(StatusCode, Option<Vec<u8>>), ApiError> {
        match self.body {
            ReplyBody::Empty => Ok((self.status, None)),
            ReplyBody::Json(bytes) => Ok((self.status, Some(bytes))),
            ReplyBody::Unserializable(detail) => Err(ApiError::internal(detail)),
        }
    }
}

/// A typed answer: a status, headers, and a body written as JSON (none:
/// an empty body). What a handler returns when a [version
/// change](crate::change) downgrades its answer: the body keeps its type,
/// so each change converts it by type, and may change the status and the
/// headers too.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer<T> {
    /// The status.
    pub status: StatusCode,
    /// Headers beside the framework's own, each a lower-case name and its
    /// value (one that cannot be a header value is left out).
    pub headers: Vec<(&'static str, String)>,
    /// The body.
    pub body: Option<T>,
}

impl<T> Answer<T> {
    /// `status` with `body`.
    pub fn new(status: StatusCode, body: T) -> Answer<T> {
        Answer { status, headers: Vec::new(), body: Some(body) }
    }

    /// `200 OK` with `body`.
    pub fn ok(body: T) -> Answer<T> {
        Answer::new(StatusCode::OK, body)
    }

    /// `201 Created` with `body`.
    pub fn created(body: T) -> Answer<T> {
        Answer::new(StatusCode::CREATED, body)
    }

    /// `status` without a body.
    pub fn empty(status: StatusCode) -> Answer<T> {
        Answer { status, headers: Vec::new(), body: None }
    }

    /// The answer with another status.
    pub fn with_status(self, status: StatusCode) -> Answer<T> {
        Answer { status, ..self }
    }

    /// The answer with header `name` (lower case) set to `value`.
    pub fn with_header(mut self, name: &'static str, value: impl Into<String>) -> Answer<T> {
        self.headers.retain(|(other, _)| *other != name);
        self.headers.push((name, value.into()));
        self
    }

    /// The value of header `name`, if set.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(other, _)| *other == name).map(|(_, value)| value.as_str())
    }

    /// The answer without header `name`.
    pub fn without_header(mut self, name: &str) -> Answer<T> {
        self.headers.retain(|(other, _)| *other != name);
        self
    }

    /// The same answer with its body converted.
    pub fn map<U>(self, convert: impl FnOnce(T) -> U) -> Answer<U> {
        Answer { status: self.status, headers: self.headers, body: self.body.map(convert) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_carry_json_or_nothing_and_a_bad_value_is_a_500() {
        let (status, body) =
            Reply::json(StatusCode::CREATED, &serde_json::json!({"a": 1})).into_parts().unwrap();
        assert_eq!((status, body.as_deref()), (StatusCode::CREATED, Some(&br#"{"a":1}"#[..])));
        assert_eq!(Reply::empty(StatusCode::ACCEPTED).into_parts().unwrap(), (StatusCode::ACCEPTED, None));
        let keys_not_strings: std::collections::BTreeMap<(u8, u8), u8> = [((1, 2), 3)].into();
        let refused = Reply::json(StatusCode::OK, &keys_not_strings).into_parts().unwrap_err();
        assert_eq!(refused.status(), StatusCode::INTERNAL_SERVER_ERROR);
    }

    #[test]
    fn a_link_root_has_no_trailing_slash() {
        assert_eq!(LinkRoot::new("http://cloud.example:8774//").as_str(), "http://cloud.example:8774");
    }
}
