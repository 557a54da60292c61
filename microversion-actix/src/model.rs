//! Versioned models on actix: [`Versioned`] renders a [`VersionedModel`]
//! at the request's negotiated version and reads a request body into one.
//!
//! - A handler returns [`Versioned`]`(model)`: it is serialized at the
//!   request's version, fields outside their range left out.
//! - A handler takes [`Versioned`]`<Model>` as an argument: the body is validated by
//!   the JSON Schema the model derives for the version, then parsed; a field
//!   the version does not have is refused, naming the versions that accept it.
//!
//! The models themselves are the core's, shared with every framework.

use actix_web::dev::Payload;
use actix_web::http::StatusCode;
use actix_web::{FromRequest, HttpMessage, HttpRequest, HttpResponse, Responder};
use futures_util::future::LocalBoxFuture;

pub use microversion_core::model::{
    At, DerivedSchema, FieldSchema, VersionedModel, VersionedStruct, compile_model_schemas,
};

use crate::{ApiError, ApiVersion, error::ErrorRenderer};
use microversion_core::body::{ParsedJson, ValidatedAs};

microversion_core::facade_versioned! {
    /// A model at the request's negotiated version, both ways: as a handler's
    /// answer it is rendered at that version (the handler never passes the
    /// version by hand); as a handler's argument it is the request body read
    /// at that version (see its `FromRequest` implementation below).
    ///
    /// ```
    /// # use microversion_actix::{Versioned, VersionedModel};
    /// #[derive(VersionedModel)]
    /// struct Server {
    ///     id: u32,
    ///     #[versioned(since = "2.3")]
    ///     host: Option<String>,
    /// }
    ///
    /// async fn show() -> Versioned<Server> {
    ///     Versioned::ok(Server { id: 1, host: Some("compute-1".into()) })
    /// }
    /// ```
    status = StatusCode;
}

impl<T: VersionedModel> Responder for Versioned<T> {
    type Body = actix_web::body::BoxBody;

    fn respond_to(self, req: &HttpRequest) -> HttpResponse {
        let version = match ApiVersion::from_http_request(req) {
            Ok(version) => version.version(),
            Err(e) => return ErrorRenderer::default().render(&e),
        };
        match serde_json::to_vec(&self.model.at(version)) {
            Ok(body) => HttpResponse::build(self.status).content_type("application/json").body(body),
            Err(e) => ErrorRenderer::default().render(&ApiError::internal(format!("rendering failed: {e}"))),
        }
    }
}

/// A request body read into a model at the negotiated version: validated
/// by the model's schema for that version, then parsed. The body is read
/// once (or taken as already parsed by a `#[schema]` check).
///
/// ```
/// # use microversion_actix::{Versioned, VersionedModel};
/// #[derive(VersionedModel)]
/// struct Rename {
///     name: String,
///     #[versioned(since = "2.19")]
///     description: Option<String>,
/// }
///
/// async fn rename(body: Versioned<Rename>) -> String {
///     body.into_inner().name
/// }
/// ```
impl<T: VersionedStruct + 'static> FromRequest for Versioned<T> {
    type Error = crate::Error;
    type Future = LocalBoxFuture<'static, Result<Versioned<T>, crate::Error>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let req = req.clone();
        let mut payload = payload.take();
        Box::pin(async move {
            let version = ApiVersion::from_http_request(&req)?.version();
            let parsed = req.extensions_mut().remove::<ParsedJson>();
            let body = match parsed {
                Some(ParsedJson(body)) => body,
                None => crate::body::read_json_body(&req, &mut payload).await?,
            };
            // A `#[schema(model = T)]` on the route has validated it already.
            let validated = req
                .extensions_mut()
                .remove::<ValidatedAs>()
                .is_some_and(|v| v.0 == std::any::TypeId::of::<T>());
            Ok(Versioned::ok(T::read_at(version, body, validated)?))
        })
    }
}
