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
use axum::response::Response;
use http::header::{self, HeaderMap, HeaderName, HeaderValue};
use http::{Request, StatusCode};

use microversion_core::observe;

use crate::ApiError;
use crate::header::AxumHeaders;
use crate::model::{NEGOTIATED, Unrendered};
pub use crate::response_validation::ResponseValidation;
use microversion_core::{
    Api, ApiSigErrors, CapError, ErrorFormat, MAX_VERSION_HEADER, MIN_VERSION_HEADER, Negotiated,
    NegotiationError, Stamp, Version, VersionCap, VersionSource,
};
use tokio::task::futures::TaskLocalFuture;

/// Negotiates the version of every request it wraps, as the actix
/// middleware `VersionNegotiation` does (docs/reference.md §2, §3):
///
/// - a malformed version answers 400 and an unserved one 406, in the API's
///   error format (API-SIG errors unless [`VersionNegotiation::with_error_format`]
///   says otherwise), with the served range in the body and in
///   `OpenStack-API-Minimum-Version` / `-Maximum-Version`, and
///   `Cache-Control: no-store`;
/// - otherwise the [`Negotiated`] version goes into the request's
///   extensions (read it with [`ApiVersion`](crate::ApiVersion)) and the
///   answer gains `OpenStack-API-Version`, the legacy headers, a
///   deprecated version's `Deprecation`/`Sunset`/`Link`, and `Vary`.
///
/// ```
/// use axum::{Router, routing::get};
/// use microversion_axum::{Api, ApiVersion, Microversion, VersionNegotiation};
///
/// const COMPUTE: Api = Api::new("compute", &[
///     Microversion::new("2.1", "Initial version."),
///     Microversion::new("2.2", "Keypairs gain a type."),
/// ]);
///
/// async fn show(version: ApiVersion) -> String {
///     version.version().to_string()
/// }
///
/// let app: Router = Router::new()
///     .route("/v2.1/servers", get(show))
///     .layer(VersionNegotiation::new(COMPUTE));
/// ```
#[derive(Clone)]
pub struct VersionNegotiation {
    state: Arc<State>,
}

impl std::fmt::Debug for VersionNegotiation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VersionNegotiation").field("api", &self.state.api).finish_non_exhaustive()
    }
}

impl VersionNegotiation {
    /// The layer for `api`, with API-SIG error bodies; a cap set with
    /// [`Api::capped_at`] is honoured.
    pub fn new(api: Api) -> VersionNegotiation {
        VersionNegotiation {
            state: Arc::new(State::new(api, VersionCap::new(&api), Arc::new(ApiSigErrors), None)),
        }
    }

    /// Renders refusals with `format` ([`microversion_core::NovaFaults`] for Nova's faults).
    pub fn with_error_format(self, format: impl ErrorFormat) -> VersionNegotiation {
        let state = &self.state;
        self.rebuilt(state.api, state.cap.clone(), Arc::new(format), state.client_default.clone())
    }

    /// Lowers the served maximum (see [`Api::capped_at`]).
    pub fn capped_at(self, cap: Version) -> Result<VersionNegotiation, CapError> {
        let (api, state) = (self.state.api.capped_at(cap)?, &self.state);
        Ok(self.rebuilt(api, VersionCap::new(&api), Arc::clone(&state.format), state.client_default.clone()))
    }

    /// Reads the served maximum from `cap`, a handle changed while serving
    /// and shared with discovery (docs/reference.md §13.4).
    pub fn with_version_cap(self, cap: VersionCap) -> VersionNegotiation {
        let state = &self.state;
        self.rebuilt(*cap.declaration(), cap, Arc::clone(&state.format), state.client_default.clone())
    }

    /// Asks `client_default` for the version of each request that names
    /// none (docs/reference.md §3.6), as the actix middleware's
    /// `with_client_default` does; its headers are named in `Vary`.
    pub fn with_client_default(self, client_default: ClientDefault) -> VersionNegotiation {
        let state = &self.state;
        self.rebuilt(state.api, state.cap.clone(), Arc::clone(&state.format), Some(client_default))
    }

    /// The layer with its precomputed state made anew from these parts.
    fn rebuilt(
        &self,
        api: Api,
        cap: VersionCap,
        format: Arc<dyn ErrorFormat>,
        client_default: Option<ClientDefault>,
    ) -> VersionNegotiation {
        VersionNegotiation { state: Arc::new(State::new(api, cap, format, client_default)) }
    }
}

/// What a [`ClientDefault`] answers: the client's version, `None` for the
/// API's default, or the error the request is answered with, in the API's
/// format (a store that cannot be read is a 503, not a silent change of
/// version).
pub type ClientChoice = Result<Option<Version>, ApiError>;

type Choose = dyn Fn(&HeaderMap) -> Pin<Box<dyn Future<Output = ClientChoice> + Send>> + Send + Sync;

/// The hook that chooses the version of a request naming none, from the
/// request headers it names (a token, an account), as Stripe pins each
/// account to a version: the axum twin of the actix layer's
/// `ClientDefault` (docs/reference.md §3.6).
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
#[derive(Clone)]
pub struct ClientDefault {
    reads: Vec<HeaderName>,
    vary: String,
    choose: Arc<Choose>,
}

impl std::fmt::Debug for ClientDefault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientDefault").field("reads", &self.reads).finish_non_exhaustive()
    }
}

impl ClientDefault {
    /// A hook reading the request headers `names`; the future `choose`
    /// returns may wait on I/O and must not keep the headers.
    ///
    /// # Panics
    ///
    /// If one of `names` is not a valid header name (it could not be named
    /// in `Vary`): a mistake in the deployment, found at start-up, as on
    /// actix.
    pub fn new<F, Fut>(names: &[&'static str], choose: F) -> ClientDefault
    where
        F: Fn(&HeaderMap) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ClientChoice> + Send + 'static,
    {
        let reads = microversion_core::read_header_names("ClientDefault", names);
        let vary = names.join(", ");
        ClientDefault { reads, vary, choose: Arc::new(move |headers| Box::pin(choose(headers))) }
    }

    /// The request headers the hook reads.
    pub fn reads(&self) -> &[HeaderName] {
        &self.reads
    }

    /// The names of the headers read, as a `Vary` value.
    pub fn vary(&self) -> &str {
        &self.vary
    }

    /// Asks the hook for the version of a request with `headers`.
    pub(crate) fn choose(&self, headers: &HeaderMap) -> Pin<Box<dyn Future<Output = ClientChoice> + Send>> {
        (self.choose)(headers)
    }
}

impl<S> tower_layer::Layer<S> for VersionNegotiation {
    type Service = VersionNegotiationService<S>;

    fn layer(&self, inner: S) -> VersionNegotiationService<S> {
        VersionNegotiationService { inner, state: Arc::clone(&self.state) }
    }
}

/// The service [`VersionNegotiation`] wraps around routes.
#[derive(Clone)]
pub struct VersionNegotiationService<S> {
    inner: S,
    state: Arc<State>,
}

impl<S> std::fmt::Debug for VersionNegotiationService<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VersionNegotiationService").field("api", &self.state.api).finish_non_exhaustive()
    }
}

impl<S, B> tower_service::Service<Request<B>> for VersionNegotiationService<S>
where
    S: tower_service::Service<Request<B>, Response = Response> + Clone + Send + 'static,
    S::Future: Send + 'static,
    B: Send + 'static,
{
    type Response = Response;
    type Error = S::Error;
    type Future = observe::Traced<VersionNegotiationFuture<S::Future, S::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut req: Request<B>) -> Self::Future {
        let state = &self.state;
        match state.api.negotiate_up_to(state.stamp.version_headers(req.headers()), state.cap.get()) {
            Ok(negotiated)
                if negotiated.source == VersionSource::Default && state.client_default.is_some() =>
            {
                let choice = state.client_default.as_ref().map(|c| c.choose(req.headers()));
                // The service that was made ready answers, once the choice is made.
                let fresh = self.inner.clone();
                let ready = std::mem::replace(&mut self.inner, fresh);
                let state = Arc::clone(state);
                observe::untraced(VersionNegotiationFuture {
                    step: Step::Chosen { fut: Box::pin(chosen(ready, state, req, negotiated, choice)) },
                })
            }
            Ok(negotiated) => {
                req.extensions_mut().insert(negotiated);
                observe::negotiated(&state.api, &negotiated, || VersionNegotiationFuture {
                    step: Step::Forwarded {
                        inner: NEGOTIATED.scope(negotiated.version, self.inner.call(req)),
                        state: Arc::clone(state),
                        negotiated,
                    },
                })
            }
            Err(err) => {
                observe::count_refused(
                    &state.api,
                    &err,
                    state.api.version_header(state.stamp.version_headers(req.headers())),
                );
                observe::refused(&state.api, &err);
                observe::untraced(VersionNegotiationFuture {
                    step: Step::Refused { res: Some(state.refusal(&err)) },
                })
            }
        }
    }
}

/// A request whose version a client default chooses: the choice, then the
/// wrapped service at that version.
async fn chosen<S, B>(
    mut service: S,
    state: Arc<State>,
    mut req: Request<B>,
    negotiated: Negotiated,
    choice: Option<Pin<Box<dyn Future<Output = ClientChoice> + Send>>>,
) -> Result<Response, S::Error>
where
    S: tower_service::Service<Request<B>, Response = Response>,
{
    let chosen = match choice {
        Some(choice) => choice.await,
        None => Ok(None),
    };
    let negotiated = match chosen {
        Ok(Some(pinned)) => state.api.negotiate_pinned(pinned, state.cap.get()),
        Ok(None) => negotiated,
        Err(err) => {
            let res = state.finish(axum::response::IntoResponse::into_response(err), None);
            // Counted as the request stood: naming no version.
            observe::count(&state.api, &negotiated, res.status().as_u16());
            return Ok(res);
        }
    };
    req.extensions_mut().insert(negotiated);
    let res = observe::negotiated(&state.api, &negotiated, || {
        NEGOTIATED.scope(negotiated.version, service.call(req))
    })
    .await?;
    Ok(state.complete(res, negotiated))
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
        Forwarded { #[pin] inner: TaskLocalFuture<Version, F>, state: Arc<State>, negotiated: Negotiated },
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
            StepProjection::Forwarded { inner, state, negotiated } => match inner.poll(cx) {
                Poll::Ready(Ok(res)) => Poll::Ready(Ok(state.complete(res, *negotiated))),
                Poll::Ready(Err(err)) => Poll::Ready(Err(err)),
                Poll::Pending => Poll::Pending,
            },
            // Answered at once; a second poll gets an empty 500 rather than a panic.
            StepProjection::Chosen { fut } => fut.as_mut().poll(cx),
            StepProjection::Refused { res } => Poll::Ready(Ok(res.take().unwrap_or_else(|| {
                let mut res = Response::new(Body::empty());
                *res.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
                res
            }))),
        }
    }
}

/// Everything an answer needs, rendered once per layer.
struct State {
    api: Api,
    cap: VersionCap,
    format: Arc<dyn ErrorFormat>,
    stamp: Stamp<AxumHeaders>,
    client_default: Option<ClientDefault>,
}

impl State {
    /// Asks `client_default` (if any) for the versions of requests naming
    /// none, and names its headers in `Vary`.
    fn new(
        api: Api,
        cap: VersionCap,
        format: Arc<dyn ErrorFormat>,
        client_default: Option<ClientDefault>,
    ) -> State {
        let stamp = Stamp::new(api, client_default.as_ref().map(ClientDefault::vary));
        State { api, cap, format, stamp, client_default }
    }

    /// The 400 or 406 of a version that did not negotiate.
    fn refusal(&self, err: &NegotiationError) -> Response {
        let mut res = ApiError::from(err.clone()).render(&*self.format, Some(self.api.service_type()));
        let headers = res.headers_mut();
        // A cache matches `Vary` on header values, not on versions: a stored
        // 400/406 could answer a request that negotiates fine.
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        self.stamp.stamp(headers, None);
        res
    }

    /// The answer of the wrapped service at `negotiated`, finished and counted.
    fn complete(&self, res: Response, negotiated: Negotiated) -> Response {
        let res = self.finish(res, Some(negotiated.version));
        observe::count(&self.api, &negotiated, res.status().as_u16());
        res
    }

    /// The answer of the wrapped service, finished: an [`ApiError`] it
    /// answered with is rendered in the API's format, keeping the headers
    /// the handler set; then the version headers.
    fn finish(&self, res: Response, version: Option<Version>) -> Response {
        // A `Versioned` answer waits for the version to be rendered at.
        let res = match (res.extensions().get::<Unrendered>().cloned(), version) {
            (Some(unrendered), Some(version)) => unrendered.render(version, res),
            _ => res,
        };
        let mut res = match res.extensions().get::<ApiError>() {
            Some(error) => {
                let mut rendered = error.render(&*self.format, Some(self.api.service_type()));
                let (parts, _) = res.into_parts();
                let mut headers = parts.headers;
                headers.remove(header::CONTENT_LENGTH);
                for name in [MIN_VERSION_HEADER, MAX_VERSION_HEADER] {
                    headers.remove(name);
                }
                headers.extend(std::mem::take(rendered.headers_mut()));
                *rendered.headers_mut() = headers;
                *rendered.extensions_mut() = parts.extensions;
                rendered
            }
            None => res,
        };
        self.stamp.stamp(res.headers_mut(), version);
        res
    }
}

/// The version a negotiated request carries in its extensions.
pub(crate) fn negotiated(extensions: &http::Extensions) -> Option<Negotiated> {
    extensions.get::<Negotiated>().copied()
}
