//! The middleware: [`VersionNegotiation`] negotiates every request of its
//! scope and stamps the version headers on every response
//! (docs/reference.md §3); [`ResponseValidation`] says whether it checks
//! responses against their declared schemas.

use std::future::{Future, Ready, ready};
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

use actix_web::body::{BodySize, BoxBody, EitherBody, MessageBody};
use actix_web::dev::{Service, ServiceRequest, ServiceResponse, Transform, forward_ready};
use actix_web::error::InternalError;
use actix_web::http::header;
use actix_web::{Error, HttpMessage, HttpResponse};
use futures_util::future::LocalBoxFuture;

pub use crate::client_default::{ClientChoice, ClientDefault};
pub use crate::response_validation::ResponseValidation;

use crate::discovery::RequestLinks as _;
use crate::header::ActixHeaders;
use crate::{ApiError, Version, version::Negotiated};
use microversion_core::error::ErrorRequest;
use microversion_core::exchange::{Admission, Engine, ErrorBody, unformatted_error};
use microversion_core::observe;
use microversion_core::version::RequestTarget;

/// The settings of an API's version negotiation, the core's
/// [`Negotiation`](microversion_core::exchange::Negotiation) over actix's
/// headers: every rule, builder and default is documented there.
pub type Negotiation = microversion_core::exchange::Negotiation<ActixHeaders>;

/// The actix middleware serving a [`Negotiation`]: wrap the scope of a
/// versioned API with it. It answers by the core's rules, the same on every
/// facade (docs/reference.md §2, §3; [`Negotiation`] lists them); its
/// settings' readers (`api`, `version_cap`, `error_renderer`) are reached
/// through it.
///
/// Besides its own errors, it renders actix's (`JsonPayloadError`,
/// `PathError`, `QueryPayloadError`) and any other error response that
/// carries an actix error and is not JSON already as a JSON error of the
/// same status; a response a handler built by hand with a body of its own
/// is left as it is. An `Err` returned by an inner middleware is rendered
/// the same way and passed on as an error whose response is the rendered
/// one.
///
/// ```
/// use actix_web::{web, App, HttpResponse};
/// use microversion_actix::{Api, Microversion, Negotiation, Version, VersionNegotiation, error::NovaFaults};
///
/// const API: Api = Api::new("compute", &[
///     Microversion::new("2.1", "Initial version."),
///     Microversion::new("2.2", "Keypairs gain a type."),
/// ]);
///
/// let negotiation = Negotiation::new(API)
///     .with_error_format(NovaFaults::default())
///     .capped_at(Version::lit("2.1"))
///     .expect("2.1 is declared");
/// let app = App::new().service(
///     web::scope("/v2.1")
///         .wrap(VersionNegotiation::new(negotiation))
///         .route("/servers", web::get().to(HttpResponse::Ok)),
/// );
/// // An API's defaults need no settings.
/// let plain = App::new().service(web::scope("/v2.1").wrap(VersionNegotiation::new(API)));
/// # drop((app, plain));
/// ```
#[derive(Clone, Debug)]
pub struct VersionNegotiation(Negotiation);

impl std::ops::Deref for VersionNegotiation {
    type Target = Negotiation;

    fn deref(&self) -> &Negotiation {
        &self.0
    }
}

impl VersionNegotiation {
    /// The middleware serving `negotiation`, or an [`Api`](crate::Api)
    /// with every default.
    pub fn new(negotiation: impl Into<Negotiation>) -> VersionNegotiation {
        VersionNegotiation(negotiation.into())
    }

    /// A route answering a JSON 404 in this scope's error format, for a path
    /// outside every scope: `App::new().default_service(middleware.default_service())`
    /// (see [`error::default_service`](crate::error::default_service)).
    pub fn default_service(&self) -> actix_web::Route {
        crate::error::default_service(&self.error_renderer())
    }
}

impl<S, B> Transform<S, ServiceRequest> for VersionNegotiation
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = Error> + 'static,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<EitherBody<B>>;
    type Error = Error;
    type Transform = VersionNegotiationService<S>;
    type InitError = ();
    type Future = Ready<Result<Self::Transform, Self::InitError>>;

    fn new_transform(&self, service: S) -> Self::Future {
        ready(Ok(VersionNegotiationService { service: Rc::new(service), engine: Rc::new(self.engine()) }))
    }
}

/// The service [`VersionNegotiation`] wraps around a scope (created by actix).
pub struct VersionNegotiationService<S> {
    // Shared with the future of a request whose version a client default
    // chooses: the inner service is called once the choice is made.
    service: Rc<S>,
    engine: Rc<Engine<ActixHeaders>>,
}

impl<S> std::fmt::Debug for VersionNegotiationService<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VersionNegotiationService")
            .field("exchange", &self.engine.exchange)
            .finish_non_exhaustive()
    }
}

impl<S, B> Service<ServiceRequest> for VersionNegotiationService<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = Error> + 'static,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<EitherBody<B>>;
    type Error = Error;
    type Future = observe::Traced<VersionNegotiationFuture<S::Future, B>>;

    forward_ready!(service);

    fn call(&self, mut req: ServiceRequest) -> Self::Future {
        let engine = Rc::clone(&self.engine);
        let target = || {
            RequestTarget::new(
                req.match_info().unprocessed(),
                Some(req.query_string()).filter(|q| !q.is_empty()),
            )
        };
        let (admission, routed) = engine.exchange.admit_routed(req.headers(), target);
        // Read only for an error format that reads its request.
        let facts = engine.error_request(req.method().as_str(), req.headers()).map(Box::new);
        if let Some(routed) = routed {
            route_by(&mut req, &routed);
        }
        let negotiated = match (admission, &engine.client_default) {
            (Admission::Serve(negotiated) | Admission::AskClient(negotiated), None) => negotiated,
            (Admission::AskClient(asked), Some(client_default)) => {
                let choice = client_default.choose(req.headers());
                let service = Rc::clone(&self.service);
                // Boxed: only the requests a client default may choose for pay
                // for the allocation.
                let fut = Box::pin(async move {
                    let negotiated = match engine.chosen(asked, choice.await, facts.as_deref()) {
                        Ok(negotiated) => negotiated,
                        Err(res) => return Ok(req.into_response(res.map_into_right_body())),
                    };
                    req.extensions_mut().insert(negotiated);
                    let result =
                        observe::negotiated(engine.exchange.api(), &negotiated, || service.call(req)).await;
                    complete(&engine, result, negotiated, facts.as_deref())
                });
                return observe::untraced(VersionNegotiationFuture { step: Step::Chosen { fut } });
            }
            (Admission::Serve(negotiated), Some(_)) => negotiated,
            (Admission::Refuse(refusal), _) => {
                let res = engine.refusal(*refusal, facts.as_deref()).map_into_right_body();
                let fut = VersionNegotiationFuture {
                    step: Step::Refused { res: Some(Box::new(req.into_response(res))) },
                };
                return observe::untraced(fut);
            }
        };
        req.extensions_mut().insert(negotiated);
        // No clone of the request may live while the inner service routes:
        // actix needs sole ownership of it to record path parameters.
        observe::negotiated(self.engine.exchange.api(), &negotiated, || VersionNegotiationFuture {
            step: Step::Forwarded { inner: self.service.call(req), engine, negotiated, facts },
        })
    }
}

/// Routes `req` by `routed`, the path and query under where the
/// negotiation is mounted once a version reader took its part out
/// (docs/reference.md §2.6): the prefix a scope routed stays.
fn route_by(req: &mut ServiceRequest, routed: &str) {
    // The router's own path: its unreserved escapes decoded, as `unprocessed` is.
    let path = req.match_info().as_str();
    let mounted = &path[..path.len() - req.match_info().unprocessed().len()];
    let Ok(uri) = format!("{mounted}{routed}").parse::<actix_web::http::Uri>() else {
        return;
    };
    req.match_info_mut().get_mut().update(&uri);
    req.head_mut().uri = uri;
}

pin_project_lite::pin_project! {
    /// The future of [`VersionNegotiationService`]: the wrapped service's
    /// response with the version headers added, or the refusal (400, 406)
    /// of a request whose version did not negotiate. A named type rather
    /// than a boxed `async` block: no allocation per request.
    pub struct VersionNegotiationFuture<F, B> {
        #[pin]
        step: Step<F, B>,
    }
}

pin_project_lite::pin_project! {
    /// Either the wrapped service runs, or the refusal waits to be taken:
    /// one or the other, so the future is the size of the larger.
    #[project = StepProjection]
    enum Step<F, B> {
        Forwarded {
            #[pin] inner: F,
            engine: Rc<Engine<ActixHeaders>>,
            negotiated: Negotiated,
            // What the error format reads of the request, if it reads it.
            facts: Option<Box<ErrorRequest>>,
        },
        // Boxed: the future of every request is the size of its largest
        // step, and a refusal's answer is three times the others.
        Refused { res: Option<Box<ServiceResponse<EitherBody<B>>>> },
        // A client default chooses the version, then the service runs.
        Chosen { fut: LocalBoxFuture<'static, Result<ServiceResponse<EitherBody<B>>, Error>> },
    }
}

impl<F, B> std::fmt::Debug for VersionNegotiationFuture<F, B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let negotiated = match &self.step {
            Step::Forwarded { negotiated, .. } => Some(negotiated),
            Step::Refused { .. } | Step::Chosen { .. } => None,
        };
        f.debug_struct("VersionNegotiationFuture").field("negotiated", &negotiated).finish_non_exhaustive()
    }
}

impl<F, B> Future for VersionNegotiationFuture<F, B>
where
    F: Future<Output = Result<ServiceResponse<B>, Error>>,
    B: MessageBody + 'static,
{
    type Output = Result<ServiceResponse<EitherBody<B>>, Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let (inner, engine, negotiated, facts) = match self.project().step.project() {
            StepProjection::Forwarded { inner, engine, negotiated, facts } => {
                (inner, engine, *negotiated, facts)
            }
            // Refused: answered at once, and only once.
            StepProjection::Chosen { fut } => return fut.as_mut().poll(cx),
            StepProjection::Refused { res } => {
                return Poll::Ready(res.take().map(|res| *res).ok_or_else(|| {
                    actix_web::error::ErrorInternalServerError(
                        "microversion middleware future polled after completion",
                    )
                }));
            }
        };
        let result = match inner.poll(cx) {
            Poll::Ready(result) => result,
            Poll::Pending => return Poll::Pending,
        };
        Poll::Ready(complete(engine, result, negotiated, facts.as_deref()))
    }
}

/// Puts `error`, if any, in the API's format answering `facts`' request, and the
/// version headers and `Vary` on a response of this scope.
fn finish_with<B: MessageBody + 'static>(
    engine: &Engine<ActixHeaders>,
    mut res: HttpResponse<EitherBody<B>>,
    error: Option<ApiError>,
    version: Option<Version>,
    facts: Option<&ErrorRequest>,
) -> HttpResponse<EitherBody<B>> {
    if let Some(error) = error {
        res = crate::error::render_into(engine, error, version, facts, res).map_into_right_body();
    }
    engine.exchange.finish(res.headers_mut(), version);
    res
}

/// [`finish_with`] for the inner service's response: a success only gains its
/// headers, without taking the response apart; an error is read (and a
/// server error's cause logged) once.
fn finish_service<B: MessageBody + 'static>(
    engine: &Engine<ActixHeaders>,
    mut res: ServiceResponse<B>,
    version: Version,
    facts: Option<&ErrorRequest>,
) -> ServiceResponse<EitherBody<B>> {
    if let Some(error) = error_of(res.response()) {
        let (req, res) = res.into_parts();
        let res = finish_with(engine, res.map_into_left_body(), Some(error), Some(version), facts);
        return ServiceResponse::new(req, res);
    }
    engine.exchange.finish(res.headers_mut(), Some(version));
    if engine.exchange.makes_locations_absolute() {
        let (status, base) = (res.status().as_u16(), res.request().link_base());
        engine.exchange.locate(res.headers_mut(), status, &base);
    }
    // Mapped last: the answer is moved once.
    res.map_into_left_body()
}

/// The answer of the inner service to a request negotiated at
/// `negotiated`, finished and counted; an error answer is rendered in the
/// API's format and stays an error for the outer middleware.
fn complete<B: MessageBody + 'static>(
    engine: &Engine<ActixHeaders>,
    result: Result<ServiceResponse<B>, Error>,
    negotiated: Negotiated,
    facts: Option<&ErrorRequest>,
) -> Result<ServiceResponse<EitherBody<B>>, Error> {
    match result {
        Ok(res) => {
            let res = finish_service(engine, res, negotiated.version, facts);
            engine.exchange.count(&negotiated, res.status().as_u16());
            Ok(res)
        }
        Err(err) => {
            let res = HttpResponse::from_error(err).map_into_right_body::<BoxBody>();
            let error = error_of(&res);
            let res = finish_with(engine, res, error, Some(negotiated.version), facts).map_into_boxed_body();
            engine.exchange.count(&negotiated, res.status().as_u16());
            let shown = res.error().map(ToString::to_string).unwrap_or_default();
            Err(InternalError::from_response(shown, res).into())
        }
    }
}

/// The error to render for an error response, or `None` to leave it as
/// is: an [`ApiError`] it carries, else the core's rule
/// ([`unformatted_error`]) on the actix error that made it.
fn error_of<B: MessageBody + 'static>(res: &HttpResponse<B>) -> Option<ApiError> {
    let status = res.status();
    if !status.is_client_error() && !status.is_server_error() {
        return None;
    }
    let cause = res.error();
    if let Some(crate::Error(api_error)) = cause.and_then(|error| error.as_error::<crate::Error>()) {
        return Some(api_error.clone());
    }
    let cause = cause.map(ToString::to_string);
    let body = match (&cause, res.body().size()) {
        (Some(cause), _) => ErrorBody::Cause(cause),
        (None, BodySize::None | BodySize::Sized(0)) => ErrorBody::Empty,
        (None, _) => ErrorBody::Own,
    };
    let content_type = || res.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok());
    let error = unformatted_error(status.as_u16(), content_type, body)?;
    if let Some(cause) = error.cause.filter(|_| status.is_server_error()) {
        log::error!("{status} from a versioned handler: {cause}");
    }
    Some(ApiError::from_answer(status, error.cause))
}
