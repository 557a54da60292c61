//! Response header values for negotiated versions, rendered once per API.

use crate::operation::Operation;
use crate::version::{STANDARD_HEADER, VersionReader};
use crate::{Api, Version};

/// Default name of the response header carrying the served minimum (406 and discovery).
pub const MIN_VERSION_HEADER: &str = "OpenStack-API-Minimum-Version";
/// Default name of the response header carrying the served maximum.
pub const MAX_VERSION_HEADER: &str = "OpenStack-API-Maximum-Version";

/// The answer header naming the versions its operation exists in, for an
/// API that reports them ([`Api::with_operation_versions`]).
pub const OPERATION_VERSIONS_HEADER: &str = "OpenStack-API-Operation-Versions";

/// The versions `operation` exists in among those `api` serves up to
/// `max`, as the value of [`OPERATION_VERSIONS_HEADER`]: runs of
/// consecutive served versions, `2.2-2.9, 2.12` (a version alone when its
/// run is one long); empty when it exists in none.
///
/// ```
/// use microversion_core::{Api, Microversion, Version, VersionRange};
/// use microversion_core::header::operation_versions;
/// use microversion_core::operation::{Operation, OperationVariant};
///
/// const API: Api = Api::new("shop", &[
///     Microversion::new("1.0", "a"), Microversion::new("1.1", "b"),
///     Microversion::new("1.2", "c"), Microversion::new("1.3", "d"),
/// ]);
/// const fn variant(range: VersionRange) -> OperationVariant {
///     OperationVariant {
///         range, schemas: &[], query_schemas: &[], response: None, errors: &[], deprecation: None,
///         doc: "", changes: &[], examples: &[],
///     }
/// }
/// static LIST: Operation = Operation {
///     name: "list",
///     http_method: Some("GET"),
///     path: Some("/widgets"),
///     variants: &[variant(VersionRange::only(Version::lit("1.0"))), variant(VersionRange::from(Version::lit("1.2")))],
///     missing_status: 404,
/// };
/// let list = &LIST;
/// assert_eq!(operation_versions(&API, list, API.max()), "1.0, 1.2-1.3");
/// assert_eq!(operation_versions(&API, list, Version::lit("1.2")), "1.0, 1.2");
/// ```
pub fn operation_versions(api: &Api, operation: &Operation, max: Version) -> String {
    let mut runs: Vec<(Version, Version)> = Vec::new();
    let mut open = false;
    for version in api.served_versions().take_while(|v| !max.lt(*v)) {
        match (operation.variant_at(version).is_some(), runs.last_mut()) {
            (true, Some(run)) if open => run.1 = version,
            (true, _) => runs.push((version, version)),
            (false, _) => {}
        }
        open = operation.variant_at(version).is_some();
    }
    let run = |(first, last): &(Version, Version)| match first == last {
        true => first.to_string(),
        false => format!("{first}-{last}"),
    };
    runs.iter().map(run).collect::<Vec<_>>().join(", ")
}

/// `value`, an [`operation_versions`] list, without the versions above
/// `max`: what an answer names under a cap lowered after its route wrote it.
///
/// ```
/// use microversion_core::{Version, header::clip_operation_versions};
/// assert_eq!(clip_operation_versions("1.0, 1.2-1.9, 2.0-2.3", Version::lit("1.4")), "1.0, 1.2-1.4");
/// assert_eq!(clip_operation_versions("1.2-1.9", Version::lit("1.2")), "1.2");
/// ```
pub fn clip_operation_versions(value: &str, max: Version) -> String {
    let mut kept = Vec::new();
    for run in value.split(',').map(str::trim) {
        let (first, last) = run.split_once('-').unwrap_or((run, run));
        let (Ok(first), Ok(last)) = (first.parse::<Version>(), last.parse::<Version>()) else { continue };
        match (max.lt(first), max.lt(last) && max != first) {
            (true, _) => {}
            (false, true) => kept.push(format!("{first}-{max}")),
            (false, false) if max == first => kept.push(first.to_string()),
            (false, false) => kept.push(run.to_owned()),
        }
    }
    kept.join(", ")
}

/// Every response header value an API sends, rendered once at start-up so
/// that answering a request copies strings instead of formatting them.
///
/// ```
/// use microversion_core::{Api, Microversion, header::ResponseHeaders, Version};
///
/// const API: Api = Api::new("compute", &[Microversion::new("2.1", "Initial.")])
///     .with_legacy_headers(&["X-OpenStack-Nova-API-Version"]);
/// let headers = ResponseHeaders::new(&API);
/// let set: Vec<_> = headers.for_version(Version::lit("2.1")).unwrap().collect();
/// assert_eq!(set, [
///     ("OpenStack-API-Version", "compute 2.1"),
///     ("X-OpenStack-Nova-API-Version", "2.1"),
/// ]);
/// assert_eq!(headers.vary(), "OpenStack-API-Version, X-OpenStack-Nova-API-Version");
/// ```
#[derive(Clone, Debug)]
pub struct ResponseHeaders {
    api: Api,
    /// Per history entry: `"compute 2.27"` and `"2.27"`.
    rendered: Vec<(String, String)>,
    /// Per history entry: its deprecation's headers.
    deprecation: Vec<Vec<(&'static str, String)>>,
    vary: String,
}

/// What an answer at one declared version carries besides its body
/// ([`ResponseHeaders::per_version`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionHeaderValues<'a> {
    /// The value of `OpenStack-API-Version`: `"compute 2.27"`.
    pub standard: &'a str,
    /// The value of each legacy header: `"2.27"`.
    pub bare: &'a str,
    /// The version's deprecation headers (`Deprecation`, `Sunset`, `Link`),
    /// none if it is not deprecated.
    pub deprecation: &'a [(&'static str, String)],
}

/// What to do with a response's `Vary` to name the version headers in it
/// ([`vary_update`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VaryUpdate {
    /// There is none: set ours.
    Insert,
    /// Replace what is there with this one value.
    Replace(String),
    /// What is there is not text: keep it and add ours as another line.
    Append,
}

/// How to name `ours` (the version headers) in a response's `Vary`, given
/// the values already there (`None` for one that is not text): the
/// handler's own names stay, ours are added once.
///
/// ```
/// use microversion_core::{header::VaryUpdate, header::vary_update};
///
/// assert_eq!(vary_update([], "OpenStack-API-Version"), VaryUpdate::Insert);
/// assert_eq!(
///     vary_update([Some("Accept-Encoding")], "OpenStack-API-Version"),
///     VaryUpdate::Replace("Accept-Encoding, OpenStack-API-Version".into())
/// );
/// assert_eq!(vary_update([None], "OpenStack-API-Version"), VaryUpdate::Append);
/// ```
pub fn vary_update<'a>(existing: impl IntoIterator<Item = Option<&'a str>>, ours: &str) -> VaryUpdate {
    let texts: Option<Vec<&str>> = existing.into_iter().collect();
    match texts {
        Some(texts) if texts.is_empty() => VaryUpdate::Insert,
        Some(texts) => VaryUpdate::Replace(append_vary(&texts.join(", "), ours)),
        None => VaryUpdate::Append,
    }
}

/// Whether a version header named `name` is added beside a handler's own
/// (`Link`: the handler's links stay) rather than put in its place.
pub fn appends_to_handlers(name: &str) -> bool {
    name.eq_ignore_ascii_case(crate::lifecycle::LINK_HEADER)
}

impl ResponseHeaders {
    /// Renders the values of every declared version of `api`.
    pub fn new(api: &Api) -> ResponseHeaders {
        let rendered = api
            .history()
            .iter()
            .map(|m| (format!("{} {}", api.service_type(), m.version), m.version.to_string()))
            .collect();
        let deprecation = api
            .history()
            .iter()
            .map(|m| api.deprecation_for(m.version).map(|d| d.headers()).unwrap_or_default())
            .collect();
        let vary = read_header_names_of(api).collect::<Vec<_>>().join(", ");
        ResponseHeaders { api: *api, rendered, deprecation, vary }
    }

    /// Per declared version, in the history's order: the header values of
    /// an answer at that version.
    pub fn per_version(&self) -> impl Iterator<Item = VersionHeaderValues<'_>> {
        self.rendered
            .iter()
            .zip(&self.deprecation)
            .map(|((standard, bare), deprecation)| VersionHeaderValues { standard, bare, deprecation })
    }

    /// The `(name, value)` pairs naming `version` (standard header first,
    /// then each legacy header), or `None` if it is not declared.
    pub fn for_version(&self, version: Version) -> Option<impl Iterator<Item = (&'static str, &str)> + '_> {
        let (standard, bare) = &self.rendered[self.api.position(version)?];
        let legacy = self.api.legacy_headers().iter().map(move |name| (*name, bare.as_str()));
        Some(std::iter::once((STANDARD_HEADER, standard.as_str())).chain(legacy))
    }

    /// `version` as a bare string (`"2.27"`), or `None` if it is not declared.
    pub fn bare(&self, version: Version) -> Option<&str> {
        Some(self.rendered[self.api.position(version)?].1.as_str())
    }

    /// The value for `Vary`: every request header a version is read from
    /// (the standard header and every legacy header, unless the API
    /// declares other readers), empty when the API reads it only from the
    /// URL.
    pub fn vary(&self) -> &str {
        &self.vary
    }

    /// The names listed in [`ResponseHeaders::vary`].
    pub fn vary_names(&self) -> impl Iterator<Item = &'static str> {
        read_header_names_of(&self.api)
    }
}

/// The request headers `api` reads a version from, in its readers' order:
/// `OpenStack-API-Version` and the legacy headers for the standard reader,
/// a named header, `Accept` for a media type parameter.
pub(crate) fn read_header_names_of(api: &Api) -> impl Iterator<Item = &'static str> + use<> {
    let legacy = api.legacy_headers();
    api.readers().iter().flat_map(move |reader| {
        let more = if *reader == VersionReader::Standard { legacy } else { &[] };
        reader.header_name().into_iter().chain(more.iter().copied())
    })
}

/// The request headers a deployer's hook reads (a `ClientDefault`), as
/// each facade's `HeaderName` (`N`), in the order given.
///
/// # Panics
///
/// If one of `names` is not a header name, which could not be named in
/// `Vary`: a mistake in the deployment, found at start-up. `hook` names the
/// hook in the message.
///
/// ```
/// let names: Vec<String> = microversion_core::header::read_header_names("ClientDefault", &["X-Auth-Token"]);
/// assert_eq!(names, ["X-Auth-Token"]);
/// ```
pub fn read_header_names<N: for<'a> TryFrom<&'a str>>(hook: &str, names: &[&'static str]) -> Vec<N> {
    let parsed =
        |name: &&str| N::try_from(name).unwrap_or_else(|_| panic!("{hook}: {name:?} is not a header name"));
    names.iter().map(parsed).collect()
}

/// Appends the names of `addition` to an existing `Vary` value without
/// repeating a name already present (compared case-insensitively). A `*`
/// already there stays alone.
///
/// ```
/// use microversion_core::header::append_vary;
/// assert_eq!(append_vary("Accept-Encoding", "OpenStack-API-Version"),
///            "Accept-Encoding, OpenStack-API-Version");
/// assert_eq!(append_vary("openstack-api-version", "OpenStack-API-Version"), "openstack-api-version");
/// ```
pub fn append_vary(existing: &str, addition: &str) -> String {
    let present: Vec<&str> = existing.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
    if present.contains(&"*") {
        return existing.to_owned();
    }
    let mut out = present.join(", ");
    for name in addition.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        if !present.iter().any(|p| p.eq_ignore_ascii_case(name)) {
            if !out.is_empty() {
                out.push_str(", ");
            }
            out.push_str(name);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Microversion;

    #[test]
    fn values_per_version_and_vary() {
        const API: Api =
            Api::new("compute", &[Microversion::new("2.1", "a"), Microversion::new("2.27", "b")])
                .with_legacy_headers(&["X-OpenStack-Nova-API-Version", "X-Other"]);
        let headers = ResponseHeaders::new(&API);
        let set: Vec<_> = headers.for_version(Version::new(2, 27)).unwrap().collect();
        assert_eq!(
            set,
            [
                ("OpenStack-API-Version", "compute 2.27"),
                ("X-OpenStack-Nova-API-Version", "2.27"),
                ("X-Other", "2.27")
            ]
        );
        assert!(headers.for_version(Version::new(2, 2)).is_none());
        assert_eq!(headers.bare(Version::new(2, 1)), Some("2.1"));
        assert_eq!(headers.vary(), "OpenStack-API-Version, X-OpenStack-Nova-API-Version, X-Other");
    }

    #[test]
    fn vary_is_appended_not_replaced() {
        assert_eq!(append_vary("", "A, B"), "A, B");
        assert_eq!(append_vary("Accept, a", "A, B"), "Accept, a, B");
        assert_eq!(append_vary("*", "A"), "*");
        assert_eq!(append_vary(" Origin ,", "A"), "Origin, A");
    }
}
