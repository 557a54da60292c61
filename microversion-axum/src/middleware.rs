//! [`VersionNegotiation`]: the tower layer that negotiates every
//! request of the routes it wraps and stamps the version headers on every
//! answer (docs/reference.md §3), by the core's rules, as the actix
//! middleware does; a default version per client ([`ClientDefault`]) and
//! the check of a service's own answers ([`ResponseValidation`]).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::body::Body;
use axum::extract::OriginalUri;
use axum::response::{IntoResponse as _, Response};
use http::header;
use http::{Request, StatusCode};

use microversion_core::observe;

use crate::ApiError;
use crate::discovery::RequestLinks as _;
use crate::header::AxumHeaders;
use crate::native::Unrendered;
pub use crate::response_validation::ResponseValidation;
use microversion_core::Negotiated;
use microversion_core::error::ErrorRequest;
use microversion_core::exchange::{Admission, Engine, ErrorBody, Scope, Scoped, unformatted_error};

/// The settings of an API's version negotiation, the core's
/// [`Negotiation`](microversion_core::exchange::Negotiation) over axum's
/// headers: every rule, builder and default is documented there.
pub type Negotiation = microversion_core::exchange::Negotiation<AxumHeaders>;

/// The tower layer serving a [`Negotiation`] over the routes of one API,
/// by the core's rules, the same on every facade (docs/reference.md §2,
/// §3; [`Negotiation`] lists them); its settings' readers (`api`,
/// `version_cap`, `error_renderer`) are reached through it. An answer with
/// a body of its own is passed on as it is, axum's extractors' rejections
/// (text) included: the core's arguments read by [`Native`](crate::Native)
/// (`Json`, `params::Path`, `params::Query`) answer in the API's format.
///
/// ```
/// use axum::{Router, routing::get};
/// use microversion_axum::{Api, ApiVersion, Microversion, Native, Negotiation, VersionNegotiation};
/// use microversion_axum::error::NovaFaults;
///
/// const COMPUTE: Api = Api::new("compute", &[
///     Microversion::new("2.1", "Initial version."),
///     Microversion::new("2.2", "Keypairs gain a type."),
/// ]);
///
/// async fn show(Native(version): Native<ApiVersion>) -> String {
///     version.version().to_string()
/// }
///
/// let app: Router = Router::new()
///     .route("/v2.1/servers", get(show))
///     .layer(VersionNegotiation::new(COMPUTE));
/// // Settings other than the defaults: the core's `Negotiation`.
/// let faults = Negotiation::new(COMPUTE).with_error_format(NovaFaults::default());
/// let nova: Router = Router::new()
///     .route("/v2.1/servers", get(show))
///     .layer(VersionNegotiation::new(faults));
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
    /// The layer serving `negotiation`, or an [`Api`](crate::Api) with
    /// every default.
    pub fn new(negotiation: impl Into<Negotiation>) -> VersionNegotiation {
        VersionNegotiation(negotiation.into())
    }

    /// `router` behind this negotiation, for an app that is one API: every
    /// request negotiated before it is routed (a path version taken out, an
    /// unrouted path negotiated too), without axum's wrapping of each route
    /// that `router.layer(..)` costs (docs/19-axum.md, docs/performance.md
    /// §16). Served by [`serve`](crate::serve()) as a router is, or by
    /// `axum::serve(listener, app.into_make_service())`.
    pub fn around(self, router: axum::Router) -> VersionNegotiationService<axum::Router> {
        tower_layer::Layer::layer(&self, router)
    }

    /// A service answering a JSON 404 in this layer's error format, for a
    /// path outside every route: `router.fallback_service(layer.default_service())`
    /// (axum's own 404 has an empty body).
    pub fn default_service(&self) -> axum::routing::MethodRouter {
        crate::error::default_service(&self.error_renderer())
    }
}

pub use microversion_core::exchange::ClientChoice;

/// The hook that chooses the version of a request naming none, the core's
/// [`ClientDefault`](microversion_core::exchange::ClientDefault) over
/// axum's headers: its future is `Send`, as axum's server may move a
/// request between threads.
///
/// ```
/// use microversion_axum::{Version, middleware::ClientDefault};
///
/// let pins = ClientDefault::new(&["X-Account"], |headers| {
///     let pinned = headers.get("X-Account").is_some_and(|v| v == "old-account");
///     async move { Ok(pinned.then(|| Version::lit("2.1"))) }
/// });
/// assert_eq!(pins.vary(), "X-Account");
/// ```
pub type ClientDefault = microversion_core::exchange::ClientDefault<AxumHeaders>;

impl<S> tower_layer::Layer<S> for VersionNegotiation {
    type Service = VersionNegotiationService<S>;

    fn layer(&self, inner: S) -> VersionNegotiationService<S> {
        VersionNegotiationService { inner, engine: Arc::new(self.engine()) }
    }
}

/// The service [`VersionNegotiation`] wraps around routes, or around a
/// router ([`VersionNegotiation::around`]).
#[derive(Clone, Debug)]
pub struct VersionNegotiationService<S> {
    inner: S,
    engine: Arc<Engine<AxumHeaders>>,
}

/// axum's requests, so that `axum::ServiceExt::into_make_service` knows which.
impl<S> tower_service::Service<Request<Body>> for VersionNegotiationService<S>
where
    S: tower_service::Service<Request<Body>, Response = Response> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = S::Error;
    type Future = observe::Traced<VersionNegotiationFuture<S::Future, S::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    #[inline]
    fn call(&mut self, mut req: Request<Body>) -> Self::Future {
        let engine = Arc::clone(&self.engine);
        // The URI as sent stays axum's `OriginalUri` when a version is taken out of it.
        if engine.exchange.reads_target() && req.extensions().get::<OriginalUri>().is_none() {
            let sent = OriginalUri(req.uri().clone());
            req.extensions_mut().insert(sent);
        }
        let admission = engine.exchange.admit_request(&mut req);
        // Read before the request is handed on, only where the answer needs it.
        let base = engine.exchange.makes_locations_absolute().then(|| req.link_base());
        let facts = engine.error_request(req.method().as_str(), req.headers()).map(Box::new);
        let negotiated = match (admission, &engine.client_default) {
            (Admission::Serve(negotiated) | Admission::AskClient(negotiated), None) => negotiated,
            (Admission::AskClient(asked), Some(client_default)) => {
                let choice = client_default.choose(req.headers());
                // The service that was made ready answers, once the choice is made.
                let fresh = self.inner.clone();
                let mut service = std::mem::replace(&mut self.inner, fresh);
                let fut = Box::pin(async move {
                    let negotiated = match engine.chosen(asked, choice.await, facts.as_deref()) {
                        Ok(negotiated) => negotiated,
                        Err(res) => return Ok(res),
                    };
                    let answering = || {
                        let _scope = Scope::enter(negotiated);
                        Scoped::new(service.call(req), negotiated)
                    };
                    let res = observe::negotiated(engine.exchange.api(), &negotiated, answering).await?;
                    Ok(complete(&engine, res, negotiated, base.as_deref(), facts.as_deref()))
                });
                return observe::untraced(VersionNegotiationFuture { step: Step::Chosen { fut } });
            }
            (Admission::Serve(negotiated), Some(_)) => negotiated,
            (Admission::Refuse(error), _) => {
                let res = Some(engine.refusal(*error, facts.as_deref()));
                return observe::untraced(VersionNegotiationFuture { step: Step::Refused { res } });
            }
        };
        observe::negotiated(self.engine.exchange.api(), &negotiated, || {
            let scope = Scope::enter(negotiated);
            let inner = self.inner.call(req);
            drop(scope);
            VersionNegotiationFuture { step: Step::Forwarded { inner, engine, negotiated, base, facts } }
        })
    }
}

/// The boxed future of a request whose version a client default chooses.
type Chosen<E> = Pin<Box<dyn Future<Output = Result<Response, E>> + Send>>;

pin_project_lite::pin_project! {
    /// The future of [`VersionNegotiationService`]: the wrapped service's
    /// answer with the version headers added, or the refusal (400, 406).
    pub struct VersionNegotiationFuture<F, E> {
        #[pin]
        step: Step<F, E>,
    }
}

pin_project_lite::pin_project! {
    #[project = StepProjection]
    enum Step<F, E> {
        Forwarded {
            // Called and polled with `negotiated` in scope (`Scope`), the
            // poll's scope entered here rather than by wrapping `inner` in a
            // `Scoped`, which keeps a second copy of it and measured about
            // 100 instructions more per request (docs/performance.md §15).
            #[pin] inner: F,
            engine: Arc<Engine<AxumHeaders>>,
            negotiated: Negotiated,
            // The request's link base, when a `Location` is made absolute.
            base: Option<String>,
            // What the error format reads of the request, if it reads it.
            facts: Option<Box<ErrorRequest>>,
        },
        Refused { res: Option<Response> },
        // Boxed: only the requests a client default chooses for pay for it.
        Chosen { fut: Chosen<E> },
    }
}

impl<F, E> Future for VersionNegotiationFuture<F, E>
where
    F: Future<Output = Result<Response, E>>,
{
    type Output = Result<Response, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.project().step.project() {
            StepProjection::Forwarded { inner, engine, negotiated, base, facts } => {
                let scope = Scope::enter(*negotiated);
                let res = std::task::ready!(inner.poll(cx));
                drop(scope);
                Poll::Ready(
                    res.map(|res| complete(engine, res, *negotiated, base.as_deref(), facts.as_deref())),
                )
            }
            // Answered at once; a second poll gets an empty 500 rather than a panic.
            StepProjection::Chosen { fut } => fut.as_mut().poll(cx),
            StepProjection::Refused { res } => Poll::Ready(Ok(res
                .take()
                .unwrap_or_else(|| StatusCode::INTERNAL_SERVER_ERROR.into_response()))),
        }
    }
}

/// The answer of the wrapped service at `negotiated`, finished: a
/// `Versioned` answer rendered at its version; an [`ApiError`] it answered
/// with, or an error answer without a body of its own (the core's rule,
/// [`unformatted_error`]), rendered in the API's format for the request the
/// format reads as `facts`, the headers the handler set kept; the version
/// headers; its `Location` made absolute under `base` when declared; and
/// counted.
fn complete(
    engine: &Engine<AxumHeaders>,
    res: Response,
    negotiated: Negotiated,
    base: Option<&str>,
    facts: Option<&ErrorRequest>,
) -> Response {
    let version = negotiated.version;
    let res = match res.extensions().get::<Unrendered>().cloned() {
        Some(unrendered) => unrendered.render(version, res),
        None => res,
    };
    let error = res.extensions().get::<ApiError>().cloned().or_else(|| bodiless_error(&res));
    let mut res = match error {
        Some(error) => {
            let (mut parts, _) = res.into_parts();
            parts.status = error.status();
            let body = engine.write_error(&mut parts.headers, error, Some(version), facts);
            Response::from_parts(parts, Body::from(body))
        }
        None => res,
    };
    engine.exchange.finish(res.headers_mut(), Some(version));
    let status = res.status().as_u16();
    if let Some(base) = base {
        engine.exchange.locate(res.headers_mut(), status, base);
    }
    engine.exchange.count(&negotiated, status);
    res
}

/// The error to render for an error answer that is not JSON and has no
/// body of its own (the router's 405, a handler's bare status), by the
/// core's rule as on actix: Nova's words for 404, 405 and a server error,
/// else the reason phrase. Headers such as `Allow` stay.
fn bodiless_error(res: &Response) -> Option<ApiError> {
    let status = res.status();
    let body = match axum::body::HttpBody::size_hint(res.body()).exact() {
        Some(0) => ErrorBody::Empty,
        _ => ErrorBody::Own,
    };
    let content_type = || res.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok());
    let error = unformatted_error(status.as_u16(), content_type, body)?;
    Some(ApiError::from_answer(status, error.cause))
}
