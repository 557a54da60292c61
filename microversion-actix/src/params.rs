//! The route's parameters and the query string as handler arguments:
//! [`Path`] and [`Query`] read into a type, [`JsonQuery`] as Nova's
//! validators see the query; refusals are [`ApiError`]s, as on axum.

use std::future::{Ready, ready};

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpMessage, HttpRequest, web};
use microversion_core::body::ValidatedQuery;
use serde::de::DeserializeOwned;

use crate::body::JsonQuery;
use crate::{ApiError, Error, schema::query_to_json};

microversion_core::facade_params! {
    /// The route's parameters (`/servers/{id}`) read into `T`: one value,
    /// a tuple in the path's order, or a struct by name. A parameter that
    /// does not read as `T` answers 404 `not-found` (no resource has that
    /// name), in the API's format.
    ///
    /// ```
    /// use microversion_actix::params::Path;
    ///
    /// async fn show(id: Path<u32>) -> String {
    ///     format!("server {id}")
    /// }
    /// ```
    pub struct Path;
    /// The query string read into `T` (`?limit=10&marker=abc`), one value
    /// per key; a query string that does not read as `T` answers 400
    /// `bad-request` in the API's format. [`JsonQuery`] keeps every value
    /// of a key, as Nova's validators see them. Under a
    /// `#[schema(query_json_schema = T)]`, `T` is read from what that schema
    /// validated: repeated keys fill a `Vec`.
    ///
    /// ```
    /// use microversion_actix::params::Query;
    ///
    /// #[derive(serde::Deserialize)]
    /// struct Page { limit: Option<u32> }
    ///
    /// async fn list(page: Query<Page>) -> String {
    ///     format!("{:?}", page.limit)
    /// }
    /// ```
    pub struct Query;
}

impl<T: DeserializeOwned> FromRequest for Path<T> {
    type Error = Error;
    type Future = Ready<Result<Path<T>, Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let read = web::Path::<T>::extract(req).into_inner();
        ready(
            read.map(|path| Path(path.into_inner()))
                .map_err(|_| Error(ApiError::not_found(microversion_core::error::PATH_REFUSED_DETAIL))),
        )
    }
}

impl<T: DeserializeOwned> FromRequest for Query<T> {
    type Error = Error;
    type Future = Ready<Result<Query<T>, Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let read = microversion_core::error::read_query(
            req.query_string(),
            req.extensions().get::<ValidatedQuery>(),
        );
        ready(read.map(Query).map_err(|detail| Error(ApiError::bad_request(detail))))
    }
}

impl FromRequest for JsonQuery {
    type Error = Error;
    type Future = Ready<Result<JsonQuery, Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let validated = req.extensions_mut().remove::<ValidatedQuery>();
        let value = validated.map_or_else(|| query_to_json(req.query_string()), |validated| validated.value);
        ready(Ok(JsonQuery(value)))
    }
}
