//! The negotiation properties of the `negotiate` fuzz target (`fuzz/`), run
//! on the stable toolchain in `cargo test` with a bounded number of cases:
//! for arbitrary header names and bytes, repeated headers included,
//! `Api::negotiate` agrees with a naive statement of docs/reference.md §2
//! (`microversion_testkit::negotiation`) and never panics. The seeds of
//! the fuzz target are replayed by `testkit/tests/fuzz_seeds.rs`.

use microversion_testkit::negotiation as oracle;
use proptest::prelude::*;

fn header_name() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        3 => Just(b"OpenStack-API-Version".to_vec()),
        1 => Just(b"openstack-api-version".to_vec()),
        1 => Just(b"OPENSTACK-API-VERSION".to_vec()),
        2 => Just(b"X-OpenStack-Nova-API-Version".to_vec()),
        1 => Just(b"x-first".to_vec()),
        1 => Just(b"X-Second".to_vec()),
        1 => proptest::collection::vec(any::<u8>(), 0..24),
    ]
}

/// One token of a header value: services, versions (good, bad, huge),
/// separators, Python whitespace, and stray bytes.
fn token() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(b"compute".to_vec()),
        Just(b"volume".to_vec()),
        Just(b"latest".to_vec()),
        Just(b" ".to_vec()),
        Just(b",".to_vec()),
        Just(b".".to_vec()),
        Just(b"\xc2\xa0".to_vec()),
        version_text(),
        proptest::collection::vec(any::<u8>(), 1..4),
    ]
}

/// Version-like text: served, unserved, too large, malformed.
fn version_text() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => (1u32..3, 0u32..12).prop_map(|(a, b)| format!("{a}.{b}").into_bytes()),
        1 => Just(b"2.100".to_vec()),
        1 => Just(b"latest".to_vec()),
        1 => Just(b"LATEST".to_vec()),
        1 => (0u32..200_000, 0u32..200_000).prop_map(|(a, b)| format!("{a}.{b}").into_bytes()),
        1 => "0?[0-9]{1,3}\\.0?[0-9]{1,3}(\\.[0-9])?".prop_map(String::into_bytes),
        1 => "[0-9]{0,30}".prop_map(String::into_bytes),
        1 => proptest::collection::vec(any::<u8>(), 0..6),
    ]
}

/// `SERVICE<space>VERSION` with the spacing variations of docs/reference.md §2.
fn entry() -> impl Strategy<Value = Vec<u8>> {
    let service = prop_oneof![
        4 => Just(b"compute".to_vec()),
        1 => Just(b"Compute".to_vec()),
        1 => Just(b"COMPUTE".to_vec()),
        2 => Just(b"volume".to_vec()),
        1 => Just(b"computer".to_vec()),
        1 => proptest::collection::vec(any::<u8>(), 0..4),
    ];
    let space = prop_oneof![
        4 => Just(&b" "[..]),
        1 => Just(&b""[..]),
        1 => Just(&b"  \t "[..]),
        1 => Just(&b"\x1c"[..]),
        1 => Just(&b"\xc2\xa0"[..]),
    ];
    (space.clone(), service, space.clone(), version_text(), space)
        .prop_map(|(a, s, b, v, c)| [a, &s, b, &v, c].concat())
}

fn header_value() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => proptest::collection::vec(entry(), 0..4).prop_map(|e| e.join(&b","[..])),
        2 => version_text(),
        2 => proptest::collection::vec(token(), 0..10).prop_map(|t| t.concat()),
        1 => proptest::collection::vec(any::<u8>(), 0..100),
    ]
}

fn headers() -> impl Strategy<Value = Vec<(Vec<u8>, Vec<u8>)>> {
    proptest::collection::vec((header_name(), header_value()), 0..6)
}

fn check_all(headers: &[(Vec<u8>, Vec<u8>)]) -> Result<(), TestCaseError> {
    oracle::check_all(headers).map_err(TestCaseError::fail)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn negotiation_agrees_with_the_contract(headers in headers()) {
        check_all(&headers)?;
    }
}

/// Inputs that matter and that random generation rarely builds.
#[test]
fn edge_cases_agree_with_the_contract() {
    let huge = "compute 2.1,".repeat(7000);
    let cases: Vec<Vec<(&[u8], &[u8])>> = vec![
        vec![],
        vec![(b"OpenStack-API-Version", b"")],
        vec![(b"OpenStack-API-Version", b"compute\x1c2.5")],
        vec![(b"OpenStack-API-Version", b"compute\xc2\xa02.5")],
        vec![(b"OpenStack-API-Version", b"compute 2.65536")],
        vec![(b"OpenStack-API-Version", b"compute 65535.65535")],
        vec![(b"OpenStack-API-Version", huge.as_bytes())],
        vec![(b"X-OpenStack-Nova-API-Version", b"")],
        vec![(b"X-OpenStack-Nova-API-Version", b"2.2,"), (b"X-OpenStack-Nova-API-Version", b"")],
        vec![(b"X-Second", b"2.3"), (b"X-First", b"bogus")],
        vec![(b"OpenStack-API-Version", b"compute latest"), (b"OpenStack-API-Version", b"compute")],
        vec![(b"OpenStack-API-Version", "compute 2.\u{0662}".as_bytes())],
    ];
    for case in cases {
        let owned: Vec<(Vec<u8>, Vec<u8>)> = case.iter().map(|(n, v)| (n.to_vec(), v.to_vec())).collect();
        check_all(&owned).unwrap_or_else(|e| panic!("{e}"));
    }
}
