//! Property tests: parsing, ordering, range algebra and negotiation on arbitrary input.

use microversion_core::{Api, Microversion, Version, VersionRange};
use proptest::prelude::*;

static HISTORY: [Microversion; 4] = [
    Microversion::new("2.1", "a"),
    Microversion::new("2.2", "b"),
    Microversion::new("2.3", "c"),
    Microversion::new("2.10", "d"),
];
const API: Api = Api::new("compute", &HISTORY).with_legacy_headers(&["X-OpenStack-Nova-API-Version"]);

fn version() -> impl Strategy<Value = Version> {
    (1u16.., any::<u16>()).prop_map(|(a, b)| Version::new(a, b))
}

/// Versions from a small domain so that brute force covers every case.
fn small_version() -> impl Strategy<Value = Version> {
    (1u16..4, 0u16..4).prop_map(|(a, b)| Version::new(a, b))
}

fn small_range() -> impl Strategy<Value = VersionRange> {
    (proptest::option::of(small_version()), proptest::option::of(small_version()))
        .prop_filter_map("inverted", |(lo, hi)| VersionRange::new(lo, hi).ok())
}

fn domain() -> impl Iterator<Item = Version> {
    (1u16..4).flat_map(|a| (0u16..4).map(move |b| Version::new(a, b)))
}

fn header_name() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(b"OpenStack-API-Version".to_vec()),
        Just(b"openstack-api-version".to_vec()),
        Just(b"X-OpenStack-Nova-API-Version".to_vec()),
        proptest::collection::vec(any::<u8>(), 0..40),
    ]
}

fn header_value() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..200),
        "[ ,\t]{0,3}(compute|COMPUTE|volume|dogs)?[ \t]{0,3}(latest|[0-9]{1,6}\\.[0-9]{1,6}|2\\.10|2\\.1|x)?[ ,]{0,3}"
            .prop_map(String::into_bytes),
    ]
}

proptest! {
    #[test]
    fn display_then_parse_is_identity(v in version()) {
        prop_assert_eq!(v.to_string().parse::<Version>(), Ok(v));
    }

    #[test]
    fn ordering_agrees_with_the_pair(a in version(), b in version()) {
        prop_assert_eq!(a.cmp(&b), (a.major(), a.minor()).cmp(&(b.major(), b.minor())));
        prop_assert_eq!(a.le(b), a <= b);
        prop_assert_eq!(a.lt(b), a < b);
    }

    #[test]
    fn parse_never_panics_and_accepts_only_the_grammar(text in "\\PC{0,12}|[0-9.]{0,8}") {
        let grammar = regex_like(&text);
        prop_assert_eq!(text.parse::<Version>().is_ok(), grammar);
    }

    #[test]
    fn range_algebra_agrees_with_brute_force(a in small_range(), b in small_range()) {
        let both: Vec<Version> = domain().filter(|v| a.contains(*v) && b.contains(*v)).collect();
        prop_assert_eq!(a.overlaps(b), !both.is_empty() || (open_overlap(a, b)));
        match a.intersection(b) {
            Some(i) => {
                for v in domain() {
                    prop_assert_eq!(i.contains(v), a.contains(v) && b.contains(v));
                }
            }
            None => prop_assert!(both.is_empty()),
        }
        let covered = domain().all(|v| !b.contains(v) || a.contains(v));
        if a.covers(b) {
            prop_assert!(covered);
        }
    }

    #[test]
    fn negotiation_never_panics(headers in proptest::collection::vec((header_name(), header_value()), 0..6)) {
        let pairs = headers.iter().map(|(n, v)| (n.as_slice(), v.as_slice()));
        match API.negotiate(pairs) {
            Ok(got) => prop_assert!(API.serves(got.version)),
            Err(err) => prop_assert!(err.status() == 400 || err.status() == 406),
        }
    }
}

/// `^([1-9][0-9]*)\.([1-9][0-9]*|0)$` with 16-bit components, written out by hand.
fn regex_like(text: &str) -> bool {
    let Some((major, minor)) = text.split_once('.') else { return false };
    let component = |s: &str, allow_zero: bool| {
        !s.is_empty()
            && s.bytes().all(|b| b.is_ascii_digit())
            && (!s.starts_with('0') || (allow_zero && s == "0"))
            && s.parse::<u16>().is_ok()
    };
    component(major, false) && component(minor, true)
}

/// Two open ranges meeting beyond the small domain (`3.3 and later` vs `4.0 and later`)
/// overlap even when no sampled version shows it.
fn open_overlap(a: VersionRange, b: VersionRange) -> bool {
    a.max().is_none() && b.max().is_none()
}
