//! Hostile input against the running Placement example, over real HTTP/1.1
//! on loopback, beyond Placement's own gabbi tests: the compute example's
//! hostile-input cases (examples/compute/tests/suites/hostile_input.rs) aimed at
//! Placement's paths: malformed, truncated, deep, huge and non-UTF-8 bodies;
//! content types; oversized bodies and lying lengths; very long and very
//! many version headers; odd paths and query strings; bad version headers.
//!
//! The raw client is the testkit's (`microversion_testkit::http`); the
//! contract is Placement's, checked here ([`contract`]):
//! - never a 5xx;
//! - an error (4xx) is the API-SIG document Placement writes,
//!   `{"errors": [{"status": <status>, "title": ..., "detail": ...}]}`
//!   with `Content-Type: application/json`, or webob's HTML page when the
//!   client asks for HTML;
//! - a success with a body is JSON;
//! - a response carrying `openstack-api-version` names a Placement version
//!   and varies on the header.
//!
//! A normal request follows every hostile one: the server keeps serving,
//! and no worker has panicked. Inputs actix's HTTP/1 codec refuses before
//! routing (control bytes in headers, raw bytes in the target, smuggling
//! framings, more than 96 header lines or a head over 128 KiB) get the
//! codec's empty 400 or 431 and a closed connection, as for the compute
//! example ([`Answer::Codec`]).

use std::sync::Once;
use std::sync::atomic::{AtomicUsize, Ordering};

use microversion_testkit::http::{self as raw, Request, Response};
use placement::RunningServer;
use serde_json::{Value, json};

/// Panics on the server's worker threads, counted by a panic hook.
static SERVER_PANICS: AtomicUsize = AtomicUsize::new(0);

/// A provider every body-taking request can name.
const RP: &str = "11111111-2222-3333-4444-555555555555";
/// A consumer.
const CONSUMER: &str = "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee";

/// A server over a fresh database in a temp dir, with one provider that
/// has a VCPU inventory.
struct Fixture {
    server: RunningServer,
    dir: std::path::PathBuf,
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn fixture() -> Fixture {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if std::thread::current().name().is_some_and(|n| n.starts_with("actix-server worker")) {
                SERVER_PANICS.fetch_add(1, Ordering::SeqCst);
            }
            default(info);
        }));
    });
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "placement-hostile-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a database directory");
    let server = RunningServer::start(&dir.join("placement.sqlite")).expect("the placement example starts");
    let base = server.url.as_str();
    let res = Request::new("POST", "/resource_providers")
        .header("OpenStack-API-Version", "placement 1.20")
        .json(&json!({"name": "hostile", "uuid": RP}))
        .send(base);
    assert_eq!(res.status, 200, "{}", res.describe());
    let res = Request::new("PUT", &format!("/resource_providers/{RP}/inventories"))
        .header("OpenStack-API-Version", "placement 1.20")
        .json(&json!({"resource_provider_generation": 0, "inventories": {"VCPU": {"total": 8}}}))
        .send(base);
    assert_eq!(res.status, 200, "{}", res.describe());
    Fixture { server, dir }
}

/// How a hostile request must be answered.
#[derive(Clone, Copy, Debug)]
enum Answer {
    /// By the app: [`contract`] holds and the status is one of these.
    App(&'static [u16]),
    /// By actix's HTTP/1 codec before routing: this status, an empty body,
    /// and `connection: close`.
    Codec(u16),
}

const BAD: Answer = Answer::App(&[400]);

/// What every answer of the app must be, whatever the request.
fn contract(method: &str, request_headers: &[(Vec<u8>, Vec<u8>)], res: &Response) -> Result<(), String> {
    let fail = |why: String| Err(format!("{why}\n{}", res.describe()));
    if res.status >= 500 {
        return fail(format!("a {} answer", res.status));
    }
    let content_type = res.headers_named("content-type").join(",");
    let accept: Vec<String> = request_headers
        .iter()
        .filter(|(name, _)| name.eq_ignore_ascii_case(b"accept"))
        .map(|(_, value)| String::from_utf8_lossy(value).to_ascii_lowercase())
        .collect();
    let wants_html = accept.iter().any(|a| a.contains("text/html"));
    // webob's plain page, for a client that accepts neither JSON nor HTML.
    let wants_plain = !accept.is_empty()
        && accept.iter().all(|a| !a.contains("json") && !a.contains("html") && !a.contains("*/*"));
    if res.status >= 400 && method != "HEAD" {
        if wants_html && content_type.starts_with("text/html") {
            if !res.text().contains(&res.status.to_string()) {
                return fail("an HTML error page without its status".into());
            }
        } else if wants_plain && content_type.starts_with("text/plain") {
            if !res.text().starts_with(&format!("{} ", res.status)) {
                return fail("a plain-text error page without its status first".into());
            }
        } else {
            if !content_type.starts_with("application/json") {
                return fail(format!("an error without a JSON content type ({content_type:?})"));
            }
            let body: Value = serde_json::from_slice(&res.body)
                .map_err(|e| format!("an error body that is not JSON ({e})\n{}", res.describe()))?;
            let errors = body["errors"].as_array().cloned().unwrap_or_default();
            let [error] = errors.as_slice() else { return fail("not one entry in `errors`".into()) };
            if error["status"] != json!(res.status) {
                return fail("an error whose status is not the response's".into());
            }
            if error["title"].as_str().is_none_or(str::is_empty) || error["detail"].as_str().is_none() {
                return fail("an error without a title or a detail".into());
            }
        }
    } else if method != "HEAD" && !res.body.is_empty() && serde_json::from_slice::<Value>(&res.body).is_err()
    {
        return fail("a success whose body is not JSON".into());
    }
    let version = res.headers_named("openstack-api-version");
    if !version.is_empty() {
        if version.len() != 1 || !version[0].starts_with("placement 1.") {
            return fail("a version header that is not one Placement version".into());
        }
        // Placement's router answers a path no route has without `Vary`
        // (its page has no message), as the example does.
        let unrouted = res.status == 404
            && serde_json::from_slice::<Value>(&res.body)
                .is_ok_and(|body| body["errors"][0]["detail"] == "The resource could not be found.\n\n   ");
        if !unrouted && !res.vary().contains(&"openstack-api-version".to_owned()) {
            return fail("a version header without Vary".into());
        }
    }
    Ok(())
}

/// Sends a request built with the testkit's client, checks the answer, then
/// that the server still serves.
fn hostile(base: &str, req: &Request, answer: Answer, context: &str) -> Response {
    let bytes = req.to_bytes(raw::host_of(base));
    exchange(base, &bytes, req.method(), req.headers(), answer, context)
        .unwrap_or_else(|| panic!("{context}: no response"))
}

/// Sends raw request bytes and checks the answer. `None` where a reset is
/// an accepted outcome (a 431 while the client still writes).
fn exchange(
    base: &str,
    bytes: &[u8],
    method: &str,
    headers: &[(Vec<u8>, Vec<u8>)],
    answer: Answer,
    context: &str,
) -> Option<Response> {
    let res = match (raw::send_raw(base, bytes), answer) {
        (Ok(res), _) => Some(res),
        (Err(e), Answer::Codec(431)) if is_reset(&e) => None,
        (Err(e), _) => panic!("{context}: the exchange failed: {e}"),
    };
    if let Some(res) = &res {
        match answer {
            Answer::App(statuses) => {
                contract(method, headers, res).unwrap_or_else(|e| panic!("{context}: {e}"));
                assert!(
                    statuses.contains(&res.status),
                    "{context}: expected {statuses:?}\n{}",
                    res.describe()
                );
            }
            Answer::Codec(status) => {
                assert_eq!(res.status, status, "{context}: the codec's answer\n{}", res.describe());
                assert!(res.body.is_empty(), "{context}: the codec answers no body\n{}", res.describe());
                assert!(res.header("openstack-api-version").is_none(), "{context}: not routed");
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

/// A normal request after a hostile one.
fn assert_serving(base: &str, context: &str) {
    let res = Request::get(&format!("/resource_providers/{RP}/inventories"))
        .header("OpenStack-API-Version", "placement 1.39")
        .send(base);
    assert_eq!(res.status, 200, "after {context}: the server stopped serving\n{}", res.describe());
    assert_eq!(res.header("openstack-api-version").as_deref(), Some("placement 1.39"), "after {context}");
    assert_eq!(res.json()["inventories"]["VCPU"]["total"], json!(8), "after {context}\n{}", res.describe());
    assert_eq!(SERVER_PANICS.load(Ordering::SeqCst), 0, "after {context}: a server worker panicked");
}

/// The body-taking operations, each at a version that validates its body.
fn body_endpoints() -> Vec<(&'static str, String, &'static str)> {
    vec![
        ("POST", "/resource_providers".into(), "1.20"),
        ("PUT", format!("/resource_providers/{RP}"), "1.14"),
        ("PUT", format!("/resource_providers/{RP}/inventories"), "1.26"),
        ("POST", format!("/resource_providers/{RP}/inventories"), "1.26"),
        ("PUT", format!("/resource_providers/{RP}/inventories/VCPU"), "1.26"),
        ("PUT", format!("/resource_providers/{RP}/aggregates"), "1.19"),
        ("PUT", format!("/resource_providers/{RP}/traits"), "1.6"),
        ("POST", "/resource_classes".into(), "1.2"),
        ("PUT", format!("/allocations/{CONSUMER}"), "1.38"),
        ("POST", "/allocations".into(), "1.38"),
        ("POST", "/reshaper".into(), "1.38"),
    ]
}

fn post_json(method: &str, path: &str, version: &str, body: impl Into<Vec<u8>>) -> Request {
    Request::new(method, path)
        .header("OpenStack-API-Version", format!("placement {version}"))
        .header("Content-Type", "application/json")
        .body(body)
}

fn to_every_endpoint(base: &str, name: &str, body: &[u8], answer: Answer) {
    for (method, path, version) in body_endpoints() {
        let context = format!("{name}: {method} {path} at {version}");
        hostile(base, &post_json(method, &path, version, body), answer, &context);
    }
}

#[test]
fn malformed_and_truncated_json_is_400() {
    let fixture = fixture();
    let base = fixture.server.url.as_str();
    let malformed: &[(&str, &[u8])] = &[
        ("empty", b""),
        ("open brace", b"{"),
        ("close brace", b"}"),
        ("missing colon", br#"{"name" "x"}"#),
        ("trailing comma", br#"{"name": "x",}"#),
        ("unclosed array", b"[1, 2"),
        ("bare word", b"nul"),
        ("unterminated string", br#""abc"#),
        ("trailing garbage", b"{} x"),
        ("two documents", b"{}{}"),
        ("extra close", br#"{"a": 1}}"#),
        ("byte order mark", b"\xef\xbb\xbf{}"),
        ("single quotes", b"{'name': 'x'}"),
        ("unquoted key", b"{name: 1}"),
        ("NaN", br#"{"name": NaN}"#),
        ("Infinity", br#"{"name": Infinity}"#),
        ("leading zero", br#"{"name": 01}"#),
        ("lone minus", b"-"),
        ("raw control char in a string", b"{\"name\": \"a\x01b\"}"),
        ("lone surrogate escape", br#"{"name": "\ud800"}"#),
        ("bad escape", br#"{"name": "\u00zz"}"#),
        ("NUL byte", b"\x00"),
        ("comment", b"// hi\n{}"),
        ("JSON null", b"null"),
        ("a number", b"1"),
        ("a string", br#""x""#),
    ];
    for (name, body) in malformed {
        to_every_endpoint(base, name, body, BAD);
    }
    // Every strict prefix of a valid body is malformed or incomplete.
    let valid = br#"{"name": "prefix-rp", "uuid": "99999999-8888-7777-6666-555555555555"}"#;
    for len in 0..valid.len() {
        let req = post_json("POST", "/resource_providers", "1.20", &valid[..len]);
        hostile(base, &req, BAD, &format!("a body cut at {len} bytes"));
    }
    let req = post_json("POST", "/resource_providers", "1.20", &valid[..]);
    hostile(base, &req, Answer::App(&[200]), "the whole body");
    // And of an allocation.
    let valid = format!(
        r#"{{"allocations": {{"{RP}": {{"resources": {{"VCPU": 1}}}}}}, "project_id": "p", "user_id": "u", "consumer_generation": null, "consumer_type": "INSTANCE"}}"#
    );
    for len in (0..valid.len()).step_by(7) {
        let req = post_json("PUT", &format!("/allocations/{CONSUMER}"), "1.38", &valid.as_bytes()[..len]);
        hostile(base, &req, BAD, &format!("an allocation cut at {len} bytes"));
    }
    let req = post_json("PUT", &format!("/allocations/{CONSUMER}"), "1.38", valid.as_bytes());
    hostile(base, &req, Answer::App(&[204]), "the whole allocation");
}

#[test]
fn deep_nesting_is_400() {
    let fixture = fixture();
    let base = fixture.server.url.as_str();
    const LEVELS: usize = 100_000;
    let arrays_open = "[".repeat(LEVELS);
    let arrays = format!("{}{}", "[".repeat(LEVELS), "]".repeat(LEVELS));
    let objects = format!("{}1{}", r#"{"a":"#.repeat(LEVELS), "}".repeat(LEVELS));
    let mixed = format!("{}null{}", r#"[{"a":"#.repeat(LEVELS / 2), "}]".repeat(LEVELS / 2));
    let inside = format!(r#"{{"name": {}1{}}}"#, "[".repeat(LEVELS), "]".repeat(LEVELS));
    for (name, body) in [
        ("100k open arrays", arrays_open),
        ("100k nested arrays", arrays),
        ("100k nested objects", objects),
        ("100k nested arrays and objects", mixed),
        ("100k nested arrays inside a body", inside),
    ] {
        to_every_endpoint(base, name, body.as_bytes(), BAD);
    }
    // Deep but within the parser's limit (128): the schema refuses it.
    let shallow = format!(r#"{{"name": {}1{}}}"#, "[".repeat(100), "]".repeat(100));
    to_every_endpoint(base, "100 nested arrays inside a body", shallow.as_bytes(), BAD);
    let allocation = format!(
        r#"{{"allocations": {{"{RP}": {{"resources": {{"VCPU": {}1{}}}}}}}, "project_id": "p", "user_id": "u", "consumer_generation": null, "consumer_type": "X"}}"#,
        "[".repeat(100),
        "]".repeat(100)
    );
    let req = post_json("PUT", &format!("/allocations/{CONSUMER}"), "1.38", allocation.as_bytes());
    hostile(base, &req, BAD, "100 nested arrays as an amount");
}

#[test]
fn huge_numbers_and_strings() {
    let fixture = fixture();
    let base = fixture.server.url.as_str();
    let inventory = |value: &str| {
        format!(
            r#"{{"resource_provider_generation": 1, "inventories": {{"VCPU": {{"total": {value}}}, "MEMORY_MB": {{"total": 1, "allocation_ratio": {value}}}}}}}"#
        )
    };
    let digits = "9".repeat(5000);
    let numbers: Vec<(&str, String)> = vec![
        ("1e400", inventory("1e400")),
        ("5000 digits", inventory(&digits)),
        ("5000 digits as a string", inventory(&format!("\"{digits}\""))),
        ("u64::MAX + 1", inventory("18446744073709551616")),
        ("i64::MAX", inventory("9223372036854775807")),
        ("-1", inventory("-1")),
        ("-0.0", inventory("-0.0")),
        ("1e-400", inventory("1e-400")),
        ("0.5", inventory("0.5")),
        ("true", inventory("true")),
    ];
    for (name, body) in &numbers {
        let req = post_json("PUT", &format!("/resource_providers/{RP}/inventories"), "1.26", body.as_bytes());
        hostile(base, &req, BAD, &format!("inventory of {name}"));
    }
    for (name, amount) in [("u64::MAX + 1", "18446744073709551616"), ("i64::MAX", "9223372036854775807")] {
        let body = format!(
            r#"{{"allocations": {{"{RP}": {{"resources": {{"VCPU": {amount}}}}}}}, "project_id": "p", "user_id": "u", "consumer_generation": null, "consumer_type": "X"}}"#
        );
        let req = post_json("PUT", &format!("/allocations/{CONSUMER}"), "1.38", body.as_bytes());
        hostile(base, &req, Answer::App(&[400, 409]), &format!("an allocation of {name}"));
    }
    for (name, generation) in [("u64::MAX + 1", "18446744073709551616"), ("-1", "-1"), ("1e400", "1e400")] {
        let body = format!(r#"{{"resource_provider_generation": {generation}, "traits": []}}"#);
        let req = post_json("PUT", &format!("/resource_providers/{RP}/traits"), "1.6", body.as_bytes());
        hostile(base, &req, Answer::App(&[400, 409]), &format!("a generation of {name}"));
    }
    // Strings: past the schema's lengths (the body stays under the 1 MiB limit).
    let long = "a".repeat(900 * 1024);
    let strings: Vec<(&str, &str, String, &str, String)> = vec![
        ("a 900 KiB name", "POST", "/resource_providers".into(), "1.20", format!(r#"{{"name": "{long}"}}"#)),
        (
            "a 900 KiB uuid",
            "POST",
            "/resource_providers".into(),
            "1.20",
            format!(r#"{{"name": "n", "uuid": "{long}"}}"#),
        ),
        (
            "a 900 KiB class",
            "POST",
            "/resource_classes".into(),
            "1.2",
            format!(r#"{{"name": "CUSTOM_{long}"}}"#),
        ),
        (
            "a 900 KiB trait",
            "PUT",
            format!("/resource_providers/{RP}/traits"),
            "1.6",
            format!(r#"{{"resource_provider_generation": 1, "traits": ["CUSTOM_{long}"]}}"#),
        ),
        (
            "a 900 KiB aggregate",
            "PUT",
            format!("/resource_providers/{RP}/aggregates"),
            "1.19",
            format!(r#"{{"resource_provider_generation": 1, "aggregates": ["{long}"]}}"#),
        ),
        (
            "a 900 KiB project",
            "PUT",
            format!("/allocations/{CONSUMER}"),
            "1.38",
            format!(
                r#"{{"allocations": {{}}, "project_id": "{long}", "user_id": "u", "consumer_generation": null, "consumer_type": "X"}}"#
            ),
        ),
        (
            "50k unknown keys",
            "POST",
            "/resource_providers".into(),
            "1.20",
            format!(
                r#"{{{}"name": "x"}}"#,
                (0..50_000).map(|i| format!(r#""k{i}": 0, "#)).collect::<String>()
            ),
        ),
        (
            "50k traits",
            "PUT",
            format!("/resource_providers/{RP}/traits"),
            "1.6",
            format!(
                r#"{{"resource_provider_generation": 1, "traits": [{}"X"]}}"#,
                (0..50_000).map(|i| format!(r#""T{i}", "#)).collect::<String>()
            ),
        ),
        (
            "300k array elements",
            "POST",
            "/resource_providers".into(),
            "1.20",
            format!("[{}0]", "0,".repeat(300_000)),
        ),
    ];
    for (name, method, path, version, body) in &strings {
        let res = hostile(base, &post_json(method, path, version, body.as_bytes()), BAD, name);
        assert!(res.body.len() < 64 * 1024, "{name}: the 400 stays small: {} bytes", res.body.len());
    }
}

#[test]
fn invalid_utf8_is_400() {
    let fixture = fixture();
    let base = fixture.server.url.as_str();
    let bodies: &[(&str, &[u8])] = &[
        ("0xff 0xfe in a string", b"{\"name\": \"\xff\xfe\"}"),
        ("an overlong slash", b"{\"name\": \"\xc0\xaf\"}"),
        ("an encoded surrogate", b"{\"name\": \"\xed\xa0\x80\"}"),
        ("a cut multibyte character", b"{\"name\": \"\xe2\x82\"}"),
        ("Latin-1 text", b"{\"name\": \"caf\xe9\"}"),
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
    let fixture = fixture();
    let base = fixture.server.url.as_str();
    // Placement's rule: `application/json` (with parameters) is read; a
    // body without a type is 400, any other type 415.
    let long = format!("application/{}", "x".repeat(8 * 1024));
    type Case<'a> = (&'a str, Option<&'a [u8]>, &'static [u16]);
    let cases: Vec<Case<'_>> = vec![
        ("application/json", Some(b"application/json"), &[200]),
        ("with a charset", Some(b"application/json; charset=utf-8"), &[200]),
        ("upper case", Some(b"APPLICATION/JSON"), &[200, 415]),
        ("missing", None, &[400]),
        ("empty", Some(b""), &[400, 415]),
        ("only parameters", Some(b"; charset=utf-8"), &[400, 415]),
        ("text/plain", Some(b"text/plain"), &[415]),
        ("XML", Some(b"application/xml"), &[415]),
        ("HTML", Some(b"text/html"), &[415]),
        ("a form", Some(b"application/x-www-form-urlencoded"), &[415]),
        ("multipart", Some(b"multipart/form-data; boundary=x"), &[415]),
        ("jsonp", Some(b"application/jsonp"), &[415]),
        ("a +json type", Some(b"application/vnd.openstack+json"), &[415]),
        ("Latin-1 bytes", Some(b"application/json\xe9"), &[400, 415]),
        ("UTF-8 bytes", Some("application/jsön".as_bytes()), &[400, 415]),
        ("8 KiB long", Some(long.as_bytes()), &[415]),
    ];
    for (i, (name, content_type, statuses)) in cases.into_iter().enumerate() {
        let body = json!({"name": format!("ct-{i}")});
        let mut req =
            Request::new("POST", "/resource_providers").header("OpenStack-API-Version", "placement 1.20");
        if let Some(content_type) = content_type {
            req = req.header("Content-Type", content_type);
        }
        let res = hostile(
            base,
            &req.body(body.to_string()),
            Answer::App(statuses),
            &format!("content type {name}"),
        );
        assert!(res.body.len() < 2048, "{name}: the type is echoed cut\n{}", res.describe());
    }
    // Two Content-Type lines.
    let req = Request::new("POST", "/resource_providers")
        .header("OpenStack-API-Version", "placement 1.20")
        .header("Content-Type", "application/xml")
        .header("Content-Type", "application/json")
        .body(&br#"{"name": "two types"}"#[..]);
    hostile(base, &req, Answer::App(&[200, 400, 415]), "two content types");
    // A client asking for HTML gets webob's page; for XML, a 406 in webob's plain text.
    for (accept, statuses) in [("text/html", &[404u16, 406][..]), ("application/xml", &[406])] {
        let req = Request::get("/resource_providers/nope/inventories").header("Accept", accept);
        hostile(base, &req, Answer::App(statuses), &format!("Accept: {accept}"));
    }
}

#[test]
fn oversized_bodies_and_lying_lengths() {
    let fixture = fixture();
    let base = fixture.server.url.as_str();
    let host = raw::host_of(base);
    let headers = vec![(b"OpenStack-API-Version".to_vec(), b"placement 1.20".to_vec())];
    // 2 MiB against the 1 MiB limit, with an honest Content-Length.
    let big = vec![b' '; 2 * 1024 * 1024];
    to_every_endpoint(base, "a 2 MiB body", &big, Answer::App(&[413]));
    // A Content-Length far over the limit with no body: refused before reading.
    let head = format!(
        "POST /resource_providers HTTP/1.1\r\nHost: {host}\r\nOpenStack-API-Version: placement 1.20\r\n\
         Content-Type: application/json\r\nContent-Length: 99999999999\r\nConnection: close\r\n\r\n"
    );
    exchange(base, head.as_bytes(), "POST", &headers, Answer::App(&[413]), "a 100 GB length");
    // `Expect: 100-continue` with a length over the limit.
    let expect = format!(
        "POST /resource_providers HTTP/1.1\r\nHost: {host}\r\nOpenStack-API-Version: placement 1.20\r\n\
         Content-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 5000000\r\n\
         Connection: close\r\n\r\n"
    );
    exchange(base, expect.as_bytes(), "POST", &headers, Answer::App(&[413]), "100-continue");
    // A length shorter than the body: the rest is the next request, which
    // is not HTTP (the codec's 400 after the app's answer, or a close).
    let short = format!(
        "POST /resource_providers HTTP/1.1\r\nHost: {host}\r\nOpenStack-API-Version: placement 1.20\r\n\
         Content-Type: application/json\r\nContent-Length: 5\r\nConnection: close\r\n\r\n{{\"name\": \"short\"}}"
    );
    exchange(base, short.as_bytes(), "POST", &headers, BAD, "a length shorter than the body");
    // Content codings are not decoded: a gzip body is not JSON.
    let gzip: &[u8] =
        b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xab\xae\x05\x00\x43\xbf\xa6\xa3\x02\x00\x00\x00";
    for coding in ["gzip", "br", "identity, gzip"] {
        let req = post_json("POST", "/resource_providers", "1.20", gzip).header("Content-Encoding", coding);
        hostile(base, &req, BAD, &format!("Content-Encoding: {coding}"));
    }
    // 2 MiB chunked: reading stops at the limit.
    let mut chunked = format!(
        "POST /resource_providers HTTP/1.1\r\nHost: {host}\r\nOpenStack-API-Version: placement 1.20\r\n\
         Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    )
    .into_bytes();
    for _ in 0..32 {
        chunked.extend_from_slice(format!("{:x}\r\n", 64 * 1024).as_bytes());
        chunked.extend(std::iter::repeat_n(b' ', 64 * 1024));
        chunked.extend_from_slice(b"\r\n");
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    exchange(base, &chunked, "POST", &headers, Answer::App(&[413]), "2 MiB chunked");
    // A body cut short of its length, the connection half-closed: no answer
    // the app could give, and the server keeps serving.
    let cut = format!(
        "POST /resource_providers HTTP/1.1\r\nHost: {host}\r\nOpenStack-API-Version: placement 1.20\r\n\
         Content-Type: application/json\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n{{\"name\""
    );
    {
        use std::io::{Read, Write};
        let mut stream = std::net::TcpStream::connect(host).expect("connects");
        stream.set_read_timeout(Some(raw::IO_TIMEOUT)).expect("a timeout");
        stream.write_all(cut.as_bytes()).expect("writes");
        stream.shutdown(std::net::Shutdown::Write).expect("half-closes");
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        if let Ok(res) = raw::parse_response(&answer) {
            assert!(res.status < 500, "a cut body: {}", res.describe());
        }
        assert_serving(base, "a cut body");
    }
    // Framing the codec refuses outright (request smuggling guards).
    let codec: &[(&str, &str)] = &[
        ("Content-Length and chunked", "Content-Length: 2\r\nTransfer-Encoding: chunked\r\n"),
        ("two different lengths", "Content-Length: 2\r\nContent-Length: 3\r\n"),
        ("a negative length", "Content-Length: -1\r\n"),
        ("a length that is not a number", "Content-Length: hi mom\r\n"),
        ("a length past u64", "Content-Length: 99999999999999999999999\r\n"),
        ("an unsupported transfer coding", "Transfer-Encoding: gzip, chunked\r\n"),
    ];
    for (name, framing) in codec {
        let request = format!(
            "POST /resource_providers HTTP/1.1\r\nHost: {host}\r\nOpenStack-API-Version: placement 1.20\r\n\
             Content-Type: application/json\r\n{framing}Connection: close\r\n\r\n{{}}"
        );
        exchange(base, request.as_bytes(), "POST", &headers, Answer::Codec(400), name);
    }
}

/// A raw GET with header lines as given.
fn raw_get(base: &str, target: &[u8], header_lines: &[u8], answer: Answer, context: &str) {
    let mut request = b"GET ".to_vec();
    request.extend_from_slice(target);
    request.extend_from_slice(format!(" HTTP/1.1\r\nHost: {}\r\n", raw::host_of(base)).as_bytes());
    request.extend_from_slice(header_lines);
    request.extend_from_slice(b"Connection: close\r\n\r\n");
    exchange(base, &request, "GET", &[], answer, context);
}

#[test]
fn bad_long_and_many_version_headers() {
    let fixture = fixture();
    let base = fixture.server.url.as_str();
    let get = |value: &[u8]| Request::get("/resource_providers").header("OpenStack-API-Version", value);
    let cases: &[(&[u8], Answer, Option<&str>)] = &[
        (b"placement 1.39", Answer::App(&[200]), Some("placement 1.39")),
        (b"placement latest", Answer::App(&[200]), Some("placement 1.39")),
        (b"placement 1.40", Answer::App(&[406]), None),
        (b"placement 2.0", Answer::App(&[406]), None),
        (b"placement 0.5", Answer::App(&[406]), None),
        (b"placement 1", BAD, None),
        (b"placement 1.", BAD, None),
        (b"placement 1.2.3", BAD, None),
        // microversion-parse reads each part with `int()`: a version, out of range.
        (b"placement -1.0", Answer::App(&[406]), None),
        (b"placement 1.99999999999999999999", Answer::App(&[400, 406]), None),
        (b"placement one.two", BAD, None),
        (b"placement", Answer::App(&[200, 400]), None),
        (b"placement 1.\xe9", BAD, None),
        (b"placement \xff\xfe", BAD, None),
        ("placement 1.\u{0665}".as_bytes(), BAD, None),
        (b"compute 2.1", Answer::App(&[200]), Some("placement 1.0")),
        (b"placement\t1.7", Answer::App(&[200, 400]), None),
        (b"", Answer::App(&[200]), Some("placement 1.0")),
    ];
    for (value, answer, served) in cases {
        let context = format!("version {:?}", String::from_utf8_lossy(value));
        let res = hostile(base, &get(value), *answer, &context);
        if let Some(served) = served {
            assert_eq!(res.header("openstack-api-version").as_deref(), Some(*served), "{context}");
        }
        if res.status == 406 {
            let body = res.json();
            assert_eq!(body["errors"][0]["max_version"], "1.39", "{context}\n{}", res.describe());
        }
    }
    // Over 64 KiB but under actix's 128 KiB head.
    let long_bad = format!("placement {}", "9".repeat(100_000));
    let res = hostile(base, &get(long_bad.as_bytes()), BAD, "a 100 KB version");
    assert!(res.body.len() < 4096, "the malformed text is echoed cut\n{}", res.describe());
    let others = "dogs 1.0, ".repeat(9000) + "placement 1.14";
    let res = hostile(base, &get(others.as_bytes()), Answer::App(&[200]), "9000 other services");
    assert_eq!(res.header("openstack-api-version").as_deref(), Some("placement 1.14"));
    let commas = ",".repeat(100_000);
    hostile(base, &get(commas.as_bytes()), Answer::App(&[200]), "100 KB of commas");
    // Many lines, up to actix's 96.
    let mut req = Request::get("/resource_providers");
    for minor in 1..=90 {
        req = req.header("OpenStack-API-Version", format!("placement 1.{minor}"));
    }
    hostile(base, &req, Answer::App(&[200, 400, 406]), "90 version lines");
    // A header line naming an unrelated header with odd bytes reaches the app.
    let req = Request::get("/resource_providers").header("X-Unrelated", b"\x80\x81\xfe\xff");
    hostile(base, &req, Answer::App(&[200]), "obs-text in an unrelated header");
    // Past the codec's limits: 431, or a reset while the client still writes.
    let huge = format!("OpenStack-API-Version: placement {}\r\n", "2".repeat(200 * 1024));
    raw_get(base, b"/resource_providers", huge.as_bytes(), Answer::Codec(431), "a 200 KB header");
    let many = "OpenStack-API-Version: placement 1.5\r\n".repeat(120);
    raw_get(base, b"/resource_providers", many.as_bytes(), Answer::Codec(431), "120 header lines");
    // Bytes the codec refuses before routing.
    let codec: &[(&str, &[u8])] = &[
        ("NUL in a value", b"OpenStack-API-Version: placement \x001.5\r\n"),
        ("ESC in a value", b"OpenStack-API-Version: placement 1.5\x1b[0m\r\n"),
        ("a bare CR in a value", b"OpenStack-API-Version: placement\r1.5\r\n"),
        ("a space in a name", b"OpenStack API Version: placement 1.5\r\n"),
        ("obs-fold", b"OpenStack-API-Version: placement\r\n 1.5\r\n"),
        ("a line without a colon", b"OpenStack-API-Version placement 1.5\r\n"),
    ];
    for (name, lines) in codec {
        raw_get(base, b"/resource_providers", lines, Answer::Codec(400), name);
    }
}

#[test]
fn odd_paths() {
    let fixture = fixture();
    let base = fixture.server.url.as_str();
    let not_found = Answer::App(&[404]);
    let ok = Answer::App(&[200]);
    let long_id = format!("/resource_providers/{}", "a".repeat(60_000));
    let long_encoded = format!("/resource_providers/{}/inventories", "%41".repeat(20_000));
    let rp_inventories = format!("/resource_providers/{RP}/inventories");
    let encoded = format!("/%72esource_providers/{RP}/inventories");
    let paths: Vec<(&str, Answer)> = vec![
        ("/resource_providers/%2e%2e", not_found),
        ("/resource_providers/..", not_found),
        ("/resource_providers/%00", not_found),
        ("/resource_providers/%ff%fe", not_found),
        ("/resource_providers/%", not_found),
        ("/resource_providers/%zz/inventories", not_found),
        ("/resource_providers/1%2F..%2F../inventories", not_found),
        ("/resource_providers/x/inventories/%2F", not_found),
        ("/resource_classes/%c3%28", not_found),
        ("/traits/%00", not_found),
        ("/allocations/%ff", ok),
        ("//resource_providers", not_found),
        ("/resource_providers;x=1", not_found),
        ("/RESOURCE_PROVIDERS", not_found),
        ("/nope", not_found),
        ("*", not_found),
        (&encoded, ok),
        ("/resource_providers#fragment", ok),
        ("http://elsewhere.example/resource_providers", ok),
        ("/", ok),
        (&rp_inventories, ok),
        (&long_id, not_found),
        (&long_encoded, not_found),
    ];
    for (path, answer) in paths {
        let shown: String = path.chars().take(80).collect();
        let req = Request::get(path).header("OpenStack-API-Version", "placement 1.39");
        let res = hostile(base, &req, answer, &format!("GET {shown}"));
        assert!(res.body.len() < 128 * 1024, "GET {shown}: the 404 echoes at most the path");
    }
    // Methods no route has: 405 on a known path, 404 elsewhere.
    for method in ["PATCH", "TRACE", "FOO", "get"] {
        let req =
            Request::new(method, "/resource_providers").header("OpenStack-API-Version", "placement 1.39");
        let res = hostile(base, &req, Answer::App(&[405]), &format!("{method} /resource_providers"));
        assert!(res.header("allow").is_some(), "{method}: a 405 names what is allowed\n{}", res.describe());
        let req = Request::new(method, "/nope");
        hostile(base, &req, Answer::App(&[404, 405]), &format!("{method} /nope"));
    }
    // Targets the codec refuses.
    let too_long = format!("/resource_providers/{}", "a".repeat(70_000));
    let codec: &[(&str, &[u8])] = &[
        ("raw 0xff in the path", b"/resource_providers/\xff\xfe"),
        ("raw UTF-8 in the path", "/resource_providers/\u{e9}".as_bytes()),
        ("a raw NUL in the path", b"/resource_providers/\x00"),
        ("a target over 64 KiB", too_long.as_bytes()),
    ];
    for (name, target) in codec {
        raw_get(base, target, b"", Answer::Codec(400), name);
    }
    // A target without a slash reaches the app, which knows no such path.
    raw_get(base, b"resource_providers", b"", Answer::App(&[404]), "a target without a slash");
    let not_http = b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 TLS hello\r\n\r\n";
    exchange(base, not_http, "GET", &[], Answer::Codec(400), "a TLS hello");
    // HTTP/1.0 without Host is legitimate.
    let http10 = b"GET /resource_providers HTTP/1.0\r\nOpenStack-API-Version: placement 1.39\r\n\r\n";
    exchange(base, http10, "GET", &[], Answer::App(&[200]), "HTTP/1.0");
}

#[test]
fn odd_query_strings() {
    let fixture = fixture();
    let base = fixture.server.url.as_str();
    let ok = Answer::App(&[200]);
    let many = "name=1&".repeat(5_000);
    let long_value = format!("name={}", "n".repeat(60_000));
    let queries: Vec<(&str, &str, &str, Answer)> = vec![
        ("/resource_providers", "name=x", "1.39", ok),
        ("/resource_providers", "uuid=not-a-uuid", "1.39", BAD),
        ("/resource_providers", "uuid=%00", "1.39", BAD),
        ("/resource_providers", "resources=VCPU:abc", "1.39", BAD),
        ("/resource_providers", "resources=VCPU:99999999999999999999999", "1.39", BAD),
        ("/resource_providers", "resources=VCPU:-1", "1.39", BAD),
        ("/resource_providers", "resources=%ff:1", "1.39", BAD),
        ("/resource_providers", "resources=", "1.39", BAD),
        ("/resource_providers", "required=%00", "1.39", BAD),
        ("/resource_providers", "required=!!!", "1.39", BAD),
        ("/resource_providers", "member_of=in:", "1.39", BAD),
        ("/resource_providers", "member_of=%E2%80%AE", "1.39", BAD),
        ("/resource_providers", "in_tree=%ff", "1.39", BAD),
        ("/resource_providers", "nope=1", "1.39", BAD),
        ("/resource_providers", &many, "1.39", Answer::App(&[200, 400])),
        ("/resource_providers", &long_value, "1.39", Answer::App(&[200, 400])),
        ("/resource_providers", "%", "1.39", Answer::App(&[200, 400])),
        ("/resource_providers", "&&&=&==", "1.39", Answer::App(&[200, 400])),
        ("/resource_providers", "%zz=%zz", "1.39", BAD),
        ("/allocation_candidates", "resources=VCPU:1", "1.39", ok),
        ("/allocation_candidates", "limit=-1", "1.39", BAD),
        ("/allocation_candidates", "limit=abc", "1.39", BAD),
        ("/allocation_candidates", "resources=VCPU:1&limit=99999999999999999999999", "1.39", ok),
        ("/allocation_candidates", "resources=VCPU:1&group_policy=maybe", "1.39", BAD),
        ("/allocation_candidates", "resources1=VCPU:1&resources1=VCPU:1", "1.39", Answer::App(&[200, 400])),
        ("/allocation_candidates", "resources%ff=VCPU:1", "1.39", BAD),
        ("/allocation_candidates", "resources=VCPU:1&same_subtree=%00", "1.39", BAD),
        ("/usages", "project_id=%ff", "1.39", ok),
        ("/usages", "project_id=", "1.39", BAD),
        ("/traits", "name=in:%00,", "1.39", ok),
        ("/traits", "name=bogus", "1.39", BAD),
        ("/traits", "name=bogus:x", "1.39", ok),
        ("/traits", "associated=maybe", "1.39", BAD),
    ];
    for (path, query, version, answer) in queries {
        let target = format!("{path}?{query}");
        let shown: String = target.chars().take(80).collect();
        let req = Request::get(&target).header("OpenStack-API-Version", format!("placement {version}"));
        hostile(base, &req, answer, &format!("GET {shown} at {version}"));
    }
    for (name, target) in [
        ("raw 0xff in the query", &b"/resource_providers?name=\xff"[..]),
        ("a raw space", b"/resource_providers?name= b"),
    ] {
        raw_get(base, target, b"", Answer::Codec(400), name);
    }
}
