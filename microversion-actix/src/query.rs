//! `JsonQuery`: the query string as Nova's validators see it.

use std::future::{Ready, ready};

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpMessage, HttpRequest};
use serde_json::Value;

use crate::{ApiError, schema::query_to_json};

/// In request extensions: the query object a `#[schema(query = ...)]` validated.
pub(crate) struct ValidatedQuery(pub(crate) Value);

/// The query string as an object mapping each key to the list of its values,
/// all strings (`?limit=10&sort=a&sort=b` is `{"limit": ["10"], "sort": ["a", "b"]}`),
/// the shape Nova's query schemas validate. Behind `#[schema(query = ...)]`
/// it is the object the schema of the negotiated version accepted, read once.
///
/// ```
/// use microversion_actix::JsonQuery;
///
/// async fn list(query: JsonQuery) -> String {
///     // Nova's `req.GET.get("limit")`: the last value given.
///     query.last("limit").unwrap_or("all").to_owned()
/// }
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct JsonQuery(pub Value);

impl JsonQuery {
    /// The whole object.
    pub fn value(&self) -> &Value {
        &self.0
    }

    /// The last value of `key`, as Nova's `req.GET.get(key)` gives it.
    pub fn last(&self, key: &str) -> Option<&str> {
        self.values(key).last()
    }

    /// Every value of `key`, in order.
    pub fn values<'a>(&'a self, key: &str) -> impl DoubleEndedIterator<Item = &'a str> + 'a {
        self.0.get(key).and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str)
    }
}

impl FromRequest for JsonQuery {
    type Error = ApiError;
    type Future = Ready<Result<JsonQuery, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let validated = req.extensions_mut().remove::<ValidatedQuery>();
        let value = validated.map_or_else(|| query_to_json(req.query_string()), |ValidatedQuery(v)| v);
        ready(Ok(JsonQuery(value)))
    }
}
