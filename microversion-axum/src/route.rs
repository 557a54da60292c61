//! The routes of a `#[controller(axum)]` controller (docs/reference.md §16.2):
//! one tower service per operation ([`OperationRoute`]), one method router
//! per path ([`method_router`]), and the 405 of a path at a version
//! ([`MethodNotAllowed`]).
//!
//! Each operation's generated function takes an [`OperationInput`] (the
//! request's head, its body, and the version the layer negotiated) and
//! answers a [`RouteFuture`], boxed as on actix: one service type per
//! controller rather than one per operation keeps a large controller quick
//! to compile.

use std::convert::Infallible;
use std::future::{Future, ready};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::body::Body;
use axum::response::{IntoResponse, Response};
use axum::routing::MethodRouter;
use http::header::{ALLOW, HeaderValue};
use http::request::Parts;
use http::{Request, StatusCode};
use microversion_core::{AllowedMethods, Operation, Version};

use crate::ApiError;
use crate::extract::{negotiated, no_layer};

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

/// What an operation's generated route function returns: its answer, to come.
pub type RouteFuture = Pin<Box<dyn Future<Output = Response> + Send>>;

/// An operation's generated route function.
pub type RouteFn<C> = fn(Arc<C>, OperationInput) -> RouteFuture;

/// The tower service of one operation's route: calls its generated
/// function with the controller and the request at its negotiated version.
pub struct OperationRoute<C> {
    controller: Arc<C>,
    route: RouteFn<C>,
}

impl<C> Clone for OperationRoute<C> {
    fn clone(&self) -> Self {
        OperationRoute { controller: Arc::clone(&self.controller), route: self.route }
    }
}

impl<C: Send + Sync + 'static> tower_service::Service<Request<Body>> for OperationRoute<C> {
    type Response = Response;
    type Error = Infallible;
    type Future = Answering;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: Request<Body>) -> Answering {
        let (request, body) = req.into_parts();
        // Without the layer in front there is no version to dispatch on: a
        // 500 that names the mistake, as the `ApiVersion` extractor answers.
        match negotiated(&request.extensions) {
            Some(negotiated) => {
                let input = OperationInput { request, payload: Some(body), version: negotiated.version };
                Answering((self.route)(Arc::clone(&self.controller), input))
            }
            None => Answering(Box::pin(ready(no_layer(&request)))),
        }
    }
}

/// The future of [`OperationRoute`]: the route's answer.
pub struct Answering(RouteFuture);

impl Future for Answering {
    type Output = Result<Response, Infallible>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        self.0.as_mut().poll(cx).map(Ok)
    }
}

impl std::fmt::Debug for Answering {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Answering").finish_non_exhaustive()
    }
}

/// The answer of a controller's path to a method none of its operations
/// has: 405 with `Allow` naming the methods served at the request's version
/// (docs/reference.md §4.2), as on actix.
#[derive(Clone, Debug)]
pub struct MethodNotAllowed {
    methods: Arc<AllowedMethods>,
}

impl MethodNotAllowed {
    /// The methods of `operations` routed at `path` (scope included).
    pub fn for_path(operations: &'static [Operation], path: &str) -> MethodNotAllowed {
        MethodNotAllowed { methods: Arc::new(AllowedMethods::for_path(operations, path)) }
    }
}

impl MethodNotAllowed {
    /// The 405 of `req`, with `Allow` at its version.
    fn answer(&self, req: &Request<Body>) -> Response {
        let version = negotiated(req.extensions()).map(|n| n.version);
        let detail = format!("The method {} is not allowed for this resource.", req.method());
        let mut res = ApiError::from_status(StatusCode::METHOD_NOT_ALLOWED, detail).into_response();
        // An empty `Allow` is valid: nothing is served here at this version.
        if let Ok(allow) = HeaderValue::from_str(&self.methods.at(version)) {
            res.headers_mut().insert(ALLOW, allow);
        }
        res
    }
}

/// The method router of one path: each of its operations under its method
/// (`"GET"`), and [`MethodNotAllowed`] for any other. The path answers
/// every method itself, so that axum adds no `Allow` of its own to an
/// answer (a refused version's, say) and serves `HEAD` only where an
/// operation is declared for it, as actix does.
pub fn method_router<C: Send + Sync + 'static, S: Clone + Send + Sync + 'static>(
    controller: &Arc<C>,
    routes: &[(&'static str, RouteFn<C>)],
    operations: &'static [Operation],
    path: &str,
) -> MethodRouter<S> {
    let routes = routes
        .iter()
        .map(|&(method, route)| (method, OperationRoute { controller: Arc::clone(controller), route }))
        .collect();
    let other = MethodNotAllowed::for_path(operations, path);
    axum::routing::any_service(PathRoutes { routes: Arc::new(routes), other })
}

/// The operations of one path, by method.
struct PathRoutes<C> {
    routes: Arc<Vec<(&'static str, OperationRoute<C>)>>,
    other: MethodNotAllowed,
}

impl<C> Clone for PathRoutes<C> {
    fn clone(&self) -> Self {
        PathRoutes { routes: Arc::clone(&self.routes), other: self.other.clone() }
    }
}

impl<C: Send + Sync + 'static> tower_service::Service<Request<Body>> for PathRoutes<C> {
    type Response = Response;
    type Error = Infallible;
    type Future = Answering;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: Request<Body>) -> Answering {
        match self.routes.iter().find(|(method, _)| *method == req.method().as_str()) {
            Some((_, route)) => route.clone().call(req),
            None => Answering(Box::pin(ready(self.other.answer(&req)))),
        }
    }
}

/// The answer of an operation at a version none of its variants serves, as
/// on actix: the status of its `missing` (404 unless set), the removal
/// version named when the operation was removed, and for a 405 the `Allow`
/// of its path at that version.
pub fn missing(
    version: Version,
    status: u16,
    removed_in: Option<Version>,
    operations: &'static [Operation],
    name: &str,
) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::NOT_FOUND);
    let error = match removed_in {
        Some(removed_in) if removed_in <= version => {
            ApiError::removed_at_version(version, removed_in, status)
        }
        _ => ApiError::method_not_at_version(version, status),
    };
    let mut res = error.into_response();
    let path = operations.iter().find(|op| op.name == name).and_then(|op| op.path);
    if let (StatusCode::METHOD_NOT_ALLOWED, Some(path)) = (status, path)
        && let Ok(allow) =
            HeaderValue::from_str(&AllowedMethods::for_path(operations, path).at(Some(version)))
    {
        res.headers_mut().insert(ALLOW, allow);
    }
    res
}
