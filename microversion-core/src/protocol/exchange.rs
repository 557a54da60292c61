//! One request and its answer as the contract runs them (docs/reference.md
//! §3), for every facade and with no I/O: the steps each facade's
//! middleware takes, written once. A facade carries the request's headers
//! in and acts on the [`Admission`] ([`Exchange::admit`]): serve at a
//! version, ask the client default first, or refuse; then hands the
//! answer's headers back to be stamped ([`Exchange::finish`]), having put
//! an error answer in the API's format where [`unformatted_error`] says so.
//! The facade renders bodies and runs futures; every decision is here, and
//! is tested here with plain header lists. The settings it runs by are a
//! [`Negotiation`], which a facade's `VersionNegotiation` serves; built for
//! serving, they are an [`Engine`]: the exchange, the error renderer and
//! the client default a facade's service holds.

pub use super::negotiation::{BoxChoice, ChoiceWire, ClientChoice, ClientDefault, Engine, Negotiation};
pub use super::scope::{Scope, Scoped};

use crate::body::is_unformatted_error;
use crate::error::ApiError;
use crate::protocol::read::RequestTarget;
use crate::protocol::stamp::{HeaderWire, Stamp, header_name, set_header};
use crate::{Api, Negotiated, NegotiationError, Version, VersionCap, version::VersionSource};

/// The contract of one API over one facade's header types: its
/// declaration, the cap in force, and every header value an answer gains,
/// rendered once when the facade's service is built.
pub struct Exchange<W: HeaderWire> {
    cap: VersionCap,
    stamp: Stamp<W>,
    asks_client: bool,
    /// Whether the API reads its version from the path or the query: asked
    /// once, as every request asks it.
    reads_target: bool,
    /// Whether a refusal gains `Cache-Control: no-store` (§3).
    refusals_no_store: bool,
    /// `Location`, when a `Location` path is made absolute ([`Exchange::locate`]).
    absolute_locations: Option<W::Name>,
    /// The headers naming an answer's request id ([`Exchange::identify`]).
    request_ids: Vec<W::Name>,
}

/// A new request id as OpenStack writes one: `req-` and a random UUID.
fn new_request_id() -> String {
    format!("req-{}", uuid::Uuid::new_v4())
}

/// What the contract says of a request before any handler runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Admission {
    /// Serve it at this version.
    Serve(Negotiated),
    /// It names no version and a client default is set: ask the client
    /// default, then serve at [`Exchange::chosen`] (this is the API's
    /// default it would have otherwise).
    AskClient(Negotiated),
    /// Refuse it (400 or 406): answer this error in the API's format, with
    /// the headers of [`Exchange::refuse`]. Boxed: the admission of a
    /// request that is served stays a few bytes, moved without a copy loop.
    Refuse(Box<NegotiationError>),
}

impl<W: HeaderWire> Exchange<W> {
    /// The contract of the API `cap` serves (its declaration, and the
    /// maximum read per request), naming `client_default` in `Vary` when a
    /// client default reads those headers.
    pub fn new(cap: VersionCap, client_default: Option<&str>) -> Exchange<W> {
        let stamp = Stamp::new(*cap.declaration(), client_default);
        Exchange {
            reads_target: crate::protocol::read::reads_target(cap.declaration()),
            cap,
            stamp,
            asks_client: client_default.is_some(),
            refusals_no_store: true,
            absolute_locations: None,
            request_ids: Vec::new(),
        }
    }

    /// This contract with each answer's request id named in `names`
    /// ([`Negotiation::with_request_ids`]); none for an empty list.
    #[must_use]
    pub fn with_request_ids(mut self, names: &[&'static str]) -> Exchange<W> {
        self.request_ids = names.iter().copied().filter_map(header_name::<W>).collect();
        self
    }

    /// A new request id (`req-` and a random UUID) when the contract names
    /// one, for an error rendered before its answer has headers.
    pub fn new_request_id(&self) -> Option<String> {
        (!self.request_ids.is_empty()).then(new_request_id)
    }

    /// `error`, about to be rendered into an answer with `headers`, naming
    /// the answer's request id ([`Exchange::identify`]) in its document as
    /// in the headers; as it is when the contract names none.
    pub fn identify_error(&self, headers: &mut W::Map, error: ApiError) -> ApiError {
        match self.identify(headers, error.request_id()) {
            Some(id) if error.request_id().is_none() => error.with_request_id(id),
            _ => error,
        }
    }

    /// Names the answer's request id in each request id header: `carried`
    /// (an error's own), else the one the answer names in the first of
    /// them (a handler's, or named already), else a new one
    /// ([`Negotiation::with_request_ids`]); the id named, `None` when the
    /// contract names none.
    #[inline]
    pub fn identify(&self, headers: &mut W::Map, carried: Option<&str>) -> Option<String> {
        // Inlined: most APIs name no id, and every answer asks.
        let first = self.request_ids.first()?;
        self.name_request_id(headers, first, carried)
    }

    /// [`Exchange::identify`] of a contract that names ids, `first` the
    /// first of their headers.
    fn name_request_id(
        &self,
        headers: &mut W::Map,
        first: &W::Name,
        carried: Option<&str>,
    ) -> Option<String> {
        let named = carried.or_else(|| W::get_all(headers, first).next().and_then(W::text));
        let id = named.map_or_else(new_request_id, str::to_owned);
        let value = W::value(&id)?;
        for name in &self.request_ids {
            W::insert(headers, name, &value);
        }
        Some(id)
    }

    /// This contract with the names in `Vary` in lower case
    /// ([`Negotiation::with_lowercase_vary`](crate::exchange::Negotiation::with_lowercase_vary)).
    #[must_use]
    pub fn with_lowercase_vary(mut self) -> Exchange<W> {
        self.stamp = self.stamp.with_lowercase_vary();
        self
    }

    /// This contract with a `Location` path made absolute
    /// ([`Negotiation::with_absolute_locations`](crate::exchange::Negotiation::with_absolute_locations)).
    #[must_use]
    pub fn with_absolute_locations(mut self) -> Exchange<W> {
        self.absolute_locations = W::name("location");
        self
    }

    /// Whether a request's path or query may name its version (§2.6), which
    /// [`Exchange::admit_request`] then takes out of its URI: a facade that
    /// keeps the URI as sent (axum's `OriginalUri`) copies it first.
    pub fn reads_target(&self) -> bool {
        self.reads_target
    }

    /// Whether an answer's `Location` is made absolute: a facade then reads
    /// the request's link base before it forwards the request, for
    /// [`Exchange::locate`].
    pub fn makes_locations_absolute(&self) -> bool {
        self.absolute_locations.is_some()
    }

    /// Makes the `Location` of an answer of `status` absolute under `base`
    /// (the request's link base, `https://cloud.example`) when the answer
    /// is no error and its `Location` is a path (`/resource_providers/…`),
    /// as webob does; any other `Location` stays. Nothing when the contract
    /// keeps locations as they are.
    pub fn locate(&self, headers: &mut W::Map, status: u16, base: &str) {
        let Some(location) = self.absolute_locations.as_ref().filter(|_| status < 400) else { return };
        let path = W::get_all(headers, location).next().and_then(W::text);
        let Some(path) = path.filter(|p| p.starts_with('/') && !p.starts_with("//")) else { return };
        if let Some(absolute) = W::value(&format!("{}{path}", base.trim_end_matches('/'))) {
            W::insert(headers, location, &absolute);
        }
    }

    /// This contract with refusals that gain no `Cache-Control`
    /// ([`Negotiation::without_no_store_on_refusals`](crate::exchange::Negotiation::without_no_store_on_refusals)).
    #[must_use]
    pub fn without_no_store_on_refusals(mut self) -> Exchange<W> {
        self.refusals_no_store = false;
        self
    }

    /// The declaration served.
    pub fn api(&self) -> &Api {
        self.stamp.api()
    }

    /// What to do with a request whose headers are `headers` and whose
    /// path and query are `target` (under where the API is mounted):
    /// negotiated up to the cap in force now, a refusal counted and traced
    /// (§13.5).
    pub fn admit(&self, headers: &W::Map, target: RequestTarget<'_>) -> Admission {
        match self.stamp.negotiate(headers, target, self.cap.get()) {
            Err(refusal) => Admission::Refuse(refusal),
            Ok(negotiated) if self.asks_client && negotiated.source == VersionSource::Default => {
                Admission::AskClient(negotiated)
            }
            Ok(negotiated) => Admission::Serve(negotiated),
        }
    }

    /// The path and query a request for `target` is routed by when the
    /// API reads its version from the path or the query (docs/reference.md
    /// §2.6): `/v2.5/servers?api-version=2.5&limit=1` as `/servers?limit=1`.
    /// `None` when it is routed as it came, always for an API that reads
    /// only headers.
    pub fn routed(&self, target: RequestTarget<'_>) -> Option<String> {
        crate::protocol::read::routed(self.stamp.api(), target)
    }

    /// [`Exchange::admit`], and the path and query to route the request
    /// by when it is served and a reader took its part out
    /// ([`Exchange::routed`]): every facade's first step. `target` reads
    /// the request's path and query; it is called only for an API that
    /// reads its version from them, so that a request to one that reads
    /// only headers pays nothing for it.
    pub fn admit_routed<'t>(
        &self,
        headers: &W::Map,
        target: impl FnOnce() -> RequestTarget<'t>,
    ) -> (Admission, Option<String>) {
        if !self.reads_target {
            return (self.admit(headers, RequestTarget::default()), None);
        }
        let target = target();
        let admission = self.admit(headers, target);
        let routed = match admission {
            Admission::Refuse(_) => None,
            _ => self.routed(target),
        };
        (admission, routed)
    }

    /// The version of a request the client default was asked for
    /// (`asked`, the API's default): the version it pinned, within what
    /// the API serves now ([`Api::negotiate_pinned`]), or `asked` when it
    /// pinned none.
    pub fn chosen(&self, asked: Negotiated, pinned: Option<Version>) -> Negotiated {
        match pinned {
            Some(pinned) => self.api().negotiate_pinned(pinned, self.cap.get()),
            None => asked,
        }
    }

    /// The headers of a refusal's answer, rendered in the API's format:
    /// `Vary`, but no version headers (none was negotiated), and
    /// `Cache-Control: no-store`, since a cache matches `Vary` on header
    /// values, not on versions, and may fold values the negotiation tells
    /// apart (nginx takes an empty legacy header, a 400, for an absent
    /// one): a stored 400 or 406 could answer a request that negotiates.
    pub fn refuse(&self, headers: &mut W::Map) {
        self.identify(headers, None);
        if self.refusals_no_store {
            set_header::<W>(headers, "cache-control", "no-store");
        }
        self.stamp.stamp(headers, None);
    }

    /// The headers of an answer at `version` (`None` for one answered
    /// before a version was chosen: a client default's error): the version
    /// headers, a deprecated version's `Deprecation`, `Sunset` and `Link`,
    /// and `Vary`, the handler's own kept.
    pub fn finish(&self, headers: &mut W::Map, version: Option<Version>) {
        self.identify(headers, None);
        self.stamp.stamp(headers, version);
        let (api, max) = (self.api(), self.cap.get());
        if api.reports_operation_versions() && max.lt(api.max()) {
            // The route named its operation's versions up to the declared maximum.
            self.stamp.clip_operation_versions(headers, max);
        }
    }

    /// Counts an answer of `status` to a request at `negotiated` (§13.5).
    pub fn count(&self, negotiated: &Negotiated, status: u16) {
        crate::observe::count(self.stamp.api(), negotiated, status);
    }
}

#[cfg(feature = "portable")]
impl<W: HeaderWire<Map = http::HeaderMap>> Exchange<W> {
    /// [`Exchange::admit`] of a request of the `http` crate, which is then
    /// routed by what [`Exchange::routed`] gives when it is served: the
    /// step of every facade over `http` 1 (axum, hyper).
    pub fn admit_request<B>(&self, request: &mut http::Request<B>) -> Admission {
        let uri = request.uri();
        let target = || RequestTarget::new(uri.path(), uri.query());
        let (admission, routed) = self.admit_routed(request.headers(), target);
        // The request's URI is copied only when a reader's part is taken out.
        if let Some(routed) = routed {
            let mut parts = request.uri().clone().into_parts();
            parts.path_and_query = routed.parse().ok();
            if let Ok(uri) = http::Uri::from_parts(parts) {
                *request.uri_mut() = uri;
            }
        }
        admission
    }
}

impl<W: HeaderWire> std::fmt::Debug for Exchange<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Exchange")
            .field("api", &self.api().service_type())
            .field("cap", &self.cap.get())
            .field("asks_client", &self.asks_client)
            .field("refusals_no_store", &self.refusals_no_store)
            .field("absolute_locations", &self.absolute_locations.is_some())
            .finish()
    }
}

/// What is known of an error answer's body when the layer sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorBody<'a> {
    /// None, or an empty one (the router's 404 or 405, a handler's bare status).
    Empty,
    /// The text of the error that made it (a framework's extractor
    /// refusal, an error of a handler's own type), whatever its body.
    Cause(&'a str),
    /// A body of the handler's own, with no error behind it.
    Own,
}

/// The error an answer stands for, to be rendered in the API's format
/// ([`unformatted_error`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnformattedError<'a> {
    /// Its status.
    pub status: u16,
    /// What made it, the detail of a client error; a server error's is for
    /// the log, never the client (the facade's `ApiError::from_answer`).
    pub cause: Option<&'a str>,
}

/// Whether an answer of `status`, `Content-Type` `content_type` and `body`
/// is an error still to put in the API's format (docs/reference.md §5.1),
/// the one rule of every facade's layer and of axum's extractor refusals:
/// a client or server error that is not JSON, whose body is empty or made
/// by an error; an answer a handler wrote by hand is kept as it is, and so
/// is a success (whose headers are not read).
///
/// ```
/// use microversion_core::exchange::{ErrorBody, UnformattedError, unformatted_error};
///
/// let plain = || Some("text/plain; charset=utf-8");
/// assert_eq!(unformatted_error(405, || None, ErrorBody::Empty), Some(UnformattedError { status: 405, cause: None }));
/// assert_eq!(
///     unformatted_error(400, plain, ErrorBody::Cause("Failed to parse the request body as JSON")),
///     Some(UnformattedError { status: 400, cause: Some("Failed to parse the request body as JSON") }),
/// );
/// assert_eq!(unformatted_error(409, plain, ErrorBody::Own), None, "a handler's own text");
/// assert_eq!(unformatted_error(404, || Some("application/json"), ErrorBody::Cause("x")), None);
/// ```
pub fn unformatted_error<'a, 'c>(
    status: u16,
    content_type: impl FnOnce() -> Option<&'c str>,
    body: ErrorBody<'a>,
) -> Option<UnformattedError<'a>> {
    if !is_unformatted_error(status, content_type) {
        return None;
    }
    match body {
        ErrorBody::Empty => Some(UnformattedError { status, cause: None }),
        ErrorBody::Cause(cause) => Some(UnformattedError { status, cause: Some(cause) }),
        ErrorBody::Own => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::stamp::test_wire::ListWire;
    use crate::{Deprecation, Microversion, version::VersionHeader};

    const API: Api = Api::new(
        "compute",
        &[Microversion::new("2.1", "a"), Microversion::new("2.2", "b"), Microversion::new("2.3", "c")],
    )
    .with_legacy_headers(&["X-OpenStack-Nova-API-Version"]);

    impl Exchange<ListWire> {
        fn admit_headers(&self, headers: &Vec<(&'static str, String)>) -> Admission {
            self.admit(headers, RequestTarget::default())
        }
    }

    fn exchange(client_default: Option<&str>) -> Exchange<ListWire> {
        Exchange::new(VersionCap::new(&API), client_default)
    }

    fn headers(pairs: &[(&'static str, &str)]) -> Vec<(&'static str, String)> {
        pairs.iter().map(|(name, value)| (*name, value.to_string())).collect()
    }

    fn get<'m>(map: &'m [(&'static str, String)], name: &str) -> Vec<&'m str> {
        map.iter().filter(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str()).collect()
    }

    #[test]
    fn a_request_is_served_refused_or_asked_for_by_its_headers() {
        let plain = exchange(None);
        let at = |version| Negotiated {
            version: Version::lit(version),
            source: VersionSource::Explicit,
            header: VersionHeader::Standard,
        };
        let asked = plain.admit_headers(&headers(&[("openstack-api-version", "compute 2.2")]));
        assert_eq!(asked, Admission::Serve(at("2.2")));
        assert!(
            matches!(plain.admit_headers(&headers(&[])), Admission::Serve(n) if n.source == VersionSource::Default)
        );
        let refused = plain.admit_headers(&headers(&[("openstack-api-version", "compute 2.9")]));
        assert!(matches!(refused, Admission::Refuse(ref e) if e.status() == 406), "{refused:?}");
        let malformed = plain.admit_headers(&headers(&[("x-openstack-nova-api-version", "")]));
        assert!(matches!(malformed, Admission::Refuse(ref e) if e.status() == 400), "{malformed:?}");

        let pinning = exchange(Some("X-Auth-Token"));
        let named = pinning.admit_headers(&headers(&[("openstack-api-version", "compute 2.2")]));
        assert_eq!(named, Admission::Serve(at("2.2")), "a request that names a version is never asked for");
        let Admission::AskClient(default) = pinning.admit_headers(&headers(&[])) else {
            panic!("the client is asked")
        };
        assert_eq!(default.version, Version::lit("2.1"));
        assert_eq!(pinning.chosen(default, None), default);
        let pinned = pinning.chosen(default, Some(Version::lit("2.3")));
        assert_eq!((pinned.version, pinned.source), (Version::lit("2.3"), VersionSource::Client));
        assert_eq!(pinning.chosen(default, Some(Version::lit("9.0"))).version, Version::lit("2.3"), "capped");
    }

    #[test]
    fn an_existing_services_answers_are_declared_vary_in_lower_case_and_refusals_without_no_store() {
        let standard = exchange(None);
        let (mut refused, mut served) = (Vec::new(), Vec::new());
        standard.refuse(&mut refused);
        standard.finish(&mut served, Some(Version::lit("2.2")));
        assert_eq!(get(&refused, "cache-control"), ["no-store"]);
        assert_eq!(get(&served, "vary"), ["OpenStack-API-Version, X-OpenStack-Nova-API-Version"]);

        let placement_like = exchange(Some("X-Account")).with_lowercase_vary().without_no_store_on_refusals();
        let (mut refused, mut served) = (Vec::new(), Vec::new());
        placement_like.refuse(&mut refused);
        placement_like.finish(&mut served, Some(Version::lit("2.2")));
        assert!(get(&refused, "cache-control").is_empty(), "{refused:?}");
        let vary = ["openstack-api-version, x-openstack-nova-api-version, x-account"];
        assert_eq!(get(&refused, "vary"), vary);
        assert_eq!(get(&served, "vary"), vary);
        // Only the case of the names changed: the version headers are the same.
        assert_eq!(get(&served, "openstack-api-version"), ["compute 2.2"]);
        // A handler's own `Vary` is still appended to, names compared without case.
        let mut own = headers(&[("vary", "Accept, OpenStack-API-Version")]);
        placement_like.finish(&mut own, Some(Version::lit("2.2")));
        assert_eq!(
            get(&own, "vary"),
            ["Accept, OpenStack-API-Version, x-openstack-nova-api-version, x-account"]
        );
    }

    #[test]
    fn a_location_path_is_made_absolute_when_declared() {
        let location = |exchange: &Exchange<ListWire>, value: &str| {
            let mut answer = headers(&[("location", value)]);
            exchange.locate(&mut answer, 201, "http://cloud.example:8778/");
            get(&answer, "location").concat()
        };
        let kept = exchange(None);
        assert!(!kept.makes_locations_absolute());
        assert_eq!(location(&kept, "/resource_providers/1"), "/resource_providers/1");
        let absolute = exchange(None).with_absolute_locations();
        assert!(absolute.makes_locations_absolute());
        assert_eq!(
            location(&absolute, "/resource_providers/1"),
            "http://cloud.example:8778/resource_providers/1"
        );
        // An absolute URL, a network path and a relative one stay as they are.
        for kept in ["https://elsewhere.example/x", "//elsewhere.example/x", "x/y"] {
            assert_eq!(location(&absolute, kept), kept);
        }
        let mut none = Vec::new();
        absolute.locate(&mut none, 201, "http://cloud.example");
        assert!(none.is_empty(), "no Location is added");
        // An error's stays.
        let mut refused = headers(&[("location", "/resource_providers/1")]);
        absolute.locate(&mut refused, 409, "http://cloud.example");
        assert_eq!(get(&refused, "location"), ["/resource_providers/1"]);
    }

    #[test]
    fn the_cap_is_read_per_request() {
        let cap = VersionCap::new(&API.capped_at(Version::lit("2.2")).expect("a declared version"));
        let exchange = Exchange::<ListWire>::new(cap.clone(), None);
        let latest = headers(&[("openstack-api-version", "compute latest")]);
        assert!(
            matches!(exchange.admit_headers(&latest), Admission::Serve(n) if n.version == Version::lit("2.2"))
        );
        cap.set(Version::lit("2.3")).expect("a declared version");
        assert!(
            matches!(exchange.admit_headers(&latest), Admission::Serve(n) if n.version == Version::lit("2.3"))
        );
    }

    #[test]
    fn readers_name_the_version_in_their_places_and_two_versions_are_refused() {
        use crate::version::{NamedVersion, VersionReader};
        const READ: Api = API.with_readers(&[
            VersionReader::PathSegment("v"),
            VersionReader::Query("api-version"),
            VersionReader::MediaType("version"),
            VersionReader::Standard,
        ]);
        let exchange = Exchange::<ListWire>::new(VersionCap::new(&READ), None);
        let admit = |pairs: &[(&'static str, &str)], target| {
            exchange.admit(&headers(pairs), RequestTarget::parse(target))
        };
        let served = |admission| match admission {
            Admission::Serve(n) => (n.version.to_string(), n.header.as_str()),
            other => panic!("{other:?}"),
        };
        assert_eq!(served(admit(&[], "/v2.2/servers")), ("2.2".into(), "path"));
        assert_eq!(served(admit(&[], "/servers?api-version=2.3")), ("2.3".into(), "query"));
        assert_eq!(
            served(admit(&[("accept", "application/json;version=2.2")], "/servers")),
            ("2.2".into(), "media-type")
        );
        assert_eq!(
            served(admit(&[("x-openstack-nova-api-version", "2.3")], "/servers")),
            ("2.3".into(), "legacy")
        );
        assert_eq!(served(admit(&[], "/servers")), ("2.1".into(), "none"));
        // The same version twice is one version; the first reader names it.
        let same = admit(&[("openstack-api-version", "compute 2.3")], "/v2.3/servers?api-version=latest");
        assert_eq!(served(same), ("2.3".into(), "path"));
        let Admission::Refuse(two) =
            admit(&[("openstack-api-version", "compute 2.3")], "/servers?api-version=2.2")
        else {
            panic!("two versions are refused")
        };
        assert_eq!(two.status(), 400);
        let named = |text: &str, reader| NamedVersion { text: text.into(), reader };
        assert!(
            matches!(&*two, NegotiationError::Ambiguous { first, second, .. }
                if *first == named("2.2", VersionReader::Query("api-version"))
                    && *second == named("2.3", VersionReader::Standard)),
            "{two:?}"
        );
        assert_eq!(
            two.to_string(),
            "Two API versions were requested: \"2.2\" in the api-version query parameter and \"2.3\" in the \
             OpenStack-API-Version header. Name one version. Minimum is 2.1 and maximum is 2.3."
        );
        let Admission::Refuse(twice) = admit(&[], "/servers?api-version=2.2&api-version=2.3") else {
            panic!("one reader naming two versions is refused too")
        };
        assert!(matches!(*twice, NegotiationError::Ambiguous { .. }));
        let Admission::Refuse(bad) = admit(&[("openstack-api-version", "compute 2.3")], "/v2.x/servers")
        else {
            panic!("a malformed version anywhere is refused")
        };
        assert_eq!((bad.status(), bad.code()), (400, "invalid-version"));
        assert_eq!(
            exchange.routed(RequestTarget::parse("/v2.2/servers?limit=1&api-version=2.2")),
            Some("/servers?limit=1".into())
        );
        assert_eq!(exchange.routed(RequestTarget::parse("/servers?limit=1")), None);

        let mut answer = headers(&[]);
        exchange.finish(&mut answer, Some(Version::lit("2.2")));
        assert_eq!(get(&answer, "vary"), ["Accept, OpenStack-API-Version, X-OpenStack-Nova-API-Version"]);
        let url_only = API.with_readers(&[VersionReader::Query("api-version")]);
        let mut answer = headers(&[]);
        Exchange::<ListWire>::new(VersionCap::new(&url_only), None)
            .finish(&mut answer, Some(Version::lit("2.2")));
        assert!(get(&answer, "vary").is_empty(), "a version in the URL varies nothing: {answer:?}");
        assert_eq!(
            get(&answer, "openstack-api-version"),
            ["compute 2.2"],
            "the answer still names its version"
        );
    }

    #[test]
    fn an_api_that_requires_a_version_refuses_a_request_naming_none_and_asks_no_client_default() {
        use crate::version::VersionReader;
        let required =
            API.with_readers(&[VersionReader::Standard, VersionReader::Query("v")]).with_version_required();
        let exchange = Exchange::<ListWire>::new(VersionCap::new(&required), Some("X-Auth-Token"));
        let Admission::Refuse(none) = exchange.admit(&headers(&[]), RequestTarget::parse("/servers")) else {
            panic!("a request naming no version is refused")
        };
        assert_eq!((none.status(), none.code()), (400, "version-required"));
        assert_eq!(
            none.to_string(),
            "An API version is required: name one in the OpenStack-API-Version header or the v query parameter. \
             Minimum is 2.1 and maximum is 2.3."
        );
        let named = exchange.admit(&headers(&[]), RequestTarget::parse("/servers?v=2.2"));
        assert!(matches!(named, Admission::Serve(n) if n.version == Version::lit("2.2")), "{named:?}");
    }

    #[test]
    fn a_refusal_varies_is_not_stored_and_names_no_version() {
        let mut answer = headers(&[("content-type", "application/json")]);
        exchange(Some("X-Auth-Token")).refuse(&mut answer);
        assert_eq!(get(&answer, "cache-control"), ["no-store"]);
        assert_eq!(
            get(&answer, "vary"),
            ["OpenStack-API-Version, X-OpenStack-Nova-API-Version, X-Auth-Token"]
        );
        assert!(get(&answer, "openstack-api-version").is_empty());
    }

    #[test]
    fn an_answer_gains_its_version_headers_and_keeps_the_handlers_vary() {
        let deprecated = API
            .with_deprecation(Deprecation::versions("2.1", "2.1").since("2026-01-01").sunset("2031-01-01"));
        let exchange = Exchange::<ListWire>::new(VersionCap::new(&deprecated), None);
        let mut answer = headers(&[("vary", "Accept")]);
        exchange.finish(&mut answer, Some(Version::lit("2.1")));
        assert_eq!(get(&answer, "openstack-api-version"), ["compute 2.1"]);
        assert_eq!(get(&answer, "x-openstack-nova-api-version"), ["2.1"]);
        assert_eq!(get(&answer, "vary"), ["Accept, OpenStack-API-Version, X-OpenStack-Nova-API-Version"]);
        assert_eq!(get(&answer, "sunset").len(), 1, "{answer:?}");
        let mut before_choice = headers(&[]);
        exchange.finish(&mut before_choice, None);
        assert!(get(&before_choice, "openstack-api-version").is_empty());
        assert_eq!(get(&before_choice, "vary").len(), 1);
    }

    #[test]
    fn only_errors_that_are_not_json_and_not_a_handlers_own_are_formatted() {
        let text = || Some("text/plain");
        for status in [400, 404, 405, 413, 500, 503] {
            let empty = unformatted_error(status, || None, ErrorBody::Empty);
            assert_eq!(empty, Some(UnformattedError { status, cause: None }));
            assert_eq!(
                unformatted_error(status, text, ErrorBody::Cause("why")).and_then(|e| e.cause),
                Some("why")
            );
            assert_eq!(unformatted_error(status, text, ErrorBody::Own), None);
            let json = || Some("application/problem+json; charset=utf-8");
            assert_eq!(unformatted_error(status, json, ErrorBody::Empty), None);
        }
        for status in [200, 201, 204, 302, 399, 600] {
            assert_eq!(unformatted_error(status, || unreachable!("not read"), ErrorBody::Empty), None);
        }
    }
}
