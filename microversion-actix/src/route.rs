//! The routes of a controller on actix (docs/reference.md §4): what
//! [`register`] makes of the table `#[controller]` expands to, one actix
//! resource per path in [`RoutedPath::of`]'s order.
//!
//! Each operation's generated function takes an [`OperationInput`] (the
//! request, its body stream, and the version the middleware negotiated)
//! and answers a future. It extracts each variant's arguments itself, after
//! choosing the variant. A controller's routes are one generated function
//! that runs the operation at an index ([`RoutesFn`]); `OperationRoute`
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
use actix_web::http::{Method, StatusCode};
use actix_web::{HttpRequest, HttpResponse, web};
use futures_util::future::Either;

use microversion_core::{Controller, header::set_header, operation::AllowedMethods, operation::RoutedPath};

use crate::header::ActixHeaders;
use crate::{ApiError, ApiVersion, Version};

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
/// operation's index and any other method answered 405.
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
            let route = OperationRoute { controller: Rc::clone(&controller), route: index, routes };
            resource.route(web::route().method(method).service(route))
        });
        let resource =
            resource.default_service(method_not_allowed(AllowedMethods::for_path(C::OPERATIONS, path)));
        HttpServiceFactory::register(resource, config);
    }
}

/// The actix service of one operation's route: calls the controller's
/// generated routes with the controller, the operation's index and the
/// request's [`OperationInput`].
struct OperationRoute<C, F> {
    controller: Rc<C>,
    route: usize,
    routes: RoutesFn<C, F>,
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
                Either::Left((self.routes)(Rc::clone(&self.controller), self.route, input))
            }
            Err(refusal) => Either::Right(ready(HttpResponse::from_error(refusal))),
        };
        Answering { answer, request: Some(request) }
    }
}

pin_project_lite::pin_project! {
    /// The future of [`OperationRoute`]: the route's answer, or the refusal
    /// of a request no version was negotiated for, with its request.
    struct Answering<F> {
        #[pin]
        answer: Either<F, Ready<HttpResponse>>,
        request: Option<HttpRequest>,
    }
}

impl<F: Future<Output = HttpResponse>> Future for Answering<F> {
    type Output = Result<ServiceResponse, actix_web::Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let response = std::task::ready!(this.answer.poll(cx));
        // `None` only if polled again after answering, which actix never does.
        match this.request.take() {
            Some(request) => Poll::Ready(Ok(ServiceResponse::new(request, response))),
            None => Poll::Pending,
        }
    }
}

/// The answer of a controller's path to a method none of its operations
/// has: 405 with `Allow` naming the methods served *at the request's
/// version* (docs/reference.md §4.2). An operation whose first variant
/// comes later is not allowed yet (`PUT /flavors/{id}` before 2.55), one
/// removed is no longer; without a negotiated version, every method of the
/// path is named. The error stays in the answer for the middleware to
/// render in the API's format.
fn method_not_allowed(methods: AllowedMethods) -> actix_web::Route {
    let methods = Rc::new(methods);
    web::to(move |req: HttpRequest| {
        let version = ApiVersion::from_http_request(&req).ok().map(|v| v.version());
        let detail = microversion_core::error::method_not_allowed_detail(req.method().as_str());
        let mut response =
            HttpResponse::from_error(ApiError::from_status(StatusCode::METHOD_NOT_ALLOWED, detail));
        // An empty `Allow` is valid: nothing is served here at this version.
        set_header::<ActixHeaders>(response.headers_mut(), "allow", &methods.at(version));
        ready(response)
    })
}
