//! `Api`: the one declaration of a versioned API and its version history.

use std::borrow::Cow;
use std::fmt;
use std::fmt::Write as _;

use super::reader::{MAX_READERS, STANDARD_READERS, VersionReader};
use super::syntax::VersionSyntax;
use crate::lifecycle::Timestamp;
use crate::lifecycle::{Deprecation, RetireError};
use crate::{Version, VersionRange};

/// The name of the standard request and response header.
pub const STANDARD_HEADER: &str = "OpenStack-API-Version";

/// How many legacy header names one declaration may list.
pub const MAX_LEGACY_HEADERS: usize = 4;

/// How many deprecations one declaration may list (ranges and the whole API).
pub const MAX_DEPRECATIONS: usize = 8;

const NO_DEPRECATION: Deprecation = Deprecation::whole_api();

/// One entry of the version history: a version and the change it made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Microversion {
    /// The version that introduced the change.
    pub version: Version,
    /// One line saying what changed, for the rendered history.
    pub change: &'static str,
}

impl Microversion {
    /// A history entry from a version literal (checked at compile time in a
    /// `const`: a bad literal is one error, at this call).
    #[track_caller]
    pub const fn new(version: &str, change: &'static str) -> Microversion {
        Microversion { version: Version::lit(version), change }
    }
}

/// The status of an API version in discovery documents.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum VersionStatus {
    /// The recommended version.
    Current,
    /// Still served, not the newest.
    Supported,
    /// Served, but clients should move away.
    Deprecated,
}

impl VersionStatus {
    /// The upper-case spelling used on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            VersionStatus::Current => "CURRENT",
            VersionStatus::Supported => "SUPPORTED",
            VersionStatus::Deprecated => "DEPRECATED",
        }
    }
}

/// The declaration of a versioned API: the single source of truth for its
/// service type, headers and version history. Min, max and the list of
/// served versions all come from the history.
///
/// It is built in a `const` so that mistakes (an unordered history, a bad
/// literal, an unknown default) are compile errors, and so that the macros
/// can check controller ranges against it at compile time.
///
/// ```
/// use microversion_core::{Api, Microversion, Version};
///
/// const COMPUTE: Api = Api::new("compute", &[
///     Microversion::new("2.1", "Initial version."),
///     Microversion::new("2.2", "Keypairs gain a type."),
///     Microversion::new("2.3", "Servers show extended attributes."),
/// ])
/// .with_legacy_headers(&["X-OpenStack-Nova-API-Version"]);
///
/// assert_eq!(COMPUTE.min(), Version::lit("2.1"));
/// assert_eq!(COMPUTE.max(), Version::lit("2.3"));
///
/// // A deployer pins the API below the compiled maximum during an upgrade.
/// let pinned = COMPUTE.capped_at(Version::lit("2.2")).unwrap();
/// assert_eq!(pinned.max(), Version::lit("2.2"));
/// assert_eq!(pinned.compiled_max(), Version::lit("2.3"));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Api {
    service_type: &'static str,
    legacy_headers: &'static [&'static str],
    readers: &'static [VersionReader],
    syntax: VersionSyntax,
    version_required: bool,
    operation_versions: bool,
    history: &'static [Microversion],
    default: Option<Version>,
    cap: Option<Version>,
    disabled: &'static [Version],
    id: Option<&'static str>,
    path: Option<&'static str>,
    status: VersionStatus,
    updated: Option<&'static str>,
    deprecations: [Deprecation; MAX_DEPRECATIONS],
    deprecation_count: usize,
    retired_below: Option<Version>,
}

/// Why a deployer cap cannot be applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CapError {
    /// The cap is not a version of the history.
    NotInHistory(Version),
    /// The cap is below the default version, which must stay served.
    BelowDefault {
        /// The requested cap.
        cap: Version,
        /// The declaration's default version.
        default: Version,
    },
}

impl fmt::Display for CapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CapError::NotInHistory(v) => write!(f, "cannot cap the API at {v}: it is not a declared version"),
            CapError::BelowDefault { cap, default } => {
                write!(f, "cannot cap the API at {cap}: it is below the default version {default}")
            }
        }
    }
}

impl std::error::Error for CapError {}

pub(crate) const fn is_token(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.is_empty() {
        return false;
    }
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let ok = b.is_ascii_alphanumeric()
            || matches!(
                b,
                b'-' | b'_'
                    | b'.'
                    | b'!'
                    | b'#'
                    | b'$'
                    | b'%'
                    | b'&'
                    | b'\''
                    | b'*'
                    | b'+'
                    | b'^'
                    | b'`'
                    | b'|'
                    | b'~'
            );
        if !ok {
            return false;
        }
        i += 1;
    }
    true
}

/// `/seg(/seg)*`, each segment non-empty and made of unreserved characters.
const fn is_mount_path(path: &str) -> bool {
    let bytes = path.as_bytes();
    if bytes.len() < 2 || bytes[0] != b'/' || bytes[bytes.len() - 1] == b'/' {
        return false;
    }
    let mut i = 1;
    while i < bytes.len() {
        let b = bytes[i];
        let ok = b.is_ascii_alphanumeric()
            || matches!(b, b'-' | b'.' | b'_' | b'~')
            || (b == b'/' && bytes[i - 1] != b'/');
        if !ok {
            return false;
        }
        i += 1;
    }
    true
}

pub(crate) const fn eq_ignore_ascii_case(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if !a[i].eq_ignore_ascii_case(&b[i]) {
            return false;
        }
        i += 1;
    }
    true
}

/// Panics unless `readers` can be read together (see [`Api::with_readers`]).
#[track_caller]
const fn check_readers(readers: &[VersionReader], legacy: &[&str]) {
    assert!(!readers.is_empty(), "an API reads its version from at least one place");
    assert!(readers.len() <= MAX_READERS, "at most 8 version readers may be declared");
    let mut i = 0;
    while i < readers.len() {
        readers[i].check(legacy);
        let mut j = 0;
        while j < i {
            assert!(!readers[i].same_place(readers[j]), "two version readers read the same place");
            j += 1;
        }
        i += 1;
    }
}

impl Api {
    /// Declares an API of `service_type` with its version history, oldest first.
    ///
    /// Panics (a compile error in a `const`) if the service type is not a plain
    /// token, the history is empty, or its versions are not strictly increasing.
    pub const fn new(service_type: &'static str, history: &'static [Microversion]) -> Api {
        assert!(is_token(service_type), "the service type must be a non-empty token such as \"compute\"");
        assert!(!history.is_empty(), "the version history must list at least one version");
        let mut i = 1;
        while i < history.len() {
            assert!(
                history[i - 1].version.lt(history[i].version),
                "the version history must be in strictly increasing order"
            );
            i += 1;
        }
        Api {
            service_type,
            legacy_headers: &[],
            readers: STANDARD_READERS,
            syntax: VersionSyntax::Strict,
            version_required: false,
            operation_versions: false,
            history,
            default: None,
            cap: None,
            disabled: &[],
            id: None,
            path: None,
            status: VersionStatus::Current,
            updated: None,
            deprecations: [NO_DEPRECATION; MAX_DEPRECATIONS],
            deprecation_count: 0,
            retired_below: None,
        }
    }

    /// Header names read when the standard header names no version for this
    /// service, tried in order (Nova: `X-OpenStack-Nova-API-Version`).
    #[track_caller]
    pub const fn with_legacy_headers(mut self, names: &'static [&'static str]) -> Api {
        assert!(names.len() <= MAX_LEGACY_HEADERS, "at most 4 legacy headers may be declared");
        let mut i = 0;
        while i < names.len() {
            assert!(is_token(names[i]), "a legacy header name must be a valid HTTP header name");
            assert!(
                !eq_ignore_ascii_case(names[i].as_bytes(), STANDARD_HEADER.as_bytes()),
                "the standard header cannot also be a legacy header"
            );
            i += 1;
        }
        self.legacy_headers = names;
        check_readers(self.readers, names);
        self
    }

    /// The places a request may name its version, in their order of
    /// precedence (docs/reference.md §2.6): `OpenStack-API-Version` and the
    /// legacy headers ([`VersionReader::Standard`]) unless set. A request
    /// that names two different versions, in two places or twice in one, is
    /// refused with a 400 that names both; the first reader that names one
    /// is the one an answer is counted under.
    ///
    /// Panics (a compile error in a `const`) if `readers` is empty, lists
    /// more than [`MAX_READERS`](crate::version::MAX_READERS), reads one
    /// place twice, or names a header, parameter or prefix that cannot be
    /// read ([`VersionReader`]).
    ///
    /// ```
    /// use microversion_core::{Api, Microversion, version::VersionReader};
    ///
    /// const SHOP: Api = Api::new("shop", &[Microversion::new("1.0", "Initial version.")])
    ///     .with_readers(&[VersionReader::Standard, VersionReader::Query("api-version")]);
    /// assert_eq!(SHOP.readers()[1], VersionReader::Query("api-version"));
    /// ```
    #[track_caller]
    pub const fn with_readers(mut self, readers: &'static [VersionReader]) -> Api {
        check_readers(readers, self.legacy_headers);
        self.readers = readers;
        self
    }

    /// How the version a request names is read (docs/reference.md §2.5):
    /// the OpenStack grammar unless set ([`VersionSyntax::Strict`]);
    /// [`VersionSyntax::MicroversionParse`] for a service that reads it as
    /// microversion-parse does, as Placement does. The syntax decides which
    /// refusal a text gets: malformed (400) or not served (406).
    pub const fn with_version_syntax(mut self, syntax: VersionSyntax) -> Api {
        self.syntax = syntax;
        self
    }

    /// How the version a request names is read ([`Api::with_version_syntax`]).
    pub const fn version_syntax(&self) -> VersionSyntax {
        self.syntax
    }

    /// Requires every request to name its version: one that names none is
    /// refused with a 400 ([`NegotiationError::Required`]) instead of being
    /// served at the default version, and a client default is not asked.
    ///
    /// [`NegotiationError::Required`]: crate::NegotiationError::Required
    pub const fn with_version_required(mut self) -> Api {
        self.version_required = true;
        self
    }

    /// The version served to requests that ask for none (the minimum unless set).
    pub const fn with_default_version(mut self, version: &str) -> Api {
        let version = Version::lit(version);
        assert!(self.position(version).is_some(), "the default version must be a version of the history");
        self.default = Some(version);
        self
    }

    /// Versions inside the history that are refused (answered with 406), for
    /// example one withdrawn after release.
    pub const fn with_disabled(mut self, versions: &'static [Version]) -> Api {
        let mut i = 0;
        while i < versions.len() {
            assert!(
                self.position(versions[i]).is_some(),
                "a disabled version must be a version of the history"
            );
            assert!(!versions[i].const_eq(self.default_version()), "the default version cannot be disabled");
            i += 1;
        }
        self.disabled = versions;
        self
    }

    /// The identifier of this API in discovery documents (`v2.1`); defaults to
    /// `v` followed by the minimum version.
    pub const fn with_id(mut self, id: &'static str) -> Api {
        assert!(is_token(id), "the API id must be a token such as \"v2.1\"");
        self.id = Some(id);
        self
    }

    /// The path the API is mounted at, relative to the service root, when it
    /// is not `/` followed by the id: Cinder's API has the id `v3.0` and
    /// lives under `/v3`. Discovery builds the `self` links from it and
    /// answers the version document at this path, with and without the
    /// trailing slash.
    ///
    /// Panics (a compile error in a `const`) unless the path starts with
    /// `/`, does not end with one, and is made of non-empty segments of
    /// letters, digits, `-`, `.`, `_` and `~`.
    ///
    /// ```
    /// use microversion_core::{Api, Microversion};
    ///
    /// const VOLUME: Api = Api::new("volume", &[Microversion::new("3.0", "Initial.")]).with_path("/v3");
    /// assert_eq!(VOLUME.id(), "v3.0");
    /// assert_eq!(VOLUME.path(), "/v3");
    /// ```
    pub const fn with_path(mut self, path: &'static str) -> Api {
        assert!(
            is_mount_path(path),
            "the API path must look like \"/v3\": segments of letters, digits, -, ., _, ~"
        );
        self.path = Some(path);
        self
    }

    /// The status shown in discovery documents (CURRENT unless set).
    pub const fn with_status(mut self, status: VersionStatus) -> Api {
        self.status = status;
        self
    }

    /// The `updated` timestamp shown in discovery documents (ISO 8601).
    pub const fn with_updated(mut self, timestamp: &'static str) -> Api {
        self.updated = Some(timestamp);
        self
    }

    /// Lowers the served maximum below the compiled one (rolling upgrades,
    /// Ironic-style pinning). The cap drives 406, `latest` and discovery.
    pub const fn capped_at(mut self, cap: Version) -> Result<Api, CapError> {
        if self.position(cap).is_none() {
            return Err(CapError::NotInHistory(cap));
        }
        let default = self.default_version();
        if cap.lt(default) {
            return Err(CapError::BelowDefault { cap, default });
        }
        self.cap = Some(cap);
        Ok(self)
    }

    /// Declares a deprecation of some versions, or of the whole API version
    /// (docs/reference.md §13.1). Panics (a compile error in a `const`) if
    /// the deprecation has no date, its sunset comes before its date, a
    /// bound of its range is not a version of the history, it overlaps
    /// another deprecated range, the whole API is deprecated twice, or more
    /// than [`MAX_DEPRECATIONS`] are declared.
    ///
    /// ```
    /// use microversion_core::{Api, Deprecation, Microversion, Version, lifecycle::VersionStatus};
    ///
    /// const VOLUME: Api = Api::new("volume", &[
    ///     Microversion::new("3.0", "Initial version."),
    ///     Microversion::new("3.1", "Volumes show their type."),
    /// ])
    /// .with_deprecation(Deprecation::whole_api().since("2026-01-01").link("https://docs.example/v4"));
    ///
    /// assert!(VOLUME.deprecation_for(Version::lit("3.1")).is_some());
    /// assert_eq!(VOLUME.status(), VersionStatus::Deprecated);
    /// ```
    ///
    /// ```compile_fail
    /// use microversion_core::{Api, Deprecation, Microversion};
    /// // error[E0080]: a deprecated range must start and end at versions of the history
    /// const BAD: Api = Api::new("compute", &[Microversion::new("2.1", "a"), Microversion::new("2.2", "b")])
    ///     .with_deprecation(Deprecation::versions("2.1", "2.5").since("2026-01-01"));
    /// ```
    pub const fn with_deprecation(mut self, deprecation: Deprecation) -> Api {
        deprecation.check();
        assert!(self.deprecation_count < MAX_DEPRECATIONS, "at most 8 deprecations may be declared");
        if let Some(range) = deprecation.versions_covered() {
            let min_ok = match range.min() {
                Some(v) => self.position(v).is_some(),
                None => true,
            };
            let max_ok = match range.max() {
                Some(v) => self.position(v).is_some(),
                None => true,
            };
            assert!(min_ok && max_ok, "a deprecated range must start and end at versions of the history");
        }
        let mut i = 0;
        while i < self.deprecation_count {
            let other = self.deprecations[i];
            match (other.versions_covered(), deprecation.versions_covered()) {
                (None, None) => panic!("the whole API can be deprecated once only"),
                (Some(a), Some(b)) => assert!(!a.overlaps(b), "two deprecated ranges overlap"),
                _ => {}
            }
            i += 1;
        }
        self.deprecations[self.deprecation_count] = deprecation;
        self.deprecation_count += 1;
        self
    }

    /// The declared deprecations, in the order declared.
    pub fn deprecations(&self) -> &[Deprecation] {
        &self.deprecations[..self.deprecation_count]
    }

    /// The deprecation that applies to `version`: the deprecated range
    /// holding it, else the whole API's deprecation, else `None`.
    pub const fn deprecation_for(&self, version: Version) -> Option<&Deprecation> {
        let mut whole = None;
        let mut i = 0;
        while i < self.deprecation_count {
            let d = &self.deprecations[i];
            match d.versions_covered() {
                Some(range) if range.contains(version) => return Some(d),
                Some(_) => {}
                None => whole = Some(d),
            }
            i += 1;
        }
        whole
    }

    /// The whole API version's deprecation, if declared.
    pub const fn whole_api_deprecation(&self) -> Option<&Deprecation> {
        let mut i = 0;
        while i < self.deprecation_count {
            if self.deprecations[i].versions_covered().is_none() {
                return Some(&self.deprecations[i]);
            }
            i += 1;
        }
        None
    }

    /// Retires every version below `below` (docs/reference.md §13.3): they
    /// answer 406 naming their sunset and the oldest version served, and a
    /// request naming no version gets `below` when the default is older.
    /// Each retired version must be covered by a deprecation whose sunset
    /// has passed (by the clock: see [`Api::retire_below_at`]).
    pub fn retire_below(self, below: Version) -> Result<Api, RetireError> {
        self.retire_below_at(below, Timestamp::now())
    }

    /// [`Api::retire_below`] as if the time were `now`.
    pub const fn retire_below_at(mut self, below: Version, now: Timestamp) -> Result<Api, RetireError> {
        let Some(position) = self.position(below) else {
            return Err(RetireError::NotInHistory(below));
        };
        if self.max().lt(below) {
            return Err(RetireError::AboveMax { below, max: self.max() });
        }
        let mut i = 0;
        while i < position {
            let version = self.history[i].version;
            let sunset = match self.deprecation_for(version) {
                Some(d) => d.sunset_date(),
                None => None,
            };
            match sunset {
                None => return Err(RetireError::NoSunset(version)),
                Some(sunset) if !sunset.le(now) => return Err(RetireError::BeforeSunset { version, sunset }),
                Some(_) => {}
            }
            i += 1;
        }
        self.retired_below = Some(below);
        Ok(self)
    }

    /// The version below which versions are retired, if any.
    pub const fn retired_below(&self) -> Option<Version> {
        self.retired_below
    }

    /// The planned raise of the minimum, for discovery's `next_min_version`
    /// and `not_before` (the API-SIG version-discovery guideline): when a
    /// deprecated range with a sunset holds the served minimum and ends
    /// before the maximum, the first version after it, and that sunset.
    pub fn next_min_version(&self) -> Option<(Version, Timestamp)> {
        let min = self.min();
        let d = self.deprecations().iter().find(|d| d.versions_covered().is_some_and(|r| r.contains(min)))?;
        let sunset = d.sunset_date()?;
        let last = d.versions_covered()?.max()?;
        let next = self
            .history
            .iter()
            .map(|m| m.version)
            .find(|v| last.lt(*v) && self.serves_up_to(*v, Version::MAX))?;
        Some((next, sunset))
    }

    /// The service type named in `OpenStack-API-Version` (`compute`).
    pub const fn service_type(&self) -> &'static str {
        self.service_type
    }

    /// The legacy header names, in the order they are tried.
    pub const fn legacy_headers(&self) -> &'static [&'static str] {
        self.legacy_headers
    }

    /// Makes every answer of a controller's operation name the versions
    /// that operation exists in, within those served now, in
    /// [`OPERATION_VERSIONS_HEADER`](crate::header::OPERATION_VERSIONS_HEADER):
    /// `OpenStack-API-Operation-Versions: 2.2-2.9, 2.12-2.20`
    /// (docs/reference.md §3.7). A client learns where an operation it
    /// calls ends or begins from any answer, a 404 at a version it does
    /// not exist in included.
    pub const fn with_operation_versions(mut self) -> Api {
        self.operation_versions = true;
        self
    }

    /// Whether answers name their operation's versions ([`Api::with_operation_versions`]).
    pub const fn reports_operation_versions(&self) -> bool {
        self.operation_versions
    }

    /// Where a request may name its version, in their order of precedence.
    pub const fn readers(&self) -> &'static [VersionReader] {
        self.readers
    }

    /// Whether a request must name its version ([`Api::with_version_required`]).
    pub const fn version_required(&self) -> bool {
        self.version_required
    }

    /// The whole declared history, oldest first, ignoring any cap.
    pub const fn history(&self) -> &'static [Microversion] {
        self.history
    }

    /// The oldest served version: the first of the history, or the one
    /// below which versions are retired ([`Api::retire_below`]).
    pub const fn min(&self) -> Version {
        match self.retired_below {
            Some(v) => v,
            None => self.compiled_min(),
        }
    }

    /// The oldest declared version, whatever is retired.
    pub const fn compiled_min(&self) -> Version {
        self.history[0].version
    }

    /// The newest served version: the cap if one is set, else [`Api::compiled_max`].
    pub const fn max(&self) -> Version {
        match self.cap {
            Some(cap) => cap,
            None => self.compiled_max(),
        }
    }

    /// The newest declared version, whatever the cap.
    pub const fn compiled_max(&self) -> Version {
        self.history[self.history.len() - 1].version
    }

    /// The deployer cap, if one is set.
    pub const fn cap(&self) -> Option<Version> {
        self.cap
    }

    /// The version served to requests that ask for none: the declared
    /// default (the first version unless set), or the oldest version served
    /// when versions up to it are retired.
    pub const fn default_version(&self) -> Version {
        let declared = match self.default {
            Some(v) => v,
            None => self.compiled_min(),
        };
        if declared.lt(self.min()) { self.min() } else { declared }
    }

    /// The versions declared as disabled.
    pub const fn disabled(&self) -> &'static [Version] {
        self.disabled
    }

    /// The served range, `min` to `max` (cap included).
    pub const fn served_range(&self) -> VersionRange {
        VersionRange::between(self.min(), self.max())
    }

    /// The declared range, [`Api::compiled_min`] to [`Api::compiled_max`].
    pub const fn declared_range(&self) -> VersionRange {
        VersionRange::between(self.compiled_min(), self.compiled_max())
    }

    /// Whether each bound `range` names is a version of the declared range
    /// (an open end is fine); the macros use it to reject a method range
    /// outside the API at compile time.
    pub const fn declares(&self, range: VersionRange) -> bool {
        let declared = self.declared_range();
        let min_ok = match range.min() {
            Some(v) => declared.contains(v),
            None => true,
        };
        let max_ok = match range.max() {
            Some(v) => declared.contains(v),
            None => true,
        };
        min_ok && max_ok
    }

    /// The index of `version` in the history: where it would be if the
    /// history counted minors one by one from its first version (Nova's
    /// 2.1 to 2.96, Placement's 1.0 to 1.39: one comparison), else a
    /// binary search.
    pub const fn position(&self, version: Version) -> Option<usize> {
        if let [first, ..] = self.history
            && version.major() == first.version.major()
            && version.minor() >= first.version.minor()
        {
            let guess = (version.minor() - first.version.minor()) as usize;
            if guess < self.history.len() && self.history[guess].version.const_eq(version) {
                return Some(guess);
            }
        }
        let (mut lo, mut hi) = (0, self.history.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let here = self.history[mid].version;
            if here.const_eq(version) {
                return Some(mid);
            } else if here.lt(version) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        None
    }

    /// Whether a request for `version` is served: declared, not above the cap,
    /// not disabled.
    pub const fn serves(&self, version: Version) -> bool {
        self.serves_up_to(version, self.max())
    }

    /// Whether a request for `version` is served when the served maximum is
    /// `max` (a cap changed while serving, [`VersionCap`](crate::VersionCap)):
    /// declared, not retired, not above `max`, not disabled.
    pub const fn serves_up_to(&self, version: Version, max: Version) -> bool {
        if self.position(version).is_none() || !version.le(max) || version.lt(self.min()) {
            return false;
        }
        let mut i = 0;
        while i < self.disabled.len() {
            if self.disabled[i].const_eq(version) {
                return false;
            }
            i += 1;
        }
        true
    }

    /// The served versions, oldest first.
    pub fn served_versions(&self) -> impl Iterator<Item = Version> + '_ {
        self.history.iter().map(|m| m.version).filter(|v| self.serves(*v))
    }

    /// The status shown in discovery documents: `DEPRECATED` when the
    /// whole API version is deprecated (from its date on, see
    /// [`Api::status_at`]), else the declared one.
    pub fn status(&self) -> VersionStatus {
        self.status_at(Timestamp::now())
    }

    /// [`Api::status`] as if the time were `now`.
    pub const fn status_at(&self, now: Timestamp) -> VersionStatus {
        match self.whole_api_deprecation() {
            Some(d) if d.deprecated_since().le(now) => VersionStatus::Deprecated,
            _ => self.status,
        }
    }

    /// The `updated` timestamp for discovery documents, if declared.
    pub const fn updated(&self) -> Option<&'static str> {
        self.updated
    }

    /// The identifier in discovery documents, `v2.1` by default.
    pub fn id(&self) -> Cow<'static, str> {
        match self.id {
            Some(id) => Cow::Borrowed(id),
            None => Cow::Owned(format!("v{}", self.compiled_min())),
        }
    }

    /// The path the API is mounted at (no trailing slash): the one set with
    /// [`Api::with_path`], else `/` followed by [`Api::id`] (`/v2.1`).
    pub fn path(&self) -> Cow<'static, str> {
        match self.path {
            Some(path) => Cow::Borrowed(path),
            None => Cow::Owned(format!("/{}", self.id())),
        }
    }

    /// Whether `other` declares the same API version of the same service
    /// (the same service type and path), whatever its cap or retirement:
    /// how discovery finds the entry a shared cap handle belongs to.
    pub fn is_same_api(&self, other: &Api) -> bool {
        self.service_type() == other.service_type() && self.path() == other.path()
    }

    /// The version history as a Markdown document, generated from the
    /// declaration (what Nova keeps by hand as `REST_API_VERSION_HISTORY`).
    pub fn history_markdown(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "# `{}` API version history\n", self.service_type);
        let _ = writeln!(
            out,
            "Generated from the API declaration. Minimum version {}, maximum version {}; \
             requests without a version get {}.\n",
            self.compiled_min(),
            self.compiled_max(),
            self.default_version()
        );
        let _ = writeln!(out, "| Version | Change |\n| --- | --- |");
        for entry in self.history {
            let mut note = String::new();
            if self.disabled.contains(&entry.version) {
                note.push_str(" (disabled)");
            }
            if let Some(d) = self.deprecation_for(entry.version) {
                let _ = write!(note, " (deprecated since {}", d.deprecated_since());
                if let Some(sunset) = d.sunset_date() {
                    let _ = write!(note, ", sunset {sunset}");
                }
                note.push(')');
            }
            let change = entry.change.replace('|', "\\|");
            let _ = writeln!(out, "| {} | {}{} |", entry.version, change, note);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const API: Api = Api::new(
        "compute",
        &[
            Microversion::new("2.1", "one"),
            Microversion::new("2.2", "two"),
            Microversion::new("2.3", "three"),
            Microversion::new("2.10", "ten | pipes"),
            Microversion::new("3.0", "major"),
        ],
    )
    .with_legacy_headers(&["X-OpenStack-Nova-API-Version"])
    .with_disabled(&[Version::new(2, 3)]);

    #[test]
    fn min_max_and_range_come_from_the_history() {
        assert_eq!(API.min(), Version::new(2, 1));
        assert_eq!(API.max(), Version::new(3, 0));
        assert_eq!(API.default_version(), Version::new(2, 1));
        assert_eq!(API.position(Version::new(2, 10)), Some(3));
        assert_eq!(API.position(Version::new(2, 4)), None);
        assert!(API.serves(Version::new(2, 10)));
        assert!(!API.serves(Version::new(2, 3)), "disabled");
        assert!(!API.serves(Version::new(2, 4)), "not declared");
        let served: Vec<_> = API.served_versions().map(|v| v.to_string()).collect();
        assert_eq!(served, ["2.1", "2.2", "2.10", "3.0"]);
        assert_eq!(API.id(), "v2.1");
        assert_eq!(API.path(), "/v2.1", "the default path is the id");
    }

    #[test]
    fn the_path_is_separate_from_the_id() {
        const VOLUME: Api =
            Api::new("volume", &[Microversion::new("3.0", "a"), Microversion::new("3.70", "b")])
                .with_path("/v3");
        assert_eq!(VOLUME.id(), "v3.0");
        assert_eq!(VOLUME.path(), "/v3");
        assert_eq!(API.with_id("v2").path(), "/v2");
        for good in ["/v3", "/block-storage/v3", "/v3.0", "/a_b~c"] {
            assert!(is_mount_path(good), "{good}");
        }
        for bad in ["", "/", "v3", "/v3/", "//v3", "/v3//x", "/v 3", "/v3?x", "/é"] {
            assert!(!is_mount_path(bad), "{bad}");
        }
    }

    #[test]
    fn cap_lowers_the_served_max_only() {
        let capped = API.capped_at(Version::new(2, 2)).unwrap();
        assert_eq!(capped.max(), Version::new(2, 2));
        assert_eq!(capped.compiled_max(), Version::new(3, 0));
        assert!(!capped.serves(Version::new(2, 10)));
        assert!(capped.declares(VersionRange::between(Version::new(2, 1), Version::new(3, 0))));
        assert!(!capped.declares(VersionRange::between(Version::new(2, 0), Version::new(3, 0))));
        assert_eq!(
            API.capped_at(Version::new(2, 4)).unwrap_err(),
            CapError::NotInHistory(Version::new(2, 4))
        );
        let with_default = API.with_default_version("2.2");
        assert_eq!(
            with_default.capped_at(Version::new(2, 1)).unwrap_err(),
            CapError::BelowDefault { cap: Version::new(2, 1), default: Version::new(2, 2) }
        );
    }

    #[test]
    fn declares_checks_each_named_bound() {
        assert!(API.declares(VersionRange::from(Version::new(2, 10))));
        assert!(API.declares(VersionRange::until(Version::new(2, 10))));
        assert!(API.declares(VersionRange::between(Version::new(2, 2), Version::new(2, 10))));
        assert!(!API.declares(VersionRange::from(Version::new(3, 1))));
        assert!(!API.declares(VersionRange::until(Version::new(1, 9))));
    }

    #[test]
    fn history_renders_as_markdown() {
        let md = API.history_markdown();
        assert!(md.starts_with("# `compute` API version history"));
        assert!(md.contains("Minimum version 2.1, maximum version 3.0"));
        assert!(md.contains("| 2.3 | three (disabled) |"));
        assert!(md.contains("| 2.10 | ten \\| pipes |"));
    }

    #[test]
    #[should_panic(expected = "strictly increasing")]
    fn unordered_history_is_rejected() {
        static BAD: [Microversion; 2] = [Microversion::new("2.2", "b"), Microversion::new("2.1", "a")];
        let _ = Api::new("compute", &BAD);
    }

    #[test]
    #[should_panic(expected = "token")]
    fn service_type_must_be_a_token() {
        static ONE: [Microversion; 1] = [Microversion::new("2.1", "a")];
        let service = String::from("com pute").leak();
        let _ = Api::new(service, &ONE);
    }
}
