//! Reading the requested version from a request (docs/reference.md §2).
//!
//! The rules follow Nova and microversion-parse: the standard
//! `OpenStack-API-Version` header names a version per service; legacy headers
//! are read only when it names none for ours; `latest` means the served max.
//! An API may read its version from other places too ([`VersionReader`]).

use std::fmt;

use super::read::{self, Named, RequestTarget};
use crate::version::{MAX_LEGACY_HEADERS, STANDARD_HEADER, VersionReader, VersionText};
use crate::{Api, Version, lifecycle::Timestamp};

/// Where the negotiated version came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VersionSource {
    /// The request named no version; the default applies.
    Default,
    /// The request asked for `latest`.
    Latest,
    /// The request named this version explicitly.
    Explicit,
    /// The request named no version; the deployer's hook chose this
    /// client's own default (a version pinned to its token or account).
    Client,
}

/// Which header, or which other place of the request
/// ([`VersionReader`]), named the version it asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VersionHeader {
    /// The standard `OpenStack-API-Version` header.
    Standard,
    /// One of the API's legacy headers (`X-OpenStack-Nova-API-Version`).
    Legacy,
    /// A header of the API's own ([`VersionReader::Header`]).
    Named,
    /// A query parameter ([`VersionReader::Query`]).
    Query,
    /// A parameter of `Accept` ([`VersionReader::MediaType`]).
    MediaType,
    /// The path's first segment ([`VersionReader::PathSegment`]).
    Path,
    /// None: the request named no version.
    None,
}

impl VersionHeader {
    /// `standard`, `legacy`, `header`, `query`, `media-type`, `path` or
    /// `none`: a label for metrics and logs.
    pub const fn as_str(self) -> &'static str {
        match self {
            VersionHeader::Standard => "standard",
            VersionHeader::Legacy => "legacy",
            VersionHeader::Named => "header",
            VersionHeader::Query => "query",
            VersionHeader::MediaType => "media-type",
            VersionHeader::Path => "path",
            VersionHeader::None => "none",
        }
    }
}

/// The outcome of a successful negotiation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Negotiated {
    /// The version the request is served at.
    pub version: Version,
    /// How the request chose it.
    pub source: VersionSource,
    /// Which header named it.
    pub header: VersionHeader,
}

impl Negotiated {
    /// What chose the version, as metrics label it (`chosen_by`): the header
    /// that named it (`standard`, `legacy`), `client` for a client's own
    /// default, `none` for the API's default.
    pub const fn chosen_by(&self) -> &'static str {
        match self.source {
            VersionSource::Client => "client",
            _ => self.header.as_str(),
        }
    }
}

/// A request whose version cannot be served, with what a 400 or 406 needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NegotiationError {
    /// The requested text is not a version nor `latest` (400 Bad Request).
    Malformed {
        /// The offending text, lossily decoded and cut to [`MAX_ECHOED_BYTES`].
        requested: String,
        /// The served minimum.
        min: Version,
        /// The served maximum.
        max: Version,
    },
    /// A declared version retired after its sunset (406 Not Acceptable,
    /// docs/reference.md §13.3).
    Retired {
        /// The requested version.
        requested: Version,
        /// The sunset of its deprecation.
        sunset: Timestamp,
        /// The served minimum: the oldest version served.
        min: Version,
        /// The served maximum.
        max: Version,
    },
    /// A well-formed version this API does not serve (406 Not Acceptable).
    NotAcceptable {
        /// The requested version.
        requested: Version,
        /// The served minimum.
        min: Version,
        /// The served maximum.
        max: Version,
    },
    /// A version this API does not serve, written otherwise than the API
    /// writes it, echoed as written (406 Not Acceptable): `-1.5` or `1.05`
    /// under [`VersionSyntax::MicroversionParse`](crate::version::VersionSyntax).
    NotAcceptableText {
        /// The requested text, cut to [`MAX_ECHOED_BYTES`].
        requested: String,
        /// The served minimum.
        min: Version,
        /// The served maximum.
        max: Version,
    },
    /// The request names two different versions, in two places or twice
    /// in one (400 Bad Request): the first two, in the readers' order.
    Ambiguous {
        /// The version the first reader named, and where.
        first: NamedVersion,
        /// A different one, and where.
        second: NamedVersion,
        /// The served minimum.
        min: Version,
        /// The served maximum.
        max: Version,
    },
    /// The request names no version and the API requires one (400 Bad
    /// Request, [`Api::with_version_required`]).
    Required {
        /// Where the API reads it.
        readers: &'static [VersionReader],
        /// The served minimum.
        min: Version,
        /// The served maximum.
        max: Version,
    },
}

/// A version text a request names (cut to [`MAX_ECHOED_BYTES`]), and the
/// reader that found it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedVersion {
    /// The text, `2.5` or `latest`.
    pub text: String,
    /// Where it was read.
    pub reader: VersionReader,
}

impl NamedVersion {
    fn of(named: &Named<'_>) -> NamedVersion {
        NamedVersion { text: echoed(&named.text), reader: named.reader }
    }
}

/// `text` lossily decoded and cut to [`MAX_ECHOED_BYTES`], as errors echo it.
fn echoed(text: &[u8]) -> String {
    let cut = &text[..text.len().min(MAX_ECHOED_BYTES)];
    let mut echoed = String::from_utf8_lossy(cut).into_owned();
    if text.len() > MAX_ECHOED_BYTES {
        echoed.push('…');
    }
    echoed
}

/// How much of a malformed version is echoed back in errors.
pub const MAX_ECHOED_BYTES: usize = 64;

impl NegotiationError {
    /// The HTTP status this error answers with: 400 or 406.
    pub const fn status(&self) -> u16 {
        match self {
            NegotiationError::Malformed { .. }
            | NegotiationError::Ambiguous { .. }
            | NegotiationError::Required { .. } => 400,
            NegotiationError::NotAcceptable { .. }
            | NegotiationError::NotAcceptableText { .. }
            | NegotiationError::Retired { .. } => 406,
        }
    }

    /// The served minimum.
    pub const fn min(&self) -> Version {
        match self {
            NegotiationError::Malformed { min, .. }
            | NegotiationError::NotAcceptable { min, .. }
            | NegotiationError::NotAcceptableText { min, .. }
            | NegotiationError::Retired { min, .. }
            | NegotiationError::Ambiguous { min, .. }
            | NegotiationError::Required { min, .. } => *min,
        }
    }

    /// The served maximum.
    pub const fn max(&self) -> Version {
        match self {
            NegotiationError::Malformed { max, .. }
            | NegotiationError::NotAcceptable { max, .. }
            | NegotiationError::NotAcceptableText { max, .. }
            | NegotiationError::Retired { max, .. }
            | NegotiationError::Ambiguous { max, .. }
            | NegotiationError::Required { max, .. } => *max,
        }
    }

    /// The well-formed version requested, for a 406.
    pub const fn requested_version(&self) -> Option<Version> {
        match self {
            NegotiationError::Malformed { .. }
            | NegotiationError::NotAcceptableText { .. }
            | NegotiationError::Ambiguous { .. }
            | NegotiationError::Required { .. } => None,
            NegotiationError::NotAcceptable { requested, .. }
            | NegotiationError::Retired { requested, .. } => Some(*requested),
        }
    }

    fn malformed(api: &Api, text: &[u8], max: Version) -> NegotiationError {
        NegotiationError::Malformed { requested: echoed(text), min: api.min(), max }
    }

    fn not_acceptable_text(api: &Api, text: &[u8], max: Version) -> NegotiationError {
        NegotiationError::NotAcceptableText { requested: echoed(text), min: api.min(), max }
    }
}

impl fmt::Display for NegotiationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NegotiationError::Malformed { requested, min, max } => write!(
                f,
                "Invalid API version {requested:?}: a version is MAJOR.MINOR (such as {min}) or \"latest\". \
                 Minimum is {min} and maximum is {max}."
            ),
            NegotiationError::NotAcceptable { requested, min, max } => write!(
                f,
                "Version {requested} is not supported by the API. Minimum is {min} and maximum is {max}."
            ),
            NegotiationError::NotAcceptableText { requested, min, max } => write!(
                f,
                "Version {requested} is not supported by the API. Minimum is {min} and maximum is {max}."
            ),
            NegotiationError::Retired { requested, sunset, min, max } => write!(
                f,
                "Version {requested} was retired after its sunset on {sunset}. \
                 The oldest version served is {min}; maximum is {max}."
            ),
            NegotiationError::Ambiguous { first, second, min, max } => write!(
                f,
                "Two API versions were requested: {:?} in {} and {:?} in {}. Name one version. \
                 Minimum is {min} and maximum is {max}.",
                first.text, first.reader, second.text, second.reader
            ),
            NegotiationError::Required { readers, min, max } => {
                write!(f, "An API version is required: name one in ")?;
                for (i, reader) in readers.iter().enumerate() {
                    let separator = match i {
                        0 => "",
                        _ if i + 1 == readers.len() => " or ",
                        _ => ", ",
                    };
                    write!(f, "{separator}{reader}")?;
                }
                write!(f, ". Minimum is {min} and maximum is {max}.")
            }
        }
    }
}

impl std::error::Error for NegotiationError {}

/// A refusal and the header that named the version refused (for its count,
/// §13.5), boxed: the result of a negotiation that succeeds stays a few
/// bytes, returned in registers.
pub(crate) type Refused = Box<(NegotiationError, VersionHeader)>;

/// The whitespace Python's `str.split()`/`strip()` use, restricted to ASCII,
/// so that we split entries exactly as microversion-parse does.
const fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c | 0x1c..=0x1f)
}

pub(crate) fn trim(mut bytes: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = bytes {
        if !is_space(*first) {
            break;
        }
        bytes = rest;
    }
    while let [rest @ .., last] = bytes {
        if !is_space(*last) {
            break;
        }
        bytes = rest;
    }
    bytes
}

/// The version of a standard header's value written exactly as the
/// contract writes it, `<service> <major>.<minor>` (one space, no leading
/// zero, a major of at least 1): what clients send. `prefix` is the
/// service and the space. It is read without the general reader's steps;
/// any other value gives `None`, and the general reader reads it
/// (docs/reference.md §11). It reads the same version the general reader
/// does, in every syntax.
pub(crate) fn canonical_entry(value: &[u8], prefix: &[u8]) -> Option<Version> {
    let version = value.strip_prefix(prefix)?;
    let dot = version.iter().position(|b| *b == b'.')?;
    let (major, minor) = (canonical_number(&version[..dot])?, canonical_number(&version[dot + 1..])?);
    (major > 0).then(|| Version::new(major, minor))
}

/// A number of one to four digits without a leading zero (no overflow).
fn canonical_number(digits: &[u8]) -> Option<u16> {
    let digit = |byte: u8| byte.is_ascii_digit().then(|| u16::from(byte - b'0'));
    match *digits {
        [a] => digit(a),
        [b'0', ..] => None,
        [a, b] => Some(digit(a)? * 10 + digit(b)?),
        [a, b, c] => Some(digit(a)? * 100 + digit(b)? * 10 + digit(c)?),
        [a, b, c, d] => Some(digit(a)? * 1000 + digit(b)? * 100 + digit(c)? * 10 + digit(d)?),
        _ => None,
    }
}

/// The version that the standard header's values, in the order received,
/// name for `service`: occurrences are joined with ',', and the last entry
/// for `service` wins.
pub(crate) fn standard_entry<'h>(
    values: impl IntoIterator<Item = &'h [u8]>,
    service: &[u8],
) -> Option<&'h [u8]> {
    let entries = values.into_iter().flat_map(|value| value.split(|b| *b == b','));
    entries.filter_map(|entry| version_for_service(entry, service)).last()
}

/// The version that the values of one legacy header name: the last element
/// of its last occurrence, as joined occurrences read.
pub(crate) fn legacy_entry<'h>(values: impl IntoIterator<Item = &'h [u8]>) -> Option<&'h [u8]> {
    let last = values.into_iter().last()?;
    Some(trim(last.rsplit(|b| *b == b',').next().unwrap_or_default()))
}

/// For one comma-separated entry `SERVICE VERSION`, the version if the
/// service is ours. Entries without whitespace name nothing.
///
/// The service name is a token (no whitespace), so the entry's name is ours
/// exactly when it starts with it and whitespace follows: no scan for the
/// first space, which matters on every request (docs/reference.md §11).
fn version_for_service<'a>(entry: &'a [u8], service: &[u8]) -> Option<&'a [u8]> {
    let start = entry.iter().position(|b| !is_space(*b))?;
    let (name, rest) = entry[start..].split_at_checked(service.len())?;
    let (&space, version) = rest.split_first()?;
    // Clients write the service as it is declared: bytes compare before case.
    if !is_space(space) || (name != service && !name.eq_ignore_ascii_case(service)) {
        return None;
    }
    let version = trim(version);
    (!version.is_empty()).then_some(version)
}

impl Api {
    /// Negotiates the version of one request from its headers, given as
    /// `(name, value)` pairs in the order received. Allocates nothing unless
    /// it fails.
    ///
    /// ```
    /// use microversion_core::{Api, Microversion, Version, version::VersionSource};
    ///
    /// const API: Api = Api::new("compute", &[
    ///     Microversion::new("2.1", "Initial version."),
    ///     Microversion::new("2.2", "Keypairs gain a type."),
    /// ]);
    ///
    /// let got = API.negotiate([("OpenStack-API-Version", "compute 2.2")]).unwrap();
    /// assert_eq!(got.version, Version::lit("2.2"));
    /// assert_eq!(got.source, VersionSource::Explicit);
    ///
    /// let none: [(&str, &str); 0] = [];
    /// assert_eq!(API.negotiate(none).unwrap().source, VersionSource::Default);
    ///
    /// let err = API.negotiate([("openstack-api-version", "compute 2.7")]).unwrap_err();
    /// assert_eq!(err.status(), 406);
    /// ```
    pub fn negotiate<'h, I, N, V>(&self, headers: I) -> Result<Negotiated, NegotiationError>
    where
        I: IntoIterator<Item = (&'h N, &'h V)>,
        N: AsRef<[u8]> + ?Sized + 'h,
        V: AsRef<[u8]> + ?Sized + 'h,
    {
        self.negotiate_up_to(headers, self.max())
    }

    /// [`Api::negotiate`] with `max` as the served maximum: the value of a
    /// cap that changes while serving ([`VersionCap`](crate::VersionCap)).
    pub fn negotiate_up_to<'h, I, N, V>(
        &self,
        headers: I,
        max: Version,
    ) -> Result<Negotiated, NegotiationError>
    where
        I: IntoIterator<Item = (&'h N, &'h V)>,
        N: AsRef<[u8]> + ?Sized + 'h,
        V: AsRef<[u8]> + ?Sized + 'h,
    {
        self.negotiate_request_up_to(headers, RequestTarget::default(), max)
    }

    /// [`Api::negotiate_up_to`] of a request whose path and query are
    /// `target`: each of the API's readers read (docs/reference.md §2.6).
    ///
    /// ```
    /// use microversion_core::{Api, Microversion, Version};
    /// use microversion_core::version::{RequestTarget, VersionReader};
    ///
    /// const SHOP: Api = Api::new("shop", &[Microversion::new("1.0", "a"), Microversion::new("1.1", "b")])
    ///     .with_readers(&[VersionReader::Query("api-version"), VersionReader::Standard]);
    /// let none: [(&str, &str); 0] = [];
    /// let by_query = SHOP.negotiate_request_up_to(none, RequestTarget::parse("/widgets?api-version=1.1"), SHOP.max());
    /// assert_eq!(by_query.unwrap().version, Version::lit("1.1"));
    ///
    /// let two = SHOP.negotiate_request_up_to(
    ///     [("OpenStack-API-Version", "shop 1.0")],
    ///     RequestTarget::parse("/widgets?api-version=1.1"),
    ///     SHOP.max(),
    /// );
    /// assert_eq!(two.unwrap_err().status(), 400);
    /// ```
    pub fn negotiate_request_up_to<'h, I, N, V>(
        &self,
        headers: I,
        target: RequestTarget<'h>,
        max: Version,
    ) -> Result<Negotiated, NegotiationError>
    where
        I: IntoIterator<Item = (&'h N, &'h V)>,
        N: AsRef<[u8]> + ?Sized + 'h,
        V: AsRef<[u8]> + ?Sized + 'h,
    {
        self.read_version(headers, target, max).map_err(|refused| refused.0)
    }

    /// [`Api::negotiate_request_up_to`], a refusal with where the version
    /// it refuses was read, for its count (§13.5).
    pub(crate) fn read_version<'h, I, N, V>(
        &self,
        headers: I,
        target: RequestTarget<'h>,
        max: Version,
    ) -> Result<Negotiated, Refused>
    where
        I: IntoIterator<Item = (&'h N, &'h V)>,
        N: AsRef<[u8]> + ?Sized + 'h,
        V: AsRef<[u8]> + ?Sized + 'h,
    {
        if matches!(self.readers(), [VersionReader::Standard]) {
            return self.read_requested(self.requested(headers), max);
        }
        let headers: Vec<(&[u8], &[u8])> =
            headers.into_iter().map(|(n, v)| (n.as_ref(), v.as_ref())).collect();
        let mut chosen: Option<(Negotiated, Named<'_>)> = None;
        for named in read::named(self, &headers, target) {
            let resolved = self.resolve(&named.text, named.header, max)?;
            match &chosen {
                None => chosen = Some((resolved, named)),
                Some((first, by)) if first.version != resolved.version => {
                    let (first, second) = (NamedVersion::of(by), NamedVersion::of(&named));
                    let ambiguous = NegotiationError::Ambiguous { first, second, min: self.min(), max };
                    return Err(Box::new((ambiguous, by.header)));
                }
                Some(_) => {}
            }
        }
        match chosen {
            Some((negotiated, by)) => self.served(negotiated, &by.text[..], max),
            None => self.unnamed(max),
        }
    }

    /// The version of a request that named `requested` in the OpenStack
    /// headers (the API reads no other), up to `max`: the rules alone, which
    /// allocate nothing (§11).
    pub(crate) fn read_requested(
        &self,
        requested: Option<(&[u8], VersionHeader)>,
        max: Version,
    ) -> Result<Negotiated, Refused> {
        match requested {
            Some((text, header)) => self.resolve(text, header, max).and_then(|n| self.served(n, text, max)),
            None => self.unnamed(max),
        }
    }

    /// The version `text` names (`latest`: `max`) in the API's syntax, or
    /// the refusal of a text that names none this API could serve.
    fn resolve(&self, text: &[u8], header: VersionHeader, max: Version) -> Result<Negotiated, Refused> {
        if text == b"latest" {
            return Ok(Negotiated { version: max, source: VersionSource::Latest, header });
        }
        let version = match self.version_syntax().read(text) {
            VersionText::Version(version) => version,
            VersionText::Unheld => {
                return Err(Box::new((NegotiationError::not_acceptable_text(self, text, max), header)));
            }
            VersionText::Malformed => {
                return Err(Box::new((NegotiationError::malformed(self, text, max), header)));
            }
        };
        Ok(Negotiated { version, source: VersionSource::Explicit, header })
    }

    /// `negotiated`, read from `text`, if it is served up to `max`, or its
    /// 406, which echoes a version written otherwise as written.
    fn served(&self, negotiated: Negotiated, text: &[u8], max: Version) -> Result<Negotiated, Refused> {
        let version = negotiated.version;
        if negotiated.source == VersionSource::Latest || self.serves_up_to(version, max) {
            return Ok(negotiated);
        }
        let (min, sunset) = (self.min(), self.deprecation_for(version).and_then(|d| d.sunset_date()));
        let refusal = match sunset {
            Some(sunset) if version.lt(min) && self.position(version).is_some() => {
                NegotiationError::Retired { requested: version, sunset, min, max }
            }
            _ if Version::parse_bytes(text).is_err() => {
                NegotiationError::not_acceptable_text(self, text, max)
            }
            _ => NegotiationError::NotAcceptable { requested: version, min, max },
        };
        Err(Box::new((refusal, negotiated.header)))
    }

    /// The version of a request that names none: the default, or the 400
    /// of an API that requires one.
    fn unnamed(&self, max: Version) -> Result<Negotiated, Refused> {
        if self.version_required() {
            let (readers, min) = (self.readers(), self.min());
            return Err(Box::new((NegotiationError::Required { readers, min, max }, VersionHeader::None)));
        }
        Ok(Negotiated {
            version: self.default_version(),
            source: VersionSource::Default,
            header: VersionHeader::None,
        })
    }

    /// The version of a request that named none, from the client's own
    /// default (`pinned`, from a hook of the deployer's:
    /// docs/reference.md §3.6), kept within what is served now: a pinned
    /// version above the served maximum `max` (a cap lowered since) is
    /// served at `max`; one no longer served otherwise (retired, disabled)
    /// gets the API's default, as a client that named nothing.
    ///
    /// ```
    /// use microversion_core::{Api, Microversion, Version, version::VersionSource};
    ///
    /// const API: Api = Api::new("compute", &[
    ///     Microversion::new("2.1", "a"), Microversion::new("2.2", "b"), Microversion::new("2.3", "c"),
    /// ]);
    /// let v = Version::lit;
    /// assert_eq!(API.negotiate_pinned(v("2.2"), v("2.3")).version, v("2.2"));
    /// assert_eq!(API.negotiate_pinned(v("2.2"), v("2.3")).source, VersionSource::Client);
    /// assert_eq!(API.negotiate_pinned(v("2.3"), v("2.2")).version, v("2.2"));
    /// assert_eq!(API.negotiate_pinned(v("9.9"), v("2.3")).version, v("2.3"));
    /// assert_eq!(API.negotiate_pinned(v("1.0"), v("2.3")).source, VersionSource::Default);
    /// ```
    pub fn negotiate_pinned(&self, pinned: Version, max: Version) -> Negotiated {
        let version = if self.serves_up_to(pinned, max) {
            pinned
        } else if max.lt(pinned) && self.serves_up_to(max, max) {
            max
        } else {
            return Negotiated {
                version: self.default_version(),
                source: VersionSource::Default,
                header: VersionHeader::None,
            };
        };
        Negotiated { version, source: VersionSource::Client, header: VersionHeader::None }
    }

    /// The version discovery shows a client pinned to `pinned`
    /// (`client_version`): what [`Api::negotiate_pinned`] serves it at now,
    /// or `None` when that is the API's default.
    pub fn client_version(&self, pinned: Version) -> Option<Version> {
        let negotiated = self.negotiate_pinned(pinned, self.max());
        (negotiated.source == VersionSource::Client).then_some(negotiated.version)
    }

    /// Which header names the version a request asks for (the one
    /// [`Api::negotiate`] reads), whether or not that version is served:
    /// what metrics record for a request refused with 400 or 406.
    pub fn version_header<'h, I, N, V>(&self, headers: I) -> VersionHeader
    where
        I: IntoIterator<Item = (&'h N, &'h V)>,
        N: AsRef<[u8]> + ?Sized + 'h,
        V: AsRef<[u8]> + ?Sized + 'h,
    {
        self.requested(headers).map_or(VersionHeader::None, |(_, header)| header)
    }

    /// The requested text and the header it came from (docs/reference.md §2).
    pub(crate) fn requested<'h, I, N, V>(&self, headers: I) -> Option<(&'h [u8], VersionHeader)>
    where
        I: IntoIterator<Item = (&'h N, &'h V)>,
        N: AsRef<[u8]> + ?Sized + 'h,
        V: AsRef<[u8]> + ?Sized + 'h,
    {
        let service = self.service_type().as_bytes();
        let legacy_names = self.legacy_headers();
        let mut standard: Option<&[u8]> = None;
        let mut legacy: [Option<&[u8]>; MAX_LEGACY_HEADERS] = [None; MAX_LEGACY_HEADERS];

        for (name, value) in headers {
            let (name, value) = (name.as_ref(), value.as_ref());
            if name.eq_ignore_ascii_case(STANDARD_HEADER.as_bytes()) {
                standard = standard_entry([value], service).or(standard);
            } else if let Some(i) = legacy_names.iter().position(|l| name.eq_ignore_ascii_case(l.as_bytes()))
            {
                legacy[i] = legacy_entry([value]);
            }
        }

        match standard {
            Some(text) => Some((text, VersionHeader::Standard)),
            None => legacy.iter().flatten().next().map(|text| (*text, VersionHeader::Legacy)),
        }
    }
}

/// Why a route or an argument that reads the version of its request has
/// none ([`version_of_request`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VersionUnknown {
    /// The request's version headers did not negotiate (400 or 406).
    Refused(NegotiationError),
    /// Neither a negotiation in front of the route nor a declaration
    /// registered with the app: a mistake of the service's (500), whose
    /// detail [`not_negotiated_detail`] writes.
    NotNegotiated,
}

/// The version of a request where a route or an argument reads it, the
/// same on every facade (docs/reference.md §4.4): the one the negotiation
/// in front of the route put in the request, else negotiated here from the
/// declaration the app registered, by every reader it declares (its
/// answers then carry no version headers: nothing stamps them; a path
/// segment reader needs the negotiation in front, which routes the request
/// without it, §2.6), else [`VersionUnknown::NotNegotiated`].
///
/// ```
/// use microversion_core::{Api, Microversion, Version};
/// use microversion_core::version::{RequestTarget, VersionReader, VersionUnknown, version_of_request};
///
/// const API: Api = Api::new("compute", &[Microversion::new("2.1", "a"), Microversion::new("2.2", "b")]);
/// let headers = [("OpenStack-API-Version", "compute 2.2")];
/// let target = RequestTarget::parse("/servers");
///
/// let from_layer = API.negotiate([("OpenStack-API-Version", "compute 2.1")]).ok();
/// assert_eq!(version_of_request(from_layer, Some(&API), headers, target).unwrap().version, Version::lit("2.1"));
/// assert_eq!(version_of_request(None, Some(&API), headers, target).unwrap().version, Version::lit("2.2"));
/// assert_eq!(version_of_request(None, None, headers, target), Err(VersionUnknown::NotNegotiated));
///
/// // A query reader is read without the negotiation in front too.
/// const SHOP: Api = Api::new("shop", &[Microversion::new("1.0", "a"), Microversion::new("1.1", "b")])
///     .with_readers(&[VersionReader::Query("api-version"), VersionReader::Standard]);
/// let none: [(&str, &str); 0] = [];
/// let by_query = version_of_request(None, Some(&SHOP), none, RequestTarget::parse("/widgets?api-version=1.1"));
/// assert_eq!(by_query.unwrap().version, Version::lit("1.1"));
/// ```
pub fn version_of_request<'h, I, N, V>(
    negotiated: Option<Negotiated>,
    registered: Option<&Api>,
    headers: I,
    target: RequestTarget<'h>,
) -> Result<Negotiated, VersionUnknown>
where
    I: IntoIterator<Item = (&'h N, &'h V)>,
    N: AsRef<[u8]> + ?Sized + 'h,
    V: AsRef<[u8]> + ?Sized + 'h,
{
    match (negotiated, registered) {
        (Some(negotiated), _) => Ok(negotiated),
        (None, Some(api)) => {
            api.negotiate_request_up_to(headers, target, api.max()).map_err(VersionUnknown::Refused)
        }
        (None, None) => Err(VersionUnknown::NotNegotiated),
    }
}

/// The detail of [`VersionUnknown::NotNegotiated`] for `method` and `path`,
/// ending with `remedy`: the facade's words for what to add.
///
/// ```
/// let detail = microversion_core::version::not_negotiated_detail("GET", "/v", "Add it.");
/// assert_eq!(
///     detail,
///     "No API version is known for GET /v: the route reads the API version, \
///      but no VersionNegotiation is in front of it. Add it."
/// );
/// ```
pub fn not_negotiated_detail(method: &str, path: &str, remedy: &str) -> String {
    format!(
        "No API version is known for {method} {path}: the route reads the API version, \
         but no VersionNegotiation is in front of it. {remedy}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Microversion;

    static HISTORY: [Microversion; 9] = [
        Microversion::new("2.1", "a"),
        Microversion::new("2.2", "b"),
        Microversion::new("2.3", "c"),
        Microversion::new("2.4", "d"),
        Microversion::new("2.5", "e"),
        Microversion::new("2.6", "f"),
        Microversion::new("2.7", "g"),
        Microversion::new("2.8", "h"),
        Microversion::new("2.9", "i"),
    ];
    const API: Api = Api::new("compute", &HISTORY).with_legacy_headers(&["X-OpenStack-Nova-API-Version"]);
    const STD: &str = "OpenStack-API-Version";
    const LEGACY: &str = "X-OpenStack-Nova-API-Version";

    fn negotiate(headers: &[(&str, &str)]) -> Result<Negotiated, NegotiationError> {
        API.negotiate(headers.iter().map(|(n, v)| (*n, *v)))
    }

    fn version(headers: &[(&str, &str)]) -> String {
        negotiate(headers).unwrap().version.to_string()
    }

    fn status(headers: &[(&str, &str)]) -> u16 {
        negotiate(headers).unwrap_err().status()
    }

    #[test]
    fn no_header_gives_the_default() {
        let got = negotiate(&[("Accept", "application/json")]).unwrap();
        assert_eq!(
            got,
            Negotiated {
                version: Version::new(2, 1),
                source: VersionSource::Default,
                header: VersionHeader::None
            }
        );
        let api = API.with_default_version("2.3");
        assert_eq!(api.negotiate([(STD, "")]).unwrap().version, Version::new(2, 3));
    }

    #[test]
    fn design_table_rows() {
        assert_eq!(version(&[(STD, "compute 2.5")]), "2.5");
        assert_eq!(version(&[(STD, "Compute 2.5")]), "2.5");
        assert_eq!(version(&[(STD, "  compute   2.5  ")]), "2.5");
        assert_eq!(version(&[("openstack-api-version", "compute 2.5")]), "2.5");
        assert_eq!(negotiate(&[(STD, "volume 3.5")]).unwrap().source, VersionSource::Default);
        assert_eq!(version(&[(STD, "volume 3.5"), (LEGACY, "2.7")]), "2.7");
        assert_eq!(version(&[(STD, "compute 2.3"), (LEGACY, "2.7")]), "2.3");
        assert_eq!(version(&[(LEGACY, "2.7"), (STD, "compute 2.3")]), "2.3");
        assert_eq!(version(&[(STD, "compute 2.3"), (LEGACY, "garbage")]), "2.3");
        assert_eq!(version(&[(STD, "compute 2.1, compute 2.9")]), "2.9");
        assert_eq!(version(&[(STD, "compute 2.1"), (STD, "compute 2.9")]), "2.9");
        assert_eq!(version(&[(STD, "dogs 1.9, compute 2.4")]), "2.4");
        let latest = negotiate(&[(STD, "compute latest")]).unwrap();
        assert_eq!(
            latest,
            Negotiated {
                version: Version::new(2, 9),
                source: VersionSource::Latest,
                header: VersionHeader::Standard
            }
        );
        for bad in ["compute LATEST", "compute 2.1.3", "compute bogus", "compute 02.1", "compute 2.1 2.2"] {
            assert_eq!(status(&[(STD, bad)]), 400, "{bad}");
        }
        for unsupported in ["compute 2.0", "compute 3.0", "compute 2.10", "compute 1.9"] {
            assert_eq!(status(&[(STD, unsupported)]), 406, "{unsupported}");
        }
        assert_eq!(status(&[(LEGACY, "")]), 400);
        assert_eq!(status(&[(LEGACY, " , ")]), 400);
    }

    #[test]
    fn legacy_header_rules() {
        assert_eq!(version(&[(LEGACY, "2.4")]), "2.4");
        assert_eq!(version(&[("x-openstack-nova-api-version", " 2.1, 2.6 ")]), "2.6");
        assert_eq!(version(&[(LEGACY, "2.2"), (LEGACY, "2.8")]), "2.8");
        assert_eq!(version(&[(LEGACY, "latest")]), "2.9");
        assert_eq!(status(&[(LEGACY, "garbage")]), 400);
        // An empty standard header counts as absent, the legacy one decides.
        assert_eq!(version(&[(STD, ""), (LEGACY, "2.6")]), "2.6");
        assert_eq!(version(&[(STD, "compute"), (LEGACY, "2.6")]), "2.6");
    }

    #[test]
    fn legacy_headers_are_tried_in_declared_order() {
        let api = Api::new("compute", &HISTORY).with_legacy_headers(&["X-First", "X-Second"]);
        let got = api.negotiate([("X-Second", "2.3"), ("X-First", "2.2")]).unwrap();
        assert_eq!(got.version, Version::new(2, 2));
        let got = api.negotiate([("X-Second", "2.3")]).unwrap();
        assert_eq!(got.version, Version::new(2, 3));
    }

    #[test]
    fn cap_and_disabled_versions_drive_406_and_latest() {
        let capped = API.capped_at(Version::new(2, 5)).unwrap();
        assert_eq!(capped.negotiate([(STD, "compute latest")]).unwrap().version, Version::new(2, 5));
        let err = capped.negotiate([(STD, "compute 2.6")]).unwrap_err();
        assert_eq!(
            err,
            NegotiationError::NotAcceptable {
                requested: Version::new(2, 6),
                min: Version::new(2, 1),
                max: Version::new(2, 5)
            }
        );
        assert_eq!(
            err.to_string(),
            "Version 2.6 is not supported by the API. Minimum is 2.1 and maximum is 2.5."
        );
        static OFF: [Version; 1] = [Version::new(2, 4)];
        let api = API.with_disabled(&OFF);
        assert_eq!(api.negotiate([(STD, "compute 2.4")]).unwrap_err().status(), 406);
    }

    #[test]
    fn a_version_read_as_microversion_parse_reads_it_is_served_or_refused_as_written() {
        use crate::version::VersionSyntax;
        const PLACEMENT: Api = Api::new(
            "placement",
            &[Microversion::new("1.0", "a"), Microversion::new("1.5", "b"), Microversion::new("1.10", "c")],
        )
        .with_readers(&[VersionReader::Standard, VersionReader::Query("v")])
        .with_version_syntax(VersionSyntax::MicroversionParse);
        let at = |value: &str, target: &str| {
            PLACEMENT.negotiate_request_up_to([(STD, value)], RequestTarget::parse(target), PLACEMENT.max())
        };
        assert_eq!(at("placement 1.05", "/").unwrap().version, Version::lit("1.5"));
        assert_eq!(at("placement 01.010", "/").unwrap().version, Version::lit("1.10"));
        assert_eq!(at("placement 1. 5", "/").unwrap().version, Version::lit("1.5"));
        // One version written two ways is one version, not two.
        assert_eq!(at("placement 1.05", "/?v=1.5").unwrap().version, Version::lit("1.5"));
        let refused = |value: &str| at(value, "/").unwrap_err();
        for (text, requested) in
            [("-1.5", "-1.5"), ("0.5", "0.5"), ("1.099", "1.099"), ("1.70000", "1.70000")]
        {
            let (min, max) = (Version::lit("1.0"), Version::lit("1.10"));
            let expected = NegotiationError::NotAcceptableText { requested: requested.to_owned(), min, max };
            assert_eq!(refused(&format!("placement {text}")), expected, "{text}");
            assert_eq!(expected.status(), 406);
        }
        // Written as the API writes it, the 406 names the version.
        assert!(matches!(refused("placement 1.99"), NegotiationError::NotAcceptable { .. }));
        for malformed in ["placement 1.a", "placement 1", "placement 1.5.0", "placement 1.5_"] {
            assert!(matches!(refused(malformed), NegotiationError::Malformed { .. }), "{malformed}");
        }
        // The default syntax reads none of them.
        for text in ["compute 2.05", "compute -2.5", "compute 02.5"] {
            assert!(
                matches!(negotiate(&[(STD, text)]).unwrap_err(), NegotiationError::Malformed { .. }),
                "{text}"
            );
        }
    }

    #[test]
    fn malformed_text_is_echoed_and_cut() {
        let long = format!("compute {}", "x".repeat(10_000));
        match negotiate(&[(STD, &long)]).unwrap_err() {
            NegotiationError::Malformed { requested, min, max } => {
                assert_eq!(requested, format!("{}…", "x".repeat(MAX_ECHOED_BYTES)));
                assert_eq!((min, max), (Version::new(2, 1), Version::new(2, 9)));
            }
            other => panic!("expected malformed, got {other:?}"),
        }
    }

    #[test]
    fn hostile_bytes_never_panic() {
        let bytes: Vec<u8> = (0..=255u8).collect();
        let got = API.negotiate([(STD.as_bytes(), &b"compute \xff\xfe"[..])]);
        assert_eq!(got.unwrap_err().status(), 400);
        let got = API.negotiate([(&bytes[..], &bytes[..]), (STD.as_bytes(), &bytes[..])]);
        assert_eq!(got.unwrap().source, VersionSource::Default);
        assert_eq!(
            API.negotiate([(STD.as_bytes(), &b"compute\x002.5"[..])]).unwrap().source,
            VersionSource::Default
        );
        assert_eq!(status(&[(STD, "compute ٢.٥")]), 400);
        let many = vec!["dogs 1.0"; 5000].join(",") + ",compute 2.8";
        assert_eq!(version(&[(STD, &many)]), "2.8");
        let huge = "compute 2.2,".repeat(6000);
        assert!(huge.len() > 64 * 1024);
        assert_eq!(version(&[(STD, &huge)]), "2.2");
        let commas = ",".repeat(65536);
        assert_eq!(negotiate(&[(STD, &commas)]).unwrap().source, VersionSource::Default);
    }
}
