//! The routes of a controller on axum (docs/reference.md §16.2): what
//! [`router`] makes of the table `#[controller]` expands to, one method
//! router per path answering each method with its operation, and the 405
//! of a path at a version.
//!
//! The controller's generated route function runs the operation at an
//! index on an [`OperationInput`] (the request's head, its body, and the
//! version the layer negotiated); its future is boxed only by axum, which
//! boxes every route's.

use std::convert::Infallible;
use std::future::{Future, Ready, ready};
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::body::Body;
use axum::response::{IntoResponse, Response};
use futures_util::FutureExt as _;
use futures_util::future::{BoxFuture, Either, Map};
use http::request::Parts;
use http::{Request, StatusCode};
use microversion_core::{
    Controller, Negotiated, Version, header::set_header, operation::AllowedMethods,
    operation::MissingVariant, operation::RoutedPath,
};

use crate::ApiError;
use crate::api_version::version_of;
use crate::header::AxumHeaders;
use crate::model::NEGOTIATED;

/// The request of an operation's route: its head, its body (until an
/// argument reads it), and the version it is served at.
#[derive(Debug)]
pub struct OperationInput {
    /// The request's head.
    pub request: Parts,
    /// Its body, not read yet; taken by the argument that reads it.
    pub payload: Option<Body>,
    /// The version it is served at.
    pub version: Version,
}

/// A controller's generated route function: the operation at an index, on
/// a request.
pub type RoutesFn<C, F> = fn(Arc<C>, usize, OperationInput) -> F;

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
        let by_layer = request.extensions.get::<Negotiated>().is_some();
        match version_of(&request) {
            Ok(negotiated) => {
                let input = OperationInput { request, payload: Some(body), version: negotiated.version };
                let route = (self.routes)(Arc::clone(&self.controller), index, input);
                if by_layer {
                    Either::Left(route.map(Ok))
                } else {
                    // The layer renders a `Versioned` answer at its version; here
                    // the route's own negotiation does.
                    Either::Right(Either::Left(Box::pin(NEGOTIATED.scope(negotiated.version, route.map(Ok)))))
                }
            }
            Err(refusal) => Either::Right(Either::Right(ready(Ok(refusal.into_response())))),
        }
    }
}

/// The answer of a controller's path to a method none of its operations
/// has: 405 with `Allow` naming the methods served at the request's version
/// (docs/reference.md §4.2), as on actix.
fn method_not_allowed(allowed: &AllowedMethods, req: Request<Body>) -> Response {
    let (req, _) = req.into_parts();
    let version = version_of(&req).ok().map(|n| n.version);
    let detail = microversion_core::error::method_not_allowed_detail(req.method.as_str());
    let mut res = ApiError::from_status(StatusCode::METHOD_NOT_ALLOWED, detail).into_response();
    // An empty `Allow` is valid: nothing is served here at this version.
    set_header::<AxumHeaders>(res.headers_mut(), "allow", &allowed.at(version));
    res
}

/// The answer of an operation at a version none of its variants serves
/// (the core's [`MissingVariant`]: its status, the removal, and for a 405
/// the `Allow` of its path at that version).
pub fn missing(missing: MissingVariant) -> Response {
    let mut res = ApiError::from(&missing).into_response();
    if let Some(allow) = &missing.allow {
        set_header::<AxumHeaders>(res.headers_mut(), "allow", allow);
    }
    res
}
