//! What the route of one operation receives: what `#[controller]`
//! registers for each operation with a route (docs/reference.md §4).
//!
//! The route is an actix handler of one argument, [`OperationInput`]: the
//! request, its body stream, and the version the middleware negotiated,
//! taken in one step. The generated function extracts each variant's
//! arguments itself, after choosing the variant; the controller comes from
//! the handler (a closure holding it), not from app data.

use std::future::{Ready, ready};

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest};

use crate::{ApiError, ApiVersion, Version};

/// The request of an operation's route, its body stream, and its version.
pub struct OperationInput {
    /// The request.
    pub request: HttpRequest,
    /// Its body, not read yet.
    pub payload: Payload,
    /// The version it is served at.
    pub version: Version,
}

impl FromRequest for OperationInput {
    type Error = ApiError;
    type Future = Ready<Result<OperationInput, ApiError>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        ready(ApiVersion::from_http_request(req).map(|version| OperationInput {
            request: req.clone(),
            payload: payload.take(),
            version: version.version(),
        }))
    }
}

impl std::fmt::Debug for OperationInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OperationInput")
            .field("request", &self.request)
            .field("version", &self.version)
            .finish_non_exhaustive()
    }
}
