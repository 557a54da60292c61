//! What the macros' expansions call. Not public API: names here change
//! without notice. Generated code reaches the runtime only through this
//! module, under the same names as `microversion-actix`'s, so that one
//! expansion serves both frameworks: the request's head, its body, the
//! response and the error are axum's here.

pub use axum;
pub use serde_json;

pub use crate::header::AxumHeaders as Headers;
pub use microversion_core::__microversion_tried as tried;
pub use microversion_core::derive::{
    DerivedSchema, Presence, deny_unknown, model_schemas, object_at, parse_plain, read_field,
};
pub use microversion_core::model::{FieldSchema, VersionedModel, VersionedStruct, compile_model_schemas};
pub use microversion_core::schema::{
    LazySchemas, SchemaError, SchemaSource, VersionedSchemas, json_schema_of,
};
pub use microversion_core::{
    Api, Deprecation, Microversion, Version, VersionRange, Violation, client::typed_client,
    header::stamp_deprecation,
};
pub use serde;

pub use crate::operation::{
    Controller, Operation, OperationVariant, ResponseDescription, SchemaDescription, SchemaDocument,
    UnservedVersion,
};
pub use crate::route::{OperationInput, RoutesFn, missing, router};
pub use futures_util::future::Either;
pub use microversion_core::operation::MissingVariant;
pub use microversion_core::operation::{__serving, Answers, Extracts, Facade, RouteInput, Routes};
pub use microversion_macros::{history, version_gates};

use microversion_core::body::{ParsedJson, ValidatedAs};
use std::future::{Future, Ready, ready};
use std::sync::Arc;

use axum::body::Body;
use axum::extract::{FromRequest, FromRequestParts};
use axum::response::IntoResponse;
use futures_util::future::BoxFuture;

use crate::ApiError;

/// The request as a route's arguments are extracted from it: its head.
pub type Request = http::request::Parts;

/// The request's body, until the argument that reads it takes it.
pub type Payload = Option<Body>;

/// An answer.
pub type Response = axum::response::Response;

/// What a failed extraction answers: axum's rejections are answers.
pub type Error = Response;

/// How the routes of one controller share it: across threads, as axum's are.
pub type Shared<C> = Arc<C>;

/// The answer of an error: a rejection already is one; an [`ApiError`](crate::ApiError)
/// is rendered in the API's format by the layer.
#[inline]
pub fn error_response(error: impl IntoResponse) -> Response {
    error.into_response()
}

/// The marker of an argument read from the request's head.
#[derive(Debug)]
pub enum ViaParts {}

/// The marker of the argument that reads the request's body.
#[derive(Debug)]
pub enum ViaBody {}

/// An argument of a route variant: an axum extractor, from the request's
/// head (`FromRequestParts`) or, for the one that reads it, its body
/// (`FromRequest`). The generated code extracts each argument through this
/// trait, named at the argument's type, so that a type that is no extractor
/// is one error there, naming it.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an extractor, so it cannot be an argument of a route",
    label = "not an axum extractor",
    note = "route arguments implement `axum::extract::FromRequestParts<()>` or `FromRequest<()>`: \
            `Path<T>`, `Query<T>`, `axum::Json<T>`, `HeaderMap`, `ApiVersion`, ...; \
            or are the portable ones every facade takes (`microversion_axum::portable`)"
)]
pub trait RouteArgument<M>: Sized {
    /// Extracts the argument from the route's input: the request's head,
    /// or its body (`M`, inferred).
    fn extract(input: &mut OperationInput) -> impl Future<Output = Result<Self, Error>> + Send;
}

#[diagnostic::do_not_recommend]
impl<T: FromRequestParts<()>> RouteArgument<ViaParts> for T {
    async fn extract(input: &mut OperationInput) -> Result<T, Error> {
        let rejection = match T::from_request_parts(&mut input.request, &()).await {
            Ok(argument) => return Ok(argument),
            Err(rejection) => rejection.into_response(),
        };
        Err(Box::pin(in_api_format(rejection)).await)
    }
}

#[diagnostic::do_not_recommend]
impl<T: FromRequest<()>> RouteArgument<ViaBody> for T {
    async fn extract(input: &mut OperationInput) -> Result<T, Error> {
        // A second argument reading the body is the route's mistake, not the client's.
        let Some(body) = input.payload.take() else {
            let detail = "two arguments of this route read the request body";
            return Err(crate::ApiError::internal(detail).into_response());
        };
        let request = http::Request::from_parts(input.request.clone(), body);
        // Boxed: it holds the request again and the body's reader (some 900
        // bytes for `Json`), which every route's future would carry unboxed.
        let rejection = match Box::pin(T::from_request(request, &())).await {
            Ok(argument) => return Ok(argument),
            Err(rejection) => rejection.into_response(),
        };
        Err(Box::pin(in_api_format(rejection)).await)
    }
}

/// The most of a rejection's text kept as an error's detail.
const REJECTION_TEXT_LIMIT: usize = 4096;

/// A rejection of axum's own extractors (`Query`, `Path`, `axum::Json`)
/// is plain text; a route's errors are in the API's format, as the actix
/// layer renders an extractor's error: its status and text become an
/// [`ApiError`](crate::ApiError), which the layer renders. An answer in
/// JSON already (this crate's extractors) is kept as it is.
async fn in_api_format(rejection: Response) -> Response {
    let Some(status) = crate::error::plain_error_status(&rejection) else { return rejection };
    let text = axum::body::to_bytes(rejection.into_body(), REJECTION_TEXT_LIMIT).await.unwrap_or_default();
    let text = String::from_utf8_lossy(&text);
    if status.is_server_error() {
        log::error!("{status} from an extractor: {text}");
    }
    crate::ApiError::from_answer(status, Some(&text)).into_response()
}

microversion_core::facade_route_response! {
    message = "`{Self}` cannot be returned by a route: it is not an axum `IntoResponse`",
    label = "not an `IntoResponse`",
    note = "return `Response`, `axum::Json<T>`, `(StatusCode, T)`, a `String`, a portable `Reply`, \
            or `Result<_, ApiError>` of one",
    own = IntoResponse,
    |answer, _| answer.into_response(),
}

/// The status type of answers.
pub use http::StatusCode;

/// A JSON answer, or one without a body (a portable `Reply`).
pub fn reply(status: StatusCode, json: Option<Vec<u8>>) -> Response {
    let content_type = json.is_some().then_some(("content-type", "application/json"));
    microversion_core::header::plain_answer::<Headers>(status.as_u16(), content_type, json)
}

/// The answer of an error, in the API's format (rendered by the layer).
pub fn answer_error(error: ApiError, _: &Request) -> Response {
    error.into_response()
}

microversion_core::facade_portable!();

/// Checks a variant's success answer at `version` against its
/// `#[response(...)]`, as the [`ResponseValidation`](crate::middleware::ResponseValidation)
/// in the request's extensions says (nothing is checked without one); a
/// check reads the whole body, so it is boxed (docs/performance.md, "The
/// route's future").
pub fn check_response<'a>(
    request: &'a Request,
    version: Version,
    declared: &'a ResponseDescription,
    res: Response,
) -> Either<Ready<Response>, BoxFuture<'a, Response>> {
    let mode = request.extensions.get::<crate::middleware::ResponseValidation>().copied().unwrap_or_default();
    if !mode.checks(res.status().as_u16()) {
        return Either::Left(ready(res));
    }
    Either::Right(Box::pin(async move {
        let (parts, body) = res.into_parts();
        let Ok(bytes) = axum::body::to_bytes(body, usize::MAX).await else {
            return ApiError::internal("the response body could not be read for validation").into_response();
        };
        let answer = (parts.status.as_u16(), &bytes[..]);
        let verdict = mode.judge((request.method.as_str(), request.uri.path()), answer, version, declared);
        if let Some(detail) = verdict.refusal(|warning| log::warn!("{warning}")) {
            return ApiError::internal(detail).into_response();
        }
        Response::from_parts(parts, Body::from(bytes))
    }))
}

/// What the generated code calls on a route's input: one call per schema
/// check (each argument is extracted by [`RouteArgument::extract`]).
impl OperationInput {
    /// Validates the query string when a schema covers the version, the way
    /// Nova does; the validated object is left in the request for
    /// [`JsonQuery`](crate::JsonQuery).
    pub fn validate_query(&mut self, schemas: &LazySchemas) -> Result<(), ApiError> {
        let Some(set) = schemas.at(self.version)? else { return Ok(()) };
        let validated = set.validated_query(self.version, self.request.uri.query().unwrap_or_default())?;
        self.request.extensions.insert(validated);
        Ok(())
    }

    /// Reads, parses and validates the body when a schema covers the
    /// version. The parsed body is left in the request for
    /// [`Json`](crate::Json), and the bytes put back, so that any body
    /// extractor (`axum::Json`, `String`) reads what was validated.
    pub async fn validate_body(&mut self, schemas: &LazySchemas) -> Result<(), ApiError> {
        let Some(set) = schemas.at(self.version)? else { return Ok(()) };
        // Boxed, as a body extractor is (`RouteArgument`).
        let bytes =
            Box::pin(crate::body::read_bytes(&self.request, self.payload.take().unwrap_or_default())).await?;
        let parsed = microversion_core::body::parse_json(&bytes)?;
        set.validate(self.version, &parsed)?;
        self.request.extensions.insert(ParsedJson(parsed));
        if let Some(model) = schemas.model_type() {
            self.request.extensions.insert(ValidatedAs(model));
        }
        self.payload = Some(Body::from(bytes));
        Ok(())
    }
}

/// The registration of a controller: it converts into an axum `Router` of
/// any state ([`router`]), so that `Router::merge(controller)` serves its
/// routes. The one piece of generated code that names axum, written here:
/// `#[controller]` calls it with the controller's type and its route
/// function (`routes =`), or without one when it has no routes.
#[macro_export]
#[doc(hidden)]
macro_rules! __microversion_axum_register_controller {
    ($controller:ty, routes = $routes:expr) => {
        #[automatically_derived]
        impl<S> ::core::convert::From<$controller> for $crate::__private::axum::Router<S>
        where
            S: ::core::clone::Clone + ::core::marker::Send + ::core::marker::Sync + 'static,
        {
            fn from(controller: $controller) -> Self {
                $crate::__private::router(controller, $routes)
            }
        }
    };
    ($controller:ty) => {
        #[automatically_derived]
        impl<S> ::core::convert::From<$controller> for $crate::__private::axum::Router<S>
        where
            S: ::core::clone::Clone + ::core::marker::Send + ::core::marker::Sync + 'static,
        {
            fn from(_: $controller) -> Self {
                $crate::__private::axum::Router::new()
            }
        }
    };
}
pub use __microversion_axum_register_controller as register_controller;

/// Whether axum routes `path`, as `#[controller]` asks in a `const` per
/// route path: a path starts with `/`, and its parameters are `{name}` or a
/// last `{*rest}`, without patterns (`{id:\d+}`) or actix's tails
/// (`{tail}*`), which axum refuses at start-up or reads as literals.
///
/// # Panics
///
/// At compile time, at the path, when axum cannot route it.
#[track_caller]
pub const fn check_route_path(path: &str) {
    let syntax = microversion_core::operation::PathSyntax::of(path);
    if !syntax.rooted || syntax.patterns || syntax.tails {
        panic!(
            "axum cannot route this path: a path starts with `/`, and its parameters are `{{name}}` \
             or a last `{{*rest}}`, without patterns"
        );
    }
}
