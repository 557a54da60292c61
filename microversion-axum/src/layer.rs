//! [`VersionNegotiationLayer`]: the tower layer that negotiates every
//! request of the routes it wraps and stamps the version headers on every
//! answer (docs/reference.md §3), by the core's rules, as the actix
//! middleware does.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::body::Body;
use axum::response::Response;
use http::header::{self, HeaderMap, HeaderName, HeaderValue};
use http::{Request, StatusCode};
use microversion_core::{
    Api, ApiSigErrors, CapError, MAX_VERSION_HEADER, MIN_VERSION_HEADER, Negotiated, NegotiationError,
    Problem, ProblemFormat, ResponseHeaders, VaryUpdate, Version, VersionCap, appends_to_handlers,
    qualified_code, vary_update,
};

/// Negotiates the version of every request it wraps, as the actix
/// middleware `VersionNegotiation` does (docs/reference.md §2, §3):
///
/// - a malformed version answers 400 and an unserved one 406, in the API's
///   error format (API-SIG errors unless [`VersionNegotiationLayer::with_error_format`]
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
/// use microversion_axum::{Api, ApiVersion, Microversion, VersionNegotiationLayer};
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
///     .layer(VersionNegotiationLayer::new(COMPUTE));
/// ```
#[derive(Clone)]
pub struct VersionNegotiationLayer {
    state: Arc<State>,
}

impl std::fmt::Debug for VersionNegotiationLayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VersionNegotiationLayer").field("api", &self.state.api).finish_non_exhaustive()
    }
}

impl VersionNegotiationLayer {
    /// The layer for `api`, with API-SIG error bodies; a cap set with
    /// [`Api::capped_at`] is honoured.
    pub fn new(api: Api) -> VersionNegotiationLayer {
        VersionNegotiationLayer {
            state: Arc::new(State::new(api, VersionCap::new(&api), Arc::new(ApiSigErrors))),
        }
    }

    /// Renders refusals with `format` ([`microversion_core::NovaFaults`] for Nova's faults).
    pub fn with_error_format(self, format: impl ProblemFormat) -> VersionNegotiationLayer {
        let state = &self.state;
        VersionNegotiationLayer {
            state: Arc::new(State::new(state.api, state.cap.clone(), Arc::new(format))),
        }
    }

    /// Lowers the served maximum (see [`Api::capped_at`]).
    pub fn capped_at(self, cap: Version) -> Result<VersionNegotiationLayer, CapError> {
        let api = self.state.api.capped_at(cap)?;
        let format = Arc::clone(&self.state.format);
        Ok(VersionNegotiationLayer { state: Arc::new(State::new(api, VersionCap::new(&api), format)) })
    }

    /// Reads the served maximum from `cap`, a handle changed while serving
    /// and shared with discovery (docs/reference.md §13.4).
    pub fn with_version_cap(self, cap: VersionCap) -> VersionNegotiationLayer {
        let format = Arc::clone(&self.state.format);
        VersionNegotiationLayer { state: Arc::new(State::new(*cap.declaration(), cap, format)) }
    }
}

impl<S> tower_layer::Layer<S> for VersionNegotiationLayer {
    type Service = VersionNegotiationService<S>;

    fn layer(&self, inner: S) -> VersionNegotiationService<S> {
        VersionNegotiationService { inner, state: Arc::clone(&self.state) }
    }
}

/// The service [`VersionNegotiationLayer`] wraps around routes.
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
    S: tower_service::Service<Request<B>, Response = Response>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = VersionNegotiationFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut req: Request<B>) -> Self::Future {
        let state = &self.state;
        match state.api.negotiate_up_to(state.version_headers(req.headers()), state.cap.get()) {
            Ok(negotiated) => {
                req.extensions_mut().insert(negotiated);
                VersionNegotiationFuture {
                    step: Step::Forwarded {
                        inner: self.inner.call(req),
                        state: Arc::clone(state),
                        version: negotiated.version,
                    },
                }
            }
            Err(err) => VersionNegotiationFuture { step: Step::Refused { res: Some(state.refusal(&err)) } },
        }
    }
}

pin_project_lite::pin_project! {
    /// The future of [`VersionNegotiationService`]: the wrapped service's
    /// answer with the version headers added, or the refusal (400, 406).
    pub struct VersionNegotiationFuture<F> {
        #[pin]
        step: Step<F>,
    }
}

pin_project_lite::pin_project! {
    #[project = StepProjection]
    enum Step<F> {
        Forwarded { #[pin] inner: F, state: Arc<State>, version: Version },
        Refused { res: Option<Response> },
    }
}

impl<F, E> Future for VersionNegotiationFuture<F>
where
    F: Future<Output = Result<Response, E>>,
{
    type Output = Result<Response, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.project().step.project() {
            StepProjection::Forwarded { inner, state, version } => match inner.poll(cx) {
                Poll::Ready(Ok(mut res)) => {
                    state.stamp(res.headers_mut(), Some(*version));
                    Poll::Ready(Ok(res))
                }
                Poll::Ready(Err(err)) => Poll::Ready(Err(err)),
                Poll::Pending => Poll::Pending,
            },
            // Answered at once; a second poll gets an empty 500 rather than a panic.
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
    format: Arc<dyn ProblemFormat>,
    standard: HeaderName,
    legacy: Vec<HeaderName>,
    /// Per declared version: `OpenStack-API-Version` and the bare value.
    values: Vec<(HeaderValue, HeaderValue)>,
    /// Per declared version: its deprecation's headers.
    deprecation: Vec<Vec<(HeaderName, HeaderValue)>>,
    vary: HeaderValue,
    vary_text: String,
}

impl State {
    fn new(api: Api, cap: VersionCap, format: Arc<dyn ProblemFormat>) -> State {
        let rendered = ResponseHeaders::new(&api);
        let value = |text: &str| HeaderValue::from_str(text).unwrap_or_else(|_| HeaderValue::from_static(""));
        let (values, deprecation) = rendered
            .per_version()
            .map(|headers| {
                let deprecation = headers
                    .deprecation
                    .iter()
                    .filter_map(|(name, text)| {
                        Some((HeaderName::try_from(*name).ok()?, HeaderValue::from_str(text).ok()?))
                    })
                    .collect();
                ((value(headers.standard), value(headers.bare)), deprecation)
            })
            .unzip();
        State {
            api,
            cap,
            format,
            standard: HeaderName::from_static("openstack-api-version"),
            // The declaration only accepts token names, which are valid header names.
            legacy: api.legacy_headers().iter().filter_map(|n| HeaderName::try_from(*n).ok()).collect(),
            values,
            deprecation,
            vary: value(rendered.vary()),
            vary_text: rendered.vary().to_owned(),
        }
    }

    /// The headers of a request that can name its version, by name.
    fn version_headers<'h>(
        &'h self,
        headers: &'h HeaderMap,
    ) -> impl Iterator<Item = (&'h HeaderName, &'h HeaderValue)> {
        std::iter::once(&self.standard)
            .chain(&self.legacy)
            .flat_map(move |name| headers.get_all(name).iter().map(move |value| (name, value)))
    }

    /// The 400 or 406 of a version that did not negotiate.
    fn refusal(&self, err: &NegotiationError) -> Response {
        let service = self.api.service_type();
        let (code, detail) = (qualified_code(err.code(), Some(service)), err.to_string());
        let problem = Problem {
            status: err.status(),
            code: &code,
            title: err.title(),
            detail: &detail,
            min_version: Some(err.min()),
            max_version: Some(err.max()),
            ..Problem::default()
        };
        let body = self.format.render_problem(&problem, Some(service)).to_string();
        let mut res = Response::new(Body::from(body));
        *res.status_mut() = StatusCode::from_u16(err.status()).unwrap_or(StatusCode::BAD_REQUEST);
        let headers = res.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
        for (name, version) in [(MIN_VERSION_HEADER, err.min()), (MAX_VERSION_HEADER, err.max())] {
            if let (Ok(name), Ok(value)) =
                (HeaderName::try_from(name), HeaderValue::try_from(version.to_string()))
            {
                headers.insert(name, value);
            }
        }
        // A cache matches `Vary` on header values, not on versions: a stored
        // 400/406 could answer a request that negotiates fine.
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        self.stamp(headers, None);
        res
    }

    /// The version headers of `version`, its deprecation's, and `Vary`.
    fn stamp(&self, headers: &mut HeaderMap, version: Option<Version>) {
        if let Some(i) = version.and_then(|v| self.api.position(v)) {
            let (standard, bare) = &self.values[i];
            headers.insert(self.standard.clone(), standard.clone());
            for name in &self.legacy {
                headers.insert(name.clone(), bare.clone());
            }
            for (name, value) in &self.deprecation[i] {
                if appends_to_handlers(name.as_str()) {
                    headers.append(name.clone(), value.clone());
                } else {
                    headers.insert(name.clone(), value.clone());
                }
            }
        }
        self.add_vary(headers);
    }

    /// Names the version headers in `Vary`, keeping what is there.
    fn add_vary(&self, headers: &mut HeaderMap) {
        match vary_update(headers.get_all(header::VARY).iter().map(|v| v.to_str().ok()), &self.vary_text) {
            VaryUpdate::Insert => {
                headers.insert(header::VARY, self.vary.clone());
            }
            VaryUpdate::Replace(merged) => {
                if let Ok(value) = HeaderValue::from_str(&merged) {
                    headers.insert(header::VARY, value);
                }
            }
            // An opaque existing value is kept; ours is added as another line.
            VaryUpdate::Append => {
                headers.append(header::VARY, self.vary.clone());
            }
        }
    }
}

/// The version a negotiated request carries in its extensions.
pub(crate) fn negotiated(extensions: &http::Extensions) -> Option<Negotiated> {
    extensions.get::<Negotiated>().copied()
}
