//! What the macros' expansions call. Not public API: names here change
//! without notice. Generated code reaches the runtime only through this
//! module, so that users depend on `microversion-actix` alone; it depends on
//! the public modules, never the other way.

pub use actix_web;
pub use serde;
pub use serde_json;

pub use crate::header::ActixHeaders as Headers;
pub use crate::model::{FieldSchema, VersionedModel, VersionedStruct, compile_model_schemas};
pub use crate::operation::Controller;
pub use crate::route::{OperationInput, RoutesFn, register};
pub use crate::schema::{SchemaError, SchemaSource, VersionedSchemas};
pub use crate::{
    Api, Microversion, Version,
    error::Violation,
    operation::{
        Operation, OperationVariant, ResponseDescription, SchemaDescription, SchemaDocument, UnservedVersion,
    },
    version::VersionRange,
};
pub use futures_util::future::Either;
pub use microversion_core::__microversion_tried as tried;
pub use microversion_core::derive::{
    DerivedSchema, Presence, deny_unknown, model_schemas, object_at, parse_plain, read_field,
};
pub use microversion_core::schema::{LazySchemas, json_schema_of};
pub use microversion_core::{Deprecation, client::typed_client, header::stamp_deprecation};
pub use microversion_macros::{history, version_gates};

use actix_web::http::header::HeaderValue;
use actix_web::{FromRequest, HttpMessage, HttpRequest, HttpResponse, Responder};
use futures_util::TryFutureExt as _;
pub use microversion_core::operation::MissingVariant;
pub use microversion_core::operation::{__serving, Answers, Extracts, Facade, RouteInput, Routes};

use crate::ApiError;
pub use microversion_core::body::ParsedJson;
use microversion_core::body::ValidatedAs;

/// The request as a route's arguments are extracted from it.
pub type Request = HttpRequest;

/// The request's body stream.
pub type Payload = actix_web::dev::Payload;

/// An answer.
pub type Response = HttpResponse;

/// What a failed extraction answers with.
pub type Error = actix_web::Error;

/// How the routes of one controller share it: per worker, as actix's are.
pub type Shared<C> = std::rc::Rc<C>;

/// The answer of an error.
#[inline]
pub fn error_response(error: Error) -> Response {
    HttpResponse::from_error(error)
}

/// An argument of a route variant: an actix extractor. The generated code
/// extracts each argument through this trait, named at the argument's type,
/// so that a type that is no extractor is one error there, naming it.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an extractor, so it cannot be an argument of a route",
    label = "not an actix-web extractor",
    note = "route arguments implement `actix_web::FromRequest`: `web::Path<T>`, `web::Query<T>`, \
            `microversion_actix::Json<T>` for a JSON body, `JsonQuery`, `ApiVersion`, `HttpRequest`, ...; \
            or are the portable ones every facade takes (`microversion_actix::portable`)"
)]
pub trait RouteArgument<M>: Sized {
    /// Extracts the argument from the route's input (`M` is `()` here, and
    /// inferred: on axum it says whether the argument reads the head or the
    /// body).
    fn extract(input: &mut OperationInput) -> impl Future<Output = Result<Self, Error>>;
}

#[diagnostic::do_not_recommend]
impl<T: FromRequest> RouteArgument<()> for T {
    #[inline]
    fn extract(input: &mut OperationInput) -> impl Future<Output = Result<T, Error>> {
        // The generated code's `?` needs a `From`; extractors promise an `Into`.
        T::from_request(&input.request, &mut input.payload).err_into()
    }
}

/// What no type is: [`RouteArgument`]'s second impl, for none, keeps rustc
/// from settling on the first when a type is no extractor, so that its
/// error is in this trait's words at that type, not `FromRequest`'s.
pub trait NoArgument {}

/// The marker of [`NoArgument`]'s impl.
#[derive(Debug)]
pub enum NotExtracted {}

#[diagnostic::do_not_recommend]
impl<T: NoArgument> RouteArgument<NotExtracted> for T {
    fn extract(_: &mut OperationInput) -> impl Future<Output = Result<T, Error>> {
        std::future::pending()
    }
}

/// Checks a variant's success answer against its `#[response(...)]`, as the
/// registered `ResponseValidation` says.
pub use crate::response_validation::check as check_response;

microversion_core::facade_route_response! {
    message = "`{Self}` cannot be returned by a route: it is not an actix-web `Responder`",
    label = "not a `Responder`",
    note = "return `HttpResponse`, `Json<T>`, `Versioned<T>`, a `String`, a portable `Reply`, \
            or `Result<_, ApiError>` of one",
    own = Responder,
    |answer, request| answer.respond_to(request).map_into_boxed_body(),
}

/// The status type of answers.
pub use actix_web::http::StatusCode;

/// A JSON answer, or one without a body (a portable `Reply`).
pub fn reply(status: StatusCode, json: Option<Vec<u8>>) -> HttpResponse {
    match json {
        Some(json) => {
            HttpResponse::build(status).content_type(HeaderValue::from_static("application/json")).body(json)
        }
        None => HttpResponse::new(status),
    }
}

/// The answer of an error, in the API's format (rendered by the layer).
pub fn answer_error(error: ApiError, _: &HttpRequest) -> HttpResponse {
    HttpResponse::from_error(error)
}

microversion_core::facade_portable!();

/// The answer of an operation at a version none of its variants serves
/// (the core's [`MissingVariant`]: its status, the removal, and for a 405
/// the `Allow` of its path at that version).
pub fn missing(missing: MissingVariant) -> HttpResponse {
    let mut response = HttpResponse::from_error(ApiError::from(&missing));
    if let Some(allow) = &missing.allow {
        microversion_core::header::set_header::<Headers>(response.headers_mut(), "allow", allow);
    }
    response
}

/// What the generated code calls on a route's input: one call per schema
/// check (each argument is extracted by [`RouteArgument::extract`]).
impl OperationInput {
    /// Validates the query string when a schema covers the version, the way
    /// Nova does (every key to the list of its values); the validated object
    /// is left in the request for the variant's [`JsonQuery`](crate::JsonQuery).
    pub fn validate_query(&mut self, schemas: &LazySchemas) -> Result<(), Error> {
        let Some(set) = schemas.at(self.version).map_err(ApiError::from)? else { return Ok(()) };
        let validated =
            set.validated_query(self.version, self.request.query_string()).map_err(ApiError::from)?;
        self.request.extensions_mut().insert(validated);
        Ok(())
    }

    /// Reads, parses and validates the body when a schema covers the
    /// version. The parsed body is left in the request for the variant's
    /// [`Json`](crate::Json), so the body is parsed once, and the bytes put
    /// back, so that any body extractor (`web::Json`, `Bytes`) reads what
    /// was validated.
    pub async fn validate_body(&mut self, schemas: &LazySchemas) -> Result<(), Error> {
        let Some(set) = schemas.at(self.version).map_err(ApiError::from)? else { return Ok(()) };
        // Boxed: the reader would otherwise enlarge every route's future of
        // the controller (docs/performance.md, "The route's future").
        let bytes = Box::pin(crate::body::read_body(&self.request, &mut self.payload)).await?;
        let body = microversion_core::body::parse_json(&bytes).map_err(ApiError::from)?;
        set.validate(self.version, &body).map_err(ApiError::from)?;
        self.payload = Payload::from(bytes);
        let mut extensions = self.request.extensions_mut();
        extensions.insert(ParsedJson(body));
        if let Some(model) = schemas.model_type() {
            extensions.insert(ValidatedAs(model));
        }
        Ok(())
    }
}

/// The registration of a controller: an `HttpServiceFactory`, so that
/// `App::service(controller)` registers its routes ([`register`]). The one
/// piece of generated code that names actix, written here: `#[controller]`
/// calls it with the controller's type and its route function (`routes =`),
/// or without one when it has no routes (nothing to register).
#[macro_export]
#[doc(hidden)]
macro_rules! __microversion_actix_register_controller {
    ($controller:ty, routes = $routes:expr) => {
        #[automatically_derived]
        impl $crate::__private::actix_web::dev::HttpServiceFactory for $controller {
            fn register(self, config: &mut $crate::__private::actix_web::dev::AppService) {
                $crate::__private::register(self, config, $routes)
            }
        }
    };
    ($controller:ty) => {
        #[automatically_derived]
        impl $crate::__private::actix_web::dev::HttpServiceFactory for $controller {
            fn register(self, _: &mut $crate::__private::actix_web::dev::AppService) {}
        }
    };
}
pub use __microversion_actix_register_controller as register_controller;

/// Whether actix routes `path`: every path actix reads is taken (its
/// patterns and tails too). `#[controller]` calls it in a `const` per route
/// path, where another facade refuses what its router cannot read.
pub const fn check_route_path(path: &str) {
    let _ = path;
}
