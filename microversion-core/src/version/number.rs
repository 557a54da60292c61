//! `Version`: one microversion, `MAJOR.MINOR`.

use std::fmt;
use std::str::FromStr;

/// One API microversion, `MAJOR.MINOR`, ordered by `(major, minor)`.
///
/// Parsing is strict (the OpenStack grammar `^([1-9][0-9]*)\.([1-9][0-9]*|0)$`):
/// no signs, no leading zeros, no whitespace, no third component.
///
/// ```
/// use microversion_core::Version;
///
/// let v: Version = "2.10".parse().unwrap();
/// assert!(Version::new(2, 9) < v && v < Version::new(3, 0));
/// assert_eq!(v.to_string(), "2.10");
/// assert!("02.1".parse::<Version>().is_err());
///
/// // Checked while compiling: an invalid literal here fails the build.
/// const V2_55: Version = Version::lit("2.55");
/// assert_eq!(V2_55, Version::new(2, 55));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Version {
    major: u16,
    minor: u16,
}

/// Ordered as the packed integer ([`Version::packed`]): the order of
/// `(major, minor)`, in one comparison, which is what the generated
/// dispatch code's `version < Version::new(2, 47)` compiles to.
impl Ord for Version {
    #[inline]
    fn cmp(&self, other: &Version) -> std::cmp::Ordering {
        self.packed().cmp(&other.packed())
    }
}

impl PartialOrd for Version {
    #[inline]
    fn partial_cmp(&self, other: &Version) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Why a string is not a [`Version`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParseVersionError {
    /// The string is empty.
    Empty,
    /// The string does not match `MAJOR.MINOR` with decimal digits and no leading zeros.
    Malformed,
    /// A component does not fit in 16 bits.
    TooLarge,
}

impl ParseVersionError {
    /// A short human explanation, usable in `const` panics.
    pub const fn message(self) -> &'static str {
        match self {
            ParseVersionError::Empty => "a version must not be empty",
            ParseVersionError::Malformed => {
                "a version must be MAJOR.MINOR: digits only, MAJOR at least 1, no leading zeros"
            }
            ParseVersionError::TooLarge => "a version component must be at most 65535",
        }
    }
}

impl fmt::Display for ParseVersionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for ParseVersionError {}

impl Version {
    /// The largest representable version; used as an upper sentinel.
    pub const MAX: Version = Version::new(u16::MAX, u16::MAX);

    /// A version from its two components. `major` should be at least 1 for a
    /// version that can also be written as a string; `new` does not check it.
    #[inline]
    pub const fn new(major: u16, minor: u16) -> Version {
        Version { major, minor }
    }

    /// The version as one integer (`major << 16 | minor`), ordered as
    /// versions are.
    #[inline]
    pub const fn packed(self) -> u32 {
        ((self.major as u32) << 16) | self.minor as u32
    }

    /// The major component.
    #[inline]
    pub const fn major(self) -> u16 {
        self.major
    }

    /// The minor component.
    #[inline]
    pub const fn minor(self) -> u16 {
        self.minor
    }

    /// Parses a version literal at compile time; an invalid literal is a
    /// compile error when used in a `const` or `static`, and a panic otherwise.
    ///
    /// ```compile_fail
    /// // error[E0080]: a version must be MAJOR.MINOR: digits only, MAJOR at least 1, no leading zeros
    /// const BAD: microversion_core::Version = microversion_core::Version::lit("2.01");
    /// ```
    #[track_caller]
    pub const fn lit(text: &str) -> Version {
        match Version::parse_bytes(text.as_bytes()) {
            Ok(v) => v,
            Err(e) => panic!("{}", e.message()),
        }
    }

    /// Strictly parses `MAJOR.MINOR` from bytes. Usable in `const` context.
    pub const fn parse_bytes(bytes: &[u8]) -> Result<Version, ParseVersionError> {
        if bytes.is_empty() {
            return Err(ParseVersionError::Empty);
        }
        let mut dot = 0;
        while dot < bytes.len() && bytes[dot] != b'.' {
            dot += 1;
        }
        if dot == bytes.len() {
            return Err(ParseVersionError::Malformed);
        }
        let major = match parse_component(bytes, 0, dot) {
            Ok(0) => return Err(ParseVersionError::Malformed),
            Ok(n) => n,
            Err(e) => return Err(e),
        };
        let minor = match parse_component(bytes, dot + 1, bytes.len()) {
            Ok(n) => n,
            Err(e) => return Err(e),
        };
        Ok(Version { major, minor })
    }

    /// `min <= self <= max`, where a `None` bound is unrestricted (Nova's
    /// `APIVersionRequest.matches` with a null version).
    #[inline]
    pub const fn matches(self, min: Option<Version>, max: Option<Version>) -> bool {
        let above_min = match min {
            Some(min) => min.le(self),
            None => true,
        };
        let below_max = match max {
            Some(max) => self.le(max),
            None => true,
        };
        above_min && below_max
    }

    /// `self <= other`, usable in `const` context.
    #[inline]
    pub const fn le(self, other: Version) -> bool {
        self.major < other.major || (self.major == other.major && self.minor <= other.minor)
    }

    /// `self < other`, usable in `const` context.
    #[inline]
    pub const fn lt(self, other: Version) -> bool {
        self.le(other) && !self.const_eq(other)
    }

    /// `self == other`, usable in `const` context.
    #[inline]
    pub const fn const_eq(self, other: Version) -> bool {
        self.major == other.major && self.minor == other.minor
    }

    /// The version right after this one in the order of versions: X.(Y+1),
    /// or (X+1).0 after the largest minor; `None` after [`Version::MAX`].
    ///
    /// ```
    /// use microversion_core::Version;
    /// assert_eq!(Version::lit("2.9").successor(), Some(Version::lit("2.10")));
    /// assert_eq!(Version::new(2, u16::MAX).successor(), Some(Version::lit("3.0")));
    /// assert_eq!(Version::MAX.successor(), None);
    /// ```
    #[inline]
    pub const fn successor(self) -> Option<Version> {
        if self.minor < u16::MAX {
            Some(Version::new(self.major, self.minor + 1))
        } else if self.major < u16::MAX {
            Some(Version::new(self.major + 1, 0))
        } else {
            None
        }
    }

    /// The version right before this one: X.(Y-1), or (X-1).65535 before
    /// X.0; `None` before 0.0.
    ///
    /// ```
    /// use microversion_core::Version;
    /// assert_eq!(Version::lit("2.10").predecessor(), Some(Version::lit("2.9")));
    /// assert_eq!(Version::lit("3.0").predecessor(), Some(Version::new(2, u16::MAX)));
    /// assert_eq!(Version::new(0, 0).predecessor(), None);
    /// ```
    #[inline]
    pub const fn predecessor(self) -> Option<Version> {
        if self.minor > 0 {
            Some(Version::new(self.major, self.minor - 1))
        } else if self.major > 0 {
            Some(Version::new(self.major - 1, u16::MAX))
        } else {
            None
        }
    }

    /// Writes `MAJOR.MINOR` into `buf` without allocating and returns the text.
    /// `buf` holds the longest version (`65535.65535`).
    pub fn write_to(self, buf: &mut [u8; 11]) -> &str {
        let mut len = write_u16(self.major, buf, 0);
        buf[len] = b'.';
        len = write_u16(self.minor, buf, len + 1);
        // Only ASCII digits and a dot were written.
        std::str::from_utf8(&buf[..len]).unwrap_or_default()
    }
}

/// Parses `bytes[start..end]` as a decimal without leading zeros (a lone `0` is fine).
const fn parse_component(bytes: &[u8], start: usize, end: usize) -> Result<u16, ParseVersionError> {
    if start == end {
        return Err(ParseVersionError::Malformed);
    }
    if bytes[start] == b'0' && end - start > 1 {
        return Err(ParseVersionError::Malformed);
    }
    let mut value: u32 = 0;
    let mut i = start;
    while i < end {
        let b = bytes[i];
        if !b.is_ascii_digit() {
            return Err(ParseVersionError::Malformed);
        }
        value = value * 10 + (b - b'0') as u32;
        if value > u16::MAX as u32 {
            // Keep scanning so that "2.99999x" reports Malformed, not TooLarge.
            let mut j = i + 1;
            while j < end {
                if !bytes[j].is_ascii_digit() {
                    return Err(ParseVersionError::Malformed);
                }
                j += 1;
            }
            return Err(ParseVersionError::TooLarge);
        }
        i += 1;
    }
    Ok(value as u16)
}

fn write_u16(mut n: u16, buf: &mut [u8; 11], at: usize) -> usize {
    let mut digits = [0u8; 5];
    let mut count = 0;
    loop {
        digits[count] = b'0' + (n % 10) as u8;
        count += 1;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for i in 0..count {
        buf[at + i] = digits[count - 1 - i];
    }
    at + count
}

impl FromStr for Version {
    type Err = ParseVersionError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Version::parse_bytes(s.as_bytes())
    }
}

impl TryFrom<&str> for Version {
    type Error = ParseVersionError;

    fn try_from(s: &str) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0u8; 11];
        f.pad(self.write_to(&mut buf))
    }
}

impl fmt::Debug for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Version({}.{})", self.major, self.minor)
    }
}

impl serde::Serialize for Version {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut buf = [0u8; 11];
        serializer.serialize_str(self.write_to(&mut buf))
    }
}

impl<'de> serde::Deserialize<'de> for Version {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Version;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a microversion string such as \"2.1\"")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Version, E> {
                v.parse().map_err(E::custom)
            }
        }
        deserializer.deserialize_str(Visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_strings_from_the_grammar() {
        for (text, major, minor) in [
            ("2.1", 2, 1),
            ("2.0", 2, 0),
            ("2.10", 2, 10),
            ("12.5", 12, 5),
            ("2.200", 2, 200),
            ("1.0", 1, 0),
            ("65535.65535", 65535, 65535),
        ] {
            assert_eq!(text.parse::<Version>(), Ok(Version::new(major, minor)), "{text}");
        }
    }

    #[test]
    fn invalid_strings_from_the_grammar() {
        for text in [
            "2", "2.1.4", "02.1", "2.01", "5 .3", "5. 3", " 2.1", "2.1 ", "", "-1.5", "+1.2", "1_0.5", "٢.١",
            "２.1", "0.1", "0.0", ".5", "5.", ".", "2..1", "latest", "2.1\0", "2,1", "2.1a", "a2.1", "2.-1",
            "1e1.0",
        ] {
            assert!(text.parse::<Version>().is_err(), "{text:?} must not parse");
        }
        assert_eq!("".parse::<Version>(), Err(ParseVersionError::Empty));
    }

    #[test]
    fn oversized_components_are_errors_not_overflows() {
        assert_eq!("65536.1".parse::<Version>(), Err(ParseVersionError::TooLarge));
        assert_eq!("2.65536".parse::<Version>(), Err(ParseVersionError::TooLarge));
        let huge = format!("2.{}", "9".repeat(10_000));
        assert_eq!(huge.parse::<Version>(), Err(ParseVersionError::TooLarge));
        assert_eq!("2.999999x".parse::<Version>(), Err(ParseVersionError::Malformed));
    }

    #[test]
    fn ordering_is_numeric_by_major_then_minor() {
        let v = |s: &str| s.parse::<Version>().unwrap();
        assert!(v("2.9") < v("2.10"));
        assert!(v("2.10") < v("3.0"));
        assert!(v("2.100") > v("2.99"));
        assert!(v("10.0") > v("9.99"));
        assert_eq!(v("2.5"), Version::new(2, 5));
        assert!(v("2.9").lt(v("2.10")) && v("2.9").le(v("2.9")) && !v("2.9").lt(v("2.9")));
    }

    #[test]
    fn matches_with_open_bounds_like_nova() {
        let v = Version::new(2, 5);
        assert!(v.matches(Some(Version::new(2, 1)), Some(Version::new(2, 5))));
        assert!(v.matches(Some(Version::new(2, 5)), None));
        assert!(v.matches(None, Some(Version::new(2, 5))));
        assert!(v.matches(None, None));
        assert!(!v.matches(Some(Version::new(2, 6)), None));
        assert!(!v.matches(None, Some(Version::new(2, 4))));
        // Nova: an inverted pair matches nothing.
        assert!(!v.matches(Some(Version::new(2, 6)), Some(Version::new(2, 4))));
    }

    #[test]
    fn display_and_serde_use_the_dotted_string() {
        let v = Version::new(2, 27);
        assert_eq!(v.to_string(), "2.27");
        assert_eq!(format!("{v:>6}"), "  2.27");
        assert_eq!(serde_json::to_string(&v).unwrap(), "\"2.27\"");
        assert_eq!(serde_json::from_str::<Version>("\"2.27\"").unwrap(), v);
        assert!(serde_json::from_str::<Version>("\"2.027\"").is_err());
        assert!(serde_json::from_str::<Version>("2.27").is_err());
    }

    #[test]
    fn successor_and_predecessor_are_neighbours_in_the_order() {
        let samples =
            [(0, 0), (1, 0), (2, 9), (2, u16::MAX), (3, 0), (u16::MAX, u16::MAX - 1), (u16::MAX, u16::MAX)];
        for (major, minor) in samples {
            let v = Version::new(major, minor);
            if let Some(next) = v.successor() {
                assert!(v < next, "{v:?}");
                assert_eq!(next.predecessor(), Some(v));
            }
            if let Some(prev) = v.predecessor() {
                assert!(prev < v, "{v:?}");
                assert_eq!(prev.successor(), Some(v));
            }
        }
        assert_eq!(Version::MAX.successor(), None);
        assert_eq!(Version::new(0, 0).predecessor(), None);
    }

    #[test]
    fn const_literal() {
        const V: Version = Version::lit("12.34");
        assert_eq!(V, Version::new(12, 34));
    }

    #[test]
    #[should_panic(expected = "MAJOR.MINOR")]
    fn lit_panics_outside_const_on_a_bad_literal() {
        let text = String::from("2.01");
        let _ = Version::lit(&text);
    }
}
