//! The settings of an API's version negotiation (docs/reference.md §2, §3,
//! §3.6, §13.4): [`Negotiation`], and the [`ClientDefault`] hook that
//! chooses the version of a request naming none. Written once for every
//! facade, over the facade's header wire; a facade makes them its
//! framework's middleware (actix's `VersionNegotiation`, axum's layer of
//! the same name), which the orphan rule lets only the facade do.

use std::fmt;
use std::future::Future;
use std::sync::Arc;

use crate::error::{ApiError, ApiSigErrors, ErrorRenderer, ErrorRequest};
use crate::protocol::exchange::Exchange;
use crate::protocol::headers::read_header_names;
use crate::protocol::stamp::{AnswerWire, HeaderWire};
use crate::{
    Api, ErrorFormat, Negotiated, NegotiationError, Version, VersionCap, lifecycle::RetireError,
    version::CapError,
};

/// What a [`ClientDefault`] answers: the client's version, `None` for the
/// API's default, or the error the request is answered with, in the API's
/// format (a store that cannot be read is a 503, not a silent change of
/// version).
pub type ClientChoice = Result<Option<Version>, ApiError>;

/// A header wire whose facade runs [`ClientDefault`] hooks: the boxed
/// future a hook's answer is awaited as. Actix's is not `Send` (its
/// requests stay on their worker); those of facades whose servers move
/// requests between threads (axum, hyper) are.
pub trait ChoiceWire: HeaderWire {
    /// The future of a hook's [`ClientChoice`].
    type Choice: Future<Output = ClientChoice> + 'static;
}

/// How a facade boxes the future `Fut` of a hook as its
/// [`ChoiceWire::Choice`]: implemented for every future the facade can
/// run (on axum, only `Send` ones), which is what [`ClientDefault::new`]
/// accepts.
pub trait BoxChoice<Fut>: ChoiceWire {
    /// `future`, boxed.
    fn boxed(future: Fut) -> Self::Choice;
}

/// The hook that chooses the version of a request naming none, from the
/// request headers it names (a token, an account), as Stripe pins each
/// account to a version (docs/reference.md §3.6). Given to
/// [`Negotiation::with_client_default`] it is asked for every such
/// request; given to [`DiscoverySettings::with_client_default`](crate::discovery::DiscoverySettings::with_client_default) the
/// version documents show the asking client its version
/// (`client_version`). Every answer of either names the headers read in
/// `Vary`, so that a shared cache keeps one client's answer from another.
///
/// The chosen version is served within what the API serves at the time
/// ([`Api::negotiate_pinned`]); requests that name a version are never
/// affected. Each facade names it over its headers
/// (`microversion_actix::middleware::ClientDefault`, axum's the same).
///
/// ```
/// use microversion_core::{Version, exchange::ClientDefault, header::HttpWire};
///
/// let pins = ClientDefault::<HttpWire>::new(&["X-Account"], |headers| {
///     let pinned = headers.get("X-Account").is_some_and(|v| v == "old-account");
///     async move { Ok(pinned.then(|| Version::lit("2.1"))) }
/// });
/// assert_eq!(pins.vary(), "X-Account");
/// ```
pub struct ClientDefault<W: ChoiceWire> {
    reads: Vec<W::Name>,
    vary: String,
    choose: Hook<W>,
}

/// A hook as [`ClientDefault`] keeps it: shared by every clone, its future
/// boxed as the facade runs it.
type Hook<W> = Arc<dyn Fn(&<W as HeaderWire>::Map) -> <W as ChoiceWire>::Choice + Send + Sync>;

impl<W: ChoiceWire> Clone for ClientDefault<W> {
    fn clone(&self) -> ClientDefault<W> {
        ClientDefault { reads: self.reads.clone(), vary: self.vary.clone(), choose: Arc::clone(&self.choose) }
    }
}

impl<W: ChoiceWire> fmt::Debug for ClientDefault<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientDefault").field("reads", &self.vary).finish_non_exhaustive()
    }
}

impl<W: ChoiceWire> ClientDefault<W> {
    /// A hook reading the request headers `names`, given the request's
    /// headers (the same closure serves on every facade). `choose` runs on
    /// the worker that serves the request; the future it returns may wait
    /// on I/O (a database) and must not keep the headers.
    ///
    /// # Panics
    ///
    /// If one of `names` is not a valid header name (it could not be named
    /// in `Vary`): a mistake in the deployment, found at start-up.
    pub fn new<F, Fut>(names: &[&'static str], choose: F) -> ClientDefault<W>
    where
        F: Fn(&W::Map) -> Fut + Send + Sync + 'static,
        W: BoxChoice<Fut>,
        for<'a> W::Name: TryFrom<&'a str>,
    {
        let reads = read_header_names("ClientDefault", names);
        let vary = names.join(", ");
        let choose = Arc::new(move |headers: &W::Map| W::boxed(choose(headers)));
        ClientDefault { reads, vary, choose }
    }

    /// The request headers the hook reads.
    pub fn reads(&self) -> &[W::Name] {
        &self.reads
    }

    /// The names of [`ClientDefault::reads`] as a `Vary` value.
    pub fn vary(&self) -> &str {
        &self.vary
    }

    /// Asks the hook for the version of a request with `headers`.
    pub fn choose(&self, headers: &W::Map) -> W::Choice {
        (self.choose)(headers)
    }
}

/// The version negotiation of one API, the same on every facade
/// (docs/reference.md §2, §3); a facade's `VersionNegotiation` serves it,
/// made with `VersionNegotiation::new(negotiation)` (or from the [`Api`]
/// alone, these defaults):
///
/// - a malformed version answers **400** and an unserved one **406**, in
///   the API's error format (API-SIG errors unless
///   [`Negotiation::with_error_format`] says otherwise); both bodies name
///   the served minimum and maximum, and both carry them in the
///   minimum/maximum headers, so a client that sent garbage learns the
///   range as well as one that asked too high. Both carry `Vary` and
///   `Cache-Control: no-store` but no version headers (no version was
///   negotiated): a shared cache compares header values, not versions, and
///   one that takes an empty legacy header for an absent one (nginx does)
///   would otherwise answer later requests with a stored 400;
/// - otherwise the negotiated version ([`Negotiated`](crate::Negotiated))
///   goes into the request's extensions (read it with
///   [`ApiVersion`](crate::portable::ApiVersion)) and the wrapped routes
///   answer; a [`ClientDefault`] may choose the version of a request that
///   names none;
/// - every answer of its routes gains `OpenStack-API-Version: <service>
///   <version>`, each legacy header with `<version>`, and `Vary` naming
///   them (appended to a `Vary` the handler set): handler errors, the
///   router's 404 and 405, 500s alike;
/// - every error of its routes is in the API's format: an [`ApiError`]
///   with the service type in its code, and an error answer without a body
///   of its own (the router's 404 and 405, a handler's bare status) as a
///   JSON error of the same status, its other headers (`Allow`) kept. A 5xx
///   that is not an `ApiError` shows a generic message; its cause is
///   logged.
///
/// A version declared deprecated ([`Api::with_deprecation`]) is answered
/// with `Deprecation`, `Sunset` and `Link` headers (§13.2). The served
/// maximum is read per request from a [`VersionCap`] that can change while
/// serving ([`Negotiation::with_version_cap`], §13.4). With the `metrics`
/// feature, every request is counted through the
/// [`metrics`](https://docs.rs/metrics) facade as
/// `microversion_requests_total{service, version, chosen_by, outcome}`
/// (§13.5); with the `tracing` feature, each request runs in a
/// `microversion` span whose `api_version` field is the negotiated version.
///
/// Wrap the API's routes, not discovery, which ignores version headers.
/// Every header value is rendered once, when the facade's service is built
/// ([`Negotiation::exchange`]).
///
/// ```
/// use microversion_core::{Api, Microversion, Version, error::NovaFaults};
/// use microversion_core::{exchange::Negotiation, header::HttpWire};
///
/// const API: Api = Api::new("compute", &[
///     Microversion::new("2.1", "Initial version."),
///     Microversion::new("2.2", "Keypairs gain a type."),
/// ]);
///
/// let negotiation: Negotiation<HttpWire> = Negotiation::new(API)
///     .with_error_format(NovaFaults::default())
///     .capped_at(Version::lit("2.1"))
///     .expect("2.1 is declared");
/// assert_eq!(negotiation.api().max(), Version::lit("2.1"));
/// ```
pub struct Negotiation<W: ChoiceWire> {
    /// The declaration served (its cap, its retirement).
    api: Api,
    /// The served maximum, read per request.
    cap: VersionCap,
    format: Arc<dyn ErrorFormat>,
    /// The names of the served range's headers, when not the standard ones.
    min_max: Option<(W::Name, W::Name)>,
    client_default: Option<ClientDefault<W>>,
    /// How an existing service's answers differ (Placement's).
    lowercase_vary: bool,
    refusals_no_store: bool,
    absolute_locations: bool,
    /// The headers naming each answer's request id (§3.8), if any.
    request_ids: &'static [&'static str],
}

impl<W: ChoiceWire> Clone for Negotiation<W> {
    fn clone(&self) -> Negotiation<W> {
        Negotiation {
            api: self.api,
            cap: self.cap.clone(),
            format: Arc::clone(&self.format),
            min_max: self.min_max.clone(),
            client_default: self.client_default.clone(),
            lowercase_vary: self.lowercase_vary,
            refusals_no_store: self.refusals_no_store,
            absolute_locations: self.absolute_locations,
            request_ids: self.request_ids,
        }
    }
}

impl<W: ChoiceWire> fmt::Debug for Negotiation<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let min_max = self.min_max.as_ref().map(|(min, max)| {
            (
                String::from_utf8_lossy(min.as_ref()).into_owned(),
                String::from_utf8_lossy(max.as_ref()).into_owned(),
            )
        });
        f.debug_struct("Negotiation")
            .field("api", &self.api.service_type())
            .field("cap", &self.cap.get())
            .field("min_max", &min_max)
            .field("client_default", &self.client_default)
            .finish_non_exhaustive()
    }
}

/// The negotiation of an API with every default: what
/// `VersionNegotiation::new(API)` serves.
impl<W: ChoiceWire> From<Api> for Negotiation<W> {
    fn from(api: Api) -> Negotiation<W> {
        Negotiation::new(api)
    }
}

impl<W: ChoiceWire> Negotiation<W> {
    /// The negotiation of `api`, with API-SIG error bodies and the standard
    /// minimum/maximum header names; a deployer cap set with
    /// [`Api::capped_at`] is honoured.
    pub fn new(api: Api) -> Negotiation<W> {
        Negotiation {
            api,
            cap: VersionCap::new(&api),
            format: Arc::new(ApiSigErrors),
            min_max: None,
            client_default: None,
            lowercase_vary: false,
            refusals_no_store: true,
            absolute_locations: false,
            request_ids: &[],
        }
    }

    /// Asks `client_default` for the version of each request that names
    /// none (docs/reference.md §3.6): a version pinned to the client's
    /// token or account instead of the API's default. Every answer names
    /// the headers it reads in `Vary`; metrics count its requests under
    /// `chosen_by="client"`.
    #[must_use]
    pub fn with_client_default(mut self, client_default: ClientDefault<W>) -> Negotiation<W> {
        self.client_default = Some(client_default);
        self
    }

    /// Renders errors with `format` instead of the API-SIG errors format
    /// ([`NovaFaults`](crate::error::NovaFaults) for Nova's faults).
    #[must_use]
    pub fn with_error_format(mut self, format: impl ErrorFormat) -> Negotiation<W> {
        self.format = Arc::new(format);
        self
    }

    /// Names the headers that carry the served minimum and maximum on 400
    /// and 406 (Ironic uses `X-OpenStack-Ironic-API-Minimum-Version`, ...).
    #[must_use]
    pub fn with_min_max_headers(mut self, min: W::Name, max: W::Name) -> Negotiation<W> {
        self.min_max = Some((min, max));
        self
    }

    /// Lowers the served maximum (see [`Api::capped_at`]); a fixed cap,
    /// with a handle of its own. Use [`Negotiation::with_version_cap`] for
    /// one that changes while serving.
    pub fn capped_at(mut self, cap: Version) -> Result<Negotiation<W>, CapError> {
        self.api = self.api.capped_at(cap)?;
        self.cap = VersionCap::new(&self.api);
        Ok(self)
    }

    /// Retires the versions below `below` (see [`Api::retire_below`]): they
    /// answer 406 naming their sunset; the cap handle starts anew. Give
    /// discovery the same declaration, or share
    /// [`Negotiation::version_cap`].
    pub fn retire_below(mut self, below: Version) -> Result<Negotiation<W>, RetireError> {
        self.api = self.api.retire_below(below)?;
        self.cap = VersionCap::new(&self.api);
        Ok(self)
    }

    /// Reads the served maximum from `cap`, a handle shared with a
    /// [`DiscoverySettings::with_version_cap`](crate::discovery::DiscoverySettings::with_version_cap) and changed while serving
    /// (docs/reference.md §13.4); its declaration
    /// ([`VersionCap::declaration`]) is the one served.
    #[must_use]
    pub fn with_version_cap(mut self, cap: VersionCap) -> Negotiation<W> {
        self.api = *cap.declaration();
        self.cap = cap;
        self
    }

    /// Names the version headers in `Vary` in lower case
    /// (`Vary: openstack-api-version`), as microversion-parse's WSGI
    /// middleware does: for a service that answers byte for byte as an
    /// existing one (OpenStack Placement). Header names are compared
    /// without regard to case, so a cache reads both alike.
    #[must_use]
    pub fn with_lowercase_vary(mut self) -> Negotiation<W> {
        self.lowercase_vary = true;
        self
    }

    /// Answers a refusal (400, 406) without `Cache-Control: no-store`, as
    /// microversion-parse's middleware does: for a service that answers
    /// byte for byte as an existing one (OpenStack Placement). A shared
    /// cache may then keep a refusal and answer it to a request that
    /// negotiates (docs/reference.md §3): put no shared cache before such a
    /// service, or one that keeps no 4xx.
    #[must_use]
    pub fn without_no_store_on_refusals(mut self) -> Negotiation<W> {
        self.refusals_no_store = false;
        self
    }

    /// Names a request id in `names` on every answer of these routes, the
    /// negotiation's refusals included, as OpenStack services do (oslo's
    /// `RequestId` middleware; Nova's `X-OpenStack-Request-Id` and
    /// `X-Compute-Request-Id`): the id an error answer carries
    /// ([`ApiError::with_request_id`], the one its failure was logged
    /// under), else the one the answer names already in the first of
    /// `names`, else a new `req-` and a random UUID. An error document
    /// rendered here names the same id (API-SIG's `request_id`;
    /// docs/reference.md §3.8).
    ///
    /// ```
    /// use microversion_core::{Api, Microversion, exchange::Negotiation, header::HttpWire};
    ///
    /// const API: Api = Api::new("compute", &[Microversion::new("2.1", "a")]);
    /// let nova = Negotiation::<HttpWire>::new(API)
    ///     .with_request_ids(&["X-OpenStack-Request-Id", "X-Compute-Request-Id"]);
    /// # drop(nova);
    /// ```
    ///
    /// # Panics
    ///
    /// If one of `names` is not a header name: a mistake in the service,
    /// found when it starts.
    #[must_use]
    pub fn with_request_ids(mut self, names: &'static [&'static str]) -> Negotiation<W> {
        read_header_names::<http::HeaderName>("with_request_ids", names);
        self.request_ids = names;
        self
    }

    /// Makes a `Location` its routes answer with as a path
    /// (`/resource_providers/…`) absolute, under the request's link base
    /// (the scheme and host discovery's links are built from, §7.1), as
    /// webob does: for a service that answers byte for byte as a WSGI one
    /// (OpenStack Placement). Clients resolve a path against the request's
    /// URL, so either form reaches the same resource.
    #[must_use]
    pub fn with_absolute_locations(mut self) -> Negotiation<W> {
        self.absolute_locations = true;
        self
    }

    /// The handle of the served maximum, to share or to change.
    pub fn version_cap(&self) -> &VersionCap {
        &self.cap
    }

    /// The declaration served, with the cap in force now.
    pub fn api(&self) -> Api {
        self.cap.api()
    }

    /// The hook choosing the version of a request naming none, if any.
    pub fn client_default(&self) -> Option<&ClientDefault<W>> {
        self.client_default.as_ref()
    }

    /// How the errors of these routes are rendered; use it for errors of
    /// the API answered outside them (a service-wide default 404).
    pub fn error_renderer(&self) -> ErrorRenderer<W> {
        let renderer = ErrorRenderer::shared(Arc::clone(&self.format)).with_service(self.api.service_type());
        match &self.min_max {
            Some((min, max)) => renderer.with_min_max_headers(min.clone(), max.clone()),
            None => renderer,
        }
    }

    /// Everything a facade's service runs these settings by, built once
    /// when the service is: the [`Exchange`], the error renderer and the
    /// client default.
    pub fn engine(&self) -> Engine<W> {
        Engine {
            exchange: self.exchange(),
            errors: self.error_renderer(),
            client_default: self.client_default.clone(),
        }
    }

    /// The contract of one request and its answer under these settings,
    /// every header value rendered now.
    pub fn exchange(&self) -> Exchange<W> {
        let exchange = Exchange::new(self.cap.clone(), self.client_default.as_ref().map(ClientDefault::vary));
        let exchange = if self.lowercase_vary { exchange.with_lowercase_vary() } else { exchange };
        let exchange = if self.absolute_locations { exchange.with_absolute_locations() } else { exchange };
        let exchange = exchange.with_request_ids(self.request_ids);
        if self.refusals_no_store { exchange } else { exchange.without_no_store_on_refusals() }
    }
}

/// A [`Negotiation`] built for serving ([`Negotiation::engine`]): what a
/// facade's middleware holds, shared by every request it answers. The
/// facade drives the exchange's steps, renders the errors it is handed
/// with `errors`, and asks `client_default` when the exchange says to.
pub struct Engine<W: ChoiceWire> {
    /// The steps of a request and its answer.
    pub exchange: Exchange<W>,
    /// How the API's errors are rendered, refusals included.
    pub errors: ErrorRenderer<W>,
    /// The hook choosing the version of a request naming none, if any.
    pub client_default: Option<ClientDefault<W>>,
}

impl<W: ChoiceWire> Engine<W> {
    /// What the error format reads of a request (`method`, `headers`), to
    /// be kept until its answer is finished: `None`, reading nothing,
    /// unless the format reads requests ([`ErrorFormat::reads_request`]).
    pub fn error_request(&self, method: &str, headers: &W::Map) -> Option<ErrorRequest> {
        self.errors.reads_request().then(|| ErrorRequest::read::<W>(method, headers))
    }

    /// Writes `error`, answering a request served at `version` (none for a
    /// refused one), into an answer whose headers are `headers`: its
    /// request id named (`Exchange::identify_error`), its headers made an
    /// error's, and its body returned, in the API's format. What every
    /// facade does to an error answer of its routes.
    pub fn write_error(
        &self,
        headers: &mut W::Map,
        error: ApiError,
        version: Option<Version>,
        request: Option<&ErrorRequest>,
    ) -> String {
        let error = self.exchange.identify_error(headers, error);
        self.errors.write_for(&error, version, request, headers)
    }
}

impl<W: ChoiceWire + AnswerWire> Engine<W> {
    /// The answer to `error` before a version was served (a refusal's, a
    /// client default's), rendered in the API's format for `request` with
    /// its request id when the API names one: its headers then are the
    /// exchange's to finish.
    pub fn error_answer(&self, error: ApiError, request: Option<&ErrorRequest>) -> W::Answer {
        let error = match (error.request_id(), self.exchange.new_request_id()) {
            (None, Some(id)) => error.with_request_id(id),
            _ => error,
        };
        let mut answer = self.errors.render_for(&error, None, request);
        self.exchange.identify(W::headers(&mut answer), error.request_id());
        answer
    }

    /// The version a client default chose for a request that named none
    /// (`asked`, the API's default), or, when the hook failed, its error's
    /// answer rendered for `request`, finished and counted as the request
    /// stood: what every facade does once a client default's choice is in.
    pub fn chosen(
        &self,
        asked: Negotiated,
        choice: ClientChoice,
        request: Option<&ErrorRequest>,
    ) -> Result<Negotiated, W::Answer> {
        match choice {
            Ok(pinned) => Ok(self.exchange.chosen(asked, pinned)),
            Err(error) => {
                let status = error.status().as_u16();
                let mut answer = self.error_answer(error, request);
                self.exchange.finish(W::headers(&mut answer), None);
                self.exchange.count(&asked, status);
                Err(answer)
            }
        }
    }

    /// The 400 or 406 of a version that did not negotiate, rendered for
    /// `request` and finished: what every facade answers a refused request.
    pub fn refusal(&self, refusal: NegotiationError, request: Option<&ErrorRequest>) -> W::Answer {
        let mut answer = self.error_answer(ApiError::from(refusal), request);
        self.exchange.refuse(W::headers(&mut answer));
        answer
    }
}

impl<W: ChoiceWire> fmt::Debug for Engine<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Engine").field("exchange", &self.exchange).finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::header::HttpWire;
    use crate::{Microversion, NegotiationError};

    const API: Api = Api::new("compute", &[Microversion::new("2.1", "a"), Microversion::new("2.2", "b")]);
    const NOVA_IDS: &[&str] = &["X-OpenStack-Request-Id", "X-Compute-Request-Id"];

    fn named(headers: &http::HeaderMap) -> Vec<&str> {
        ["x-openstack-request-id", "x-compute-request-id"]
            .into_iter()
            .filter_map(|name| headers.get(name)?.to_str().ok())
            .collect()
    }

    fn is_new_id(id: &str) -> bool {
        id.strip_prefix("req-").and_then(|uuid| uuid::Uuid::parse_str(uuid).ok()).is_some()
    }

    #[test]
    fn every_answer_names_one_request_id_in_each_header() {
        let engine = Negotiation::<HttpWire>::new(API).with_request_ids(NOVA_IDS).engine();
        let mut served = http::HeaderMap::new();
        engine.exchange.finish(&mut served, Some(Version::lit("2.2")));
        let ids = named(&served);
        assert!(ids.len() == 2 && ids[0] == ids[1] && is_new_id(ids[0]), "{ids:?}");

        let mut other = http::HeaderMap::new();
        engine.exchange.finish(&mut other, Some(Version::lit("2.2")));
        assert_ne!(named(&other)[0], ids[0], "a new id for each answer");

        // A handler's own id is kept, and named in the second header too.
        let mut own = http::HeaderMap::new();
        own.insert("x-openstack-request-id", "req-handler".parse().unwrap());
        engine.exchange.finish(&mut own, Some(Version::lit("2.1")));
        assert_eq!(named(&own), ["req-handler", "req-handler"]);

        let mut none = http::HeaderMap::new();
        Negotiation::<HttpWire>::new(API).engine().exchange.finish(&mut none, None);
        assert!(named(&none).is_empty(), "no ids unless declared");
    }

    #[test]
    fn an_error_names_its_own_id_else_the_answers_in_its_document_and_its_headers() {
        let engine = Negotiation::<HttpWire>::new(API).with_request_ids(NOVA_IDS).engine();
        let logged = ApiError::internal("The store failed.").with_request_id("req-logged");
        let mut headers = http::HeaderMap::new();
        let error = engine.exchange.identify_error(&mut headers, logged);
        assert_eq!((error.request_id(), named(&headers)), (Some("req-logged"), vec!["req-logged"; 2]));

        let mut headers = http::HeaderMap::new();
        let error = engine.exchange.identify_error(&mut headers, ApiError::conflict("Locked."));
        let body: serde_json::Value =
            serde_json::from_str(&engine.errors.write(&error, &mut headers)).unwrap();
        let id = named(&headers)[0].to_owned();
        assert!(is_new_id(&id));
        assert_eq!(body["errors"][0]["request_id"], id.as_str());
    }

    #[test]
    fn a_refusal_names_the_same_id_in_its_document_as_in_its_headers() {
        let engine = Negotiation::<HttpWire>::new(API).with_request_ids(NOVA_IDS).engine();
        let refused = NegotiationError::NotAcceptable {
            requested: Version::lit("2.9"),
            min: API.min(),
            max: API.max(),
        };
        let answer = engine.refusal(refused, None);
        let body: serde_json::Value = serde_json::from_slice(answer.body()).unwrap();
        let ids = named(answer.headers());
        assert!(ids.len() == 2 && ids[0] == ids[1] && is_new_id(ids[0]), "{ids:?}");
        assert_eq!((answer.status().as_u16(), body["errors"][0]["request_id"].as_str()), (406, Some(ids[0])));
        assert_eq!(answer.headers()["cache-control"], "no-store");
    }

    #[test]
    fn a_client_defaults_choice_is_the_version_and_its_error_an_answer_finished() {
        let engine = Negotiation::<HttpWire>::new(API)
            .with_request_ids(NOVA_IDS)
            .with_client_default(ClientDefault::new(&["X-Account"], |_| async { Ok(None) }))
            .engine();
        let asked = API.negotiate([("X-Account", "a")]).expect("the default");
        let pinned = engine.chosen(asked, Ok(Some(Version::lit("2.1"))), None).expect("a version");
        assert_eq!(pinned.version, Version::lit("2.1"));
        assert_eq!(engine.chosen(asked, Ok(None), None).expect("the default").version, asked.version);

        let failed = ApiError::new(503u16, "accounts-down", "Unavailable", "The account store is down.");
        let Err(answer) = engine.chosen(asked, Err(failed), None) else { panic!("an error is answered") };
        let body: serde_json::Value = serde_json::from_slice(answer.body()).unwrap();
        let ids = named(answer.headers());
        assert_eq!((answer.status().as_u16(), body["errors"][0]["request_id"].as_str()), (503, Some(ids[0])));
        assert!(!answer.headers().contains_key("openstack-api-version"), "no version was served");
        assert_eq!(answer.headers()["vary"], "OpenStack-API-Version, X-Account", "the hook's header too");
        assert_eq!(Negotiation::<HttpWire>::new(API).engine().error_request("GET", answer.headers()), None);
    }

    #[test]
    #[should_panic(expected = "with_request_ids: \"X Request\" is not a header name")]
    fn a_request_id_header_must_be_a_header_name() {
        let _ = Negotiation::<HttpWire>::new(API).with_request_ids(&["X Request"]);
    }
}
