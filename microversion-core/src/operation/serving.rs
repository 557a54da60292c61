//! How a controller's routes are served on any web framework
//! (docs/reference.md §4.8, §17): one `#[controller]` expansion, generic
//! over the framework, and a few traits a facade implements on a marker
//! type of its own.
//!
//! - [`Facade`]: what the core asks of a framework: the request's head,
//!   query string, route parameters and body as it holds them, and how it
//!   answers JSON, an empty answer, or an error (which its negotiation then
//!   renders in the API's format).
//! - [`Extracts`] and [`Answers`]: the arguments a route reads and the
//!   answers it returns. The core's own types ([`portable`](super::portable):
//!   `Json`, `Path`, `Query`, `JsonQuery`, `ApiVersion`, `LinkRoot`,
//!   `Versioned`, `Reply`, `ApiError`) are read and written here, the same
//!   on every facade; a facade adds its framework's own types (actix
//!   `HttpRequest`, axum extractors) on its marker.
//! - [`Routes`]: what `#[controller]` implements for a controller, for
//!   every facade at once: the operation at an index, on a [`RouteInput`].
//!
//! The traits are implemented on the facade's marker (`impl Extracts<T, M>
//! for MyFramework`), not on the argument types, so that a facade may take
//! any type of its framework, which the orphan rule would forbid the other
//! way round; `M` tells the core's impls from the facade's, and is inferred.
//!
//! The futures here need not be `Send`: a facade whose framework runs each
//! request on one thread (actix-web, a hyper server on a `LocalSet`) serves
//! any controller.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use http::StatusCode;
use serde::de::DeserializeOwned;

use super::portable::{
    Answer, ApiError, ApiVersion, Header, Json, JsonQuery, LinkRoot, Path, Query, Reply, RequestHeader,
    Versioned,
};
use super::{Controller, MissingVariant, ResponseDescription};
use crate::body::{ParsedJson, ValidatedAs, ValidatedQuery, deserialize, parse_json};
use crate::change::{Downgrades, Upgrades};
use crate::header::HeaderWire;
use crate::schema::LazySchemas;
use crate::schema::model::{VersionedModel, VersionedStruct};
use crate::{Api, Deprecation, Negotiated, Version};

/// A web framework, as the core serves a controller's routes on it. A
/// facade implements it on a marker type of its own (an empty enum).
pub trait Facade: Sized + 'static {
    /// The request's head, as the framework holds it.
    type Request;
    /// The request's body, not read yet.
    type Body;
    /// A whole body, read.
    type Bytes: AsRef<[u8]>;
    /// An answer.
    type Response;
    /// The framework's headers, for the stamps the core writes on an answer.
    type Wire: HeaderWire;

    /// The query string, without the `?` (empty when there is none).
    fn query(request: &Self::Request) -> &str;

    /// `read` of the route's parameters, percent-decoded, in the path's
    /// order (`with_path_params` holds an iterator's on the stack).
    fn path_params<R>(request: &mut Self::Request, read: impl FnOnce(&[(&str, &str)]) -> R) -> R;

    /// The public root of the request, where its answer's links point
    /// (docs/reference.md §7.1).
    fn link_root(request: &Self::Request) -> LinkRoot;

    /// The request's headers.
    fn headers(request: &Self::Request) -> &<Self::Wire as HeaderWire>::Map;

    /// Reads a whole body by the core's rules (docs/reference.md §6.2:
    /// content type, size limit, deadline).
    fn read_body(
        request: &Self::Request,
        body: Self::Body,
    ) -> impl Future<Output = Result<Self::Bytes, ApiError>>;

    /// A body to read again, from what was read.
    fn body_from(bytes: Self::Bytes) -> Self::Body;

    /// Hands what a `#[schema]` check read to the framework's own body and
    /// query readers (the facade's `Json`, `JsonQuery`, `Versioned`), in the
    /// request's extensions, before one of them reads an argument. The
    /// core's readers take it from the [`RouteInput`].
    fn keep(request: &mut Self::Request, read: ReadAlready);

    /// A JSON answer: `status`, `Content-Type: application/json`, `body`.
    fn json(status: StatusCode, body: Vec<u8>) -> Self::Response;

    /// An answer without a body.
    fn empty(status: StatusCode) -> Self::Response;

    /// The answer of an error; the facade's negotiation renders it in the
    /// API's format.
    fn error(error: ApiError) -> Self::Response;

    /// The headers of an answer.
    fn headers_mut(response: &mut Self::Response) -> &mut <Self::Wire as HeaderWire>::Map;

    /// A variant's success answer, checked against its `#[response(...)]`
    /// where the service asks for it (docs/reference.md §6.5).
    fn check_response(
        request: &Self::Request,
        version: Version,
        declared: &'static ResponseDescription,
        response: Self::Response,
    ) -> impl Future<Output = Self::Response>;
}

/// What a `#[schema]` check read, for the readers of the arguments.
#[derive(Debug, Default)]
#[non_exhaustive]
pub struct ReadAlready {
    /// The body, parsed and validated.
    pub parsed: Option<ParsedJson>,
    /// The model type whose derived schema validated it (`#[schema(model = T)]`).
    pub validated_as: Option<ValidatedAs>,
    /// The query object a query schema validated.
    pub query: Option<ValidatedQuery>,
}

/// The request of one operation, as a route reads it: the framework's head
/// and body, the version it is served at, and what a `#[schema]` check
/// read already.
pub struct RouteInput<F: Facade> {
    /// The request's head.
    pub request: F::Request,
    /// Its body, until an argument or a schema check reads it.
    pub body: Option<F::Body>,
    /// The version it is served at.
    pub version: Version,
    negotiated: Negotiated,
    read: ReadAlready,
}

impl<F: Facade> RouteInput<F> {
    /// The input of a request served at the version it negotiated.
    pub fn new(request: F::Request, body: F::Body, negotiated: Negotiated) -> RouteInput<F> {
        let version = negotiated.version;
        RouteInput { request, body: Some(body), version, negotiated, read: ReadAlready::default() }
    }

    /// The body as JSON: the one a `#[schema]` check parsed, else read now.
    async fn json(&mut self) -> Result<serde_json::Value, ApiError> {
        if let Some(ParsedJson(value)) = self.read.parsed.take() {
            return Ok(value);
        }
        let Some(body) = self.body.take() else {
            return Err(ApiError::internal("two arguments of this route read the request body"));
        };
        // Boxed: the reader would otherwise enlarge every route's future of
        // the controller (docs/performance.md, "The route's future").
        let bytes = Box::pin(F::read_body(&self.request, body)).await?;
        Ok(parse_json(bytes.as_ref())?)
    }

    /// Hands what a schema check read to the framework's own readers,
    /// before an argument of the framework's own type is read (a facade's
    /// `Extracts` calls it): [`Facade::keep`].
    pub fn keep_for_framework(&mut self) {
        let read = std::mem::take(&mut self.read);
        if read.parsed.is_some() || read.query.is_some() {
            F::keep(&mut self.request, read);
        }
    }

    /// The negotiated version, as the request chose it.
    pub fn negotiated(&self) -> Negotiated {
        self.negotiated
    }
}

impl<F: Facade> std::fmt::Debug for RouteInput<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RouteInput").field("version", &self.version).finish_non_exhaustive()
    }
}

/// An argument of a route: `A` read from the request by facade `Self`.
#[diagnostic::on_unimplemented(
    message = "`{A}` cannot be an argument of a route served by `{Self}`",
    label = "not an argument this facade reads",
    note = "route arguments are the core's (`Json<T>`, `Path<T>`, `Query<T>`, `JsonQuery`, `ApiVersion`, \
            `LinkRoot`, `Versioned<T>`) or the framework's own extractors"
)]
pub trait Extracts<A, M>: Facade {
    /// Reads the argument, or answers the request's refusal.
    fn extract(input: &mut RouteInput<Self>) -> impl Future<Output = Result<A, Self::Response>>;
}

/// An answer of a route: `R` written by facade `Self`.
#[diagnostic::on_unimplemented(
    message = "`{R}` cannot be returned by a route served by `{Self}`",
    label = "not an answer this facade writes",
    note = "routes return the core's answers (`Reply`, `Json<T>`, `Versioned<T>`, `ApiError`, or a `Result` \
            of them) or the framework's own"
)]
pub trait Answers<R, M>: Facade {
    /// The answer.
    fn answer(answer: R, input: &RouteInput<Self>) -> Self::Response;
}

/// The routes of a controller, served by facade `F`: implemented by
/// `#[controller]` for every facade whose traits its arguments and answers
/// meet (`M`, inferred, says by which impls).
pub trait Routes<F: Facade, M>: Controller + Sized + 'static {
    /// The answer of the operation at `index` (of [`RoutedPath::of`](super::RoutedPath::of)'s
    /// routes, in the controller's order) to `input`.
    fn route(
        controller: Arc<Self>,
        index: usize,
        input: RouteInput<F>,
    ) -> impl Future<Output = F::Response> + 'static;
}

/// An argument read as the type it had before a list of version changes
/// (`(Newest, (Older, ()))`, [`Upgrades`]), then upgraded through each,
/// oldest first, to the type `After` it has from the newest: how a
/// `#[controller]` route reads an argument at the versions before its
/// changes. No projection appears in the bound, so it never meets another
/// bound of the same type, and a missing conversion is reported as the
/// change's.
#[doc(hidden)]
pub trait ExtractsThrough<Changes, After, M>: Facade {
    /// Reads and upgrades the argument, or answers the request's refusal
    /// (an upgrade's error among them).
    fn extract(input: &mut RouteInput<Self>) -> impl Future<Output = Result<After, Self::Response>>;
}

impl<F, Changes, After, M> ExtractsThrough<Changes, After, M> for F
where
    Changes: Upgrades<After>,
    F: Extracts<Changes::Oldest, M>,
{
    async fn extract(input: &mut RouteInput<F>) -> Result<After, F::Response> {
        let oldest = <F as Extracts<Changes::Oldest, M>>::extract(input).await?;
        Changes::upgrade(oldest).map_err(F::error)
    }
}

/// An answer of type `After` downgraded through a list of version changes
/// (`(Newest, (Older, ()))`, [`Downgrades`]), newest first, and written as
/// the type it had before the oldest: [`ExtractsThrough`]'s twin.
#[doc(hidden)]
pub trait AnswersThrough<Changes, After, M>: Facade {
    /// The answer.
    fn answer(answer: After, input: &RouteInput<Self>) -> Self::Response;
}

impl<F, Changes, After, M> AnswersThrough<Changes, After, M> for F
where
    Changes: Downgrades<After>,
    F: Answers<Changes::Oldest, M>,
{
    fn answer(answer: After, input: &RouteInput<F>) -> F::Response {
        <F as Answers<Changes::Oldest, M>>::answer(Changes::downgrade(answer), input)
    }
}

/// The marker of the core's own impls of [`Extracts`] and [`Answers`].
#[derive(Debug)]
pub enum Core {}

impl<F: Facade, T: DeserializeOwned> Extracts<Path<T>, Core> for F {
    async fn extract(input: &mut RouteInput<F>) -> Result<Path<T>, F::Response> {
        F::path_params(&mut input.request, |params| super::read_path_params(params))
            .map(Path)
            .map_err(|_| F::error(ApiError::not_found(crate::error::PATH_REFUSED_DETAIL)))
    }
}

impl<F: Facade, T: DeserializeOwned> Extracts<Query<T>, Core> for F {
    async fn extract(input: &mut RouteInput<F>) -> Result<Query<T>, F::Response> {
        crate::error::read_query(F::query(&input.request), input.read.query.as_ref())
            .map(Query)
            .map_err(|detail| F::error(ApiError::bad_request(detail)))
    }
}

impl<F: Facade> Extracts<JsonQuery, Core> for F {
    async fn extract(input: &mut RouteInput<F>) -> Result<JsonQuery, F::Response> {
        Ok(JsonQuery::read(input.read.query.take(), F::query(&input.request)))
    }
}

impl<F: Facade, T: DeserializeOwned + 'static> Extracts<Json<T>, Core> for F {
    async fn extract(input: &mut RouteInput<F>) -> Result<Json<T>, F::Response> {
        let value = input.json().await.map_err(F::error)?;
        deserialize(value).map(Json).map_err(|refusal| F::error(refusal.into()))
    }
}

impl<F: Facade, T: VersionedStruct + 'static> Extracts<Versioned<T>, Core> for F {
    async fn extract(input: &mut RouteInput<F>) -> Result<Versioned<T>, F::Response> {
        let value = input.json().await.map_err(F::error)?;
        // A `#[schema(model = T)]` on the route has validated it already.
        let validated = input.read.validated_as.take().is_some_and(|v| v.is::<T>());
        T::read_at(input.version, value, validated).map(Versioned::ok).map_err(|e| F::error(e.into()))
    }
}

impl<F: Facade> Extracts<ApiVersion, Core> for F {
    async fn extract(input: &mut RouteInput<F>) -> Result<ApiVersion, F::Response> {
        Ok(ApiVersion::from(input.negotiated))
    }
}

impl<F: Facade, H: RequestHeader> Extracts<Header<H>, Core> for F {
    async fn extract(input: &mut RouteInput<F>) -> Result<Header<H>, F::Response> {
        let name = crate::header::header_name::<F::Wire>(H::NAME);
        let headers = F::headers(&input.request);
        let value =
            name.as_ref().and_then(|name| F::Wire::get_all(headers, name).next()).and_then(F::Wire::text);
        H::read(value).map(Header).map_err(F::error)
    }
}

impl<F: Facade> Extracts<LinkRoot, Core> for F {
    async fn extract(input: &mut RouteInput<F>) -> Result<LinkRoot, F::Response> {
        Ok(F::link_root(&input.request))
    }
}

impl<F: Facade> Answers<ApiError, Core> for F {
    fn answer(error: ApiError, _: &RouteInput<F>) -> F::Response {
        F::error(error)
    }
}

impl<F: Facade> Answers<Reply, Core> for F {
    fn answer(reply: Reply, _: &RouteInput<F>) -> F::Response {
        match reply.into_parts() {
            // An error without a body is rendered in the API's format, as
            // the facades' negotiations render a handler's bare error status.
            Ok((status, None)) if status.is_client_error() || status.is_server_error() => {
                F::error(ApiError::bodiless(status))
            }
            Ok((status, None)) => F::empty(status),
            Ok((status, Some(json))) => F::json(status, json),
            Err(error) => F::error(error),
        }
    }
}

impl<F: Facade, T: serde::Serialize> Answers<Answer<T>, Core> for F {
    fn answer(answer: Answer<T>, input: &RouteInput<F>) -> F::Response {
        let reply = match &answer.body {
            Some(body) => Reply::json(answer.status, body),
            None => Reply::empty(answer.status),
        };
        let mut response = <F as Answers<Reply, Core>>::answer(reply, input);
        for (name, value) in &answer.headers {
            crate::header::set_header::<F::Wire>(F::headers_mut(&mut response), name, value);
        }
        response
    }
}

impl<F: Facade, T: serde::Serialize> Answers<Json<T>, Core> for F {
    fn answer(Json(value): Json<T>, _: &RouteInput<F>) -> F::Response {
        match serde_json::to_vec(&value) {
            Ok(json) => F::json(StatusCode::OK, json),
            Err(e) => F::error(ApiError::internal(format!("the answer could not be written as JSON: {e}"))),
        }
    }
}

impl<F: Facade, T: VersionedModel> Answers<Versioned<T>, Core> for F {
    fn answer(answer: Versioned<T>, input: &RouteInput<F>) -> F::Response {
        let status = answer.status();
        match serde_json::to_vec(&answer.into_inner().at(input.version)) {
            Ok(json) => F::json(status, json),
            Err(e) => F::error(ApiError::internal(format!("rendering failed: {e}"))),
        }
    }
}

impl<F: Facade, T, M> Answers<Result<T, ApiError>, (Core, M)> for F
where
    F: Answers<T, M>,
{
    fn answer(answer: Result<T, ApiError>, input: &RouteInput<F>) -> F::Response {
        match answer {
            Ok(answer) => <F as Answers<T, M>>::answer(answer, input),
            Err(error) => F::error(error),
        }
    }
}

/// Validates the query string when a schema covers the version, the way
/// Nova does (every key to the list of its values); the validated object
/// is kept for the variant's `JsonQuery` and `Query<T>`.
#[doc(hidden)]
pub fn validate_query<F: Facade>(
    input: &mut RouteInput<F>,
    schemas: &LazySchemas,
) -> Result<(), F::Response> {
    let checked = schemas.at(input.version).map_err(|e| F::error(e.into()))?;
    let Some(set) = checked else { return Ok(()) };
    let validated =
        set.validated_query(input.version, F::query(&input.request)).map_err(|e| F::error(e.into()))?;
    input.read.query = Some(validated);
    Ok(())
}

/// Reads, parses and validates the body when a schema covers the version.
/// The parsed body is kept for the variant's `Json` and `Versioned`, so the
/// body is parsed once, and the bytes are put back for a body reader of the
/// framework's own.
#[doc(hidden)]
pub async fn validate_body<F: Facade>(
    input: &mut RouteInput<F>,
    schemas: &LazySchemas,
) -> Result<(), F::Response> {
    let checked = schemas.at(input.version).map_err(|e| F::error(e.into()))?;
    let Some(set) = checked else { return Ok(()) };
    let Some(body) = input.body.take() else { return Ok(()) };
    // Boxed: the reader would otherwise enlarge every route's future of the
    // controller (docs/performance.md, "The route's future").
    let bytes = Box::pin(F::read_body(&input.request, body)).await.map_err(F::error)?;
    let value = parse_json(bytes.as_ref()).map_err(|e| F::error(e.into()))?;
    set.validate(input.version, &value).map_err(|e| F::error(e.into()))?;
    input.body = Some(F::body_from(bytes));
    input.read.parsed = Some(ParsedJson(value));
    input.read.validated_as = schemas.model_type().map(ValidatedAs);
    Ok(())
}

/// A variant's answer, checked against its declaration.
#[doc(hidden)]
pub fn check_response<F: Facade>(
    input: &RouteInput<F>,
    declared: &'static ResponseDescription,
    response: F::Response,
) -> impl Future<Output = F::Response> {
    F::check_response(&input.request, input.version, declared, response)
}

/// The answer of an operation at a version none of its variants serves
/// (its status, the removal, and for a 405 the `Allow` of its path at that
/// version).
#[doc(hidden)]
pub fn missing<F: Facade>(missing: MissingVariant) -> F::Response {
    let mut response = F::error(ApiError::from(&missing));
    if let Some(allow) = &missing.allow {
        crate::header::set_header::<F::Wire>(F::headers_mut(&mut response), "allow", allow);
    }
    response
}

/// Stamps a deprecated variant's answer (docs/reference.md §13.7).
#[doc(hidden)]
pub fn stamp_deprecation<F: Facade>(
    response: &mut F::Response,
    deprecation: &Deprecation,
    version: Version,
    api: &Api,
    operation: &'static str,
) {
    crate::header::stamp_deprecation::<F::Wire>(
        F::headers_mut(response),
        deprecation,
        version,
        api,
        operation,
    );
}

pin_project_lite::pin_project! {
    /// One of two futures, the leaves of a controller's routes: one future
    /// type per controller, whichever operation answers.
    #[doc(hidden)]
    #[project = EitherProjection]
    #[derive(Debug)]
    pub enum Either<L, R> {
        /// The first.
        Left { #[pin] future: L },
        /// The second.
        Right { #[pin] future: R },
    }
}

impl<L: Future, R: Future<Output = L::Output>> Future for Either<L, R> {
    type Output = L::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<L::Output> {
        match self.project() {
            EitherProjection::Left { future } => future.poll(cx),
            EitherProjection::Right { future } => future.poll(cx),
        }
    }
}

pin_project_lite::pin_project! {
    /// A controller's answer to a route, naming the versions its operation
    /// exists in when its API reports them (docs/reference.md §3.7).
    #[doc(hidden)]
    pub struct OperationAnswer<F, A> {
        #[pin]
        answer: A,
        reported: Option<(&'static Api, &'static super::Operation)>,
        facade: std::marker::PhantomData<fn() -> F>,
    }
}

/// The answer of `operations[route]` of a controller of `api`: what the
/// `Routes` impl `#[controller]` writes returns.
#[doc(hidden)]
pub fn operation_answer<F: Facade, A: Future<Output = F::Response>>(
    api: &'static Api,
    operations: &'static [super::Operation],
    route: usize,
    answer: A,
) -> OperationAnswer<F, A> {
    let reported = operations.get(route).filter(|_| api.reports_operation_versions()).map(|op| (api, op));
    OperationAnswer { answer, reported, facade: std::marker::PhantomData }
}

impl<F: Facade, A: Future<Output = F::Response>> Future for OperationAnswer<F, A> {
    type Output = F::Response;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Response> {
        let this = self.project();
        let mut response = std::task::ready!(this.answer.poll(cx));
        if let Some((api, operation)) = *this.reported {
            let versions = crate::header::operation_versions(api, operation, api.max());
            let headers = F::headers_mut(&mut response);
            crate::header::set_header::<F::Wire>(headers, "openstack-api-operation-versions", &versions);
        }
        Poll::Ready(response)
    }
}
