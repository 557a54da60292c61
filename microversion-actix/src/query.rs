//! `JsonQuery`: the query string as Nova's validators see it.

use std::future::{Ready, ready};

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpMessage, HttpRequest};
use microversion_core::body::ValidatedQuery;

use crate::body::JsonQuery;
use crate::{ApiError, schema::query_to_json};

impl FromRequest for JsonQuery {
    type Error = ApiError;
    type Future = Ready<Result<JsonQuery, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let validated = req.extensions_mut().remove::<ValidatedQuery>();
        let value = validated.map_or_else(|| query_to_json(req.query_string()), |ValidatedQuery(v)| v);
        ready(Ok(JsonQuery(value)))
    }
}
