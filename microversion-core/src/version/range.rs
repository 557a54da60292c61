//! `VersionRange`: the inclusive set of versions a method, schema or field serves.

use std::fmt;

use crate::Version;

/// An inclusive range of versions; either end may be open.
///
/// ```
/// use microversion_core::{Version, VersionRange};
///
/// let old = VersionRange::between(Version::lit("2.1"), Version::lit("2.4"));
/// let new = VersionRange::from(Version::lit("2.5"));
/// assert!(!old.overlaps(new));
/// assert!(new.contains(Version::lit("2.96")));
/// assert_eq!(old.to_string(), "2.1 to 2.4");
/// assert_eq!(new.to_string(), "2.5 and later");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct VersionRange {
    min: Option<Version>,
    max: Option<Version>,
}

/// A range whose minimum is above its maximum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InvertedRange {
    /// The requested minimum.
    pub min: Version,
    /// The requested maximum, below `min`.
    pub max: Version,
}

impl fmt::Display for InvertedRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "minimum version {} is above maximum version {}", self.min, self.max)
    }
}

impl std::error::Error for InvertedRange {}

impl VersionRange {
    /// Every version.
    pub const ANY: VersionRange = VersionRange { min: None, max: None };

    /// A range from optional bounds; an inverted range is an error.
    #[inline]
    pub const fn new(min: Option<Version>, max: Option<Version>) -> Result<Self, InvertedRange> {
        if let (Some(lo), Some(hi)) = (min, max)
            && hi.lt(lo)
        {
            return Err(InvertedRange { min: lo, max: hi });
        }
        Ok(VersionRange { min, max })
    }

    /// `min` to `max` inclusive. Panics (a compile error in `const`) if inverted;
    /// use [`VersionRange::new`] for a checked construction at run time.
    #[inline]
    pub const fn between(min: Version, max: Version) -> Self {
        match VersionRange::new(Some(min), Some(max)) {
            Ok(range) => range,
            Err(_) => panic!("minimum version is above maximum version"),
        }
    }

    /// `min` and every later version.
    #[inline]
    pub const fn from(min: Version) -> Self {
        VersionRange { min: Some(min), max: None }
    }

    /// Every version up to and including `max`.
    #[inline]
    pub const fn until(max: Version) -> Self {
        VersionRange { min: None, max: Some(max) }
    }

    /// Exactly one version.
    #[inline]
    pub const fn only(version: Version) -> Self {
        VersionRange { min: Some(version), max: Some(version) }
    }

    /// The lower bound, `None` when open.
    #[inline]
    pub const fn min(self) -> Option<Version> {
        self.min
    }

    /// The upper bound, `None` when open.
    #[inline]
    pub const fn max(self) -> Option<Version> {
        self.max
    }

    /// Whether `version` lies in the range.
    #[inline]
    pub const fn contains(self, version: Version) -> bool {
        version.matches(self.min, self.max)
    }

    /// Whether some version lies in both ranges.
    #[inline]
    pub const fn overlaps(self, other: VersionRange) -> bool {
        self.intersection(other).is_some()
    }

    /// Whether every version of `other` lies in `self`.
    #[inline]
    pub const fn covers(self, other: VersionRange) -> bool {
        let low_ok = match (self.min, other.min) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some(a), Some(b)) => a.le(b),
        };
        let high_ok = match (self.max, other.max) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some(a), Some(b)) => b.le(a),
        };
        low_ok && high_ok
    }

    /// The versions in both ranges, `None` when they are disjoint.
    #[inline]
    pub const fn intersection(self, other: VersionRange) -> Option<VersionRange> {
        let min = match (self.min, other.min) {
            (Some(a), Some(b)) => Some(if a.lt(b) { b } else { a }),
            (Some(a), None) | (None, Some(a)) => Some(a),
            (None, None) => None,
        };
        let max = match (self.max, other.max) {
            (Some(a), Some(b)) => Some(if a.lt(b) { a } else { b }),
            (Some(a), None) | (None, Some(a)) => Some(a),
            (None, None) => None,
        };
        match VersionRange::new(min, max) {
            Ok(range) => Some(range),
            Err(_) => None,
        }
    }
}

impl fmt::Display for VersionRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.min, self.max) {
            (Some(lo), Some(hi)) if lo == hi => write!(f, "{lo} only"),
            (Some(lo), Some(hi)) => write!(f, "{lo} to {hi}"),
            (Some(lo), None) => write!(f, "{lo} and later"),
            (None, Some(hi)) => write!(f, "up to {hi}"),
            (None, None) => f.write_str("every version"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn v(major: u16, minor: u16) -> Version {
        Version::new(major, minor)
    }

    #[test]
    fn inverted_ranges_are_errors() {
        assert_eq!(
            VersionRange::new(Some(v(2, 5)), Some(v(2, 4))),
            Err(InvertedRange { min: v(2, 5), max: v(2, 4) })
        );
        assert!(VersionRange::new(Some(v(2, 5)), Some(v(2, 5))).is_ok());
        assert!(VersionRange::new(None, None).is_ok());
    }

    #[test]
    fn boundaries_are_inclusive_and_open_ends_unbounded() {
        let r = VersionRange::between(v(2, 2), v(2, 5));
        assert!(r.contains(v(2, 2)) && r.contains(v(2, 5)));
        assert!(!r.contains(v(2, 1)) && !r.contains(v(2, 6)));
        assert!(VersionRange::from(v(2, 5)).contains(v(99, 0)));
        assert!(VersionRange::until(v(2, 5)).contains(v(1, 0)));
        assert!(VersionRange::ANY.contains(Version::MAX));
    }

    #[test]
    fn boundary_equality_overlaps() {
        let a = VersionRange::between(v(2, 2), v(2, 5));
        let b = VersionRange::between(v(2, 5), v(3, 1));
        assert!(a.overlaps(b) && b.overlaps(a));
        assert_eq!(a.intersection(b), Some(VersionRange::only(v(2, 5))));
        let c = VersionRange::from(v(2, 6));
        assert!(!a.overlaps(c));
        assert!(VersionRange::from(v(2, 3)).overlaps(VersionRange::until(v(2, 3))));
        assert!(!VersionRange::from(v(2, 4)).overlaps(VersionRange::until(v(2, 3))));
    }

    #[test]
    fn display_reads_like_prose() {
        assert_eq!(VersionRange::between(v(2, 1), v(2, 4)).to_string(), "2.1 to 2.4");
        assert_eq!(VersionRange::from(v(2, 5)).to_string(), "2.5 and later");
        assert_eq!(VersionRange::until(v(2, 4)).to_string(), "up to 2.4");
        assert_eq!(VersionRange::only(v(2, 4)).to_string(), "2.4 only");
        assert_eq!(VersionRange::ANY.to_string(), "every version");
    }

    #[test]
    fn covers() {
        let outer = VersionRange::between(v(2, 1), v(2, 90));
        assert!(outer.covers(VersionRange::between(v(2, 1), v(2, 90))));
        assert!(!outer.covers(VersionRange::from(v(2, 5))));
        assert!(VersionRange::from(v(2, 1)).covers(VersionRange::from(v(2, 5))));
        assert!(!VersionRange::from(v(2, 2)).covers(VersionRange::ANY));
    }
}
