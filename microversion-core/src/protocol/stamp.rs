//! The version headers every answer carries (docs/reference.md §3.3), once
//! for every framework: which request headers can name a version, and what
//! an answer at a version gains. Each facade only says how its `http`
//! version reads and writes a header ([`HeaderWire`]).

use std::collections::BTreeSet;
use std::sync::{Mutex, PoisonError};

use crate::protocol::headers::{
    ResponseHeaders, VaryUpdate, append_vary, appends_to_handlers, read_header_names_of, vary_update,
};
use crate::protocol::negotiate::{canonical_entry, legacy_entry, standard_entry};
use crate::protocol::read::RequestTarget;
use crate::version::{STANDARD_HEADER, VersionHeader, VersionReader, VersionSource};
use crate::{Api, Deprecation, Negotiated, NegotiationError, Version};

/// How one framework's header map is read and written: implemented by each
/// facade on a type of its own, for the `http` crate it is built on.
pub trait HeaderWire {
    /// The framework's header map.
    type Map;
    /// Its header name.
    type Name: Clone + AsRef<[u8]> + 'static;
    /// Its header value.
    type Value: Clone + AsRef<[u8]> + 'static;

    /// A name that lives for the process (lowercase, checked), so that its
    /// clone costs nothing; `None` if it is not a header name.
    fn name(name: &'static str) -> Option<Self::Name>;
    /// A value from text that lives for the process (visible ASCII takes no
    /// copy); `None` if it cannot be a header value.
    fn static_value(text: &'static str) -> Option<Self::Value>;
    /// A value copied from `text`; `None` if it cannot be a header value.
    fn value(text: &str) -> Option<Self::Value>;
    /// Every value of `name` in `map`, in the order received.
    fn get_all<'m>(map: &'m Self::Map, name: &'m Self::Name) -> impl Iterator<Item = &'m Self::Value>;
    /// `value` as text, if it is visible ASCII.
    fn text(value: &Self::Value) -> Option<&str>;
    /// Sets `name` to `value`, replacing what was there.
    fn insert(map: &mut Self::Map, name: &Self::Name, value: &Self::Value);
    /// Adds `value` as another line of `name`.
    fn append(map: &mut Self::Map, name: &Self::Name, value: &Self::Value);
    /// Removes every line of `name`.
    fn remove(map: &mut Self::Map, name: &Self::Name);
    /// Sets `name` to `value` if the map has no line of `name`, and says
    /// whether it did; the lines there are kept. Every answer asks it of
    /// `Vary`, which most have none of: a wire whose map can answer in one
    /// lookup (an entry, an insert that gives back what it replaced) says so.
    fn insert_if_absent(map: &mut Self::Map, name: &Self::Name, value: &Self::Value) -> bool {
        if Self::get_all(map, name).next().is_some() {
            return false;
        }
        Self::insert(map, name, value);
        true
    }
}

/// How one framework's answer is made of a plain one, a status, headers and
/// a body, as the core gives its documents (discovery, OpenAPI): implemented
/// by each facade on its [`HeaderWire`] type ([`plain_answer`]).
pub trait AnswerWire: HeaderWire {
    /// The framework's answer.
    type Answer;
    /// An answer of `status` with `body` (none: an empty body) and no headers.
    fn answer(status: u16, body: Option<Vec<u8>>) -> Self::Answer;
    /// The headers of `answer`.
    fn headers(answer: &mut Self::Answer) -> &mut Self::Map;
}

/// The plain answer `status`, `headers` (each one of the contract's lower
/// case names; one that cannot be a header is left out, as
/// [`set_header`] does) and `body`, as `W`'s framework's answer.
pub fn plain_answer<'v, W: AnswerWire>(
    status: u16,
    headers: impl IntoIterator<Item = (&'static str, &'v str)>,
    body: Option<Vec<u8>>,
) -> W::Answer {
    let mut answer = W::answer(status, body);
    for (name, value) in headers {
        set_header::<W>(W::headers(&mut answer), name, value);
    }
    answer
}

/// The version headers of one API in a framework's types, rendered once per
/// app instance: what a request's version is read from and what an answer
/// is stamped with ([`Stamp::stamp`]).
pub struct Stamp<W: HeaderWire> {
    api: Api,
    /// `OpenStack-API-Version`.
    standard: W::Name,
    /// The legacy headers, in the declaration's order.
    legacy: Vec<W::Name>,
    /// Every request header the API reads a version from.
    read: Vec<W::Name>,
    /// Per history entry: the standard header's value and the bare version.
    values: Vec<(W::Value, W::Value)>,
    /// Per history entry: `Deprecation`, `Sunset`, `Link` when deprecated.
    deprecation: Vec<Vec<Line<W>>>,
    vary_name: W::Name,
    vary: W::Value,
    vary_text: &'static str,
    /// The service and a space: how the form clients send starts.
    canonical_prefix: &'static str,
}

/// One header an answer gains, and whether it goes beside a handler's own
/// (`Link`) rather than replacing it.
struct Line<W: HeaderWire> {
    name: W::Name,
    value: W::Value,
    appends: bool,
}

impl<W: HeaderWire> Stamp<W> {
    /// The headers of `api`, naming `more_vary` in `Vary` too (the headers
    /// a client default reads).
    pub fn new(api: Api, more_vary: Option<&str>) -> Stamp<W> {
        let rendered = ResponseHeaders::new(&api);
        let vary_text = interned(match more_vary {
            Some(more) => append_vary(rendered.vary(), more),
            None => rendered.vary().to_owned(),
        });
        let value = |text: &str| {
            W::static_value(interned(text.to_owned()))
                .or_else(|| W::static_value(""))
                .expect("an empty value is a header value")
        };
        let (values, deprecation) = rendered
            .per_version()
            .map(|headers| {
                let deprecation = headers
                    .deprecation
                    .iter()
                    .filter_map(|(name, text)| {
                        let value = W::static_value(interned(text.clone()))?;
                        Some(Line {
                            name: header_name::<W>(name)?,
                            value,
                            appends: appends_to_handlers(name),
                        })
                    })
                    .collect();
                ((value(headers.standard), value(headers.bare)), deprecation)
            })
            .unzip();
        // The declaration only accepts token names, which are valid header names.
        let legacy = api.legacy_headers().iter().copied().filter_map(header_name::<W>).collect();
        let read = read_header_names_of(&api).filter_map(header_name::<W>).collect();
        Stamp {
            api,
            standard: standard_name::<W>(),
            legacy,
            read,
            values,
            deprecation,
            vary_name: constant_name::<W>("vary"),
            vary: value(vary_text),
            canonical_prefix: interned(format!("{} ", api.service_type())),
            vary_text,
        }
    }

    /// These headers with the names in `Vary` in lower case
    /// (`openstack-api-version`), as microversion-parse's WSGI middleware
    /// writes them; the names on the wire are lower case already.
    #[must_use]
    pub fn with_lowercase_vary(mut self) -> Stamp<W> {
        let lower = interned(self.vary_text.to_ascii_lowercase());
        if let Some(vary) = W::static_value(lower) {
            (self.vary, self.vary_text) = (vary, lower);
        }
        self
    }

    /// The API these headers are of (borrowed: an `Api` is some hundreds
    /// of bytes, and every request asks).
    pub fn api(&self) -> &Api {
        &self.api
    }

    /// The headers of a request that can name its version, found by name (a
    /// hash lookup per name), each name's in the order received: what
    /// [`Api::negotiate_request_up_to`] reads.
    pub fn version_headers<'m>(
        &'m self,
        headers: &'m W::Map,
    ) -> impl Iterator<Item = (&'m W::Name, &'m W::Value)> {
        self.read.iter().flat_map(move |name| W::get_all(headers, name).map(move |value| (name, value)))
    }

    /// The version text an API that reads only the OpenStack headers finds
    /// in `headers`, and where: the standard header's entry for the API,
    /// else the first legacy header's, by the rules of
    /// [`Api::negotiate`]; a legacy header is looked up only when the
    /// standard one names nothing.
    /// The version of a request whose one standard header names one
    /// version for this API as the contract writes it (`compute 2.27`),
    /// the form every client sends, read on a short path
    /// ([`canonical_entry`]); `None` for any other request.
    fn canonical(&self, headers: &W::Map) -> Option<Version> {
        let mut values = W::get_all(headers, &self.standard);
        let value = values.next()?;
        if values.next().is_some() {
            return None;
        }
        canonical_entry(value.as_ref(), self.canonical_prefix.as_bytes())
    }

    fn requested<'m>(&'m self, headers: &'m W::Map) -> Option<(&'m [u8], VersionHeader)> {
        let values = |name| W::get_all(headers, name).map(AsRef::as_ref);
        let service = self.api.service_type().as_bytes();
        if let Some(text) = standard_entry(values(&self.standard), service) {
            return Some((text, VersionHeader::Standard));
        }
        let legacy = self.legacy.iter().find_map(|name| legacy_entry(values(name)))?;
        Some((legacy, VersionHeader::Legacy))
    }

    /// Negotiates a request with `headers` and `target` up to `cap`
    /// (docs/reference.md §3), counting and tracing a refusal (§13.5):
    /// what a facade's middleware asks first of every request.
    pub fn negotiate(
        &self,
        headers: &W::Map,
        target: RequestTarget<'_>,
        cap: Version,
    ) -> Result<Negotiated, Box<NegotiationError>> {
        let api = &self.api;
        let read = if matches!(api.readers(), [VersionReader::Standard]) {
            if let Some(version) = self.canonical(headers).filter(|v| api.serves_up_to(*v, cap)) {
                return Ok(Negotiated {
                    version,
                    source: VersionSource::Explicit,
                    header: VersionHeader::Standard,
                });
            }
            api.read_requested(self.requested(headers), cap)
        } else {
            api.read_version(self.version_headers(headers), target, cap)
        };
        read.map_err(|refused| {
            let (err, header) = *refused;
            crate::observe::count_refused(api, &err, header);
            crate::observe::refused(api, &err);
            Box::new(err)
        })
    }

    /// Takes the versions above `max` out of an answer's
    /// [`OPERATION_VERSIONS_HEADER`](crate::header::OPERATION_VERSIONS_HEADER).
    pub fn clip_operation_versions(&self, headers: &mut W::Map, max: Version) {
        let name = constant_name::<W>("openstack-api-operation-versions");
        let Some(written) = W::get_all(headers, &name).next().and_then(W::text) else { return };
        let clipped = crate::header::clip_operation_versions(written, max);
        if let Some(value) = W::value(&clipped) {
            W::insert(headers, &name, &value);
        }
    }

    /// Stamps an answer: the version headers of `version` (none for a
    /// refusal) with a deprecated version's `Deprecation`, `Sunset` and
    /// `Link`, then the version headers named in `Vary`, keeping the
    /// handler's own names.
    pub fn stamp(&self, headers: &mut W::Map, version: Option<Version>) {
        if let Some(i) = version.and_then(|v| self.api.position(v)) {
            let (standard, bare) = &self.values[i];
            W::insert(headers, &self.standard, standard);
            for name in &self.legacy {
                W::insert(headers, name, bare);
            }
            for line in &self.deprecation[i] {
                if line.appends {
                    W::append(headers, &line.name, &line.value);
                } else {
                    W::insert(headers, &line.name, &line.value);
                }
            }
        }
        if self.vary_text.is_empty() {
            // The API reads its version only from the URL.
            return;
        }
        if W::insert_if_absent(headers, &self.vary_name, &self.vary) {
            return;
        }
        let existing = W::get_all(headers, &self.vary_name).map(W::text);
        match vary_update(existing, self.vary_text) {
            VaryUpdate::Insert => W::insert(headers, &self.vary_name, &self.vary),
            VaryUpdate::Replace(merged) => {
                if let Some(value) = W::value(&merged) {
                    W::insert(headers, &self.vary_name, &value);
                }
            }
            // An opaque existing value is kept; ours is added as another line.
            VaryUpdate::Append => W::append(headers, &self.vary_name, &self.vary),
        }
    }
}

impl<W: HeaderWire> std::fmt::Debug for Stamp<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stamp").field("api", &self.api.service_type()).field("vary", &self.vary_text).finish()
    }
}

/// Stamps the answer of `operation` of `api`, deprecated at `version` (one
/// variant's `#[deprecated_from]`, docs/reference.md §13.7), with its
/// `Deprecation` and `Sunset`, and its `Link` beside the handler's own, and
/// counts it (`metrics`); nothing when `deprecation` does not cover
/// `version`. The stamp of a deprecated version ([`Stamp::stamp`]) comes
/// after it: when the version is deprecated too, its `Deprecation` and
/// `Sunset` are the ones sent, and both links are.
pub fn stamp_deprecation<W: HeaderWire>(
    headers: &mut W::Map,
    deprecation: &Deprecation,
    version: Version,
    api: &Api,
    operation: &'static str,
) {
    if !deprecation.covers(version) {
        return;
    }
    crate::observe::count_deprecated(api, operation, version);
    for (name, text) in deprecation.headers() {
        let (Some(header), Some(value)) = (header_name::<W>(name), W::value(&text)) else { continue };
        if appends_to_handlers(name) {
            W::append(headers, &header, &value);
        } else {
            W::insert(headers, &header, &value);
        }
    }
}

/// Makes `headers` those of an error answer, a handler's own kept: a body
/// of `content_type` (a JSON document, or a page) and of a length yet unknown, and the served range, when the error
/// carries one, under `names` (Ironic's, or the standard ones) and no other.
pub fn error_headers<W: HeaderWire>(
    headers: &mut W::Map,
    content_type: &'static str,
    range: Option<(Version, Version)>,
    names: (&W::Name, &W::Name),
) {
    // Answered on every error: lower-case names as they are (no interning,
    // no lock), and nothing that can panic.
    for name in ["content-length", MIN_NAME, MAX_NAME].into_iter().filter_map(W::name) {
        W::remove(headers, &name);
    }
    if let (Some(name), Some(value)) = (W::name("content-type"), W::static_value(content_type)) {
        W::insert(headers, &name, &value);
    }
    for (name, version) in [(names.0, range.map(|r| r.0)), (names.1, range.map(|r| r.1))] {
        W::remove(headers, name);
        let mut digits = [0u8; 11];
        if let Some(value) = version.and_then(|version| W::value(version.write_to(&mut digits))) {
            W::insert(headers, name, &value);
        }
    }
}

/// Response headers that carry a request id (OpenStack's request-id
/// middleware sets the first; Nova also the second).
const REQUEST_ID_NAMES: [&str; 2] = ["x-openstack-request-id", "x-compute-request-id"];

/// The request id an answer's headers carry (set by the handler or a
/// middleware inside the negotiation), which its error body repeats.
pub fn answer_request_id<W: HeaderWire>(headers: &W::Map) -> Option<String> {
    REQUEST_ID_NAMES
        .into_iter()
        .filter_map(W::name)
        .find_map(|name| W::get_all(headers, &name).next().and_then(W::text).map(str::to_owned))
}

/// Sets `name`, one of the contract's (lower case), to `value` (`Allow`
/// on a 405); a name or value that cannot be a header's is left out.
pub fn set_header<W: HeaderWire>(headers: &mut W::Map, name: &'static str, value: &str) {
    if let (Some(name), Some(value)) = (W::name(name), W::value(value)) {
        W::insert(headers, &name, &value);
    }
}

/// [`STANDARD_HEADER`](crate::header::STANDARD_HEADER), [`MIN_VERSION_HEADER`](crate::header::MIN_VERSION_HEADER)
/// and [`MAX_VERSION_HEADER`](crate::header::MAX_VERSION_HEADER) in lower case, as
/// [`HeaderWire::name`] and `HeaderName::from_static` take them (a
/// facade's `STANDARD_HEADER_NAME`, ... constants).
#[doc(hidden)]
pub const STANDARD_NAME: &str = "openstack-api-version";
#[doc(hidden)]
pub const MIN_NAME: &str = "openstack-api-minimum-version";
#[doc(hidden)]
pub const MAX_NAME: &str = "openstack-api-maximum-version";

/// Whether `name` is a header name `HeaderName::from_static` takes: a
/// non-empty token (RFC 9110 §5.6.2) in lower case.
#[doc(hidden)]
pub fn is_static_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// The standard names of the served range's headers, in the framework's
/// types (for a renderer, built once).
pub fn min_max_names<W: HeaderWire>() -> (W::Name, W::Name) {
    (constant_name::<W>(MIN_NAME), constant_name::<W>(MAX_NAME))
}

/// `OpenStack-API-Version` in the framework's types.
fn standard_name<W: HeaderWire>() -> W::Name {
    header_name::<W>(STANDARD_HEADER).unwrap_or_else(|| unreachable!("{STANDARD_HEADER} is a header name"))
}

/// One of the contract's own header names, lower-case and valid: a
/// framework that refused it would be refusing HTTP itself, a bug of its
/// `HeaderWire` found at the first app built.
fn constant_name<W: HeaderWire>(name: &'static str) -> W::Name {
    W::name(name).unwrap_or_else(|| unreachable!("{name} is a header name in every framework"))
}

/// `name` as a framework's header name that costs nothing to clone:
/// lowered once per process when the declaration spells it with capitals
/// (`X-OpenStack-Nova-API-Version`).
pub fn header_name<W: HeaderWire>(name: &'static str) -> Option<W::Name> {
    if !name.bytes().any(|b| b.is_ascii_uppercase()) {
        return W::name(name);
    }
    W::name(interned(name.to_ascii_lowercase()))
}

/// `text`, kept for the life of the process and shared: the answers of
/// every app instance (one per worker, many in tests) reuse the same few
/// hundred strings, so each is stored once.
pub fn interned(text: String) -> &'static str {
    static INTERNED: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());
    let mut interned = INTERNED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(known) = interned.get(text.as_str()) {
        return known;
    }
    let leaked: &'static str = Box::leak(text.into_boxed_str());
    interned.insert(leaked);
    leaked
}

/// A header wire for the core's own tests: headers as a plain list, so that
/// the protocol is tested with no framework.
#[cfg(test)]
pub(crate) mod test_wire {
    use super::{AnswerWire, HeaderWire};

    /// Headers as a plain list: the stamping needs no framework.
    pub(crate) struct ListWire;

    impl HeaderWire for ListWire {
        type Map = Vec<(&'static str, String)>;
        type Name = &'static str;
        type Value = String;

        fn name(name: &'static str) -> Option<&'static str> {
            Some(name)
        }
        fn static_value(text: &'static str) -> Option<String> {
            Some(text.to_owned())
        }
        fn value(text: &str) -> Option<String> {
            // As a framework's: a line break cannot be in a header.
            (!text.contains(['\r', '\n'])).then(|| text.to_owned())
        }
        fn get_all<'m>(map: &'m Self::Map, name: &'m &'static str) -> impl Iterator<Item = &'m String> {
            map.iter().filter(move |(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v)
        }
        fn text(value: &String) -> Option<&str> {
            Some(value)
        }
        fn insert(map: &mut Self::Map, name: &&'static str, value: &String) {
            map.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
            map.push((name, value.clone()));
        }
        fn append(map: &mut Self::Map, name: &&'static str, value: &String) {
            map.push((name, value.clone()));
        }
        fn remove(map: &mut Self::Map, name: &&'static str) {
            map.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        }
    }

    impl AnswerWire for ListWire {
        type Answer = (u16, Vec<(&'static str, String)>, Option<Vec<u8>>);

        fn answer(status: u16, body: Option<Vec<u8>>) -> Self::Answer {
            (status, Vec::new(), body)
        }
        fn headers(answer: &mut Self::Answer) -> &mut Self::Map {
            &mut answer.1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::test_wire::ListWire;
    use super::*;
    use crate::{Deprecation, Microversion, VersionRange};

    #[test]
    fn a_plain_answer_is_its_status_its_headers_in_order_and_its_body() {
        let headers = [("content-type", "application/json"), ("etag", "\"v1\""), ("x-bad", "a\nb")];
        let answer = plain_answer::<ListWire>(200, headers, Some(b"{}".to_vec()));
        let expected = vec![("content-type", "application/json".to_owned()), ("etag", "\"v1\"".to_owned())];
        assert_eq!(
            answer,
            (200, expected, Some(b"{}".to_vec())),
            "a value that cannot be a header is left out"
        );
        let redirect = plain_answer::<ListWire>(308, [("location", "/docs/")], None);
        assert_eq!(redirect, (308, vec![("location", "/docs/".to_owned())], None));
    }

    const API: Api = Api::new("compute", &[Microversion::new("2.1", "a"), Microversion::new("2.2", "b")])
        .with_legacy_headers(&["X-OpenStack-Nova-API-Version"])
        .with_deprecation(
            Deprecation::versions("2.1", "2.1").since("2026-01-01").link("https://docs.example/2.2"),
        );

    #[test]
    fn looking_the_headers_up_by_name_negotiates_as_reading_them_all() {
        // Two legacy names: the first one holding a value is read.
        const TWO: Api = Api::new("compute", &[Microversion::new("2.1", "a"), Microversion::new("2.2", "b")])
            .with_legacy_headers(&["X-OpenStack-Nova-API-Version", "X-Compute-Version"]);
        let stamp = Stamp::<ListWire>::new(TWO, None);
        let cases: &[&[(&'static str, &str)]] = &[
            &[],
            &[("OpenStack-API-Version", "compute 2.2")],
            &[("openstack-api-version", "volume 3.1, compute 2.2, compute 2.1")],
            &[("OpenStack-API-Version", "compute 2.2"), ("OpenStack-API-Version", "compute 2.1")],
            &[("OpenStack-API-Version", "compute 2.2"), ("OpenStack-API-Version", "volume 3.1")],
            &[("OpenStack-API-Version", "volume 3.1"), ("X-OpenStack-Nova-API-Version", "2.2")],
            &[("OpenStack-API-Version", "compute 2.1"), ("X-OpenStack-Nova-API-Version", "2.2")],
            &[("X-Compute-Version", "2.1"), ("X-OpenStack-Nova-API-Version", "2.2")],
            &[("X-Compute-Version", "2.1"), ("X-OpenStack-Nova-API-Version", "")],
            &[("X-OpenStack-Nova-API-Version", "2.1, 2.2"), ("X-OpenStack-Nova-API-Version", " 2.1 ")],
            &[("X-Compute-Version", "2.9")],
            &[("OpenStack-API-Version", "compute latest")],
            &[("OpenStack-API-Version", "compute  2.x ")],
            &[("OpenStack-API-Version", "compute")],
            &[("OpenStack-API-Version", "computer 2.2"), ("X-Compute-Version", "2.2")],
        ];
        for case in cases {
            let map: Vec<_> = case.iter().map(|(n, v)| (*n, (*v).to_owned())).collect();
            let by_name = stamp.negotiate(&map, RequestTarget::default(), TWO.max()).map_err(|e| *e);
            assert_eq!(by_name, TWO.negotiate(case.iter().copied()), "{case:?}");
        }
    }

    /// The short path for the form clients send (`compute 2.27`) reads
    /// what the general reader reads, in both syntaxes, and leaves every
    /// other form to it: written otherwise, out of range, retired, twice.
    #[test]
    fn the_canonical_form_negotiates_as_the_general_reader_does() {
        const HISTORY: &[Microversion] = &[
            Microversion::new("1.0", "a"),
            Microversion::new("2.1", "b"),
            Microversion::new("2.2", "c"),
            Microversion::new("2.10", "d"),
        ];
        let strict = Api::new("compute", HISTORY).with_legacy_headers(&["X-OpenStack-Nova-API-Version"]);
        let parse = strict.with_version_syntax(crate::version::VersionSyntax::MicroversionParse);
        let sunset = Deprecation::versions("1.0", "1.0").since("2020-01-01").sunset("2021-01-01");
        let retired = strict
            .with_deprecation(sunset)
            .retire_below(Version::lit("2.1"))
            .expect("1.0 is past its sunset");
        let texts = [
            "compute 2.2",
            "compute 2.10",
            "compute 1.0",
            "compute 2.02",
            "compute 02.2",
            "compute 0.2",
            "compute 2.3",
            "compute 9999.9999",
            "compute 99999.1",
            "compute 2.65536",
            "compute 2.",
            "compute .2",
            "compute 2",
            "compute 2.2 ",
            " compute 2.2",
            "compute  2.2",
            "Compute 2.2",
            "compute 2.2, volume 3.1",
            "volume 3.1, compute 2.1",
            "compute 2.x",
            "compute +2.2",
            "compute 2.1.0",
            "compute latest",
            "compute 1.0",
            "computer 2.2",
        ];
        for api in [strict, parse, retired] {
            let stamp = Stamp::<ListWire>::new(api, None);
            for (cap, text) in
                [api.max(), Version::lit("2.1")].into_iter().flat_map(|cap| texts.map(|t| (cap, t)))
            {
                for map in [
                    vec![("OpenStack-API-Version", text.to_owned())],
                    vec![
                        ("OpenStack-API-Version", text.to_owned()),
                        ("OpenStack-API-Version", "compute 2.1".into()),
                    ],
                    vec![
                        ("OpenStack-API-Version", text.to_owned()),
                        ("X-OpenStack-Nova-API-Version", "2.1".into()),
                    ],
                ] {
                    let general = api.negotiate_up_to(map.iter().map(|(n, v)| (*n, v.as_str())), cap);
                    let short = stamp.negotiate(&map, RequestTarget::default(), cap).map_err(|e| *e);
                    assert_eq!(short, general, "{map:?} up to {cap} in {:?}", api.version_syntax());
                }
            }
        }
    }

    #[test]
    fn reads_the_version_headers_by_name_and_in_order() {
        let stamp = Stamp::<ListWire>::new(API, None);
        let request = vec![
            ("x-openstack-nova-api-version", "2.1".to_owned()),
            ("accept", "application/json".to_owned()),
            ("OpenStack-API-Version", "compute 2.2".to_owned()),
        ];
        let read: Vec<_> = stamp.version_headers(&request).map(|(n, v)| (*n, v.as_str())).collect();
        assert_eq!(read, [("openstack-api-version", "compute 2.2"), ("x-openstack-nova-api-version", "2.1")]);
        assert_eq!(API.negotiate(stamp.version_headers(&request)).unwrap().version, Version::new(2, 2));
    }

    #[test]
    fn stamps_the_version_its_deprecation_and_vary_keeping_the_handlers() {
        let stamp = Stamp::<ListWire>::new(API, Some("X-Auth-Token"));
        let mut answer = vec![("vary", "Accept".to_owned()), ("link", "</next>; rel=\"next\"".to_owned())];
        stamp.stamp(&mut answer, Some(Version::new(2, 1)));
        let value = |name: &str| -> Vec<&str> {
            answer.iter().filter(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str()).collect()
        };
        assert_eq!(value("openstack-api-version"), ["compute 2.1"]);
        assert_eq!(value("x-openstack-nova-api-version"), ["2.1"]);
        assert_eq!(value("deprecation").len(), 1);
        // The handler's own link stays; the deprecation's is added.
        assert_eq!(value("link").len(), 2);
        assert_eq!(
            value("vary"),
            ["Accept, OpenStack-API-Version, X-OpenStack-Nova-API-Version, X-Auth-Token"]
        );
    }

    /// An operation deprecated at a version that is deprecated too: the
    /// version's `Deprecation` is sent (its stamp comes last), and both
    /// links are; at a version it does not cover, nothing.
    #[test]
    fn an_operations_deprecation_yields_to_its_versions_and_keeps_both_links() {
        let operation =
            Deprecation::range(VersionRange::ANY).since("2025-01-01").link("https://docs.example/op");
        let stamp = Stamp::<ListWire>::new(API, None);
        let mut answer = Vec::new();
        stamp_deprecation::<ListWire>(&mut answer, &operation, Version::new(2, 1), &API, "show");
        assert_eq!(answer.iter().filter(|(n, _)| *n == "deprecation").count(), 1);
        stamp.stamp(&mut answer, Some(Version::new(2, 1)));
        let value = |name: &str| -> Vec<&str> {
            answer.iter().filter(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str()).collect()
        };
        // 2026-01-01, the version's date, not the operation's 2025-01-01.
        assert_eq!(value("deprecation"), ["@1767225600"]);
        assert_eq!(
            value("link"),
            [
                "<https://docs.example/op>; rel=\"deprecation\"",
                "<https://docs.example/2.2>; rel=\"deprecation\""
            ]
        );
        let narrow = Deprecation::versions("2.2", "2.2").since("2025-01-01");
        let mut untouched = Vec::new();
        stamp_deprecation::<ListWire>(&mut untouched, &narrow, Version::new(2, 1), &API, "show");
        assert!(untouched.is_empty());
    }

    #[test]
    fn a_refusal_gains_only_vary() {
        let stamp = Stamp::<ListWire>::new(API, None);
        let mut answer = Vec::new();
        stamp.stamp(&mut answer, None);
        assert_eq!(answer, [("vary", "OpenStack-API-Version, X-OpenStack-Nova-API-Version".to_owned())]);
        let mut undeprecated = Vec::new();
        stamp.stamp(&mut undeprecated, Some(Version::new(2, 2)));
        assert!(!undeprecated.iter().any(|(n, _)| *n == "deprecation"));
    }

    #[test]
    fn the_lower_case_names_are_the_contracts() {
        assert_eq!(STANDARD_NAME, crate::header::STANDARD_HEADER.to_ascii_lowercase());
        assert_eq!(MIN_NAME, crate::header::MIN_VERSION_HEADER.to_ascii_lowercase());
        assert_eq!(MAX_NAME, crate::header::MAX_VERSION_HEADER.to_ascii_lowercase());
    }

    #[test]
    fn an_error_answer_keeps_the_handlers_headers_and_names_its_range_once() {
        let get = |map: &Vec<(&'static str, String)>, name: &str| {
            map.iter()
                .filter(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.clone())
                .collect::<Vec<_>>()
        };
        let mut headers: Vec<(&'static str, String)> = vec![
            ("Content-Length", "5".into()),
            ("OpenStack-API-Minimum-Version", "1.0".into()),
            ("x-request-id", "req-1".into()),
        ];
        let range = Some((Version::new(2, 1), Version::new(2, 15)));
        error_headers::<ListWire>(&mut headers, "application/json", range, (&"x-min", &"x-max"));
        assert!(get(&headers, "content-length").is_empty(), "the handler's length is stale");
        assert!(get(&headers, "openstack-api-minimum-version").is_empty(), "one name for the range");
        assert_eq!(get(&headers, "content-type"), ["application/json"]);
        assert_eq!(
            (get(&headers, "x-min"), get(&headers, "x-max")),
            (vec!["2.1".into()], vec!["2.15".into()])
        );
        assert_eq!(get(&headers, "x-request-id"), ["req-1"]);

        error_headers::<ListWire>(&mut headers, "application/json", None, (&"x-min", &"x-max"));
        assert!(
            get(&headers, "x-min").is_empty() && get(&headers, "x-max").is_empty(),
            "no range, no headers"
        );
    }
}
