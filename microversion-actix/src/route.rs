//! The routes of a controller on actix (docs/reference.md §4): what
//! [`register`] makes of the table `#[controller]` expands to, one actix
//! resource per path in [`RoutedPath::of`]'s order.
//!
//! Each operation's generated function takes an [`OperationInput`] (the
//! request, its body stream, and the version the middleware negotiated)
//! and answers a future. It extracts each variant's arguments itself, after
//! choosing the variant. A controller's routes are one generated function
//! that runs the operation at an index ([`RoutesFn`]); [`OperationRoute`]
//! is the actix service that calls it, holding the controller (not app
//! data) and its operation's index.
//!
//! So the service and its future are one type per controller, not per
//! operation: actix's boxed service and handler machinery instantiated per
//! operation made a large controller take half as long again to compile
//! as the same routes by hand (docs/performance.md, section 7). Actix boxes
//! the service's future, as every service's; the route adds no allocation
//! of its own.

use std::future::{Future, Ready, ready};
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

use actix_web::dev::{
    AppService, HttpServiceFactory, Payload, Service, ServiceFactory, ServiceRequest, ServiceResponse,
    always_ready,
};
use actix_web::http::Method;
use actix_web::{HttpRequest, HttpResponse, web};

use microversion_core::{AllowedMethods, Controller, RoutedPath};

use crate::header::ActixHeaders;
use crate::{ApiVersion, Version};

/// The request of an operation's route, its body stream, and its version.
pub struct OperationInput {
    /// The request.
    pub request: HttpRequest,
    /// Its body, not read yet.
    pub payload: Payload,
    /// The version it is served at.
    pub version: Version,
}

impl std::fmt::Debug for OperationInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OperationInput")
            .field("request", &self.request)
            .field("version", &self.version)
            .finish_non_exhaustive()
    }
}

/// A controller's generated route dispatch: the operation at an index,
/// on a request.
pub type RoutesFn<C, F> = fn(Rc<C>, usize, OperationInput) -> F;

/// Registers `controller`'s routes with actix: its schemas checked (an
/// invalid one stops the service at start-up, never mid-traffic), then one
/// resource per path, each method of the path routed to `routes` at the
/// operation's index and any other method answered by [`MethodNotAllowed`].
/// What the `HttpServiceFactory` impl `#[controller]` generates calls.
pub fn register<C: Controller + 'static, F: Future<Output = HttpResponse> + 'static>(
    controller: C,
    config: &mut AppService,
    routes: RoutesFn<C, F>,
) {
    C::check_schemas_at_startup();
    // One per worker, shared by the controller's routes.
    let controller = Rc::new(controller);
    for RoutedPath { path, routes: methods } in RoutedPath::of(C::OPERATIONS) {
        let resource = methods.into_iter().fold(web::resource(path), |resource, (method, index)| {
            // `#[controller]` writes only methods by their standard names.
            let method =
                Method::from_bytes(method.as_bytes()).unwrap_or_else(|_| panic!("no method `{method}`"));
            resource.route(web::route().method(method).service(OperationRoute::new(
                &controller,
                index,
                routes,
            )))
        });
        let resource = resource.default_service(MethodNotAllowed::for_path(C::OPERATIONS, path));
        HttpServiceFactory::register(resource, config);
    }
}

/// The actix service of one operation's route: calls the controller's
/// generated routes with the controller, the operation's index and the
/// request's [`OperationInput`].
pub struct OperationRoute<C, F> {
    controller: Rc<C>,
    route: usize,
    routes: RoutesFn<C, F>,
}

impl<C, F> OperationRoute<C, F> {
    /// The route of operation `route` of `controller`, answered by `routes`.
    pub fn new(controller: &Rc<C>, route: usize, routes: RoutesFn<C, F>) -> OperationRoute<C, F> {
        OperationRoute { controller: Rc::clone(controller), route, routes }
    }
}

impl<C, F> Clone for OperationRoute<C, F> {
    fn clone(&self) -> Self {
        OperationRoute { controller: Rc::clone(&self.controller), route: self.route, routes: self.routes }
    }
}

impl<C: 'static, F: Future<Output = HttpResponse> + 'static> ServiceFactory<ServiceRequest>
    for OperationRoute<C, F>
{
    type Response = ServiceResponse;
    type Error = actix_web::Error;
    type Config = ();
    type Service = OperationRoute<C, F>;
    type InitError = ();
    type Future = Ready<Result<OperationRoute<C, F>, ()>>;

    fn new_service(&self, _: ()) -> Self::Future {
        ready(Ok(self.clone()))
    }
}

impl<C: 'static, F: Future<Output = HttpResponse>> Service<ServiceRequest> for OperationRoute<C, F> {
    type Response = ServiceResponse;
    type Error = actix_web::Error;
    type Future = Answering<F>;

    always_ready!();

    fn call(&self, req: ServiceRequest) -> Answering<F> {
        let (request, payload) = req.into_parts();
        // Without the middleware in front, the version is negotiated here
        // from the registered `Api`, or its absence is the answer (as the
        // `ApiVersion` extractor does).
        let answer = match ApiVersion::from_http_request(&request) {
            Ok(version) => {
                let input = OperationInput { request: request.clone(), payload, version: version.version() };
                Answer::Route { route: (self.routes)(Rc::clone(&self.controller), self.route, input) }
            }
            Err(refusal) => Answer::Refused { response: Some(HttpResponse::from_error(refusal)) },
        };
        Answering { answer, request: Some(request) }
    }
}

pin_project_lite::pin_project! {
    /// The future of [`OperationRoute`]: the route's answer, with its request.
    pub struct Answering<F> {
        #[pin]
        answer: Answer<F>,
        request: Option<HttpRequest>,
    }
}

pin_project_lite::pin_project! {
    /// The route running, or the refusal of a request no version was
    /// negotiated for.
    #[project = AnswerProjection]
    enum Answer<F> {
        Route { #[pin] route: F },
        Refused { response: Option<HttpResponse> },
    }
}

impl<F: Future<Output = HttpResponse>> Future for Answering<F> {
    type Output = Result<ServiceResponse, actix_web::Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let response = match this.answer.project() {
            AnswerProjection::Route { route } => std::task::ready!(route.poll(cx)),
            AnswerProjection::Refused { response } => match response.take() {
                Some(response) => response,
                None => return Poll::Pending,
            },
        };
        // `None` only if polled again after answering, which actix never does.
        match this.request.take() {
            Some(request) => Poll::Ready(Ok(ServiceResponse::new(request, response))),
            None => Poll::Pending,
        }
    }
}

impl<F> std::fmt::Debug for Answering<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Answering").field("request", &self.request).finish_non_exhaustive()
    }
}

/// The answer of a controller's path to a method none of its operations
/// has: 405 with `Allow` naming the methods served *at the request's
/// version* (docs/reference.md §4.2). An operation whose first variant
/// comes later is not allowed yet (`PUT /flavors/{id}` before 2.55), one
/// removed is no longer; without a negotiated version, every method of the
/// path is named.
///
/// `#[controller]` makes it the default service of each path it
/// registers, from its [`Controller::OPERATIONS`](crate::operation::Controller::OPERATIONS).
#[derive(Clone, Debug)]
pub struct MethodNotAllowed {
    /// Each method of the path with the versions it is served at.
    methods: Rc<AllowedMethods>,
}

impl MethodNotAllowed {
    /// The methods of `operations` routed at `path` (with the controller's
    /// scope, as [`Operation::path`](crate::operation::Operation::path) has it).
    pub fn for_path(operations: &'static [crate::operation::Operation], path: &str) -> MethodNotAllowed {
        MethodNotAllowed { methods: Rc::new(AllowedMethods::for_path(operations, path)) }
    }
}

impl ServiceFactory<ServiceRequest> for MethodNotAllowed {
    type Response = ServiceResponse;
    type Error = actix_web::Error;
    type Config = ();
    type Service = MethodNotAllowed;
    type InitError = ();
    type Future = Ready<Result<MethodNotAllowed, ()>>;

    fn new_service(&self, _: ()) -> Self::Future {
        ready(Ok(self.clone()))
    }
}

impl Service<ServiceRequest> for MethodNotAllowed {
    type Response = ServiceResponse;
    type Error = actix_web::Error;
    type Future = Ready<Result<ServiceResponse, actix_web::Error>>;

    always_ready!();

    fn call(&self, req: ServiceRequest) -> Self::Future {
        let version = ApiVersion::from_http_request(req.request()).ok().map(|v| v.version());
        let error = crate::ApiError::from_status(
            actix_web::http::StatusCode::METHOD_NOT_ALLOWED,
            format!("The method {} is not allowed for this resource.", req.method()),
        );
        let mut response = HttpResponse::from_error(error);
        // An empty `Allow` is valid: nothing is served here at this version.
        microversion_core::set_header::<ActixHeaders>(
            response.headers_mut(),
            "allow",
            &self.methods.at(version),
        );
        // `ServiceResponse::new` keeps the error for the middleware to render
        // in the API's format (`into_response` would drop it).
        let (request, _) = req.into_parts();
        ready(Ok(ServiceResponse::new(request, response)))
    }
}
