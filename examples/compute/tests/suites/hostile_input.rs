//! Hostile input against the running compute example, over real HTTP/1.1 on
//! loopback (docs/reference.md §12): malformed, truncated, deep, huge and non-UTF-8
//! bodies; wrong, missing and odd content types; oversized bodies and lying
//! lengths; very long and very many version headers; control and non-ASCII
//! bytes in headers; odd paths and query strings.
//!
//! Every request the app sees must get a 4xx with a JSON fault body (or a
//! 2xx where the request is legitimate), never a 5xx, never a panic, and
//! the server must keep serving: a normal request follows every hostile one.
//! Each raw request is sent twice, the second time by a client that
//! half-closes its side once the request is written (`nc -N`, one request
//! per connection), which must get the same answer.
//! The whole contract is `common::check_contract`.
//!
//! Some raw inputs never reach the app: actix's HTTP/1 codec rejects them
//! while parsing the request head, and answers with an empty body and
//! closes the connection (`Answer::Codec` below). The app cannot add a JSON
//! body there, and should not: the request was never routed, so no version
//! or error format applies. Each such case is listed explicitly, with the
//! codec's status, in the tables below and in docs/reliability.md:
//! - 400: control bytes (NUL..US except TAB, and DEL) or a bare CR in a
//!   header value, a header name that is not a token, obs-fold, a request
//!   target with raw bytes outside visible ASCII, a target longer than the
//!   `http` crate's 65,534-byte URI limit, a missing `Host` on HTTP/1.1,
//!   an invalid or repeated differing `Content-Length`, `Content-Length`
//!   with `Transfer-Encoding: chunked` (request smuggling guard), a request
//!   line that is not HTTP;
//! - 431: more than 96 header lines, or a request head over 128 KiB (the
//!   server may reset the connection while the client is still writing,
//!   which destroys the 431 in flight; that is accepted as the same outcome).
//!
//! On axum, requests are read by hyper's HTTP/1 codec (`ON_AXUM`): hyper takes a body
//! framed by `Transfer-Encoding: chunked` whatever `Content-Length` says
//! and a head up to about 400 KiB, so those cases reach the app and get
//! its JSON 400. A path parameter that is not UTF-8 once decoded is a 404
//! on both: the framework's `params::Path` answers every parameter it
//! cannot read so.

use super::FRAMEWORK;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Once;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use common::{IO_TIMEOUT, LEGACY_HEADER, Request, Response, STANDARD_HEADER, Then, check_contract};
use compute::RunningServer;
use microversion_testkit::http as common;
use serde_json::json;

/// Whether the server under test is the axum build (see the module's docs).
const ON_AXUM: bool = matches!(FRAMEWORK, compute::Framework::Axum);

/// Panics on the server's worker threads, counted by a panic hook.
static SERVER_PANICS: AtomicUsize = AtomicUsize::new(0);

fn server() -> RunningServer {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let worker =
                |n: &str| n.starts_with("actix-server worker") || n.starts_with("tokio-runtime-worker");
            if std::thread::current().name().is_some_and(worker) {
                SERVER_PANICS.fetch_add(1, Ordering::SeqCst);
            }
            default(info);
        }));
    });
    RunningServer::start(FRAMEWORK).expect("the compute example starts on a free loopback port")
}

/// How a hostile request must be answered.
#[derive(Clone, Copy, Debug)]
enum Answer {
    /// By the app: `check_contract` holds and the status is one of these.
    App(&'static [u16]),
    /// By actix's HTTP/1 codec before routing: this status, an empty body,
    /// no version headers, and `connection: close`.
    Codec(u16),
}

const BAD: Answer = Answer::App(&[400]);

/// Sends a request built with the test client, checks the contract and the
/// status, then that the server still serves.
fn hostile(base: &str, req: &Request, answer: Answer, context: &str) -> Response {
    let bytes = req.to_bytes(common::host_of(base));
    let headers = req.headers().to_vec();
    let res = exchange(base, &bytes, req.method(), req.target().as_bytes(), &headers, answer, context);
    res.unwrap_or_else(|| panic!("{context}: no response"))
}

/// Sends raw request bytes and checks the answer, twice: from a client that
/// waits for it, then from one that half-closes its side once the request
/// is written (it gets the same answer). `method`, `target` and `headers`
/// are what the server parses from the bytes (for the contract). Returns the
/// first response, or `None` where a reset is an accepted outcome.
fn exchange(
    base: &str,
    bytes: &[u8],
    method: &str,
    target: &[u8],
    headers: &[(Vec<u8>, Vec<u8>)],
    answer: Answer,
    context: &str,
) -> Option<Response> {
    let waited = exchange_then(base, bytes, Then::Wait, (method, target, headers), answer, context);
    // The same request again: a refusal is refused again, but what was
    // carried out may now conflict (a flavor or keypair created twice).
    let done = waited.as_ref().is_some_and(|res| (200..300).contains(&res.status));
    let again = if done { Answer::App(DONE_OR_CONFLICT) } else { answer };
    let context = format!("{context}, the client half-closing");
    let half_closed = exchange_then(base, bytes, Then::HalfClose, (method, target, headers), again, &context);
    if let (Some(waited), Some(half_closed)) = (&waited, &half_closed)
        && !done
    {
        assert_eq!(waited.status, half_closed.status, "{context}\n{}", half_closed.describe());
    }
    waited
}

/// The answers to a request carried out once already, sent again.
const DONE_OR_CONFLICT: &[u16] = &[200, 201, 202, 204, 409];

/// What the server parses from a request's bytes: method, target, headers.
type Parsed<'a> = (&'a str, &'a [u8], &'a [(Vec<u8>, Vec<u8>)]);

/// One exchange of [`exchange`], the client doing `then` after writing.
fn exchange_then(
    base: &str,
    bytes: &[u8],
    then: Then,
    (method, target, headers): Parsed<'_>,
    answer: Answer,
    context: &str,
) -> Option<Response> {
    let res = match (common::send_raw_then(base, bytes, then), answer) {
        (Ok(res), _) => Some(res),
        (Err(e), Answer::Codec(431)) if is_reset(&e) => None,
        (Err(e), _) => panic!("{context}: the exchange failed: {e}"),
    };
    if let Some(res) = &res {
        match answer {
            Answer::App(statuses) => {
                check_contract(method, target, headers, res).unwrap_or_else(|e| panic!("{context}: {e}"));
                assert!(
                    statuses.contains(&res.status),
                    "{context}: expected {statuses:?}\n{}",
                    res.describe()
                );
            }
            Answer::Codec(status) => {
                assert_eq!(res.status, status, "{context}: the codec's answer\n{}", res.describe());
                assert!(res.body.is_empty(), "{context}: the codec answers no body\n{}", res.describe());
                assert!(res.header(STANDARD_HEADER).is_none(), "{context}: not routed\n{}", res.describe());
                assert_eq!(
                    res.header("connection").as_deref(),
                    Some("close"),
                    "{context}\n{}",
                    res.describe()
                );
            }
        }
    }
    assert_serving(base, context);
    res
}

fn is_reset(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::{BrokenPipe, ConnectionAborted, ConnectionReset};
    matches!(e.kind(), ConnectionReset | BrokenPipe | ConnectionAborted)
}

/// A normal request after a hostile one: the server still answers, right,
/// and no worker has panicked.
fn assert_serving(base: &str, context: &str) {
    let res = Request::get("/v2.1/flavors/detail").version("2.61").send(base);
    assert_eq!(res.status, 200, "after {context}: the server stopped serving\n{}", res.describe());
    assert_eq!(res.header(STANDARD_HEADER).as_deref(), Some("compute 2.61"), "after {context}");
    assert!(res.json()["flavors"][0]["extra_specs"].is_object(), "after {context}\n{}", res.describe());
    assert_eq!(SERVER_PANICS.load(Ordering::SeqCst), 0, "after {context}: a server worker panicked");
}

/// The body-taking operations, each with a version that validates its body.
const BODY_ENDPOINTS: [(&str, &str, &str); 5] = [
    ("POST", "/v2.1/flavors", "2.55"),
    ("PUT", "/v2.1/flavors/1", "2.55"),
    ("POST", "/v2.1/os-keypairs", "2.10"),
    ("POST", "/v2.1/flavors/1/os-extra_specs", "2.1"),
    ("PUT", "/v2.1/flavors/1/os-extra_specs/hw:cpu_policy", "2.1"),
];

fn post_json(method: &str, path: &str, version: &str, body: impl Into<Vec<u8>>) -> Request {
    Request::new(method, path).version(version).header("Content-Type", "application/json").body(body)
}

fn to_every_endpoint(base: &str, name: &str, body: &[u8], answer: Answer) {
    for (method, path, version) in BODY_ENDPOINTS {
        let context = format!("{name}: {method} {path} at {version}");
        hostile(base, &post_json(method, path, version, body), answer, &context);
    }
}

#[test]
fn malformed_and_truncated_json_is_400() {
    let server = server();
    let base = server.url.as_str();
    let malformed: &[(&str, &[u8])] = &[
        ("open brace", b"{"),
        ("close brace", b"}"),
        ("missing colon", br#"{"flavor" {}}"#),
        ("trailing comma", br#"{"flavor": {},}"#),
        ("unclosed array", b"[1, 2"),
        ("bare word", b"nul"),
        ("unterminated string", br#""abc"#),
        ("trailing garbage", b"{} x"),
        ("two documents", b"{}{}"),
        ("extra close", br#"{"a": 1}}"#),
        ("byte order mark", b"\xef\xbb\xbf{}"),
        ("single quotes", b"{'flavor': {}}"),
        ("unquoted key", b"{flavor: {}}"),
        ("NaN", br#"{"flavor": NaN}"#),
        ("Infinity", br#"{"flavor": Infinity}"#),
        ("leading zero", br#"{"flavor": 01}"#),
        ("lone minus", b"-"),
        ("raw control char in a string", b"{\"flavor\": \"a\x01b\"}"),
        ("lone surrogate escape", br#"{"flavor": "\ud800"}"#),
        ("bad escape", br#"{"flavor": "\u00zz"}"#),
        ("NUL byte", b"\x00"),
        ("comment", b"// hi\n{}"),
    ];
    for (name, body) in malformed {
        to_every_endpoint(base, name, body, BAD);
    }
    // Every strict prefix of a valid body is malformed or incomplete.
    let valid = br#"{"flavor": {"name": "prefix", "ram": 512, "vcpus": 1, "disk": 1, "id": "prefix-1"}}"#;
    for len in 0..valid.len() {
        let req = post_json("POST", "/v2.1/flavors", "2.55", &valid[..len]);
        hostile(base, &req, BAD, &format!("a body cut at {len} bytes"));
    }
    let req = post_json("POST", "/v2.1/flavors", "2.55", &valid[..]);
    hostile(base, &req, Answer::App(&[200]), "the whole body");
}

#[test]
fn deep_nesting_is_400() {
    let server = server();
    let base = server.url.as_str();
    const LEVELS: usize = 100_000;
    let arrays_open = "[".repeat(LEVELS);
    let arrays = format!("{}{}", "[".repeat(LEVELS), "]".repeat(LEVELS));
    let objects = format!("{}1{}", r#"{"a":"#.repeat(LEVELS), "}".repeat(LEVELS));
    let mixed = format!("{}null{}", r#"[{"a":"#.repeat(LEVELS / 2), "}]".repeat(LEVELS / 2));
    let inside = format!(r#"{{"flavor": {{"name": {}1{}}}}}"#, "[".repeat(LEVELS), "]".repeat(LEVELS));
    for (name, body) in [
        ("100k open arrays", arrays_open),
        ("100k nested arrays", arrays),
        ("100k nested objects", objects),
        ("100k nested arrays and objects", mixed),
        ("100k nested arrays inside a valid body", inside),
    ] {
        to_every_endpoint(base, name, body.as_bytes(), BAD);
    }
    // Deep but within the parser's limit (128): the schema refuses it.
    let shallow = format!(r#"{{"flavor": {{"name": {}1{}}}}}"#, "[".repeat(100), "]".repeat(100));
    to_every_endpoint(base, "100 nested arrays inside a valid body", shallow.as_bytes(), BAD);
}

#[test]
fn huge_numbers_and_strings() {
    let server = server();
    let base = server.url.as_str();
    let flavor = |field: &str, value: &str| {
        let mut fields = vec![("name", "\"n\""), ("ram", "512"), ("vcpus", "1"), ("disk", "1")];
        match fields.iter_mut().find(|(key, _)| *key == field) {
            Some(entry) => entry.1 = value,
            None => fields.push((field, value)),
        }
        let inner: Vec<String> = fields.iter().map(|(key, value)| format!("\"{key}\": {value}")).collect();
        format!("{{\"flavor\": {{{}}}}}", inner.join(", "))
    };
    let digits = "9".repeat(5000);
    let numbers: &[(&str, String, Answer)] = &[
        ("ram 1e400", flavor("ram", "1e400"), BAD),
        ("ram of 5000 digits", flavor("ram", &digits), BAD),
        ("ram of 5000 digits as a string", flavor("ram", &format!("\"{digits}\"")), BAD),
        ("ram u64::MAX + 1", flavor("ram", "18446744073709551616"), BAD),
        ("ram i32::MAX + 1", flavor("ram", "2147483648"), BAD),
        ("ram -1", flavor("ram", "-1"), BAD),
        ("ram -0", flavor("ram", "-0"), BAD),
        ("ram 1e-400", flavor("ram", "1e-400"), BAD),
        ("ram 2147483647.0", flavor("ram", "2147483647.0"), BAD),
        ("ram 0.5", flavor("ram", "0.5"), BAD),
        ("rxtx_factor 1e308", flavor("rxtx_factor", "1e308"), BAD),
        ("rxtx_factor 0", flavor("rxtx_factor", "0"), BAD),
        ("id 1e400", flavor("id", "1e400"), BAD),
        (
            "swap of 10000 zeros",
            flavor("swap", &format!("\"{}\"", "0".repeat(10_000))),
            Answer::App(&[200, 409]),
        ),
    ];
    for (name, body, answer) in numbers {
        let req = post_json("POST", "/v2.1/flavors", "2.55", body.as_bytes());
        hostile(base, &req, *answer, name);
    }
    // Strings: past the schema's lengths (the body stays under the 1 MiB limit).
    let long = "a".repeat(900 * 1024);
    let strings: &[(&str, &str, &str, String)] = &[
        (
            "a 900 KiB flavor name",
            "POST",
            "/v2.1/flavors",
            format!(r#"{{"flavor": {{"name": "{long}", "ram": 1, "vcpus": 1, "disk": 1}}}}"#),
        ),
        (
            "a 900 KiB description",
            "PUT",
            "/v2.1/flavors/1",
            format!(r#"{{"flavor": {{"description": "{long}"}}}}"#),
        ),
        (
            "a 900 KiB keypair name",
            "POST",
            "/v2.1/os-keypairs",
            format!(r#"{{"keypair": {{"name": "{long}"}}}}"#),
        ),
        (
            "a 900 KiB public key",
            "POST",
            "/v2.1/os-keypairs",
            format!(r#"{{"keypair": {{"name": "k", "public_key": "ssh-ed25519 {long}"}}}}"#),
        ),
        (
            "a 900 KiB extra spec key",
            "POST",
            "/v2.1/flavors/1/os-extra_specs",
            format!(r#"{{"extra_specs": {{"{long}": "1"}}}}"#),
        ),
        (
            "a 900 KiB extra spec value",
            "POST",
            "/v2.1/flavors/1/os-extra_specs",
            format!(r#"{{"extra_specs": {{"k": "{long}"}}}}"#),
        ),
        (
            "a 900 KiB certificate",
            "POST",
            "/v2.1/os-keypairs",
            format!(
                r#"{{"keypair": {{"name": "c", "type": "x509", "public_key": "-----BEGIN CERTIFICATE-----{long}-----END CERTIFICATE-----"}}}}"#
            ),
        ),
        (
            "50k unknown keys",
            "POST",
            "/v2.1/flavors",
            format!(
                r#"{{"flavor": {{{}"name": "x"}}}}"#,
                (0..50_000).map(|i| format!(r#""k{i}": 0, "#)).collect::<String>()
            ),
        ),
        ("300k array elements", "POST", "/v2.1/flavors", format!("[{}0]", "0,".repeat(300_000))),
    ];
    for (name, method, path, body) in strings {
        let version = if path.contains("keypairs") { "2.10" } else { "2.55" };
        hostile(base, &post_json(method, path, version, body.as_bytes()), BAD, name);
    }
    // Many violations are listed up to a bound and counted, not echoed whole.
    let res =
        hostile(base, &post_json("POST", "/v2.1/flavors", "2.55", strings[7].3.as_bytes()), BAD, "50k keys");
    assert!(res.body.len() < 64 * 1024, "the 400 stays small: {} bytes", res.body.len());
}

#[test]
fn invalid_utf8_is_400() {
    let server = server();
    let base = server.url.as_str();
    let bodies: &[(&str, &[u8])] = &[
        (
            "0xff 0xfe in a string",
            b"{\"flavor\": {\"name\": \"\xff\xfe\", \"ram\": 1, \"vcpus\": 1, \"disk\": 1}}",
        ),
        ("an overlong slash", b"{\"flavor\": \"\xc0\xaf\"}"),
        ("an encoded surrogate", b"{\"flavor\": \"\xed\xa0\x80\"}"),
        ("a cut multibyte character", b"{\"flavor\": \"\xe2\x82\"}"),
        ("Latin-1 text", b"{\"flavor\": {\"name\": \"caf\xe9\"}}"),
        ("UTF-16", b"\xff\xfe{\x00}\x00"),
        ("invalid bytes in a key", b"{\"\xff\": 1}"),
        ("invalid bytes outside strings", b"{\xff}"),
    ];
    for (name, body) in bodies {
        to_every_endpoint(base, name, body, BAD);
    }
}

#[test]
fn content_types() {
    let server = server();
    let base = server.url.as_str();
    // Nova's rule: JSON types, `text/plain`, an empty or missing type are
    // read as JSON; anything else is 415.
    let long = format!("application/{}", "x".repeat(8 * 1024));
    let cases: Vec<(&str, Option<&[u8]>, u16)> = vec![
        ("application/json", Some(b"application/json"), 200),
        ("with a charset", Some(b"application/json; charset=utf-8"), 200),
        ("upper case", Some(b"APPLICATION/JSON"), 200),
        ("a +json type", Some(b"application/vnd.openstack.compute+json;version=2.1"), 200),
        ("text/plain", Some(b"text/plain"), 200),
        ("empty", Some(b""), 200),
        ("only parameters", Some(b"; charset=utf-8"), 200),
        ("missing", None, 200),
        ("XML", Some(b"application/xml"), 415),
        ("HTML", Some(b"text/html"), 415),
        ("a form", Some(b"application/x-www-form-urlencoded"), 415),
        ("multipart", Some(b"multipart/form-data; boundary=x"), 415),
        ("jsonp", Some(b"application/jsonp"), 415),
        ("a bare +json", Some(b"+json"), 415),
        ("Latin-1 bytes", Some(b"application/json\xe9"), 415),
        ("UTF-8 bytes", Some("application/jsön".as_bytes()), 415),
        ("8 KiB long", Some(long.as_bytes()), 415),
    ];
    for (i, (name, content_type, status)) in cases.into_iter().enumerate() {
        let body = json!({"flavor": {"name": format!("ct-{i}"), "ram": 1, "vcpus": 1, "disk": 1}});
        let mut req = Request::new("POST", "/v2.1/flavors").version("2.55");
        if let Some(content_type) = content_type {
            req = req.header("Content-Type", content_type);
        }
        let answer = Answer::App(if status == 200 { &[200] } else { &[415] });
        let res = hostile(base, &req.body(body.to_string()), answer, &format!("content type {name}"));
        if status == 415 {
            assert!(res.body.len() < 1024, "{name}: the type is echoed cut\n{}", res.describe());
        }
    }
    // Two Content-Type lines: the first one counts.
    let req = Request::new("POST", "/v2.1/flavors")
        .version("2.55")
        .header("Content-Type", "application/xml")
        .header("Content-Type", "application/json")
        .body(&br#"{"flavor": {}}"#[..]);
    hostile(base, &req, Answer::App(&[400, 415]), "two content types");
}

#[test]
fn oversized_bodies_and_lying_lengths() {
    let server = server();
    let base = server.url.as_str();
    let host = common::host_of(base);
    let headers = vec![(STANDARD_HEADER.as_bytes().to_vec(), b"compute 2.55".to_vec())];
    // 2 MiB against the 1 MiB limit, with an honest Content-Length.
    let big = vec![b' '; 2 * 1024 * 1024];
    to_every_endpoint(base, "a 2 MiB body", &big, Answer::App(&[413]));

    // A Content-Length far over the limit with no body: refused before reading.
    let head = format!(
        "POST /v2.1/flavors HTTP/1.1\r\nHost: {host}\r\nOpenStack-API-Version: compute 2.55\r\n\
         Content-Type: application/json\r\nContent-Length: 99999999999\r\nConnection: close\r\n\r\n"
    );
    // No body ever follows, so a server waiting for it could only hang: the
    // client's read timeout (IO_TIMEOUT) turns that into a failure, with no
    // wall-clock assertion to trip on a loaded machine.
    exchange(
        base,
        head.as_bytes(),
        "POST",
        b"/v2.1/flavors",
        &headers,
        Answer::App(&[413]),
        "a 100 GB length",
    );

    // `Expect: 100-continue` with a length over the limit: actix answers 100
    // before the app runs, then the app's 413 follows.
    let expect = format!(
        "POST /v2.1/flavors HTTP/1.1\r\nHost: {host}\r\nOpenStack-API-Version: compute 2.55\r\n\
         Content-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 5000000\r\n\
         Connection: close\r\n\r\n"
    );
    exchange(
        base,
        expect.as_bytes(),
        "POST",
        b"/v2.1/flavors",
        &headers,
        Answer::App(&[413]),
        "100-continue",
    );

    // Content codings are not decoded (none is supported): a gzip body is not JSON.
    let gzip: &[u8] =
        b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xab\xae\x05\x00\x43\xbf\xa6\xa3\x02\x00\x00\x00";
    for coding in ["gzip", "br", "identity, gzip"] {
        let req = post_json("POST", "/v2.1/flavors", "2.55", gzip).header("Content-Encoding", coding);
        hostile(base, &req, BAD, &format!("Content-Encoding: {coding}"));
    }

    // 2 MiB chunked: reading stops at the limit.
    let mut chunked = format!(
        "POST /v2.1/flavors HTTP/1.1\r\nHost: {host}\r\nOpenStack-API-Version: compute 2.55\r\n\
         Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    )
    .into_bytes();
    for _ in 0..32 {
        chunked.extend_from_slice(format!("{:x}\r\n", 64 * 1024).as_bytes());
        chunked.extend(std::iter::repeat_n(b' ', 64 * 1024));
        chunked.extend_from_slice(b"\r\n");
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    exchange(base, &chunked, "POST", b"/v2.1/flavors", &headers, Answer::App(&[413]), "2 MiB chunked");

    // A malformed chunk size.
    let bad_chunk = format!(
        "POST /v2.1/flavors HTTP/1.1\r\nHost: {host}\r\nOpenStack-API-Version: compute 2.55\r\n\
         Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n{{}}\r\n0\r\n\r\n"
    );
    exchange(base, bad_chunk.as_bytes(), "POST", b"/v2.1/flavors", &headers, BAD, "a malformed chunk size");

    // A Content-Length longer than the body, the client then half-closing.
    let lying = format!(
        "POST /v2.1/flavors HTTP/1.1\r\nHost: {host}\r\nOpenStack-API-Version: compute 2.55\r\n\
         Content-Type: application/json\r\nContent-Length: 100\r\nConnection: close\r\n\r\n{{}}"
    );
    let res = common::send_raw_then(base, lying.as_bytes(), Then::HalfClose).expect("an answer");
    check_contract("POST", b"/v2.1/flavors", &headers, &res).unwrap_or_else(|e| panic!("a short body: {e}"));
    assert_eq!(res.status, 400, "a body shorter than its length\n{}", res.describe());
    assert_serving(base, "a body shorter than its length");

    // A Content-Length shorter than the body: the rest is the next request
    // on the connection, which is garbage (the codec's 400) or ignored.
    let short = format!(
        "POST /v2.1/flavors HTTP/1.1\r\nHost: {host}\r\nOpenStack-API-Version: compute 2.55\r\n\
         Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{{}}{{\"flavor\": 1}}"
    );
    let res = common::send_raw_then(base, short.as_bytes(), Then::HalfClose).expect("an answer");
    check_contract("POST", b"/v2.1/flavors", &headers, &res).unwrap_or_else(|e| panic!("a long body: {e}"));
    assert_eq!(res.status, 400, "the first 2 bytes are read: `{{}}` lacks a flavor\n{}", res.describe());
    assert_serving(base, "a body longer than its length");

    // A body left unread after an early answer is never parsed as requests
    // of its own (no request smuggling through a refused body).
    let smuggled = format!("GET /v2.1/flavors/smuggled HTTP/1.1\r\nHost: {host}\r\n\r\n");
    for (name, content_type, size) in
        [("a 413", "application/json", 2 * 1024 * 1024), ("a 415", "text/xml", 64 * 1024)]
    {
        let body = smuggled.repeat(size / smuggled.len() + 1);
        let request = format!(
            "POST /v2.1/flavors HTTP/1.1\r\nHost: {host}\r\nContent-Type: {content_type}\r\n\
             Content-Length: {}\r\n\r\n{body}",
            body.len()
        );
        let answer = read_everything(base, request.as_bytes());
        let text = String::from_utf8_lossy(&answer);
        assert_eq!(
            text.matches("HTTP/1.1 ").count(),
            1,
            "{name}: one answer, then the connection closes\n{text}"
        );
        assert!(!text.contains("smuggled"), "{name}: a request inside the body was answered\n{text}");
        assert_serving(base, name);
    }

    // Framing the codec refuses outright (request smuggling guards).
    let codec: &[(&str, &str)] = &[
        ("Content-Length and chunked", "Content-Length: 2\r\nTransfer-Encoding: chunked\r\n"),
        ("two different lengths", "Content-Length: 2\r\nContent-Length: 3\r\n"),
        ("a negative length", "Content-Length: -1\r\n"),
        ("a length that is not a number", "Content-Length: two\r\n"),
        ("a length past u64", "Content-Length: 99999999999999999999999\r\n"),
        ("an unsupported transfer coding", "Transfer-Encoding: gzip, chunked\r\n"),
    ];
    for (name, framing) in codec {
        let request = format!(
            "POST /v2.1/flavors HTTP/1.1\r\nHost: {host}\r\nOpenStack-API-Version: compute 2.55\r\n\
             Content-Type: application/json\r\n{framing}Connection: close\r\n\r\n{{}}"
        );
        let chunked = framing.contains("chunked");
        let answer = if ON_AXUM && chunked { BAD } else { Answer::Codec(400) };
        exchange(base, request.as_bytes(), "POST", b"/v2.1/flavors", &headers, answer, name);
    }
}

/// Writes `request` (ignoring a reset once the server stops reading) and
/// reads whatever the server sends until it closes.
fn read_everything(base: &str, request: &[u8]) -> Vec<u8> {
    let mut stream = TcpStream::connect(common::host_of(base)).expect("connects");
    stream.set_read_timeout(Some(IO_TIMEOUT)).expect("a read timeout");
    stream.set_write_timeout(Some(IO_TIMEOUT)).expect("a write timeout");
    let _ = stream.write_all(request);
    let mut raw = Vec::new();
    let mut buf = [0u8; 64 * 1024];
    let deadline = Instant::now() + IO_TIMEOUT;
    while Instant::now() < deadline {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => raw.extend_from_slice(&buf[..n]),
        }
    }
    raw
}

/// The codec's answer to a raw request; `target` and `headers` as sent.
fn raw_get(base: &str, target: &[u8], header_lines: &[u8], answer: Answer, context: &str) {
    let mut request = b"GET ".to_vec();
    request.extend_from_slice(target);
    request.extend_from_slice(format!(" HTTP/1.1\r\nHost: {}\r\n", common::host_of(base)).as_bytes());
    request.extend_from_slice(header_lines);
    request.extend_from_slice(b"Connection: close\r\n\r\n");
    let headers: Vec<(Vec<u8>, Vec<u8>)> = header_lines
        .split(|b| *b == b'\n')
        .filter_map(|line| {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            let colon = line.iter().position(|b| *b == b':')?;
            Some((line[..colon].to_vec(), line[colon + 1..].trim_ascii().to_vec()))
        })
        .collect();
    exchange(base, &request, "GET", target, &headers, answer, context);
}

#[test]
fn long_and_many_version_headers() {
    let server = server();
    let base = server.url.as_str();
    let get = |name: &str, value: &[u8]| Request::get("/v2.1/flavors").header(name, value);
    // Over 64 KiB but under actix's 128 KiB head: the app reads it all.
    let long_valid = "compute 2.5,".repeat(6000);
    let res =
        hostile(base, &get(STANDARD_HEADER, long_valid.as_bytes()), Answer::App(&[200]), "72 KB of entries");
    assert_eq!(res.header(STANDARD_HEADER).as_deref(), Some("compute 2.5"));
    let long_bad = format!("compute {}", "9".repeat(100_000));
    let res = hostile(base, &get(STANDARD_HEADER, long_bad.as_bytes()), BAD, "a 100 KB version");
    assert!(res.body.len() < 1024, "the malformed text is echoed cut\n{}", res.describe());
    let long_legacy = "2.1,".repeat(20_000) + "2.7";
    let res = hostile(
        base,
        &get(LEGACY_HEADER, long_legacy.as_bytes()),
        Answer::App(&[200]),
        "an 80 KB legacy header",
    );
    assert_eq!(res.header(LEGACY_HEADER).as_deref(), Some("2.7"));
    let others = "dogs 1.0, ".repeat(9000) + "compute 2.42";
    let res =
        hostile(base, &get(STANDARD_HEADER, others.as_bytes()), Answer::App(&[200]), "9000 other services");
    assert_eq!(res.header(STANDARD_HEADER).as_deref(), Some("compute 2.42"));
    let commas = ",".repeat(100_000);
    hostile(base, &get(STANDARD_HEADER, commas.as_bytes()), Answer::App(&[200]), "100 KB of commas");

    // Many lines, up to actix's 96 header lines (Host and Connection included):
    // the last entry for us wins.
    let mut req = Request::get("/v2.1/flavors");
    for minor in 1..=90 {
        req = req.header(STANDARD_HEADER, format!("compute 2.{minor}"));
    }
    let res = hostile(base, &req, Answer::App(&[200]), "90 version lines");
    assert_eq!(res.header(STANDARD_HEADER).as_deref(), Some("compute 2.90"));
    let mut req = Request::get("/v2.1/flavors").header(STANDARD_HEADER, "compute 2.3");
    for _ in 0..90 {
        req = req.header(LEGACY_HEADER, "bogus");
    }
    hostile(base, &req, Answer::App(&[200]), "90 malformed legacy lines behind a standard one");

    // Past the codec's limits: 431, or a reset while the client still writes.
    let huge = format!("{STANDARD_HEADER}: compute {}\r\n", "2".repeat(200 * 1024));
    let huge_answer = if ON_AXUM { BAD } else { Answer::Codec(431) };
    raw_get(base, b"/v2.1/flavors", huge.as_bytes(), huge_answer, "a 200 KB header");
    let many = format!("{STANDARD_HEADER}: compute 2.5\r\n").repeat(120);
    raw_get(base, b"/v2.1/flavors", many.as_bytes(), Answer::Codec(431), "120 header lines");
}

#[test]
fn control_and_non_ascii_bytes_in_headers() {
    let server = server();
    let base = server.url.as_str();
    let standard = STANDARD_HEADER.as_bytes();
    // Bytes httparse accepts in a value reach the app: obs-text (0x80-0xff) and TAB.
    let app: &[(&[u8], &[u8], Answer)] = &[
        (standard, b"compute 2.\xe9", BAD),
        (standard, b"compute \xff\xfe", BAD),
        (standard, "compute 2.\u{0665}".as_bytes(), BAD),
        (standard, "c\u{f6}mpute 2.4, compute 2.6".as_bytes(), Answer::App(&[200])),
        (standard, b"compute\t2.7", Answer::App(&[200])),
        (standard, b"\tcompute 2.7\t", Answer::App(&[200])),
        (standard, b"compute\xa02.7", Answer::App(&[200])),
        (LEGACY_HEADER.as_bytes(), b"\xff", BAD),
        (LEGACY_HEADER.as_bytes(), "2.\u{0665}".as_bytes(), BAD),
        (b"X-Unrelated", b"\x80\x81\xfe\xff", Answer::App(&[200])),
        (b"Accept", b"application/json\xff", Answer::App(&[200])),
    ];
    for (name, value, answer) in app {
        let context = format!("{}: {:?}", String::from_utf8_lossy(name), String::from_utf8_lossy(value));
        hostile(base, &Request::get("/v2.1/flavors").header(name, value), *answer, &context);
    }
    // Bytes the codec refuses before routing: 400 with no body.
    let codec: &[(&str, &[u8])] = &[
        ("NUL in a value", b"OpenStack-API-Version: compute \x002.5\r\n"),
        ("SOH in a value", b"OpenStack-API-Version: compute \x01 2.5\r\n"),
        ("ESC in a value", b"OpenStack-API-Version: compute 2.5\x1b[0m\r\n"),
        ("DEL in a value", b"OpenStack-API-Version: compute 2.5\x7f\r\n"),
        ("a bare CR in a value", b"OpenStack-API-Version: compute\r2.5\r\n"),
        ("0xff in a name", b"OpenStack-API-Version\xff: compute 2.5\r\n"),
        ("a space in a name", b"OpenStack API Version: compute 2.5\r\n"),
        ("a space before the colon", b"OpenStack-API-Version : compute 2.5\r\n"),
        ("an empty name", b": compute 2.5\r\n"),
        ("NUL in a name", b"X-\x00: 1\r\n"),
        ("obs-fold", b"OpenStack-API-Version: compute\r\n 2.5\r\n"),
        ("a line without a colon", b"OpenStack-API-Version compute 2.5\r\n"),
    ];
    for (name, lines) in codec {
        raw_get(base, b"/v2.1/flavors", lines, Answer::Codec(400), name);
    }
}

#[test]
fn odd_paths() {
    let server = server();
    let base = server.url.as_str();
    let not_found = Answer::App(&[404]);
    // A name that is not UTF-8 names no resource: 404 on both builds
    // (`params::Path` answers every unreadable parameter so).
    let not_utf8 = not_found;
    let ok = Answer::App(&[200]);
    let long_id = format!("/v2.1/flavors/{}", "a".repeat(60_000));
    let long_encoded = format!("/v2.1/flavors/{}", "%41".repeat(20_000));
    let paths: Vec<(&str, Answer)> = vec![
        ("/v2.1/flavors/%2e%2e", not_found),
        ("/v2.1/flavors/..", not_found),
        ("/v2.1/../v2.1/flavors", not_found),
        ("/v2.1/flavors/%00", not_found),
        ("/v2.1/flavors/%ff%fe", not_utf8),
        ("/v2.1/flavors/%", not_found),
        ("/v2.1/flavors/%zz", not_found),
        ("/v2.1/flavors/1%2F..%2F..", not_found),
        ("/v2.1/flavors/1/os-extra_specs/%2F", not_found),
        ("/v2.1/os-keypairs/%c3%28", not_utf8),
        ("/v2.1//flavors", not_found),
        ("/v2.1/flavors/", not_found),
        ("/v2.1/flavors;x=1", not_found),
        ("//v2.1/flavors", not_found),
        ("/V2.1/flavors", not_found),
        ("/nope", not_found),
        ("/v2.1.1/flavors", not_found),
        ("/v9/", not_found),
        ("*", not_found),
        ("/%76%32%2e%31/flavors", ok),
        ("/v2.1/flavors#fragment", ok),
        ("http://elsewhere.example/v2.1/flavors", ok),
        ("/", ok),
        ("/v2.1", ok),
        ("/v2.1/", ok),
        (&long_id, not_found),
        (&long_encoded, not_found),
    ];
    for (path, answer) in paths {
        let shown: String = path.chars().take(80).collect();
        let res = hostile(base, &Request::get(path).version("2.61"), answer, &format!("GET {shown}"));
        assert!(res.body.len() < 128 * 1024, "GET {shown}: the 404 echoes at most the path");
    }
    // Methods no route has (HEAD is left to the fuzz target: its answer has
    // a Content-Length but no body, which this client cannot frame).
    for method in ["PATCH", "TRACE", "FOO", "get"] {
        let req = Request::new(method, "/v2.1/flavors").version("2.61");
        hostile(base, &req, Answer::App(&[405]), &format!("{method} /v2.1/flavors"));
        let req = Request::new(method, "/");
        hostile(base, &req, Answer::App(&[405]), &format!("{method} /"));
    }
    // Targets the codec refuses; hyper takes UTF-8 into the path, which then
    // reaches the app, and answers a target too long with 414 (the axum build).
    let too_long = format!("/v2.1/flavors/{}", "a".repeat(70_000));
    let codec: &[(&str, &[u8], Answer)] = &[
        ("raw 0xff in the path", b"/v2.1/flavors/\xff\xfe", Answer::Codec(400)),
        ("raw UTF-8 in the path", "/v2.1/flavors/\u{e9}".as_bytes(), not_found),
        ("a raw NUL in the path", b"/v2.1/flavors/\x00", Answer::Codec(400)),
        ("a target over 64 KiB", too_long.as_bytes(), Answer::Codec(414)),
        ("a target without a slash", b"v2.1/flavors", Answer::Codec(400)),
    ];
    for &(name, target, on_axum) in codec {
        let answer = if ON_AXUM { on_axum } else { Answer::Codec(400) };
        raw_get(base, target, b"OpenStack-API-Version: compute 2.61\r\n", answer, name);
    }
    // No Host on HTTP/1.1, and a request line that is not HTTP.
    let headers = [(STANDARD_HEADER.as_bytes().to_vec(), b"compute 2.61".to_vec())];
    let no_host =
        b"GET /v2.1/flavors HTTP/1.1\r\nOpenStack-API-Version: compute 2.61\r\nConnection: close\r\n\r\n";
    exchange(base, no_host, "GET", b"/v2.1/flavors", &headers, Answer::Codec(400), "no Host");
    let not_http = b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 TLS hello\r\n\r\n";
    exchange(base, not_http, "GET", b"/", &[], Answer::Codec(400), "a TLS hello");
    // HTTP/1.0 without Host is legitimate.
    let http10 = b"GET /v2.1/flavors HTTP/1.0\r\nOpenStack-API-Version: compute 2.61\r\n\r\n";
    exchange(base, http10, "GET", b"/v2.1/flavors", &headers, Answer::App(&[200]), "HTTP/1.0");
}

#[test]
fn odd_query_strings() {
    let server = server();
    let base = server.url.as_str();
    let ok = Answer::App(&[200]);
    let many = "a=1&".repeat(10_000);
    let long_value = format!("user_id={}", "u".repeat(60_000));
    let queries: Vec<(&str, &str, &str, Answer)> = vec![
        ("/v2.1/flavors", "limit=-1", "2.80", BAD),
        ("/v2.1/flavors", "limit=abc", "2.1", BAD),
        // `_get_int_param` reads any digits; `get_limit_and_marker` caps the page.
        ("/v2.1/flavors", "limit=99999999999999999999999", "2.1", ok),
        ("/v2.1/flavors", "limit=0", "2.1", ok),
        ("/v2.1/flavors", "limit=1&limit=2", "2.80", ok),
        ("/v2.1/flavors", "minRam=%ff", "2.1", BAD),
        ("/v2.1/flavors", "minDisk=1e3", "2.1", BAD),
        ("/v2.1/flavors", "sort_key=%00", "2.1", BAD),
        ("/v2.1/flavors", "sort_dir=%E2%80%AE", "2.1", BAD),
        ("/v2.1/flavors", "is_public=maybe", "2.1", BAD),
        ("/v2.1/flavors", "marker=no-such-flavor", "2.1", BAD),
        ("/v2.1/flavors", "marker=%00", "2.1", BAD),
        ("/v2.1/flavors", &many, "2.1", ok),
        ("/v2.1/flavors", &many, "2.80", BAD),
        ("/v2.1/flavors", "%", "2.1", ok),
        ("/v2.1/flavors", "%", "2.80", BAD),
        ("/v2.1/flavors", "&&&=&==", "2.80", BAD),
        ("/v2.1/flavors", "%zz=%zz", "2.80", BAD),
        // Python's `int("+1")`; `int(" 1 ")` too.
        ("/v2.1/flavors/detail", "minRam=%2B1", "2.1", ok),
        ("/v2.1/flavors/detail", "minRam=+1+", "2.1", ok),
        ("/v2.1/flavors/detail", "minRam=1+1", "2.1", BAD),
        ("/v2.1/os-keypairs", "limit=99999999999999999999999", "2.35", ok),
        ("/v2.1/os-keypairs", "limit=-5", "2.35", BAD),
        ("/v2.1/os-keypairs", "marker=%00", "2.35", BAD),
        ("/v2.1/os-keypairs", "user_id=%ff&user_id=%00", "2.10", ok),
        ("/v2.1/os-keypairs", &long_value, "2.10", ok),
        ("/v2.1/os-keypairs", "nope=1", "2.80", BAD),
        ("/v2.1/os-keypairs/none", "user_id=%ff", "2.10", Answer::App(&[404])),
        ("/v2.1/os-keypairs/none", "user_id=a&user_id=b", "2.10", Answer::App(&[400, 404])),
        ("/v2.1/os-keypairs/none", "unknown=1", "2.80", BAD),
    ];
    for (path, query, version, answer) in queries {
        let target = format!("{path}?{query}");
        let shown: String = target.chars().take(80).collect();
        hostile(base, &Request::get(&target).version(version), answer, &format!("GET {shown} at {version}"));
    }
    // Raw bytes in the query never reach the app.
    for (name, target) in [
        ("raw 0xff in the query", &b"/v2.1/flavors?sort_key=\xff"[..]),
        ("a raw space", b"/v2.1/flavors?a= b"),
    ] {
        raw_get(base, target, b"", Answer::Codec(400), name);
    }
}

/// Regression (reliability work): a path outside discovery and the API
/// (`/nope`, `OPTIONS *`) got actix's empty 404; it is a Nova fault now.
#[test]
fn unknown_paths_are_json_404s() {
    let server = server();
    for (method, path) in
        [("GET", "/nope"), ("POST", "/servers"), ("OPTIONS", "*"), ("GET", "/v2.10/flavors")]
    {
        let res = Request::new(method, path).send(&server.url);
        assert_eq!(res.status, 404, "{method} {path}\n{}", res.describe());
        assert_eq!(
            res.json(),
            json!({"itemNotFound": {"code": 404, "message": "The resource could not be found."}})
        );
    }
}
