//! [`DeprecationNotice`]: the client's reading of the `Deprecation`,
//! `Sunset` and `Link` headers a server sent (docs/reference.md §13.6).

use std::fmt;

use crate::lifecycle::Timestamp;
use crate::lifecycle::{DEPRECATION_HEADER, LINK_HEADER, SUNSET_HEADER};

/// The `Deprecation` and `Sunset` a server sent, as a client reads them
/// (docs/reference.md §13.6): something to log or to warn the user about.
///
/// ```
/// use microversion_core::{lifecycle::DeprecationNotice, lifecycle::Timestamp};
///
/// let notice = DeprecationNotice::from_headers([
///     ("OpenStack-API-Version", "compute 2.10"),
///     ("deprecation", "@1767225600"),
///     ("Sunset", "Wed, 01 Jul 2026 00:00:00 GMT"),
///     ("Link", "<https://docs.example/migrate>; rel=\"deprecation\""),
/// ])
/// .unwrap();
/// assert_eq!(notice.deprecated_since, Some(Timestamp::lit("2026-01-01")));
/// assert_eq!(notice.sunset, Some(Timestamp::lit("2026-07-01")));
/// assert_eq!(notice.link.as_deref(), Some("https://docs.example/migrate"));
/// assert_eq!(
///     notice.to_string(),
///     "deprecated since 2026-01-01, sunset on 2026-07-01 (see https://docs.example/migrate)"
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeprecationNotice {
    /// Whether the `Deprecation` header was present and readable.
    pub deprecated: bool,
    /// Its date, when it carries one (`true`, an early draft's value, has none).
    pub deprecated_since: Option<Timestamp>,
    /// The `Sunset` date, if sent and readable.
    pub sunset: Option<Timestamp>,
    /// The `rel="deprecation"` link, if any.
    pub link: Option<String>,
    /// The `rel="sunset"` link, if any.
    pub sunset_link: Option<String>,
}

impl DeprecationNotice {
    /// Reads a response's headers, given as `(name, value)` pairs; `None`
    /// when the response announces neither a deprecation nor a sunset.
    /// `Deprecation` is read as RFC 9745's `@<seconds>`, or as the earlier
    /// drafts' HTTP-date or `true`; `Sunset` as an HTTP-date. Unreadable
    /// values are ignored, never an error.
    pub fn from_headers<'h, I, N, V>(headers: I) -> Option<DeprecationNotice>
    where
        I: IntoIterator<Item = (&'h N, &'h V)>,
        N: AsRef<[u8]> + ?Sized + 'h,
        V: AsRef<[u8]> + ?Sized + 'h,
    {
        let mut notice = DeprecationNotice::default();
        let mut sunset_seen = false;
        for (name, value) in headers {
            let (name, Ok(value)) = (name.as_ref(), std::str::from_utf8(value.as_ref())) else { continue };
            if name.eq_ignore_ascii_case(DEPRECATION_HEADER.as_bytes()) {
                let value = value.trim();
                if let Some(at) = Timestamp::parse_structured_field_date(value) {
                    notice.deprecated = true;
                    notice.deprecated_since = Some(at);
                } else if let Some(at) = Timestamp::parse_http_date(value) {
                    notice.deprecated = true;
                    notice.deprecated_since = Some(at);
                } else if value == "true" || value == "?1" {
                    notice.deprecated = true;
                }
            } else if name.eq_ignore_ascii_case(SUNSET_HEADER.as_bytes()) {
                sunset_seen = true;
                notice.sunset = Timestamp::parse_http_date(value).or(notice.sunset);
            } else if name.eq_ignore_ascii_case(LINK_HEADER.as_bytes()) {
                for (url, rel) in link_values(value) {
                    if rel.split_ascii_whitespace().any(|r| r.eq_ignore_ascii_case("deprecation")) {
                        notice.link = Some(url.to_owned());
                    }
                    if rel.split_ascii_whitespace().any(|r| r.eq_ignore_ascii_case("sunset")) {
                        notice.sunset_link = Some(url.to_owned());
                    }
                }
            }
        }
        (notice.deprecated || (sunset_seen && notice.sunset.is_some())).then_some(notice)
    }
}

/// `(url, rel)` for each `<url>; rel="..."` of a `Link` value.
fn link_values(value: &str) -> impl Iterator<Item = (&str, &str)> {
    value.split('<').skip(1).filter_map(|part| {
        let (url, params) = part.split_once('>')?;
        let rel = params.split(';').find_map(|p| {
            let (key, value) = p.split_once('=')?;
            key.trim()
                .eq_ignore_ascii_case("rel")
                .then(|| value.trim().trim_end_matches(',').trim().trim_matches('"'))
        })?;
        Some((url.trim(), rel))
    })
}

impl fmt::Display for DeprecationNotice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.deprecated, self.deprecated_since) {
            (true, Some(at)) => write!(f, "deprecated since {at}")?,
            (true, None) => f.write_str("deprecated")?,
            (false, _) => f.write_str("not deprecated")?,
        }
        if let Some(sunset) = self.sunset {
            write!(f, ", sunset on {sunset}")?;
        }
        if let Some(link) = self.link.as_ref().or(self.sunset_link.as_ref()) {
            write!(f, " (see {link})")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notice_reads_every_form_and_ignores_garbage() {
        let none: [(&str, &str); 1] = [("OpenStack-API-Version", "compute 2.1")];
        assert_eq!(DeprecationNotice::from_headers(none), None);
        let draft = DeprecationNotice::from_headers([("Deprecation", "true")]).unwrap();
        assert!(draft.deprecated && draft.deprecated_since.is_none());
        assert_eq!(draft.to_string(), "deprecated");
        let old =
            DeprecationNotice::from_headers([("Deprecation", "Thu, 01 Jan 2026 00:00:00 GMT")]).unwrap();
        assert_eq!(old.deprecated_since, Some(Timestamp::lit("2026-01-01")));
        assert_eq!(DeprecationNotice::from_headers([("Deprecation", "soon"), ("Sunset", "never")]), None);
        let sunset_only =
            DeprecationNotice::from_headers([("sunset", "Wed, 01 Jul 2026 00:00:00 GMT")]).unwrap();
        assert!(!sunset_only.deprecated);
        assert_eq!(sunset_only.sunset, Some(Timestamp::lit("2026-07-01")));
        let links = DeprecationNotice::from_headers([
            ("Deprecation", "@0"),
            ("Link", "<https://a/next>; rel=\"next\", <https://a/dep>; rel=\"deprecation\""),
            ("Link", "<https://a/sun>;rel=sunset"),
        ])
        .unwrap();
        assert_eq!(links.link.as_deref(), Some("https://a/dep"));
        assert_eq!(links.sunset_link.as_deref(), Some("https://a/sun"));
        let bytes: [(&[u8], &[u8]); 2] = [(b"Deprecation", b"\xff@1"), (b"Sunset", b"\x00")];
        assert_eq!(DeprecationNotice::from_headers(bytes), None);
    }
}
