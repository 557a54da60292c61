//! [`Native`]: the core's arguments and answers (`ApiVersion`, `Json<T>`,
//! `Path<T>`, `Query<T>`, `JsonQuery`, `LinkRoot`, `Versioned<T>`) as
//! actix-web's own extractors and responders, for a handler outside a
//! `#[controller]`.
//!
//! In a controller they need no adapter: the core reads and writes them
//! for every facade. Only actix-web may make a type of another crate its
//! extractor, so a handler of actix's own takes them through this crate's
//! `Native`. Each reads what a `#[schema]` check read already, and refuses
//! as the core does, with an [`ApiError`] in the API's format.

use std::future::{Ready, ready};

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpMessage, HttpRequest, HttpResponse, Responder, web};
use futures_util::future::LocalBoxFuture;
use microversion_core::body::{ParsedJson, ValidatedAs, ValidatedQuery, deserialize};
use microversion_core::portable::{ApiVersion, Json, JsonQuery, LinkRoot, Path, Query, Versioned};
use microversion_core::schema::model::{VersionedModel, VersionedStruct};
use serde::de::DeserializeOwned;

use crate::body::read_json_body;
use crate::discovery::RequestLinks as _;
use crate::error::{ErrorRenderer, status_of};
use crate::version::version_of;
use crate::{ApiError, Error};

/// One of the core's arguments or answers as actix-web's own extractor or
/// responder: what a handler outside a `#[controller]` takes and returns.
///
/// ```
/// use actix_web::{App, web};
/// use microversion_actix::{ApiVersion, Native, params::Path};
///
/// async fn show(Native(version): Native<ApiVersion>, Native(id): Native<Path<u32>>) -> String {
///     format!("server {} at {version}", *id)
/// }
/// # let _ = App::new().route("/servers/{id}", web::get().to(show));
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
impl FromRequest for Native<ApiVersion> {
    type Error = Error;
    type Future = Ready<Result<Native<ApiVersion>, Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(version_of(req).map(Native).map_err(Error))
    }
}

/// The body a `#[schema]` check parsed, else read with [`read_json_body`].
/// The body is consumed by the first body extractor of a handler, as with
/// actix's own extractors.
impl<T: DeserializeOwned + 'static> FromRequest for Native<Json<T>> {
    type Error = Error;
    type Future = LocalBoxFuture<'static, Result<Native<Json<T>>, Error>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        // Parsed (and validated) already by the route: handed over.
        if let Some(ParsedJson(value)) = req.extensions_mut().remove::<ParsedJson>() {
            return Box::pin(ready(deserialize(value).map(|value| Native(Json(value))).map_err(Error::from)));
        }
        let req = req.clone();
        let mut payload = payload.take();
        Box::pin(async move { Ok(Native(Json(deserialize(read_json_body(&req, &mut payload).await?)?))) })
    }
}

/// `T` as JSON, 200 OK, like `actix_web::web::Json`.
impl<T: serde::Serialize> Responder for Native<Json<T>> {
    type Body = actix_web::body::BoxBody;

    fn respond_to(self, req: &HttpRequest) -> HttpResponse {
        web::Json(self.0.0).respond_to(req).map_into_boxed_body()
    }
}

/// A parameter that does not read as `T` is a 404 `not-found`.
impl<T: DeserializeOwned> FromRequest for Native<Path<T>> {
    type Error = Error;
    type Future = Ready<Result<Native<Path<T>>, Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let read = web::Path::<T>::extract(req).into_inner();
        ready(
            read.map(|path| Native(Path(path.into_inner())))
                .map_err(|_| Error(ApiError::not_found(microversion_core::error::PATH_REFUSED_DETAIL))),
        )
    }
}

/// A query string that does not read as `T` is a 400 `bad-request`.
impl<T: DeserializeOwned> FromRequest for Native<Query<T>> {
    type Error = Error;
    type Future = Ready<Result<Native<Query<T>>, Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let read = microversion_core::error::read_query(
            req.query_string(),
            req.extensions().get::<ValidatedQuery>(),
        );
        ready(read.map(|query| Native(Query(query))).map_err(|detail| Error(ApiError::bad_request(detail))))
    }
}

/// The object a query schema validated, else the query string read now.
impl FromRequest for Native<JsonQuery> {
    type Error = Error;
    type Future = Ready<Result<Native<JsonQuery>, Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let validated = req.extensions_mut().remove::<ValidatedQuery>();
        ready(Ok(Native(JsonQuery::read(validated, req.query_string()))))
    }
}

/// The request's public root ([`RequestLinks::link_base`](crate::discovery::RequestLinks::link_base)).
impl FromRequest for Native<LinkRoot> {
    type Error = std::convert::Infallible;
    type Future = Ready<Result<Native<LinkRoot>, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(Ok(Native(LinkRoot::new(req.link_base()))))
    }
}

/// The model rendered at the request's version, with its status.
impl<T: VersionedModel> Responder for Native<Versioned<T>> {
    type Body = actix_web::body::BoxBody;

    fn respond_to(self, req: &HttpRequest) -> HttpResponse {
        let version = match version_of(req) {
            Ok(version) => version.version(),
            Err(e) => return ErrorRenderer::default().render(&e),
        };
        let status = status_of(self.0.status());
        match serde_json::to_vec(&self.0.into_inner().at(version)) {
            Ok(body) => HttpResponse::build(status).content_type("application/json").body(body),
            Err(e) => ErrorRenderer::default().render(&ApiError::internal(format!("rendering failed: {e}"))),
        }
    }
}

/// The request body read into the model at the request's version:
/// validated by the model's schema for that version (unless a
/// `#[schema(model = T)]` did), then parsed. The body is read once.
impl<T: VersionedStruct + 'static> FromRequest for Native<Versioned<T>> {
    type Error = Error;
    type Future = LocalBoxFuture<'static, Result<Native<Versioned<T>>, Error>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let req = req.clone();
        let mut payload = payload.take();
        Box::pin(async move {
            let version = version_of(&req)?.version();
            let parsed = req.extensions_mut().remove::<ParsedJson>();
            let body = match parsed {
                Some(ParsedJson(body)) => body,
                None => read_json_body(&req, &mut payload).await?,
            };
            let validated = req.extensions_mut().remove::<ValidatedAs>().is_some_and(|v| v.is::<T>());
            Ok(Native(Versioned::ok(T::read_at(version, body, validated)?)))
        })
    }
}
