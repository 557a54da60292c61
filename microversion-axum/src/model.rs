//! Versioned models on axum: [`Versioned`] renders a [`VersionedModel`] at
//! the request's negotiated version and reads a request body into one. The
//! models are the core's, shared with every framework, and derived with
//! `#[derive(VersionedModel)]`.

use std::any::TypeId;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::{FromRequest, Request};
use axum::response::{IntoResponse, Response};
use http::StatusCode;
use http::header::{self, HeaderValue};
use microversion_core::Version;
pub use microversion_core::model::{
    At, DerivedSchema, FieldSchema, VersionedModel, VersionedStruct, compile_model_schemas,
};

use crate::api_version::version_of;
use crate::body::read_json;
use crate::{ApiError, Error};
use microversion_core::body::ValidatedAs;

microversion_core::facade_versioned! {
    /// A model at the request's negotiated version, both ways: as an answer it
    /// is rendered at that version by the [`VersionNegotiation`](crate::VersionNegotiation)
    /// (fields outside their range left out; the handler never passes the
    /// version); as an argument it is the request body read at that version,
    /// validated by the model's schema for it, then parsed.
    ///
    /// ```
    /// use microversion_axum::{Versioned, VersionedModel};
    ///
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

/// A model waiting in a response's extensions for the layer, which knows
/// the version, to render it.
#[derive(Clone)]
pub(crate) struct Unrendered(Arc<dyn Fn(Version) -> Response + Send + Sync>);

impl<T: VersionedModel> Versioned<T> {
    /// The answer at `version`: the model's fields at it, and the status.
    fn render(&self, version: Version) -> Response {
        match serde_json::to_vec(&self.model.at(version)) {
            Ok(body) => {
                let mut res = Response::new(Body::from(body));
                *res.status_mut() = self.status;
                res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
                res
            }
            Err(e) => Error(ApiError::internal(format!("rendering failed: {e}"))).into_response(),
        }
    }
}

impl Unrendered {
    /// The answer at `version`, keeping the headers the handler set on it.
    pub(crate) fn render(&self, version: Version, res: Response) -> Response {
        let (mut parts, _) = res.into_parts();
        let mut rendered = (self.0)(version);
        parts.extensions.remove::<ApiError>();
        parts.extensions.remove::<Unrendered>();
        parts.headers.remove(header::CONTENT_LENGTH);
        parts.headers.extend(std::mem::take(rendered.headers_mut()));
        parts.status = rendered.status();
        Response::from_parts(parts, rendered.into_body())
    }
}

tokio::task_local! {
    /// The version the layer negotiated for the request its service is
    /// answering: a [`Versioned`] answer is rendered at it at once, so that
    /// a middleware inside the layer sees the answer's own status and body.
    pub(crate) static NEGOTIATED: Version;
}

/// Rendered at the version the layer negotiated. Without the layer there is
/// no version to render at: a 500 naming the mistake (which a layer that
/// sees it replaces with the model at the version).
impl<T: VersionedModel + Send + Sync + 'static> IntoResponse for Versioned<T> {
    fn into_response(self) -> Response {
        if let Ok(version) = NEGOTIATED.try_with(|version| *version) {
            return self.render(version);
        }
        // Answered outside the layer's task (spawned, or no layer): the
        // layer renders it if it sees it, else the 500 names the mistake.
        let detail = "a Versioned answer is rendered at the negotiated version by the VersionNegotiation, \
                      which is not in front of this route";
        let mut res = Error(ApiError::internal(detail)).into_response();
        res.extensions_mut().insert(Unrendered(Arc::new(move |version| self.render(version))));
        res
    }
}

/// A request body read into a model at the negotiated version: validated
/// by the model's schema for that version, then parsed; the body is read
/// once (or taken as already parsed by a `#[schema]` check).
impl<T: VersionedStruct + 'static, S: Send + Sync> FromRequest<S> for Versioned<T> {
    type Rejection = Response;

    async fn from_request(req: Request, _: &S) -> Result<Versioned<T>, Response> {
        let (mut parts, body) = req.into_parts();
        let refused = |e: ApiError| Error(e).into_response();
        let version = version_of(&parts).map_err(refused)?.version;
        let body = read_json(&mut parts, body).await.map_err(refused)?;
        // A `#[schema(model = T)]` on the route has validated it already.
        let validated = parts.extensions.remove::<ValidatedAs>().is_some_and(|v| v.0 == TypeId::of::<T>());
        T::read_at(version, body, validated).map(Versioned::ok).map_err(|e| refused(e.into()))
    }
}
