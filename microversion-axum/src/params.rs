//! The route's parameters and the query string as handler arguments:
//! [`Path`] and [`Query`] read into a type, with the API's errors, as on
//! actix (`microversion_actix::params`).

use axum::extract::FromRequestParts;
use axum::response::{IntoResponse, Response};
use http::request::Parts;
use microversion_core::body::ValidatedQuery;
use serde::de::DeserializeOwned;

use crate::{ApiError, Error};

microversion_core::facade_params! {
    /// The route's parameters (`/servers/{id}`) read into `T`: one value,
    /// a tuple in the path's order, or a struct by name. A parameter that
    /// does not read as `T` answers 404 `not-found` (no resource has that
    /// name), in the API's format.
    ///
    /// ```
    /// use microversion_axum::params::Path;
    ///
    /// async fn show(id: Path<u32>) -> String {
    ///     format!("server {id}")
    /// }
    /// ```
    pub struct Path;
    /// The query string read into `T` (`?limit=10&marker=abc`), one value
    /// per key; a query string that does not read as `T` answers 400
    /// `bad-request` in the API's format. [`JsonQuery`](crate::JsonQuery)
    /// keeps every value of a key, as Nova's validators see them. Under a
    /// `#[schema(query_json_schema = T)]`, `T` is read from what that schema
    /// validated: repeated keys fill a `Vec`.
    ///
    /// ```
    /// use microversion_axum::params::Query;
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

impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for Path<T> {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Path<T>, Response> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(value)) => Ok(Path(value)),
            Err(_) => {
                Err(Error(ApiError::not_found(microversion_core::error::PATH_REFUSED_DETAIL)).into_response())
            }
        }
    }
}

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Query<T> {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Query<T>, Response> {
        let query = parts.uri.query().unwrap_or_default();
        microversion_core::error::read_query(query, parts.extensions.get::<ValidatedQuery>())
            .map(Query)
            .map_err(|detail| Error(ApiError::bad_request(detail)).into_response())
    }
}
