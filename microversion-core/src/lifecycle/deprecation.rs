//! A version's life: deprecation, sunset and retirement dates
//! (docs/reference.md §13).
//!
//! A deprecation's dates are [`Timestamp`]s checked where the `Api` is
//! declared: a sunset before its deprecation is a compile error. What a
//! client reads of them is in `notice.rs`.

use std::fmt;

use crate::{Version, VersionRange, lifecycle::Timestamp};

/// A link target in a declaration: printable ASCII without spaces, `<`,
/// `>` or `"`, so that it can stand in a `Link` header as it is.
const fn is_link(url: &str) -> bool {
    let b = url.as_bytes();
    if b.is_empty() {
        return false;
    }
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_graphic() || matches!(b[i], b'<' | b'>' | b'"') {
            return false;
        }
        i += 1;
    }
    true
}

/// A deprecation of some microversions, or of the whole API version: from
/// when, until when they are served (the sunset), and where the migration
/// is explained. Added to an [`Api`](crate::Api) with
/// [`Api::with_deprecation`](crate::Api::with_deprecation).
///
/// ```
/// use microversion_core::{Api, Deprecation, Microversion, lifecycle::Timestamp, Version};
///
/// const COMPUTE: Api = Api::new("compute", &[
///     Microversion::new("2.1", "Initial version."),
///     Microversion::new("2.2", "Keypairs gain a type."),
///     Microversion::new("2.3", "Servers show their host."),
/// ])
/// .with_deprecation(
///     Deprecation::versions("2.1", "2.2")
///         .since("2026-01-01")
///         .sunset("2026-07-01")
///         .link("https://docs.example/compute/migrate-to-2.3"),
/// );
///
/// let d = COMPUTE.deprecation_for(Version::lit("2.2")).unwrap();
/// assert_eq!(d.sunset_date(), Some(Timestamp::lit("2026-07-01")));
/// assert!(COMPUTE.deprecation_for(Version::lit("2.3")).is_none());
/// ```
///
/// Mistakes are compile errors where the API is declared:
///
/// ```compile_fail
/// use microversion_core::{Api, Deprecation, Microversion};
/// // error[E0080]: the sunset must not come before the deprecation
/// const BAD: Api = Api::new("compute", &[Microversion::new("2.1", "a"), Microversion::new("2.2", "b")])
///     .with_deprecation(Deprecation::versions("2.1", "2.1").since("2026-07-01").sunset("2026-01-01"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deprecation {
    range: Option<VersionRange>,
    since: Option<Timestamp>,
    sunset: Option<Timestamp>,
    link: Option<&'static str>,
    sunset_link: Option<&'static str>,
}

impl Deprecation {
    /// The versions `min` to `max` inclusive (literals, checked at compile
    /// time in a `const`; both must be versions of the history).
    pub const fn versions(min: &str, max: &str) -> Deprecation {
        Deprecation::range(VersionRange::between(Version::lit(min), Version::lit(max)))
    }

    /// The versions of `range`; an open end reaches the end of the history.
    pub const fn range(range: VersionRange) -> Deprecation {
        Deprecation { range: Some(range), since: None, sunset: None, link: None, sunset_link: None }
    }

    /// The whole API version (every microversion of it): discovery then
    /// shows it as `DEPRECATED` once the date has come.
    pub const fn whole_api() -> Deprecation {
        Deprecation { range: None, since: None, sunset: None, link: None, sunset_link: None }
    }

    /// Deprecated from this date (`YYYY-MM-DD` or RFC 3339); required.
    pub const fn since(mut self, date: &str) -> Deprecation {
        self.since = Some(Timestamp::lit(date));
        self
    }

    /// Served until this date (`YYYY-MM-DD` or RFC 3339); after it a deployer
    /// may retire the versions ([`Api::retire_below`](crate::Api::retire_below)).
    pub const fn sunset(mut self, date: &str) -> Deprecation {
        self.sunset = Some(Timestamp::lit(date));
        self
    }

    /// Where the deprecation and the way off it are explained
    /// (`Link: <url>; rel="deprecation"`).
    pub const fn link(mut self, url: &'static str) -> Deprecation {
        assert!(is_link(url), "a link must be printable ASCII without spaces, <, > or \"");
        self.link = Some(url);
        self
    }

    /// Where the sunset is explained (`Link: <url>; rel="sunset"`).
    pub const fn sunset_link(mut self, url: &'static str) -> Deprecation {
        assert!(is_link(url), "a link must be printable ASCII without spaces, <, > or \"");
        self.sunset_link = Some(url);
        self
    }

    /// The versions deprecated, or `None` for the whole API version.
    pub const fn versions_covered(&self) -> Option<VersionRange> {
        self.range
    }

    /// From when the versions are deprecated.
    pub const fn deprecated_since(&self) -> Timestamp {
        match self.since {
            Some(t) => t,
            None => Timestamp::from_unix(0),
        }
    }

    /// Until when they are served, if a sunset is planned.
    pub const fn sunset_date(&self) -> Option<Timestamp> {
        self.sunset
    }

    /// The migration note, if any.
    pub const fn deprecation_link(&self) -> Option<&'static str> {
        self.link
    }

    /// The sunset note, if any.
    pub const fn sunset_link_url(&self) -> Option<&'static str> {
        self.sunset_link
    }

    /// Whether this deprecation covers `version` (always, for the whole API).
    pub const fn covers(&self, version: Version) -> bool {
        match self.range {
            Some(range) => range.contains(version),
            None => true,
        }
    }

    /// Checks of [`Api::with_deprecation`](crate::Api::with_deprecation): a date, and a
    /// sunset not before it.
    pub(crate) const fn check(&self) {
        let Some(since) = self.since else {
            panic!("a deprecation needs its date: .since(\"YYYY-MM-DD\")");
        };
        if let Some(sunset) = self.sunset {
            assert!(since.le(sunset), "the sunset must not come before the deprecation");
        }
    }

    /// The response headers this deprecation puts on every response of a
    /// version it covers: `Deprecation` (RFC 9745), `Sunset` (RFC 8594)
    /// when one is planned, and `Link` naming the notes. Rendered once, at
    /// start-up.
    ///
    /// ```
    /// use microversion_core::Deprecation;
    ///
    /// let d = Deprecation::versions("2.1", "2.59").since("2026-01-01").sunset("2026-07-01")
    ///     .link("https://docs.example/migrate");
    /// assert_eq!(d.headers(), [
    ///     ("Deprecation", "@1767225600".to_owned()),
    ///     ("Sunset", "Wed, 01 Jul 2026 00:00:00 GMT".to_owned()),
    ///     ("Link", "<https://docs.example/migrate>; rel=\"deprecation\"".to_owned()),
    /// ]);
    /// ```
    pub fn headers(&self) -> Vec<(&'static str, String)> {
        let mut out = vec![(DEPRECATION_HEADER, self.deprecated_since().structured_field_date())];
        if let Some(sunset) = self.sunset {
            out.push((SUNSET_HEADER, sunset.http_date()));
        }
        let links: Vec<String> = [(self.link, "deprecation"), (self.sunset_link, "sunset")]
            .iter()
            .filter_map(|(url, rel)| url.map(|url| format!("<{url}>; rel=\"{rel}\"")))
            .collect();
        if !links.is_empty() {
            out.push((LINK_HEADER, links.join(", ")));
        }
        out
    }
}

/// The response header announcing a deprecation (RFC 9745).
pub const DEPRECATION_HEADER: &str = "Deprecation";
/// The response header announcing a sunset (RFC 8594).
pub const SUNSET_HEADER: &str = "Sunset";
/// The response header carrying the deprecation and sunset links.
pub const LINK_HEADER: &str = "Link";

/// Why versions cannot be retired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetireError {
    /// The new minimum is not a version of the history.
    NotInHistory(Version),
    /// The new minimum is above the served maximum (the cap included).
    AboveMax {
        /// The requested new minimum.
        below: Version,
        /// The served maximum.
        max: Version,
    },
    /// A version to retire has no declared deprecation with a sunset.
    NoSunset(Version),
    /// A version to retire has a sunset that has not come yet.
    BeforeSunset {
        /// The version.
        version: Version,
        /// Its sunset.
        sunset: Timestamp,
    },
}

impl fmt::Display for RetireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RetireError::NotInHistory(v) => {
                write!(f, "cannot retire the versions below {v}: it is not a declared version")
            }
            RetireError::AboveMax { below, max } => {
                write!(f, "cannot retire the versions below {below}: the served maximum is {max}")
            }
            RetireError::NoSunset(v) => {
                write!(f, "cannot retire version {v}: no deprecation with a sunset covers it")
            }
            RetireError::BeforeSunset { version, sunset } => {
                write!(f, "cannot retire version {version} before its sunset on {sunset}")
            }
        }
    }
}

impl std::error::Error for RetireError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[should_panic(expected = "sunset must not come before")]
    fn a_sunset_before_the_deprecation_is_refused() {
        Deprecation::whole_api().since("2026-07-01").sunset("2026-06-30").check();
    }
    #[test]
    #[should_panic(expected = "needs its date")]
    fn a_deprecation_needs_a_date() {
        Deprecation::whole_api().sunset("2026-06-30").check();
    }
}
