//! The clients `#[controller(client)]` generates (docs/20-typed-clients.md),
//! without I/O: the [`Transport`] a client sends through (the
//! `microversion-client` crate's `HttpClient`, or a test's own), the
//! [`Call`] it sends, and what comes back: a [`Rendered`] model, or a
//! [`CallError`].
//!
//! A generated method checks its operation exists at the transport's
//! version before anything is sent: an operation the version lacks is a
//! [`CallError::NotAtVersion`] that names the versions that have it.

use std::fmt;
use std::future::Future;
use std::marker::PhantomData;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::{Version, VersionRange};

/// What a generated client sends its requests through: an HTTP client at
/// one negotiated version.
pub trait Transport: Sync {
    /// The version, when it is part of the type ([`AtVersion`]): a generated
    /// method the version lacks is then a compile error, not a
    /// [`CallError::NotAtVersion`].
    const FIXED: Option<Version> = None;

    /// The version every request is sent at.
    fn version(&self) -> Version;

    /// Sends `call` (with the version header) and reads the whole answer;
    /// an answer of any status is `Ok`: only a failure to exchange is an error.
    fn send(&self, call: Call) -> impl Future<Output = Result<Answer, CallError>> + Send;
}

/// A transport whose version is part of its type: `AtVersion<HttpClient, 2,
/// 55>`. A generated method whose operation the version lacks does not
/// compile (`cargo build`; `cargo check` stops before it), its message
/// naming the versions that have it.
#[derive(Clone, Debug)]
pub struct AtVersion<T, const MAJOR: u16, const MINOR: u16>(T);

impl<T: Transport, const MAJOR: u16, const MINOR: u16> AtVersion<T, MAJOR, MINOR> {
    /// The version of the type.
    pub const VERSION: Version = Version::new(MAJOR, MINOR);

    /// `transport` as this type, if it is at [`AtVersion::VERSION`]; else
    /// `transport` back.
    pub fn new(transport: T) -> Result<Self, T> {
        if transport.version() == Self::VERSION { Ok(AtVersion(transport)) } else { Err(transport) }
    }

    /// The transport.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T: Transport, const MAJOR: u16, const MINOR: u16> Transport for AtVersion<T, MAJOR, MINOR> {
    const FIXED: Option<Version> = Some(Version::new(MAJOR, MINOR));

    fn version(&self) -> Version {
        Self::VERSION
    }

    fn send(&self, call: Call) -> impl Future<Output = Result<Answer, CallError>> + Send {
        self.0.send(call)
    }
}

/// Whether one of `served` holds `version`, in a constant: what a
/// generated method asks of an [`AtVersion`] transport at compile time.
pub const fn served_at(served: &[VersionRange], version: Version) -> bool {
    let mut i = 0;
    while i < served.len() {
        if served[i].contains(version) {
            return true;
        }
        i += 1;
    }
    false
}

/// One request of a generated client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    /// The operation, as `Flavors::show`, for errors and logs.
    pub operation: &'static str,
    /// The HTTP method, upper case.
    pub method: &'static str,
    /// The path below the API's endpoint, its parameters filled and encoded.
    pub path: String,
    /// The query string, encoded, without `?`; empty for none.
    pub query: String,
    /// A JSON body.
    pub body: Option<Vec<u8>>,
}

/// A whole answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// Its status code.
    pub status: u16,
    /// Its body, empty for none.
    pub body: Vec<u8>,
}

/// Why a call has no answer to decode.
#[derive(Debug)]
#[non_exhaustive]
pub enum CallError {
    /// The operation does not exist at the client's version; nothing was sent.
    NotAtVersion {
        /// The operation.
        operation: &'static str,
        /// The client's version.
        version: Version,
        /// The versions that have it.
        served: Vec<VersionRange>,
    },
    /// The server refused it: a status of 400 or more.
    Refused(Box<Refusal>),
    /// An argument could not be written as a path, query or body.
    Encode(String),
    /// The answer is not the JSON of its model.
    Decode(String),
    /// The request could not be exchanged (connection, timeout).
    Transport(String),
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallError::NotAtVersion { operation, version, served } => {
                let served: Vec<String> = served.iter().map(ToString::to_string).collect();
                write!(
                    f,
                    "{operation} does not exist at version {version}; it is served at {}",
                    served.join(", ")
                )
            }
            CallError::Refused(refusal) => {
                write!(f, "{} {}: {}", refusal.operation, refusal.status, refusal.detail)
            }
            CallError::Encode(why) => write!(f, "the request cannot be written: {why}"),
            CallError::Decode(why) => write!(f, "the answer cannot be read: {why}"),
            CallError::Transport(why) => write!(f, "the request could not be sent: {why}"),
        }
    }
}

impl std::error::Error for CallError {}

/// An answer of status 400 or more, read from the API's error format:
/// API-SIG errors (`{"errors": [{"code", "detail", ...}]}`) or Nova's
/// faults (`{"itemNotFound": {"code": 404, "message": ...}}`).
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    /// The operation refused.
    pub operation: &'static str,
    /// The status.
    pub status: u16,
    /// The error's code (`compute.flavor-not-found`) or the fault's name
    /// (`itemNotFound`), when the body has one.
    pub code: Option<String>,
    /// What went wrong, as the server worded it (the body's text when it
    /// is in neither format).
    pub detail: String,
    /// The whole body, `Null` when it was empty or not JSON.
    pub body: serde_json::Value,
}

impl Refusal {
    fn read(operation: &'static str, answer: &Answer) -> Refusal {
        let body: serde_json::Value = serde_json::from_slice(&answer.body).unwrap_or_default();
        let text = |v: &serde_json::Value| v.as_str().map(str::to_owned);
        let (code, detail) = if let Some(first) = body.get("errors").and_then(|e| e.get(0)) {
            (text(&first["code"]), text(&first["detail"]))
        } else if let Some((name, fault)) =
            body.as_object().filter(|o| o.len() == 1).and_then(|o| o.iter().next())
        {
            (Some(name.clone()), text(&fault["message"]))
        } else {
            (None, None)
        };
        let detail = detail.unwrap_or_else(|| String::from_utf8_lossy(&answer.body).into_owned());
        Refusal { operation, status: answer.status, code, detail, body }
    }
}

/// A successful answer: the JSON of `M` as the server rendered it at the
/// client's version. [`Rendered::json`] reads it as it is; [`Rendered::decode`]
/// reads it into `M` when `M` deserializes (a model whose fields differ by
/// version marks the ones a version may lack `#[serde(default)]`).
pub struct Rendered<M> {
    status: u16,
    body: serde_json::Value,
    model: PhantomData<fn() -> M>,
}

impl<M> fmt::Debug for Rendered<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rendered").field("status", &self.status).field("body", &self.body).finish()
    }
}

impl<M> Rendered<M> {
    /// The answer's status (200, 201, 202, 204).
    pub fn status(&self) -> u16 {
        self.status
    }

    /// The body; `Null` for an answer without one, a JSON string for one
    /// that is not JSON.
    pub fn json(&self) -> &serde_json::Value {
        &self.body
    }

    /// The body, owned.
    pub fn into_json(self) -> serde_json::Value {
        self.body
    }

    /// The body read into `M`.
    pub fn decode(&self) -> Result<M, CallError>
    where
        M: DeserializeOwned,
    {
        M::deserialize(&self.body).map_err(|e| CallError::Decode(e.to_string()))
    }
}

/// `template` (`/flavors/{id}/os-extra_specs/{key}`, a `{name:regex}` as
/// well) with its parameters replaced by `segments`, in order, each
/// percent-encoded but for RFC 3986's unreserved characters. A generated
/// method writes each parameter with its `Display` (a tuple's elements
/// one by one).
pub fn fill_path(template: &str, segments: &[String]) -> Result<String, CallError> {
    let mut path = String::with_capacity(template.len());
    let mut values = segments.iter();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        path.push_str(&rest[..open]);
        let close = rest[open..].find('}').map(|c| open + c).unwrap_or(rest.len() - 1);
        let value =
            values.next().ok_or_else(|| CallError::Encode(format!("{template} has more parameters")))?;
        for byte in value.bytes() {
            if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
                path.push(char::from(byte));
            } else {
                path.push_str(&format!("%{byte:02X}"));
            }
        }
        rest = &rest[close + 1..];
    }
    path.push_str(rest);
    Ok(path)
}

/// A query string of a `Query<T>` argument, as the server's `Query<T>`
/// reads it: a field per key, a list as its key repeated, `None` left out.
///
/// ```
/// #[derive(serde::Serialize)]
/// struct Page { limit: Option<u32>, tag: Vec<&'static str>, marker: Option<String> }
///
/// let query = microversion_core::client::typed_client::query_of(&Page {
///     limit: Some(10), tag: vec!["a b", "c"], marker: None,
/// });
/// assert_eq!(query.unwrap(), "limit=10&tag=a+b&tag=c");
/// ```
pub fn query_of<T: Serialize + ?Sized>(query: &T) -> Result<String, CallError> {
    let refused = |what: &str| CallError::Encode(format!("a query string holds {what}"));
    let Value::Object(fields) = serde_json::to_value(query).map_err(|e| CallError::Encode(e.to_string()))?
    else {
        return Err(refused("the fields of a struct or the entries of a map"));
    };
    let mut pairs = form_urlencoded::Serializer::new(String::new());
    for (key, value) in &fields {
        let values = match value {
            Value::Array(values) => values.as_slice(),
            single => std::slice::from_ref(single),
        };
        for value in values {
            match value {
                Value::Null => {}
                Value::String(text) => {
                    pairs.append_pair(key, text);
                }
                Value::Number(_) | Value::Bool(_) => {
                    pairs.append_pair(key, &value.to_string());
                }
                Value::Array(_) | Value::Object(_) => return Err(refused("no nested lists or objects")),
            }
        }
    }
    Ok(pairs.finish())
}

/// A query string of `(key, value)` pairs (a `JsonQuery` argument).
pub fn query_pairs(pairs: &[(&str, &str)]) -> String {
    form_urlencoded::Serializer::new(String::new()).extend_pairs(pairs).finish()
}

/// A JSON body of a `Json<T>` argument.
pub fn body_of<T: Serialize + ?Sized>(body: &T) -> Result<Vec<u8>, CallError> {
    serde_json::to_vec(body).map_err(|e| CallError::Encode(e.to_string()))
}

/// The parts of a call its arguments fill: the path's parameters, the
/// query string, the body.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CallParts {
    /// Each path parameter, in the path's order.
    pub path: Vec<String>,
    /// The query string, without its `?`.
    pub query: String,
    /// The JSON body.
    pub body: Option<Vec<u8>>,
}

/// An argument of a handler as a typed client sends it, read from its type
/// rather than its name: what the methods of the versions before a version
/// change take (`create_before_size_added`), whose arguments are the types
/// the changes' upgrades start from (docs/20-typed-clients.md).
#[cfg(feature = "portable")]
pub trait ClientArgument {
    /// Puts the argument in its part of the call.
    fn carry(&self, parts: &mut CallParts) -> Result<(), CallError>;
}

#[cfg(feature = "portable")]
impl<T: Serialize> ClientArgument for crate::portable::Json<T> {
    fn carry(&self, parts: &mut CallParts) -> Result<(), CallError> {
        parts.body = Some(body_of(&self.0)?);
        Ok(())
    }
}

#[cfg(feature = "portable")]
impl<T: Serialize> ClientArgument for crate::portable::Query<T> {
    fn carry(&self, parts: &mut CallParts) -> Result<(), CallError> {
        parts.query = query_of(&self.0)?;
        Ok(())
    }
}

/// Each key of the object to each of its values (a list or one value).
#[cfg(feature = "portable")]
impl ClientArgument for crate::portable::JsonQuery {
    fn carry(&self, parts: &mut CallParts) -> Result<(), CallError> {
        parts.query = query_of(&self.0)?;
        Ok(())
    }
}

/// A value, or a tuple's values in order, each as text.
#[cfg(feature = "portable")]
impl<T: Serialize> ClientArgument for crate::portable::Path<T> {
    fn carry(&self, parts: &mut CallParts) -> Result<(), CallError> {
        let text = |value: &Value| match value {
            Value::String(text) => Ok(text.clone()),
            Value::Number(_) | Value::Bool(_) => Ok(value.to_string()),
            _ => Err(CallError::Encode("a path parameter is a string, a number or a boolean".into())),
        };
        parts.path = match serde_json::to_value(&self.0).map_err(|e| CallError::Encode(e.to_string()))? {
            Value::Array(values) => values.iter().map(text).collect::<Result<_, _>>()?,
            value => vec![text(&value)?],
        };
        Ok(())
    }
}

/// What a typed client decodes an answer of this type as: the model of a
/// `Json<M>`, `Versioned<M>` or `Answer<M>`, in a `Result` or not; JSON as
/// it is for a `Reply`.
#[cfg(feature = "portable")]
pub trait ClientModel {
    /// The model.
    type Model;
}

#[cfg(feature = "portable")]
impl<M> ClientModel for crate::portable::Json<M> {
    type Model = M;
}

#[cfg(feature = "portable")]
impl<M> ClientModel for crate::portable::Versioned<M> {
    type Model = M;
}

#[cfg(feature = "portable")]
impl<M> ClientModel for crate::portable::Answer<M> {
    type Model = M;
}

#[cfg(feature = "portable")]
impl ClientModel for crate::portable::Reply {
    type Model = Value;
}

#[cfg(feature = "portable")]
impl<T: ClientModel> ClientModel for Result<T, crate::portable::ApiError> {
    type Model = T::Model;
}

/// Sends `call` through `transport` if its operation exists at the
/// transport's version (one of `served`), and reads the answer: a status
/// below 400 as the rendered model, any other as a [`Refusal`].
pub async fn send<T: Transport + ?Sized, M>(
    transport: &T,
    served: &[VersionRange],
    call: Call,
) -> Result<Rendered<M>, CallError> {
    let version = transport.version();
    if !served.iter().any(|range| range.contains(version)) {
        return Err(CallError::NotAtVersion { operation: call.operation, version, served: served.to_vec() });
    }
    let operation = call.operation;
    let answer = transport.send(call).await?;
    if answer.status >= 400 {
        return Err(CallError::Refused(Box::new(Refusal::read(operation, &answer))));
    }
    // No body is `Null`; a body that is not JSON is the string of its text.
    let body = if answer.body.is_empty() {
        serde_json::Value::Null
    } else {
        serde_json::from_slice(&answer.body)
            .unwrap_or_else(|_| serde_json::Value::String(String::from_utf8_lossy(&answer.body).into_owned()))
    };
    Ok(Rendered { status: answer.status, body, model: PhantomData })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_filled_in_order_and_encoded() {
        let segments = vec!["a b/c".to_owned(), "k~1".to_owned()];
        assert_eq!(
            fill_path("/flavors/{id}/os-extra_specs/{key}", &segments).unwrap(),
            "/flavors/a%20b%2Fc/os-extra_specs/k~1"
        );
        assert_eq!(fill_path("/items/{id:\\d+}", &["7".to_owned()]).unwrap(), "/items/7");
        assert!(matches!(fill_path("/a/{b}", &[]), Err(CallError::Encode(_))));
        assert_eq!(query_pairs(&[("name", "a b"), ("x", "&")]), "name=a+b&x=%26");
    }

    #[test]
    fn refusals_read_both_error_formats() {
        let api_sig = Answer {
            status: 404,
            body: br#"{"errors": [{"code": "compute.not-found", "detail": "No flavor 9."}]}"#.to_vec(),
        };
        let read = Refusal::read("Flavors::show", &api_sig);
        assert_eq!((read.code.as_deref(), read.detail.as_str()), (Some("compute.not-found"), "No flavor 9."));
        let nova =
            Answer { status: 404, body: br#"{"itemNotFound": {"code": 404, "message": "Gone."}}"#.to_vec() };
        let read = Refusal::read("Flavors::show", &nova);
        assert_eq!((read.code.as_deref(), read.detail.as_str()), (Some("itemNotFound"), "Gone."));
        let bare = Answer { status: 502, body: b"Bad Gateway".to_vec() };
        assert_eq!(Refusal::read("Flavors::show", &bare).detail, "Bad Gateway");
    }
}
