//! The properties of the `schema_body` fuzz target (`fuzz/`), run on the
//! stable toolchain in `cargo test` with a bounded number of cases:
//! arbitrary body bytes and content types through `read_json_body` and
//! `VersionedSchemas::validate` (`microversion_testkit::body` states them).
//! The seeds of the fuzz target are replayed by `testkit/tests/fuzz_seeds.rs`.

use microversion_testkit::body::{BodyCase, KNOWN, Read, VERSIONS, Verdict, check, expected_read};
use proptest::prelude::*;
use serde_json::{Value, json};

fn content_type() -> impl Strategy<Value = Option<Vec<u8>>> {
    let known = prop_oneof![
        Just(b"application/json".to_vec()),
        Just(b"application/json; charset=utf-8".to_vec()),
        Just(b"Application/JSON".to_vec()),
        Just(b"application/vnd.openstack.compute+json;version=2.1".to_vec()),
        Just(b"text/plain".to_vec()),
        Just(b"".to_vec()),
        Just(b" ; x=y".to_vec()),
        Just(b"application/xml".to_vec()),
        Just(b"+json".to_vec()),
        Just(b"a/+json".to_vec()),
        Just(b"application/jsonp".to_vec()),
        Just(b"application/json\xe9".to_vec()),
        Just("é/x+json".as_bytes().to_vec()),
    ];
    prop_oneof![
        1 => Just(None),
        6 => known.prop_map(Some),
        2 => proptest::collection::vec(any::<u8>(), 0..40).prop_map(Some),
    ]
}

/// Any JSON document, a few levels deep.
fn document() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(|f| json!(f)),
        "\\PC{0,12}".prop_map(Value::String),
        "[a-z .-]{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::btree_map("[a-zA-Z_]{0,10}", inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// A server create body close to valid, so that validation runs deep.
fn near_valid() -> impl Strategy<Value = Value> {
    let name = prop_oneof!["[a-zA-Z0-9. _-]{0,12}", "\\PC{0,6}", Just(" lead".to_owned())];
    let networks = prop_oneof![
        Just(json!("auto")),
        Just(json!("some")),
        "[0-9a-f-]{0,40}".prop_map(|u| json!([{"uuid": u}])),
        "[0-9.]{0,16}".prop_map(|ip| json!([{"fixed_ip": ip}])),
    ];
    let extra = prop_oneof![
        Just(("hostname", json!("web-1.example"))),
        "\\PC{0,10}".prop_map(|h| ("hostname", json!(h))),
        "[0-9a-f:]{0,20}".prop_map(|a| ("accessIPv6", json!(a))),
        "[0-9T:Z-]{0,25}".prop_map(|t| ("launched_at", json!(t))),
        "[a-z@.]{0,12}".prop_map(|e| ("contact", json!(e))),
        document().prop_map(|d| ("layout", d)),
        document().prop_map(|d| ("metadata", d)),
        proptest::collection::vec("[a-z]{0,3}", 0..5).prop_map(|t| ("tags", json!(t))),
        any::<i64>().prop_map(|n| ("min_count", json!(n))),
    ];
    (name, networks, proptest::collection::vec(extra, 0..4)).prop_map(|(name, networks, extra)| {
        let mut server = json!({"name": name, "flavorRef": "1", "networks": networks});
        for (key, value) in extra {
            server[key] = value;
        }
        json!({"server": server})
    })
}

/// Body bytes: random, documents, near-valid bodies, cut or with a byte
/// changed, and deep or long ones.
fn body() -> impl Strategy<Value = Vec<u8>> {
    let serialized = prop_oneof![document(), near_valid()].prop_map(|v| v.to_string().into_bytes());
    prop_oneof![
        2 => proptest::collection::vec(any::<u8>(), 0..64),
        3 => serialized.clone(),
        3 => near_valid().prop_map(|v| v.to_string().into_bytes()),
        1 => (serialized.clone(), any::<prop::sample::Index>()).prop_map(|(b, at)| {
            let cut = if b.is_empty() { 0 } else { at.index(b.len()) };
            b[..cut].to_vec()
        }),
        1 => (serialized, any::<prop::sample::Index>(), any::<u8>()).prop_map(|(mut b, at, byte)| {
            if !b.is_empty() {
                let i = at.index(b.len());
                b[i] = byte;
            }
            b
        }),
        1 => (1usize..2000, prop_oneof![Just("["), Just("{\"a\":"), Just("[{\"children\":")])
            .prop_map(|(n, open)| open.repeat(n).into_bytes()),
        1 => (0usize..100_000).prop_map(|n| format!("{{\"server\": {{\"name\": \"{}\"}}}}", "a".repeat(n)).into_bytes()),
        1 => "[ \t\r\n]{0,5}".prop_map(String::into_bytes),
    ]
}

/// The `Content-Length` sent: mostly honest, else a lie on either side of
/// the limits.
fn declared_length() -> impl Strategy<Value = Option<u64>> {
    prop_oneof![
        6 => Just(None),
        1 => (0u64..2 * 1024 * 1024).prop_map(Some),
        1 => Just(Some(u64::MAX)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    #[test]
    fn bodies_keep_the_contract(
        content_type in content_type(),
        body in body(),
        version in proptest::sample::select(&VERSIONS[..]),
        limit in prop_oneof![Just(64usize), Just(16 * 1024), Just(1024 * 1024)],
        declared_length in declared_length(),
    ) {
        let case = BodyCase { content_type: content_type.as_deref(), body: &body, declared_length, version, limit };
        check(&case).map_err(TestCaseError::fail)?;
    }
}

/// Inputs that matter and that random generation rarely builds.
#[test]
fn edge_cases_keep_the_contract() {
    let deep = "[".repeat(100_000);
    let deep_tree = format!(
        r#"{{"server": {{"name": "a", "flavorRef": "1", "layout": {}{{}}{}}}}}"#,
        r#"{"children": ["#.repeat(60),
        "]}".repeat(60)
    );
    let many_keys = format!(
        r#"{{"server": {{"name": "a", "flavorRef": "1", {}"x": 0}}}}"#,
        (0..5000).map(|i| format!(r#""k{i}": 0, "#)).collect::<String>()
    );
    let bodies: Vec<&[u8]> = vec![
        b"",
        b"   ",
        b"\xef\xbb\xbf{}",
        b"1e400",
        b"-0",
        b"\"\\ud800\"",
        deep.as_bytes(),
        deep_tree.as_bytes(),
        many_keys.as_bytes(),
        br#"{"server": {"name": "ok", "flavorRef": "1", "tags": ["a", "a"]}}"#,
        br#"{"server": {"name": "ok", "flavorRef": 1, "min_count": 1e300}}"#,
    ];
    for body in bodies {
        for version in VERSIONS {
            for content_type in [None, Some(&b"application/json"[..])] {
                let case =
                    BodyCase { content_type, body, declared_length: None, version, limit: 1024 * 1024 };
                check(&case).unwrap_or_else(|e| panic!("{e}"));
            }
        }
    }
}

/// Every document of known verdict, at every version, with and without a
/// JSON content type: it passes where it is valid, and fails with a 400
/// naming its path where it is not.
#[test]
fn known_documents_get_their_verdicts() {
    let mut invalid = 0;
    for known in KNOWN {
        for version in VERSIONS {
            invalid += usize::from(matches!(known.verdict(version), Verdict::Invalid(_)));
            for content_type in [None, Some(&b"application/json; charset=utf-8"[..])] {
                let case = BodyCase {
                    content_type,
                    body: known.body.as_bytes(),
                    declared_length: None,
                    version,
                    limit: 1024 * 1024,
                };
                check(&case).unwrap_or_else(|e| panic!("{e}"));
            }
        }
    }
    assert!(invalid >= 50, "the known documents should fail often, not {invalid} times");
}

/// The reading rules against cases written from `docs/reliability.md`,
/// each checked both against the oracle and through `read_json_body`.
#[test]
fn reading_rules_give_the_documented_outcomes() {
    let refused = |status| Read::Refused(status);
    let document = |text: &str| Read::Document(serde_json::from_str(text).expect("JSON"));
    // Content type, body, declared length, limit, outcome.
    type Row<'a> = (Option<&'a [u8]>, &'a [u8], Option<u64>, usize, Read);
    let cases: Vec<Row<'_>> = vec![
        (None, b"{}", None, 64, document("{}")),
        (Some(b"application/json"), b"[1]", None, 64, document("[1]")),
        (Some(b"APPLICATION/JSON ; charset=utf-8"), b"1", None, 64, document("1")),
        (Some(b"application/vnd.openstack.compute+json;version=2.1"), b"1", None, 64, document("1")),
        (Some(b"a/+json"), b"1", None, 64, document("1")),
        (Some(b"text/plain"), b"true", None, 64, document("true")),
        (Some(b""), b"1", None, 64, document("1")),
        (Some(b"; charset=utf-8"), b"1", None, 64, document("1")),
        (Some(b"\tapplication/json\t"), b"1", None, 64, document("1")),
        (Some(b"application/xml"), b"{}", None, 64, refused(415)),
        (Some(b"text/html"), b"{}", None, 64, refused(415)),
        (Some(b"application/x-www-form-urlencoded"), b"a=b", None, 64, refused(415)),
        (Some(b"application/jsonp"), b"{}", None, 64, refused(415)),
        (Some(b"+json"), b"{}", None, 64, refused(415)),
        (Some(b"json"), b"{}", None, 64, refused(415)),
        (Some(b"application/json\xe9"), b"{}", None, 64, refused(415)),
        // The content type is judged before the size.
        (Some(b"application/xml"), &[b' '; 100], None, 64, refused(415)),
        (None, &[b' '; 65], None, 64, refused(413)),
        (None, b"{}", Some(65), 64, refused(413)),
        (None, b"", Some(u64::MAX), 64, refused(413)),
        (None, &[b'1'; 100], Some(10), 64, refused(413)),
        (None, &[b' '; 64], None, 64, document("null")),
        (None, b"", None, 64, document("null")),
        (None, b" \t\r\n\x0c", None, 64, document("null")),
        (None, b"{", None, 64, refused(400)),
        (None, b"\xef\xbb\xbf{}", None, 64, refused(400)),
        (None, b"{\"a\": \"\xff\"}", None, 64, refused(400)),
        (None, b"1 2", None, 64, refused(400)),
    ];
    for (content_type, body, declared_length, limit, want) in cases {
        let case = BodyCase { content_type, body, declared_length, version: VERSIONS[4], limit };
        let (got, rule) = expected_read(&case);
        assert_eq!(got, want, "the oracle's rule {rule:?} for {}", case.describe());
        check(&case).unwrap_or_else(|e| panic!("{e}"));
    }
}
