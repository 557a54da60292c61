//! The routes of a controller on actix (docs/reference.md §4): the core's
//! [`Facade`] on actix's types, and what [`register`] makes of a
//! controller's routes, one actix resource per path in
//! [`RoutedPath::of`]'s order.
//!
//! `#[controller]` implements the core's [`Routes`](microversion_core::operation::Routes) for every facade: the
//! operation at an index, answered on a [`RouteInput`]. `OperationRoute` is
//! the actix service that calls it, holding the controller (not app data)
//! and its operation's index; its future is one type per controller, not
//! per operation, so actix's boxed service and handler machinery is
//! instantiated once per controller (docs/performance.md, section 7).
//! Actix boxes the service's future, as every service's; the route adds
//! no allocation of its own.

use std::future::{Future, Ready, ready};
use std::pin::Pin;
use std::rc::Rc;
use std::sync::Arc;
use std::task::{Context, Poll};

use actix_web::dev::{
    AppService, HttpServiceFactory, Payload, Service, ServiceFactory, ServiceRequest, ServiceResponse,
    always_ready,
};
use actix_web::http::{Method, StatusCode};
use actix_web::{FromRequest, HttpMessage, HttpRequest, HttpResponse, Responder, web};
use futures_util::TryFutureExt as _;
use futures_util::future::Either;
use microversion_core::body::ValidatedAs;
use microversion_core::operation::{Facade, ReadAlready, ResponseDescription, RouteInput};
use microversion_core::portable::{self, LinkRoot};
use microversion_core::{Controller, header::set_header, operation::AllowedMethods, operation::RoutedPath};

use crate::discovery::RequestLinks as _;
use crate::error::status_of;
use crate::header::ActixHeaders;
use crate::{ApiError, Error, Version};

/// The core's [`Facade`] on actix-web: requests, bodies and answers are
/// actix's, an error is answered as this crate's [`ApiError`], which the
/// middleware renders in the API's format.
#[derive(Debug)]
pub enum Actix {}

impl Facade for Actix {
    type Request = HttpRequest;
    type Body = Payload;
    type Bytes = web::Bytes;
    type Response = HttpResponse;
    type Wire = ActixHeaders;

    fn query(request: &HttpRequest) -> &str {
        request.query_string()
    }

    fn path_params<R>(request: &mut HttpRequest, read: impl FnOnce(&[(&str, &str)]) -> R) -> R {
        microversion_core::operation::with_path_params(request.match_info().iter(), read)
    }

    fn headers(request: &HttpRequest) -> &<Self::Wire as microversion_core::header::HeaderWire>::Map {
        request.headers()
    }

    fn link_root(request: &HttpRequest) -> LinkRoot {
        LinkRoot::new(request.link_base())
    }

    async fn read_body(request: &HttpRequest, mut body: Payload) -> Result<web::Bytes, portable::ApiError> {
        crate::body::read_body(request, &mut body).await
    }

    fn body_from(bytes: web::Bytes) -> Payload {
        Payload::from(bytes)
    }

    fn keep(request: &mut HttpRequest, read: ReadAlready) {
        let mut extensions = request.extensions_mut();
        let ReadAlready { parsed, validated_as, query, .. } = read;
        parsed.map(|parsed| extensions.insert(parsed));
        validated_as.map(|model: ValidatedAs| extensions.insert(model));
        query.map(|query| extensions.insert(query));
    }

    fn json(status: portable::StatusCode, body: Vec<u8>) -> HttpResponse {
        HttpResponse::build(status_of(status)).content_type("application/json").body(body)
    }

    fn empty(status: portable::StatusCode) -> HttpResponse {
        HttpResponse::new(status_of(status))
    }

    fn error(error: portable::ApiError) -> HttpResponse {
        HttpResponse::from_error(Error(error))
    }

    fn headers_mut(response: &mut HttpResponse) -> &mut actix_web::http::header::HeaderMap {
        response.headers_mut()
    }

    fn check_response(
        request: &HttpRequest,
        version: Version,
        declared: &'static ResponseDescription,
        response: HttpResponse,
    ) -> impl Future<Output = HttpResponse> {
        crate::response_validation::check(request, version, declared, response)
    }
}

/// The marker of the impls for actix's own arguments and answers.
#[derive(Debug)]
pub enum Native {}

/// An actix extractor as a route's argument, reading what a schema check
/// read already.
#[diagnostic::do_not_recommend]
impl<T: FromRequest> microversion_core::operation::Extracts<T, Native> for Actix {
    fn extract(input: &mut RouteInput<Actix>) -> impl Future<Output = Result<T, HttpResponse>> {
        input.keep_for_framework();
        let payload = input.body.get_or_insert(Payload::None);
        T::from_request(&input.request, payload).map_err(|error| HttpResponse::from_error(error.into()))
    }
}

/// What no type is: a second impl of [`Extracts`](microversion_core::operation::Extracts)
/// and [`Answers`](microversion_core::operation::Answers) for none keeps rustc
/// from settling on actix's own when a type is neither, so that its error
/// is in the core's trait's words at that type, not `FromRequest`'s or
/// `Responder`'s.
pub trait Neither {}

/// The marker of the impls for [`Neither`].
#[derive(Debug)]
pub enum NotServed {}

#[diagnostic::do_not_recommend]
impl<T: Neither> microversion_core::operation::Extracts<T, NotServed> for Actix {
    fn extract(_: &mut RouteInput<Actix>) -> impl Future<Output = Result<T, HttpResponse>> {
        std::future::pending()
    }
}

#[diagnostic::do_not_recommend]
impl<T: Neither> microversion_core::operation::Answers<T, NotServed> for Actix {
    fn answer(_: T, _: &RouteInput<Actix>) -> HttpResponse {
        HttpResponse::InternalServerError().finish()
    }
}

/// An actix responder as a route's answer.
#[diagnostic::do_not_recommend]
impl<T: Responder> microversion_core::operation::Answers<T, Native> for Actix {
    fn answer(answer: T, input: &RouteInput<Actix>) -> HttpResponse {
        answer.respond_to(&input.request).map_into_boxed_body()
    }
}

/// Registers `controller`'s routes with actix: its schemas checked (an
/// invalid one stops the service at start-up, never mid-traffic), then one
/// resource per path, each method of the path routed to the controller's
/// [`Routes`](microversion_core::operation::Routes) at the operation's index and any other method answered 405.
/// What the `HttpServiceFactory` impl `#[controller]` generates calls,
/// with `<C as Routes<Actix, _>>::route` (its future named by inference).
pub fn register<C: Controller + 'static, F: Future<Output = HttpResponse> + 'static>(
    controller: C,
    config: &mut AppService,
    routes: RoutesFn<C, F>,
) {
    C::check_schemas_at_startup();
    // One per worker, shared by the controller's routes.
    let controller = Arc::new(controller);
    for RoutedPath { path, routes: methods } in RoutedPath::of(C::OPERATIONS) {
        let resource = methods.into_iter().fold(web::resource(path), |resource, (method, index)| {
            // `#[controller]` writes only methods by their standard names.
            let method =
                Method::from_bytes(method.as_bytes()).unwrap_or_else(|_| panic!("no method `{method}`"));
            let route = OperationRoute { controller: Arc::clone(&controller), route: index, routes };
            resource.route(web::route().method(method).service(route))
        });
        let resource =
            resource.default_service(method_not_allowed(AllowedMethods::for_path(C::OPERATIONS, path)));
        HttpServiceFactory::register(resource, config);
    }
}

/// A controller's routes on actix: the operation at an index, on a
/// request ([`Routes::route`](microversion_core::operation::Routes::route), its future named by inference).
pub type RoutesFn<C, F> = fn(Arc<C>, usize, RouteInput<Actix>) -> F;

/// The actix service of one operation's route: calls the controller's
/// routes with the controller, the operation's index and the request's
/// [`RouteInput`].
struct OperationRoute<C, F> {
    controller: Arc<C>,
    route: usize,
    routes: RoutesFn<C, F>,
}

impl<C, F> Clone for OperationRoute<C, F> {
    fn clone(&self) -> Self {
        OperationRoute { controller: Arc::clone(&self.controller), route: self.route, routes: self.routes }
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
        let answer = match crate::version::version_of(&request) {
            Ok(version) => {
                let input = RouteInput::new(request.clone(), payload, version.negotiated());
                Either::Left((self.routes)(Arc::clone(&self.controller), self.route, input))
            }
            Err(refusal) => Either::Right(ready(HttpResponse::from_error(Error(refusal)))),
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
        let version = crate::version::version_of(&req).ok().map(|v| v.version());
        let detail = microversion_core::error::method_not_allowed_detail(req.method().as_str());
        let mut response =
            HttpResponse::from_error(Error(ApiError::from_status(StatusCode::METHOD_NOT_ALLOWED, detail)));
        // An empty `Allow` is valid: nothing is served here at this version.
        set_header::<ActixHeaders>(response.headers_mut(), "allow", &methods.at(version));
        ready(response)
    })
}
