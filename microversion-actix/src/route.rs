//! The service of one operation's route: what `#[controller]` registers
//! for each operation with a route (docs/reference.md §4).
//!
//! It calls the operation's generated function with what it needs and no
//! more: the controller (held by the route, not looked up in app data),
//! the request, its body stream, and the version the middleware
//! negotiated. The generated function extracts each variant's arguments
//! itself, after choosing the variant, so no actix `Handler` with
//! extractors of its own stands in between.

use std::future::{Future, Ready, ready};
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

use actix_web::dev::{Payload, Service, ServiceFactory, ServiceRequest, ServiceResponse, always_ready};
use actix_web::{Error, HttpRequest, HttpResponse};

use crate::{ApiVersion, Version};

/// One operation's route: its controller and its generated function.
pub struct OperationRoute<C, F> {
    controller: Rc<C>,
    operation: F,
}

impl<C, F> OperationRoute<C, F> {
    /// The route of `operation`, called with `controller`.
    pub fn new(controller: Rc<C>, operation: F) -> OperationRoute<C, F> {
        OperationRoute { controller, operation }
    }
}

impl<C, F: Clone> Clone for OperationRoute<C, F> {
    fn clone(&self) -> Self {
        OperationRoute { controller: Rc::clone(&self.controller), operation: self.operation.clone() }
    }
}

impl<C, F, Fut> ServiceFactory<ServiceRequest> for OperationRoute<C, F>
where
    C: 'static,
    F: Fn(Rc<C>, HttpRequest, Payload, Version) -> Fut + Clone + 'static,
    Fut: Future<Output = Result<HttpResponse, Error>> + 'static,
{
    type Response = ServiceResponse;
    type Error = Error;
    type Config = ();
    type Service = OperationRoute<C, F>;
    type InitError = ();
    type Future = Ready<Result<Self::Service, ()>>;

    fn new_service(&self, _: ()) -> Self::Future {
        ready(Ok(self.clone()))
    }
}

impl<C, F, Fut> Service<ServiceRequest> for OperationRoute<C, F>
where
    F: Fn(Rc<C>, HttpRequest, Payload, Version) -> Fut,
    Fut: Future<Output = Result<HttpResponse, Error>>,
{
    type Response = ServiceResponse;
    type Error = Error;
    type Future = OperationFuture<Fut>;

    always_ready!();

    fn call(&self, req: ServiceRequest) -> Self::Future {
        let (req, payload) = req.into_parts();
        match ApiVersion::from_http_request(&req) {
            Ok(version) => OperationFuture::Running {
                operation: (self.operation)(
                    Rc::clone(&self.controller),
                    req.clone(),
                    payload,
                    version.version(),
                ),
                req: Some(req),
            },
            Err(err) => OperationFuture::Refused { res: Some(ServiceResponse::from_err(err, req)) },
        }
    }
}

pin_project_lite::pin_project! {
    /// The future of [`OperationRoute`]: the operation's answer, or its
    /// error as a response, with the request it answers.
    #[project = OperationFutureProjection]
    pub enum OperationFuture<Fut> {
        /// The operation runs.
        Running { #[pin] operation: Fut, req: Option<HttpRequest> },
        /// No version could be known (no middleware, no `Api` in app data).
        Refused { res: Option<ServiceResponse> },
    }
}

impl<Fut> Future for OperationFuture<Fut>
where
    Fut: Future<Output = Result<HttpResponse, Error>>,
{
    type Output = Result<ServiceResponse, Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let done = match self.project() {
            OperationFutureProjection::Running { operation, req } => {
                let res = match operation.poll(cx) {
                    Poll::Ready(out) => out.unwrap_or_else(HttpResponse::from_error),
                    Poll::Pending => return Poll::Pending,
                };
                req.take().map(|req| ServiceResponse::new(req, res))
            }
            OperationFutureProjection::Refused { res } => res.take(),
        };
        Poll::Ready(done.ok_or_else(|| {
            actix_web::error::ErrorInternalServerError("an operation's future polled after completion")
        }))
    }
}
