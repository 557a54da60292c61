//! [`Native`]: the core's arguments and answers (`ApiVersion`, `Json<T>`,
//! `Path<T>`, `Query<T>`, `JsonQuery`, `LinkRoot`, `Versioned<T>`) as axum's
//! own extractors and responses, for a handler outside a `#[controller]`.
//!
//! In a controller they need no adapter: the core reads and writes them
//! for every facade. Only axum may make a type of another crate its
//! extractor, so a handler of axum's own takes them through this crate's
//! `Native`. Each reads what a `#[schema]` check read already, and refuses
//! as the core does, with an [`ApiError`] in the API's format.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::response::{IntoResponse, Response};
use http::header::{self, HeaderValue};
use http::request::Parts;
use microversion_core::Version;
use microversion_core::body::{ValidatedAs, ValidatedQuery, deserialize};
use microversion_core::exchange::Scope;
use microversion_core::portable::{ApiVersion, Json, JsonQuery, LinkRoot, Path, Query, Versioned};
use microversion_core::schema::model::{VersionedModel, VersionedStruct};
use serde::de::DeserializeOwned;

use crate::body::read_json;
use crate::discovery::RequestLinks as _;
use crate::version::version_of;
use crate::{ApiError, Error};

/// One of the core's arguments or answers as axum's own extractor or
/// response: what a handler outside a `#[controller]` takes and returns.
///
/// ```
/// use axum::{Router, routing::get};
/// use microversion_axum::{ApiVersion, Native, params::Path};
///
/// async fn show(Native(version): Native<ApiVersion>, Native(id): Native<Path<u32>>) -> String {
///     format!("server {} at {version}", *id)
/// }
/// let _: Router = Router::new().route("/servers/{id}", get(show));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Native<T>(pub T);

impl<T> Native<T> {
    /// The core's value.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> std::ops::Deref for Native<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// The version of the request ([`version_of`]).
impl<S: Send + Sync> FromRequestParts<S> for Native<ApiVersion> {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Native<ApiVersion>, Response> {
        version_of(parts).map(Native).map_err(|e| Error(e).into_response())
    }
}

/// The body a `#[schema]` check parsed, else read by the core's rules
/// (400, 408, 413, 415 in the API's format).
impl<T: DeserializeOwned + 'static, S: Send + Sync> FromRequest<S> for Native<Json<T>> {
    type Rejection = Response;

    async fn from_request(req: Request, _: &S) -> Result<Native<Json<T>>, Response> {
        let (mut parts, body) = req.into_parts();
        let value = read_json(&mut parts, body).await.map_err(|e| Error(e).into_response())?;
        deserialize(value).map(|value| Native(Json(value))).map_err(|e| Error::from(e).into_response())
    }
}

/// `T` as JSON, 200 OK, like `axum::Json`.
impl<T: serde::Serialize> IntoResponse for Native<Json<T>> {
    fn into_response(self) -> Response {
        axum::Json(self.0.0).into_response()
    }
}

/// A parameter that does not read as `T` is a 404 `not-found`.
impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for Native<Path<T>> {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Native<Path<T>>, Response> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(value)) => Ok(Native(Path(value))),
            Err(_) => {
                Err(Error(ApiError::not_found(microversion_core::error::PATH_REFUSED_DETAIL)).into_response())
            }
        }
    }
}

/// A query string that does not read as `T` is a 400 `bad-request`.
impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Native<Query<T>> {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Native<Query<T>>, Response> {
        let query = parts.uri.query().unwrap_or_default();
        microversion_core::error::read_query(query, parts.extensions.get::<ValidatedQuery>())
            .map(|query| Native(Query(query)))
            .map_err(|detail| Error(ApiError::bad_request(detail)).into_response())
    }
}

/// The object a query schema validated, else the query string read now.
impl<S: Send + Sync> FromRequestParts<S> for Native<JsonQuery> {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Native<JsonQuery>, Self::Rejection> {
        let validated = parts.extensions.remove::<ValidatedQuery>();
        Ok(Native(JsonQuery::read(validated, parts.uri.query().unwrap_or_default())))
    }
}

/// The request's public root ([`RequestLinks::link_base`](crate::discovery::RequestLinks::link_base)).
impl<S: Send + Sync> FromRequestParts<S> for Native<LinkRoot> {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Native<LinkRoot>, Self::Rejection> {
        Ok(Native(LinkRoot::new(parts.link_base())))
    }
}

/// A model waiting in a response's extensions for the layer, which knows
/// the version, to render it.
#[derive(Clone)]
pub(crate) struct Unrendered(Arc<dyn Fn(Version) -> Response + Send + Sync>);

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

/// The answer of `model` at `version`: its fields at it, and its status.
fn render<T: VersionedModel>(model: &Versioned<T>, version: Version) -> Response {
    match serde_json::to_vec(&model.at(version)) {
        Ok(body) => {
            let mut res = Response::new(Body::from(body));
            *res.status_mut() = model.status();
            res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
            res
        }
        Err(e) => Error(ApiError::internal(format!("rendering failed: {e}"))).into_response(),
    }
}

/// Rendered at the version the layer negotiated. Without the layer there is
/// no version to render at: a 500 naming the mistake (which a layer that
/// sees it replaces with the model at the version).
impl<T: VersionedModel + Send + Sync + 'static> IntoResponse for Native<Versioned<T>> {
    fn into_response(self) -> Response {
        let Native(model) = self;
        if let Some(negotiated) = Scope::current() {
            return render(&model, negotiated.version);
        }
        // Answered outside the layer's task (spawned, or no layer): the
        // layer renders it if it sees it, else the 500 names the mistake.
        let detail = "a Versioned answer is rendered at the negotiated version by the VersionNegotiation, \
                      which is not in front of this route";
        let mut res = Error(ApiError::internal(detail)).into_response();
        res.extensions_mut().insert(Unrendered(Arc::new(move |version| render(&model, version))));
        res
    }
}

/// The request body read into the model at the request's version:
/// validated by the model's schema for that version (unless a
/// `#[schema(model = T)]` did), then parsed. The body is read once.
impl<T: VersionedStruct + 'static, S: Send + Sync> FromRequest<S> for Native<Versioned<T>> {
    type Rejection = Response;

    async fn from_request(req: Request, _: &S) -> Result<Native<Versioned<T>>, Response> {
        let (mut parts, body) = req.into_parts();
        let refused = |e: ApiError| Error(e).into_response();
        let version = version_of(&parts).map_err(refused)?.version();
        let body = read_json(&mut parts, body).await.map_err(refused)?;
        let validated = parts.extensions.remove::<ValidatedAs>().is_some_and(|v| v.is::<T>());
        T::read_at(version, body, validated)
            .map(|model| Native(Versioned::ok(model)))
            .map_err(|e| refused(e.into()))
    }
}
