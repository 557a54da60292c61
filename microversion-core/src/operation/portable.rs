//! The arguments and answers of a controller that every facade serves
//! (docs/reference.md §4.8): one controller source, registered with
//! actix-web and with axum alike.
//!
//! The types here belong to no framework, and every facade names them
//! (`microversion_actix::Json` is [`Json`]): the core reads and writes them
//! for every facade ([`Facade`](super::Facade)), in `#[controller]` routes.
//! A crate that depends on several facades has its controllers registered
//! with each. A handler of a framework's own, outside a controller, takes
//! and answers them through its facade's `Native<T>`, because only the
//! facade may make a type its framework's extractor or response.
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

use std::fmt;

pub use http::StatusCode;

use crate::version::VersionSource;
use crate::{Negotiated, Version, VersionRange};

pub use crate::error::ApiError;

/// The version a request is served at (Nova's `req.api_version_request`),
/// as its facade's negotiation chose it (docs/reference.md §4.4).
///
/// Compare it with `Version` constants, or ask [`ApiVersion::matches`]:
///
/// ```
/// use microversion_core::portable::ApiVersion;
/// use microversion_core::version::{Negotiated, VersionHeader, VersionSource};
/// use microversion_core::Version;
///
/// let v = ApiVersion::from(Negotiated {
///     version: Version::lit("2.10"),
///     source: VersionSource::Explicit,
///     header: VersionHeader::Standard,
/// });
/// assert!(v >= Version::lit("2.10") && v > Version::lit("2.9"));
/// assert!(v == Version::lit("2.10"));
/// assert!(v.matches(Some(Version::lit("2.2")), None));
/// assert!(!v.matches(None, Some(Version::lit("2.9"))));
/// assert_eq!(v.to_string(), "2.10");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ApiVersion {
    negotiated: Negotiated,
}

impl ApiVersion {
    /// The negotiated version.
    pub fn version(&self) -> Version {
        self.negotiated.version
    }

    /// How the version was chosen: asked for, `latest`, or the default.
    pub fn source(&self) -> VersionSource {
        self.negotiated.source
    }

    /// The whole outcome of the negotiation.
    pub fn negotiated(&self) -> Negotiated {
        self.negotiated
    }

    /// Whether the version is within `[min, max]`, either bound optional
    /// (Nova's `api_version_request.matches(min, max)`).
    pub fn matches(&self, min: Option<Version>, max: Option<Version>) -> bool {
        self.negotiated.version.matches(min, max)
    }

    /// Whether the version is in `range`.
    pub fn is_in(&self, range: VersionRange) -> bool {
        range.contains(self.negotiated.version)
    }
}

impl From<Negotiated> for ApiVersion {
    fn from(negotiated: Negotiated) -> ApiVersion {
        ApiVersion { negotiated }
    }
}

/// The negotiated version, for calling versioned helpers: `self.view(version, ...)`.
impl From<ApiVersion> for Version {
    fn from(version: ApiVersion) -> Version {
        version.version()
    }
}

impl From<&ApiVersion> for Version {
    fn from(version: &ApiVersion) -> Version {
        version.version()
    }
}

impl PartialEq<Version> for ApiVersion {
    fn eq(&self, other: &Version) -> bool {
        self.negotiated.version == *other
    }
}

impl PartialOrd<Version> for ApiVersion {
    fn partial_cmp(&self, other: &Version) -> Option<std::cmp::Ordering> {
        Some(self.negotiated.version.cmp(other))
    }
}

impl fmt::Display for ApiVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.negotiated.version, f)
    }
}

/// The request body read into `T`, or an answer written from one.
///
/// As an argument it is the body a `#[schema]` check already parsed (and
/// validated at the request's version), else the body read by the core's
/// rules (docs/reference.md §6.2: content type, size, deadline) and parsed;
/// `Json<serde_json::Value>` is the raw body. A body that does not read as
/// `T` answers 400 in the API's format. As an answer it is `T` as JSON,
/// 200 OK.
///
/// ```
/// use microversion_core::portable::Json;
///
/// #[derive(serde::Deserialize)]
/// struct Rename { name: String }
///
/// async fn rename(body: Json<Rename>) -> Json<String> {
///     Json(body.into_inner().name)
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Json<T>(pub T);

/// The query string as an object mapping each key to the list of its
/// values, all strings (`?limit=10&sort=a&sort=b` is `{"limit": ["10"],
/// "sort": ["a", "b"]}`), the shape Nova's query schemas validate. Behind
/// `#[schema(query = ...)]` it is the object the schema of the negotiated
/// version accepted, read once.
///
/// ```
/// use microversion_core::portable::JsonQuery;
///
/// async fn list(query: JsonQuery) -> String {
///     // Nova's `req.GET.get("limit")`: the last value given.
///     query.last("limit").unwrap_or("all").to_owned()
/// }
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct JsonQuery(pub serde_json::Value);

impl JsonQuery {
    /// The object a query schema validated, else `query` read now (every
    /// key to the list of its values): how every facade reads it.
    pub fn read(validated: Option<crate::body::ValidatedQuery>, query: &str) -> JsonQuery {
        JsonQuery(validated.map_or_else(|| crate::schema::query_to_json(query), |validated| validated.value))
    }

    /// The whole object.
    pub fn value(&self) -> &serde_json::Value {
        &self.0
    }

    /// The last value of `key`, as Nova's `req.GET.get(key)` gives it.
    pub fn last(&self, key: &str) -> Option<&str> {
        self.values(key).last()
    }

    /// Every value of `key`, in order.
    pub fn values<'a>(&'a self, key: &str) -> impl DoubleEndedIterator<Item = &'a str> + 'a {
        self.0
            .get(key)
            .and_then(serde_json::Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(serde_json::Value::as_str)
    }
}

/// The route's parameters (`/servers/{id}`) read into `T`: one value, a
/// tuple in the path's order, or a struct by name. A parameter that does
/// not read as `T` answers 404 `not-found` (no resource has that name), in
/// the API's format.
///
/// ```
/// use microversion_core::portable::Path;
///
/// async fn show(id: Path<u32>) -> String {
///     format!("server {id}")
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Path<T>(pub T);

/// The query string read into `T` (`?limit=10&marker=abc`), one value per
/// key; a query string that does not read as `T` answers 400 `bad-request`
/// in the API's format. [`JsonQuery`] keeps every value of a key, as Nova's
/// validators see them. Under a `#[schema(query_json_schema = T)]`, `T` is
/// read from what that schema validated: repeated keys fill a `Vec`.
///
/// ```
/// use microversion_core::portable::Query;
///
/// #[derive(serde::Deserialize)]
/// struct Page { limit: Option<u32> }
///
/// async fn list(page: Query<Page>) -> String {
///     format!("{:?}", page.limit)
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Query<T>(pub T);

/// `into_inner`, `Deref`, `DerefMut` of the newtypes that hold what was read.
macro_rules! holds_what_was_read {
    ($($name:ident),*) => {$(
        impl<T> $name<T> {
            /// The value read.
            pub fn into_inner(self) -> T {
                self.0
            }
        }

        impl<T> std::ops::Deref for $name<T> {
            type Target = T;
            fn deref(&self) -> &T {
                &self.0
            }
        }

        impl<T> std::ops::DerefMut for $name<T> {
            fn deref_mut(&mut self) -> &mut T {
                &mut self.0
            }
        }
    )*};
}

holds_what_was_read!(Json, Path, Query);

impl<T: fmt::Display> fmt::Display for Path<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl<T: fmt::Display> fmt::Display for Query<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// A model at the request's negotiated version, both ways
/// (docs/reference.md §16): as an answer it is rendered at that version
/// (the handler never passes the version by hand), with its status; as an
/// argument it is the request body read at that version, validated by the
/// JSON Schema the model derives for it, a field the version does not have
/// refused, naming the versions that accept it.
///
/// ```
/// # use microversion_core::portable::Versioned;
/// struct Server { id: u32 }
///
/// let created = Versioned::created(Server { id: 1 });
/// assert_eq!(created.status(), 201);
/// assert_eq!(created.id, 1);
/// assert_eq!(Versioned::with_status(Server { id: 2 }, 202u16).status(), 202);
/// ```
#[derive(Debug)]
pub struct Versioned<T> {
    model: T,
    status: StatusCode,
}

impl<T> Versioned<T> {
    /// 200 OK with the model.
    pub fn ok(model: T) -> Versioned<T> {
        Versioned { model, status: StatusCode::OK }
    }

    /// 201 Created with the model.
    pub fn created(model: T) -> Versioned<T> {
        Versioned { model, status: StatusCode::CREATED }
    }

    /// The model with another status, as any `Into<u16>` (either `http`
    /// crate's `StatusCode`, or a number; one that is no status is a 500).
    pub fn with_status(model: T, status: impl Into<u16>) -> Versioned<T> {
        let status = StatusCode::from_u16(status.into()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        Versioned { model, status }
    }

    /// The status it is answered with.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The model.
    pub fn into_inner(self) -> T {
        self.model
    }
}

impl<T> std::ops::Deref for Versioned<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.model
    }
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
    fn a_json_query_is_what_a_schema_validated_else_the_query_string() {
        let read = JsonQuery::read(None, "limit=1&sort=a&sort=b");
        assert_eq!(read.values("sort").collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(read.last("limit"), Some("1"));
        let validated =
            crate::body::ValidatedQuery { value: serde_json::json!({"limit": ["9"]}), typed: false };
        assert_eq!(JsonQuery::read(Some(validated), "limit=1").last("limit"), Some("9"));
    }

    #[test]
    fn a_link_root_has_no_trailing_slash() {
        assert_eq!(LinkRoot::new("http://cloud.example:8774//").as_str(), "http://cloud.example:8774");
    }
}
