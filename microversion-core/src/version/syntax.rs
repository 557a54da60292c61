//! `VersionSyntax`: how an API reads the version text a request names
//! (docs/reference.md §2.5).

use super::Version;

/// How an API reads the version a request names (`2.10` in
/// `OpenStack-API-Version: compute 2.10`), declared with
/// [`Api::with_version_syntax`](crate::Api::with_version_syntax).
///
/// ```
/// use microversion_core::{Api, Microversion, Version};
/// use microversion_core::version::VersionSyntax;
///
/// const PLACEMENT: Api = Api::new("placement", &[
///     Microversion::new("1.0", "Initial version."),
///     Microversion::new("1.5", "DELETE /resource_providers/{uuid}/inventories."),
/// ])
/// .with_version_syntax(VersionSyntax::MicroversionParse);
///
/// // Placement reads `1.05` as 1.5, as microversion-parse's `int()` does.
/// let got = PLACEMENT.negotiate([("OpenStack-API-Version", "placement 1.05")]).unwrap();
/// assert_eq!(got.version, Version::lit("1.5"));
///
/// // `-1.5` is a version to it, one not served: 406, not 400.
/// let refused = PLACEMENT.negotiate([("OpenStack-API-Version", "placement -1.5")]).unwrap_err();
/// assert_eq!((refused.status(), refused.to_string().split_whitespace().nth(1)), (406, Some("-1.5")));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum VersionSyntax {
    /// The OpenStack grammar, `^([1-9][0-9]*)\.([1-9][0-9]*|0)$`: ASCII
    /// digits, no sign, no leading zero, no whitespace. Any other text is
    /// malformed (400); a version outside the served range is refused with
    /// 406. Nova's reading, and the default.
    #[default]
    Strict,
    /// As microversion-parse reads it (Placement): the text split at every
    /// `.` into exactly two parts, each read as Python's `int()` reads a
    /// number: surrounding whitespace, a sign, leading zeros and single
    /// underscores between digits (`1.05` is 1.5). A text so read is a
    /// version: when the API does not serve it (`0.5`, `-1.5`, `1.99`,
    /// `1.099`) it is refused with 406, echoed as written; only a text
    /// `int()` refuses is malformed (400).
    MicroversionParse,
}

/// What a version text reads as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum VersionText {
    /// A version (`1.5`, or under [`VersionSyntax::MicroversionParse`]
    /// `1.05` too).
    Version(Version),
    /// A version no [`Version`] holds (`-1.5`, `0.5`, `1.70000`): never served.
    Unheld,
    /// Not a version.
    Malformed,
}

impl VersionSyntax {
    /// What `text` (a reader's value, already trimmed) reads as.
    pub(crate) fn read(self, text: &[u8]) -> VersionText {
        if let Ok(version) = Version::parse_bytes(text) {
            return VersionText::Version(version);
        }
        if self == VersionSyntax::Strict {
            return VersionText::Malformed;
        }
        let mut parts = text.split(|b| *b == b'.');
        let (Some(major), Some(minor), None) = (parts.next(), parts.next(), parts.next()) else {
            return VersionText::Malformed;
        };
        match (python_int(major), python_int(minor)) {
            (Some(PythonInt::Held(major)), Some(PythonInt::Held(minor))) if major > 0 => {
                VersionText::Version(Version::new(major, minor))
            }
            (Some(_), Some(_)) => VersionText::Unheld,
            _ => VersionText::Malformed,
        }
    }
}

/// Whether Python's `int()` reads `text` as a number in base 10, as
/// [`VersionSyntax::MicroversionParse`] reads each part of a version: for
/// an error format that names the part microversion-parse refused
/// (`invalid literal for int() with base 10: 'a'`).
///
/// ```
/// use microversion_core::version::is_python_int;
/// assert!(is_python_int(" -0_5 ") && !is_python_int("5_") && !is_python_int(""));
/// ```
pub fn is_python_int(text: &str) -> bool {
    python_int(text.as_bytes()).is_some()
}

/// A number Python's `int()` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PythonInt {
    /// One a version's part holds.
    Held(u16),
    /// A negative one, or one above `u16::MAX`.
    Unheld,
}

/// `text` as Python's `int(text)` reads it in base 10, or `None` where it
/// raises `ValueError`: whitespace around (`str.strip()`'s, the header's
/// bytes read as Latin-1 as WSGI reads them), one sign, then ASCII digits
/// with single underscores between them.
fn python_int(text: &[u8]) -> Option<PythonInt> {
    let is_space = |b: &u8| b.is_ascii_whitespace() || matches!(*b, 0x0b | 0x1c..=0x1f | 0x85 | 0xa0);
    let start = text.iter().position(|b| !is_space(b))?;
    let end = text.iter().rposition(|b| !is_space(b))? + 1;
    let text = &text[start..end];
    let (negative, digits) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, text),
    };
    let well_formed = digits.first().is_some_and(u8::is_ascii_digit)
        && digits.last().is_some_and(u8::is_ascii_digit)
        && digits.iter().all(|b| b.is_ascii_digit() || *b == b'_')
        && !digits.windows(2).any(|pair| pair == b"__");
    if !well_formed {
        return None;
    }
    let value = digits
        .iter()
        .filter(|b| b.is_ascii_digit())
        .try_fold(0u16, |value, b| value.checked_mul(10)?.checked_add(u16::from(b - b'0')));
    Some(match value {
        Some(0) => PythonInt::Held(0),
        Some(value) if !negative => PythonInt::Held(value),
        _ => PythonInt::Unheld,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(syntax: VersionSyntax, text: &str) -> VersionText {
        syntax.read(text.as_bytes())
    }

    #[test]
    fn strict_reads_the_openstack_grammar_only() {
        assert_eq!(read(VersionSyntax::Strict, "1.5"), VersionText::Version(Version::lit("1.5")));
        for text in ["1.05", "01.5", "-1.5", "+1.5", " 1.5", "1_0.5", "0.5", "1.5.0", "1"] {
            assert_eq!(read(VersionSyntax::Strict, text), VersionText::Malformed, "{text}");
        }
    }

    #[test]
    fn microversion_parse_reads_each_part_as_python_int() {
        let mp = VersionSyntax::MicroversionParse;
        let written = |text| VersionText::Version(Version::lit(text));
        assert_eq!(read(mp, "1.5"), VersionText::Version(Version::lit("1.5")));
        assert_eq!(read(mp, "1.05"), written("1.5"));
        assert_eq!(read(mp, "01.5"), written("1.5"));
        assert_eq!(read(mp, "+1.5"), written("1.5"));
        assert_eq!(read(mp, "1. 5"), written("1.5"));
        assert_eq!(read(mp, "1.-0"), written("1.0"));
        assert_eq!(read(mp, "1_0.1_2"), written("10.12"));
        let no_break_space = VersionSyntax::MicroversionParse.read(b"1.\xa05");
        assert_eq!(no_break_space, written("1.5"), "Latin-1's no-break space is str.strip()'s");
        for unheld in ["-1.5", "0.5", "00.5", "1.-1", "1.65536", "99999999999999999999.1"] {
            assert_eq!(read(mp, unheld), VersionText::Unheld, "{unheld}");
        }
        for malformed in
            ["1", "1.5.0", "1.", ".5", "1.a", "1._5", "1.5_", "1.5__0", "1.--5", "1.+-5", "1.0x5", "1.٥"]
        {
            assert_eq!(read(mp, malformed), VersionText::Malformed, "{malformed}");
        }
    }
}
