//! The routes of a controller on axum (docs/reference.md §16.2): the core's
//! [`Facade`] on axum's types, and what [`router`] makes of a controller's
//! routes, one method router per path answering each method with its
//! operation, and the 405 of a path at a version.
//!
//! `#[controller]` implements the core's [`Routes`] for every facade: the
//! operation at an index, answered on a [`RouteInput`]; its future is boxed
//! only by axum, which boxes every route's.

use std::convert::Infallible;
use std::future::{Future, Ready, ready};
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, FromRequestParts, RawPathParams};
use axum::response::{IntoResponse, Response};
use futures_util::FutureExt as _;
use futures_util::future::{BoxFuture, Either, Map};
use http::request::Parts;
use http::{HeaderMap, Request, StatusCode};
use microversion_core::exchange::{Scope, Scoped};
use microversion_core::operation::{
    Answers, Extracts, Facade, ReadAlready, ResponseDescription, RouteInput, with_path_params,
};
use microversion_core::portable::{self, LinkRoot};
use microversion_core::{
    Controller, Version, header::set_header, operation::AllowedMethods, operation::RoutedPath,
};

use crate::api_version::negotiated_of;
use crate::discovery::RequestLinks as _;
use crate::header::AxumHeaders;
use crate::{ApiError, Error};

/// The core's [`Facade`] on axum: requests, bodies and answers are axum's,
/// an error is answered as this crate's [`ApiError`], which the layer
/// renders in the API's format.
#[derive(Debug)]
pub enum Axum {}

impl Facade for Axum {
    type Request = Parts;
    type Body = Body;
    type Bytes = Bytes;
    type Response = Response;
    type Wire = AxumHeaders;

    fn query(request: &Parts) -> &str {
        request.uri.query().unwrap_or_default()
    }

    fn path_params<R>(request: &mut Parts, read: impl FnOnce(&[(&str, &str)]) -> R) -> R {
        // Axum's own match, read when an argument asks (none when a
        // parameter is not UTF-8 once decoded, which no route then reads).
        let params = RawPathParams::from_request_parts(request, &()).now_or_never().and_then(Result::ok);
        with_path_params(params.iter().flat_map(|params| params.iter()), read)
    }

    fn headers(request: &Parts) -> &<Self::Wire as microversion_core::header::HeaderWire>::Map {
        &request.headers
    }

    fn link_root(request: &Parts) -> LinkRoot {
        LinkRoot::new(request.link_base())
    }

    async fn read_body(request: &Parts, body: Body) -> Result<Bytes, portable::ApiError> {
        crate::body::read_bytes(request, body).await
    }

    fn body_from(bytes: Bytes) -> Body {
        Body::from(bytes)
    }

    fn keep(request: &mut Parts, read: ReadAlready) {
        let ReadAlready { parsed, validated_as, query, .. } = read;
        parsed.map(|parsed| request.extensions.insert(parsed));
        validated_as.map(|model| request.extensions.insert(model));
        query.map(|query| request.extensions.insert(query));
    }

    fn json(status: StatusCode, body: Vec<u8>) -> Response {
        let json = Some(("content-type", "application/json"));
        microversion_core::header::plain_answer::<AxumHeaders>(status.as_u16(), json, Some(body))
    }

    fn empty(status: StatusCode) -> Response {
        microversion_core::header::plain_answer::<AxumHeaders>(status.as_u16(), None, None)
    }

    fn error(error: portable::ApiError) -> Response {
        Error(error).into_response()
    }

    fn headers_mut(response: &mut Response) -> &mut HeaderMap {
        response.headers_mut()
    }

    /// As the [`ResponseValidation`](crate::middleware::ResponseValidation) in the
    /// request's extensions says; a check reads the whole body, so it is boxed
    /// (docs/performance.md, "The route's future").
    fn check_response(
        request: &Parts,
        version: Version,
        declared: &'static ResponseDescription,
        res: Response,
    ) -> impl Future<Output = Response> {
        let mode = request.extensions.get::<crate::middleware::ResponseValidation>().copied();
        let mode = mode.unwrap_or_default();
        if !mode.checks(res.status().as_u16()) {
            return Either::Left(ready(res));
        }
        Either::Right(Box::pin(async move {
            let (parts, body) = res.into_parts();
            let Ok(bytes) = axum::body::to_bytes(body, usize::MAX).await else {
                let error = ApiError::internal("the response body could not be read for validation");
                return Error(error).into_response();
            };
            let answer = (parts.status.as_u16(), &bytes[..]);
            let verdict =
                mode.judge((request.method.as_str(), request.uri.path()), answer, version, declared);
            if let Some(detail) = verdict.refusal(|warning| log::warn!("{warning}")) {
                return Error(ApiError::internal(detail)).into_response();
            }
            Response::from_parts(parts, Body::from(bytes))
        }) as BoxFuture<'_, Response>)
    }
}

/// The markers of axum's own arguments (of the request's head; the one that
/// reads its body) and answers.
#[derive(Debug)]
pub enum ViaParts {}
#[derive(Debug)]
#[doc(hidden)]
pub enum ViaBody {}
#[derive(Debug)]
#[doc(hidden)]
pub enum Native {}

/// An axum extractor of the request's head as a route's argument.
#[diagnostic::do_not_recommend]
impl<T: FromRequestParts<()>> Extracts<T, ViaParts> for Axum {
    async fn extract(input: &mut RouteInput<Axum>) -> Result<T, Response> {
        input.keep_for_framework();
        let rejection = match T::from_request_parts(&mut input.request, &()).await {
            Ok(argument) => return Ok(argument),
            Err(rejection) => rejection.into_response(),
        };
        Err(Box::pin(in_api_format(rejection)).await)
    }
}

/// The axum extractor that reads the body as a route's argument.
#[diagnostic::do_not_recommend]
impl<T: FromRequest<()>> Extracts<T, ViaBody> for Axum {
    async fn extract(input: &mut RouteInput<Axum>) -> Result<T, Response> {
        input.keep_for_framework();
        // A second argument reading the body is the route's mistake, not the client's.
        let Some(body) = input.body.take() else {
            let detail = "two arguments of this route read the request body";
            return Err(Error(ApiError::internal(detail)).into_response());
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

/// An axum answer as a route's.
#[diagnostic::do_not_recommend]
impl<T: IntoResponse> Answers<T, Native> for Axum {
    fn answer(answer: T, _: &RouteInput<Axum>) -> Response {
        answer.into_response()
    }
}

/// What no type is: a second impl of [`Answers`] keeps rustc from settling
/// on axum's when a type is no answer: its error is in the core's words.
pub trait NoAnswer {}

/// The marker of the impl for [`NoAnswer`].
#[derive(Debug)]
pub enum NotAnswered {}

#[diagnostic::do_not_recommend]
impl<T: NoAnswer> Answers<T, NotAnswered> for Axum {
    fn answer(_: T, _: &RouteInput<Axum>) -> Response {
        StatusCode::INTERNAL_SERVER_ERROR.into_response()
    }
}

/// The most of a rejection's text kept as an error's detail.
const REJECTION_TEXT_LIMIT: usize = 4096;

/// A rejection of axum's own extractors (`Query`, `Path`, `axum::Json`)
/// is plain text; a route's errors are in the API's format, as the actix
/// layer renders an extractor's error: its status and text become an
/// [`ApiError`], which the layer renders. An answer in JSON already (this
/// crate's extractors) is kept as it is.
async fn in_api_format(rejection: Response) -> Response {
    let Some(status) = crate::error::plain_error_status(&rejection) else { return rejection };
    let text = axum::body::to_bytes(rejection.into_body(), REJECTION_TEXT_LIMIT).await.unwrap_or_default();
    let text = String::from_utf8_lossy(&text);
    if status.is_server_error() {
        log::error!("{status} from an extractor: {text}");
    }
    Error(ApiError::from_answer(status, Some(&text))).into_response()
}

/// A controller's routes on axum: the operation at an index, on a request
/// (`Routes::route`, its future named by inference).
pub type RoutesFn<C, F> = fn(Arc<C>, usize, RouteInput<Axum>) -> F;

/// The answer of a route, to come: the operation's; or, boxed, the
/// operation's where no layer negotiated (its `Versioned` answer rendered at
/// the version negotiated here); or one ready at once.
type Answering<F> = Either<
    Map<F, fn(Response) -> Result<Response, Infallible>>,
    Either<BoxFuture<'static, Result<Response, Infallible>>, Ready<Result<Response, Infallible>>>,
>;

/// The router of `controller`'s routes, for any state: its schemas checked
/// (an invalid one stops the service at start-up, never mid-traffic), then
/// one method router per path, each method of the path routed to `routes`
/// at the operation's index and any other answered 405 with `Allow` at the
/// request's version. The path answers every method itself, so that axum
/// adds no `Allow` of its own to an answer (a refused version's, say) and
/// serves `HEAD` only where an operation is declared for it, as actix does.
/// What the `From` impl `#[controller]` generates calls.
pub fn router<C, F, S>(controller: C, routes: RoutesFn<C, F>) -> axum::Router<S>
where
    C: Controller + Send + Sync + 'static,
    F: Future<Output = Response> + Send + 'static,
    S: Clone + Send + Sync + 'static,
{
    C::check_schemas_at_startup();
    let controller = Arc::new(controller);
    RoutedPath::of(C::OPERATIONS).into_iter().fold(axum::Router::new(), |router, path_routes| {
        let path = path_routes.path;
        let methods = Arc::new((path_routes.routes, AllowedMethods::for_path(C::OPERATIONS, path)));
        let service = PathRoutes { controller: Arc::clone(&controller), routes, methods };
        router.route(path, axum::routing::any_service::<_, S>(service))
    })
}

/// The operations of one path of a controller: its operations' indexes by
/// method, answered by the controller's route function, and the methods
/// allowed at each version, for the 405 of any other method.
struct PathRoutes<C, F> {
    controller: Arc<C>,
    routes: RoutesFn<C, F>,
    methods: Arc<(Vec<(&'static str, usize)>, AllowedMethods)>,
}

impl<C, F> Clone for PathRoutes<C, F> {
    fn clone(&self) -> Self {
        let (controller, methods) = (Arc::clone(&self.controller), Arc::clone(&self.methods));
        PathRoutes { controller, routes: self.routes, methods }
    }
}

impl<C, F> tower_service::Service<Request<Body>> for PathRoutes<C, F>
where
    C: Send + Sync + 'static,
    F: Future<Output = Response> + Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Answering<F>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: Request<Body>) -> Answering<F> {
        let (methods, allowed) = &*self.methods;
        let Some(&(_, index)) = methods.iter().find(|(method, _)| *method == req.method().as_str()) else {
            return Either::Right(Either::Right(ready(Ok(method_not_allowed(allowed, req)))));
        };
        let (request, body) = req.into_parts();
        // Without the layer in front, the version is negotiated here from a
        // registered `Api`, or its absence is the answer (as the `ApiVersion`
        // extractor does).
        let by_layer = Scope::current();
        match by_layer.map_or_else(|| negotiated_of(&request), Ok) {
            Ok(negotiated) => {
                let input = RouteInput::new(request, body, negotiated);
                let route = (self.routes)(Arc::clone(&self.controller), index, input);
                if by_layer.is_some() {
                    Either::Left(route.map(Ok))
                } else {
                    // The layer renders a `Versioned` answer at its version; here
                    // the route's own negotiation does.
                    Either::Right(Either::Left(Box::pin(Scoped::new(route.map(Ok), negotiated))))
                }
            }
            Err(refusal) => Either::Right(Either::Right(ready(Ok(Error(refusal).into_response())))),
        }
    }
}

/// The answer of a controller's path to a method none of its operations
/// has: 405 with `Allow` naming the methods served at the request's version
/// (docs/reference.md §4.2), as on actix.
fn method_not_allowed(allowed: &AllowedMethods, req: Request<Body>) -> Response {
    let (req, _) = req.into_parts();
    let version = negotiated_of(&req).ok().map(|n| n.version);
    let detail = microversion_core::error::method_not_allowed_detail(req.method.as_str());
    let mut res = Error(ApiError::from_status(StatusCode::METHOD_NOT_ALLOWED, detail)).into_response();
    // An empty `Allow` is valid: nothing is served here at this version.
    set_header::<AxumHeaders>(res.headers_mut(), "allow", &allowed.at(version));
    res
}
