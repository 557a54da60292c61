//! A facade for plain hyper 1 (`service_fn` on a `LocalSet`), written
//! against the core's public API alone: what docs/21-writing-a-facade.md
//! walks through. It serves any `#[controller]` the way the shipped facades
//! do: negotiation and refusals, the controller's routes with their 404s
//! and 405s, errors in the API's format, the version headers on every
//! answer, and the check of answers against their declarations.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::rc::Rc;
use std::sync::Arc;

use bytes::Bytes;
use http::request::Parts;
use http::{HeaderMap, HeaderValue, Request, StatusCode, header};
use http_body_util::combinators::UnsyncBoxBody;
use http_body_util::{BodyExt as _, Full, Limited};
use microversion_core::Version;
use microversion_core::body::{
    BodyLimit, BodyRefusal, BodyTimeout, check_content_type, check_declared_length,
};
use microversion_core::discovery::{PublicUrl, RequestOrigin};
use microversion_core::error::{ErrorRequest, method_not_allowed_detail};
use microversion_core::exchange::{Admission, Engine, ErrorBody, Negotiation, unformatted_error};
use microversion_core::header::{HeaderWire, HttpWire};
use microversion_core::operation::{
    AllowedMethods, Facade, ReadAlready, ResponseDescription, RouteInput, RoutedPath, Routes,
    with_path_params,
};
use microversion_core::portable::{ApiError, LinkRoot};
use microversion_core::schema::ResponseValidation;

/// A request body, as the server hands it over (a connection's stream, or
/// bytes in a test).
pub(crate) type Body = UnsyncBoxBody<Bytes, Box<dyn std::error::Error + Send + Sync>>;

/// An answer: the whole body, as controllers' answers are JSON documents.
pub(crate) type Response = http::Response<Bytes>;

/// The facade's marker: the core serves a controller's routes through it.
#[derive(Debug)]
pub(crate) enum Hyper {}

/// The route parameters of a matched path, in the request's extensions.
#[derive(Clone, Debug)]
struct Matched(Vec<(String, String)>);

impl Facade for Hyper {
    type Request = Parts;
    type Body = Body;
    type Bytes = Bytes;
    type Response = Response;
    type Wire = HttpWire;

    fn query(request: &Parts) -> &str {
        request.uri.query().unwrap_or_default()
    }

    fn path_params<R>(request: &mut Parts, read: impl FnOnce(&[(&str, &str)]) -> R) -> R {
        let params = request.extensions.get::<Matched>().map(|m| m.0.as_slice()).unwrap_or_default();
        with_path_params(params.iter().map(|(name, value)| (name.as_str(), value.as_str())), read)
    }

    fn headers(request: &Parts) -> &<Self::Wire as microversion_core::header::HeaderWire>::Map {
        &request.headers
    }

    fn link_root(request: &Parts) -> LinkRoot {
        static FROM_REQUEST: PublicUrl = PublicUrl::from_request();
        let first = |name: &str| request.headers.get(name).and_then(|v| v.to_str().ok());
        LinkRoot::new(FROM_REQUEST.base(&RequestOrigin {
            peer: request.extensions.get::<SocketAddr>().map(SocketAddr::ip),
            secure: false,
            host: first("host"),
            configured_host: "localhost",
            forwarded: first("forwarded"),
            forwarded_host: first("x-forwarded-host"),
            forwarded_proto: first("x-forwarded-proto"),
        }))
    }

    async fn read_body(request: &Parts, body: Body) -> Result<Bytes, ApiError> {
        let (BodyLimit(limit), BodyTimeout(timeout)) = (BodyLimit::default(), BodyTimeout::default());
        check_content_type(request.headers.get(header::CONTENT_TYPE).map(HeaderValue::as_bytes))?;
        check_declared_length(request.headers.get(header::CONTENT_LENGTH).map(HeaderValue::as_bytes), limit)?;
        match tokio::time::timeout(timeout, Limited::new(body, limit).collect()).await {
            Err(_) => Err(BodyRefusal::TimedOut { timeout }.into()),
            Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => {
                Err(BodyRefusal::TooLarge { limit }.into())
            }
            Ok(Err(e)) => Err(BodyRefusal::Unreadable(e.to_string()).into()),
            Ok(Ok(collected)) => Ok(collected.to_bytes()),
        }
    }

    fn body_from(bytes: Bytes) -> Body {
        Full::new(bytes).map_err(|never: Infallible| match never {}).boxed_unsync()
    }

    // No body or query reader of its own: the core's take what it read.
    fn keep(_: &mut Parts, _: ReadAlready) {}

    fn json(status: StatusCode, body: Vec<u8>) -> Response {
        let mut response = answer(status, Bytes::from(body));
        response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
        response
    }

    fn empty(status: StatusCode) -> Response {
        answer(status, Bytes::new())
    }

    // The negotiation renders it in the API's format ([`Served::finish`]).
    fn error(error: ApiError) -> Response {
        let mut response = answer(error.status(), Bytes::new());
        response.extensions_mut().insert(error);
        response
    }

    fn headers_mut(response: &mut Response) -> &mut HeaderMap {
        response.headers_mut()
    }

    async fn check_response(
        request: &Parts,
        version: Version,
        declared: &'static ResponseDescription,
        response: Response,
    ) -> Response {
        let mode = request.extensions.get::<ResponseValidation>().copied().unwrap_or_default();
        if !mode.checks(response.status().as_u16()) {
            return response;
        }
        let answer = (response.status().as_u16(), &response.body()[..]);
        let verdict = mode.judge((request.method.as_str(), request.uri.path()), answer, version, declared);
        match verdict.refusal(|warning| eprintln!("{warning}")) {
            Some(detail) => Hyper::error(ApiError::internal(detail)),
            None => response,
        }
    }
}

fn answer(status: StatusCode, body: Bytes) -> Response {
    let mut response = http::Response::new(body);
    *response.status_mut() = status;
    response
}

/// One controller, served at the versions of one API: its routes by path,
/// the contract's steps, and how the API writes its errors.
pub(crate) struct Served<C> {
    controller: Arc<C>,
    paths: Vec<(Vec<Segment>, RoutedPath, AllowedMethods)>,
    engine: Engine<HttpWire>,
    settings: http::Extensions,
}

/// One segment of a route's path: text, or a parameter (`{id}`).
enum Segment {
    Text(&'static str),
    Param(&'static str),
}

impl<C: microversion_core::Controller + 'static> Served<C> {
    /// `controller`'s routes, negotiated by the core's `negotiation`
    /// settings (an `Api` for the defaults: API-SIG errors).
    pub(crate) fn new(negotiation: impl Into<Negotiation<HttpWire>>, controller: C) -> Served<C> {
        let negotiation = negotiation.into();
        C::check_schemas_at_startup();
        let paths = RoutedPath::of(C::OPERATIONS).into_iter().map(|routed| {
            let segments = routed.path.split('/').filter(|s| !s.is_empty()).map(|segment| {
                match segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                    Some(name) => Segment::Param(name),
                    None => Segment::Text(segment),
                }
            });
            let allowed = AllowedMethods::for_path(C::OPERATIONS, routed.path);
            (segments.collect(), routed, allowed)
        });
        Served {
            controller: Arc::new(controller),
            paths: paths.collect(),
            engine: negotiation.engine(),
            settings: http::Extensions::new(),
        }
    }

    /// A setting every request carries (`ResponseValidation`, a `PublicUrl`).
    pub(crate) fn with_setting<T: Clone + Send + Sync + 'static>(mut self, setting: T) -> Served<C> {
        self.settings.insert(setting);
        self
    }

    /// The answer to `request`: refused, or served at the version it
    /// negotiated; then finished and stamped.
    pub(crate) async fn answer<M>(&self, mut request: Request<Body>) -> http::Response<Full<Bytes>>
    where
        C: Routes<Hyper, M>,
    {
        let facts = self.engine.error_request(request.method().as_str(), request.headers());
        let negotiated = match self.engine.exchange.admit_request(&mut request) {
            Admission::Serve(negotiated) | Admission::AskClient(negotiated) => negotiated,
            Admission::Refuse(refusal) => {
                let mut response =
                    self.rendered(Hyper::error(ApiError::from(*refusal)), None, facts.as_ref());
                self.engine.exchange.refuse(response.headers_mut());
                return response.map(Full::new);
            }
        };
        let (mut parts, body) = request.into_parts();
        parts.extensions.extend(self.settings.clone());
        let response = match self.route(&parts) {
            Route::Operation(index, params) => {
                parts.extensions.insert(Matched(params));
                let input = RouteInput::new(parts, body, negotiated);
                C::route(Arc::clone(&self.controller), index, input).await
            }
            Route::OtherMethod(allowed) => {
                let detail = method_not_allowed_detail(parts.method.as_str());
                let mut response =
                    Hyper::error(ApiError::from_status(StatusCode::METHOD_NOT_ALLOWED, detail));
                // An empty `Allow` is valid: nothing is served here at this version.
                if let Ok(allow) = HeaderValue::from_str(&allowed.at(Some(negotiated.version))) {
                    response.headers_mut().insert(header::ALLOW, allow);
                }
                response
            }
            Route::Nowhere => Hyper::error(ApiError::not_found("The resource could not be found.")),
        };
        let mut response = self.rendered(response, Some(negotiated.version), facts.as_ref());
        self.engine.exchange.finish(response.headers_mut(), Some(negotiated.version));
        self.engine.exchange.count(&negotiated, response.status().as_u16());
        response.map(Full::new)
    }

    /// Which operation answers `parts`, with the path's parameters.
    fn route(&self, parts: &Parts) -> Route<'_> {
        let segments: Vec<&str> = parts.uri.path().split('/').filter(|s| !s.is_empty()).collect();
        for (pattern, routed, allowed) in &self.paths {
            let Some(params) = matches(pattern, &segments) else { continue };
            return match routed.routes.iter().find(|(method, _)| *method == parts.method.as_str()) {
                Some(&(_, index)) => Route::Operation(index, params),
                None => Route::OtherMethod(allowed),
            };
        }
        Route::Nowhere
    }

    /// `response` with its error, or its status without a body of its own,
    /// written in the API's format at `version` for the request of `facts`,
    /// the headers the route set kept.
    fn rendered(
        &self,
        mut response: Response,
        version: Option<Version>,
        facts: Option<&ErrorRequest>,
    ) -> Response {
        let content_type = response.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok());
        let body = if response.body().is_empty() { ErrorBody::Empty } else { ErrorBody::Own };
        let bare = unformatted_error(response.status().as_u16(), || content_type, body)
            .map(|_| ApiError::bodiless(response.status()));
        let Some(error) = response.extensions_mut().remove::<ApiError>().or(bare) else { return response };
        *response.status_mut() = error.status();
        let document = self.engine.write_error(response.headers_mut(), error, version, facts);
        *response.body_mut() = Bytes::from(document);
        response
    }
}

/// Where a request goes.
enum Route<'a> {
    Operation(usize, Vec<(String, String)>),
    OtherMethod(&'a AllowedMethods),
    Nowhere,
}

/// The parameters of `segments` when they match `pattern`, percent-decoded.
fn matches(pattern: &[Segment], segments: &[&str]) -> Option<Vec<(String, String)>> {
    if pattern.len() != segments.len() {
        return None;
    }
    let mut params = Vec::new();
    for (expected, segment) in pattern.iter().zip(segments) {
        match expected {
            Segment::Text(text) if text == segment => {}
            Segment::Text(_) => return None,
            Segment::Param(name) => {
                let value = percent_encoding::percent_decode_str(segment).decode_utf8().ok()?;
                params.push(((*name).to_owned(), value.into_owned()));
            }
        }
    }
    Some(params)
}

/// Serves `served` over HTTP/1.1 on `listener` until the future is
/// dropped, each connection on this thread's `LocalSet` (the routes'
/// futures need not be `Send`).
pub(crate) fn serve<C, M>(served: Served<C>, listener: tokio::net::TcpListener) -> impl Future<Output = ()>
where
    C: Routes<Hyper, M> + microversion_core::Controller + 'static,
    M: 'static,
{
    let served = Rc::new(served);
    async move {
        while let Ok((stream, peer)) = listener.accept().await {
            let served = Rc::clone(&served);
            let service = hyper::service::service_fn(move |request: Request<hyper::body::Incoming>| {
                let served = Rc::clone(&served);
                async move {
                    let mut request = request.map(|body| body.map_err(Into::into).boxed_unsync());
                    request.extensions_mut().insert(peer);
                    Ok::<_, Infallible>(served.answer::<M>(request).await)
                }
            });
            let io = hyper_util::rt::TokioIo::new(stream);
            tokio::task::spawn_local(
                hyper::server::conn::http1::Builder::new().serve_connection(io, service),
            );
        }
    }
}

/// The stamps of a header the API's answers carry, as text, for tests.
pub(crate) fn header_text(headers: &HeaderMap, name: &'static str) -> Option<String> {
    let name = HttpWire::name(name)?;
    HttpWire::get_all(headers, &name).filter_map(HttpWire::text).next().map(str::to_owned)
}
