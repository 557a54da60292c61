//! Curl-level tests of every status and header rule of docs/reference.md §2
//! and §3
//! against the running compute example, over a raw HTTP/1.1 client
//! (`common`), so that repeated header lines, odd name casing, empty values
//! and non-ASCII bytes reach the server exactly as written.

use super::FRAMEWORK;

use common::{Request, Response};
use compute::RunningServer;
use compute::Version;
use microversion_testkit::http as common;
use serde_json::json;

const STANDARD: &str = "OpenStack-API-Version";
const LEGACY: &str = "X-OpenStack-Nova-API-Version";
const MIN: &str = "2.1";
const MAX: &str = "2.96";

fn server() -> RunningServer {
    RunningServer::start(FRAMEWORK).expect("the compute example starts on a free loopback port")
}

/// What a request must get: a version (200 with that version in the
/// response headers) or an error status.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Expect {
    Version(&'static str),
    Status(u16),
}

/// Asserts the version headers (docs/reference.md §3.3) on a response negotiated at `version`.
fn assert_versioned(res: &Response, version: &str, context: &str) {
    assert_eq!(
        res.header(STANDARD).as_deref(),
        Some(format!("compute {version}").as_str()),
        "{context}: {STANDARD}\n{}",
        res.describe()
    );
    assert_eq!(res.header(LEGACY).as_deref(), Some(version), "{context}: {LEGACY}\n{}", res.describe());
    assert_vary(res, context);
}

/// Asserts that `Vary` names both version headers (docs/reference.md §3.3).
fn assert_vary(res: &Response, context: &str) {
    let vary = res.vary();
    for name in [STANDARD, LEGACY] {
        assert!(
            vary.contains(&name.to_ascii_lowercase()),
            "{context}: Vary must name {name}, got {vary:?}\n{}",
            res.describe()
        );
    }
}

/// Asserts a Nova fault body `{"<name>": {"code": status, "message": "..."}}`
/// and returns its message.
fn assert_fault(res: &Response, name: &str, context: &str) -> String {
    let body = res.json();
    let fault =
        body.get(name).unwrap_or_else(|| panic!("{context}: expected a {name:?} fault\n{}", res.describe()));
    assert_eq!(body.as_object().map(|o| o.len()), Some(1), "{context}: one fault key\n{}", res.describe());
    assert_eq!(fault["code"], json!(res.status), "{context}: fault code\n{}", res.describe());
    let message = fault["message"].as_str().unwrap_or_default().to_owned();
    assert!(!message.is_empty(), "{context}: fault message\n{}", res.describe());
    message
}

/// Asserts that a Nova fault body names the served range in its
/// `min_version` and `max_version` fields (docs/reference.md §5.2).
fn assert_fault_range(res: &Response, name: &str, min: &str, max: &str, context: &str) {
    let body = res.json();
    assert_eq!(
        body[name]["min_version"],
        json!(min),
        "{context}: min_version in the fault\n{}",
        res.describe()
    );
    assert_eq!(
        body[name]["max_version"],
        json!(max),
        "{context}: max_version in the fault\n{}",
        res.describe()
    );
}

fn check(base: &str, path: &str, headers: &[(&[u8], &[u8])], expect: Expect) {
    let mut req = Request::get(path);
    for (name, value) in headers {
        req = req.header(name, value);
    }
    let res = req.send(base);
    let context = format!("GET {path} with {}", show_headers(headers));
    match expect {
        Expect::Version(version) => {
            assert_eq!(res.status, 200, "{context}\n{}", res.describe());
            assert_versioned(&res, version, &context);
        }
        Expect::Status(status) => {
            assert_eq!(res.status, status, "{context}\n{}", res.describe());
            assert_vary(&res, &context);
            let name = if status == 400 { "badRequest" } else { "computeFault" };
            assert_fault(&res, name, &context);
            if status == 406 {
                assert_eq!(res.header("OpenStack-API-Minimum-Version").as_deref(), Some(MIN), "{context}");
                assert_eq!(res.header("OpenStack-API-Maximum-Version").as_deref(), Some(MAX), "{context}");
                assert_fault_range(&res, name, MIN, MAX, &context);
            }
        }
    }
}

fn show_headers(headers: &[(&[u8], &[u8])]) -> String {
    if headers.is_empty() {
        return "no version header".into();
    }
    headers
        .iter()
        .map(|(n, v)| format!("{}: {:?}", String::from_utf8_lossy(n), String::from_utf8_lossy(v)))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Header lines to send, and what they must get.
type Row = (&'static [Header], Expect);
/// One header line: name and value, as bytes.
type Header = (&'static [u8], &'static [u8]);

const S: &[u8] = STANDARD.as_bytes();
const L: &[u8] = LEGACY.as_bytes();

/// Every row of the table of docs/reference.md §2.4, as written there.
#[test]
fn design_3_2_table() {
    use Expect::{Status, Version as V};
    let server = server();
    let rows: &[Row] = &[
        (&[], V(MIN)),
        (&[(S, b"compute 2.5")], V("2.5")),
        (&[(S, b"Compute 2.5")], V("2.5")),
        (&[(S, b"  compute   2.5  ")], V("2.5")),
        (&[(S, b"volume 3.5")], V(MIN)),
        (&[(S, b"volume 3.5"), (L, b"2.7")], V("2.7")),
        (&[(S, b"compute 2.3"), (L, b"2.7")], V("2.3")),
        (&[(S, b"compute 2.3"), (L, b"garbage")], V("2.3")),
        (&[(S, b"compute 2.1, compute 2.9")], V("2.9")),
        (&[(S, b"compute 2.1"), (S, b"compute 2.9")], V("2.9")),
        (&[(S, b"dogs 1.9, compute 2.4")], V("2.4")),
        (&[(S, b"compute latest")], V(MAX)),
        (&[(S, b"compute LATEST")], Status(400)),
        (&[(S, b"compute 2.1.3")], Status(400)),
        (&[(S, b"compute bogus")], Status(400)),
        (&[(S, b"compute 02.1")], Status(400)),
        (&[(S, b"compute 2.0")], Status(406)),
        (&[(S, b"compute 3.0")], Status(406)),
        (&[(S, b"compute 2.97")], Status(406)),
        (&[(S, b"compute 1.5")], Status(406)),
        (&[(L, b"")], Status(400)),
    ];
    for (headers, expect) in rows {
        check(&server.url, "/v2.1/flavors", headers, *expect);
    }
}

/// The rules behind the table, each on its own (docs/reference.md §1 and §2).
#[test]
fn design_3_2_rules() {
    use Expect::{Status, Version as V};
    let server = server();
    let rows: &[Row] = &[
        // Header names are case-insensitive, the standard one and the legacy one.
        (&[(b"openstack-api-version", b"compute 2.5")], V("2.5")),
        (&[(b"OPENSTACK-API-VERSION", b"compute 2.6")], V("2.6")),
        (&[(b"x-openstack-nova-api-version", b"2.7")], V("2.7")),
        (&[(b"X-OPENSTACK-NOVA-API-VERSION", b"2.8")], V("2.8")),
        // The service is compared case-insensitively; entries are trimmed and
        // split at their first run of whitespace (spaces or tabs).
        (&[(S, b"COMPUTE 2.5")], V("2.5")),
        (&[(S, b"compute\t2.5")], V("2.5")),
        (&[(S, b"compute \t 2.5")], V("2.5")),
        (&[(S, b"volume 3.5,   compute   2.10   ,dogs 1.0")], V("2.10")),
        (&[(S, b"compute 2.5 extra")], Status(400)),
        // Entries without whitespace are ignored, as are empty entries.
        (&[(S, b"compute2.5")], V(MIN)),
        (&[(S, b"compute")], V(MIN)),
        (&[(S, b"compute, compute 2.4")], V("2.4")),
        (&[(S, b"compute 2.4,,")], V("2.4")),
        (&[(S, b", ,compute 2.4")], V("2.4")),
        // The last entry naming the service wins, across lines too.
        (&[(S, b"compute 2.9, compute 2.1")], V(MIN)),
        (&[(S, b"compute 2.9"), (S, b"volume 3.0"), (S, b"compute 2.3")], V("2.3")),
        (&[(S, b"compute 2.9"), (S, b"dogs 1.0")], V("2.9")),
        (&[(S, b"compute 2.3"), (S, b"compute bogus")], Status(400)),
        (&[(S, b"compute bogus"), (S, b"compute 2.3")], V("2.3")),
        // Other services' headers and entries never count.
        (&[(b"X-OpenStack-Volume-API-Version", b"3.5")], V(MIN)),
        (&[(S, b"computer 2.5")], V(MIN)),
        (&[(S, b"volume latest")], V(MIN)),
        // An empty (or blank) standard header counts as absent.
        (&[(S, b"")], V(MIN)),
        (&[(S, b" \t ")], V(MIN)),
        (&[(S, b""), (L, b"2.6")], V("2.6")),
        // The legacy header: used only when the standard one names no version;
        // its last comma-separated element, trimmed.
        (&[(L, b"2.6")], V("2.6")),
        (&[(L, b"  2.6  ")], V("2.6")),
        (&[(L, b"2.5, 2.8")], V("2.8")),
        (&[(L, b"latest")], V(MAX)),
        (&[(L, b"2.5,")], Status(400)),
        (&[(L, b" ")], Status(400)),
        (&[(L, b"LATEST")], Status(400)),
        (&[(L, b"2.1.3")], Status(400)),
        (&[(L, b"3.0")], Status(406)),
        (&[(L, b"2.97")], Status(406)),
        (&[(S, b"volume 3.5"), (L, b"")], Status(400)),
        (&[(S, b"compute latest"), (L, b"")], V(MAX)),
        (&[(S, b"compute latest"), (L, b"garbage")], V(MAX)),
        (&[(L, b"garbage"), (S, b"compute 2.3")], V("2.3")),
        // Repeated legacy lines are joined like any repeated header (Nova reads
        // them joined with "," through WebOb): the last element wins.
        (&[(L, b"2.5"), (L, b"2.8")], V("2.8")),
        // The version grammar (docs/reference.md §1.1).
        (&[(S, b"compute 2.10")], V("2.10")),
        (&[(S, b"compute 2.96")], V(MAX)),
        (&[(S, b"compute 2")], Status(400)),
        (&[(S, b"compute 2.01")], Status(400)),
        (&[(S, b"compute -1.5")], Status(400)),
        (&[(S, b"compute +1.2")], Status(400)),
        (&[(S, b"compute 1_0.5")], Status(400)),
        (&[(S, b"compute 2.")], Status(400)),
        (&[(S, b"compute .5")], Status(400)),
        (&[(S, b"compute v2.1")], Status(400)),
        (&[(S, b"compute 2,1")], Status(400)),
        (&[(S, b"compute 0.1")], Status(400)),
        (&[(S, b"compute Latest")], Status(400)),
        // Non-ASCII digits (Arabic-Indic two and five, UTF-8) and stray bytes.
        (&[(S, b"compute \xd9\xa2.\xd9\xa5")], Status(400)),
        (&[(S, b"compute 2.\xff")], Status(400)),
        (&[(L, b"\xd9\xa2.\xd9\xa5")], Status(400)),
        // A component too large for the integer type is malformed (400), never
        // an overflow; a large one that fits is well-formed and out of range (406).
        (&[(S, b"compute 2.99999999999999999999999")], Status(400)),
        (&[(S, b"compute 99999999999999999999.1")], Status(400)),
        (&[(S, b"compute 2.65536")], Status(400)),
        (&[(S, b"compute 2.65535")], Status(406)),
        (&[(S, b"compute 12.5")], Status(406)),
        (&[(S, b"compute 2.100")], Status(406)),
    ];
    for (headers, expect) in rows {
        check(&server.url, "/v2.1/flavors", headers, *expect);
    }
}

/// An entry for another service that carries non-ASCII bytes is still just
/// another service's entry (docs/reference.md §2.1; Nova reads the header as Latin-1 text
/// and skips the entry), so the compute entry after it wins.
#[test]
fn non_ascii_entry_of_another_service_is_ignored() {
    let server = server();
    check(&server.url, "/v2.1/flavors", &[(S, b"d\xc3\xb6gs 1.9, compute 2.4")], Expect::Version("2.4"));
    check(&server.url, "/v2.1/flavors", &[(S, b"c\xc3\xb6mpute 2.4")], Expect::Version(MIN));
}

/// The version headers and `Vary` on successful responses of
/// every kind of operation, at several versions (docs/reference.md §3.3).
#[test]
fn version_headers_on_success() {
    let server = server();
    let base = server.url.as_str();
    for version in ["2.1", "2.2", "2.54", "2.55", "2.61", "2.75", MAX] {
        for path in ["/v2.1/flavors", "/v2.1/flavors/detail", "/v2.1/flavors/1", "/v2.1/os-keypairs"] {
            let res = Request::get(path).version(version).send(base);
            assert_eq!(res.status, 200, "GET {path} at {version}\n{}", res.describe());
            assert_versioned(&res, version, &format!("GET {path} at {version}"));
        }
        // The legacy header alone is answered with both headers.
        let res = Request::get("/v2.1/flavors").header(LEGACY, version).send(base);
        assert_eq!(res.status, 200, "{}", res.describe());
        assert_versioned(&res, version, &format!("legacy header {version}"));
    }
    // The default version is announced too.
    let res = Request::get("/v2.1/flavors").send(base);
    assert_versioned(&res, MIN, "no version header");

    // A create (200), a delete (202) and the keypair status changes of 2.2.
    let flavor =
        json!({"flavor": {"name": "rules-flavor", "ram": 512, "vcpus": 1, "disk": 1, "id": "rules-1"}});
    let res = Request::new("POST", "/v2.1/flavors").version("2.55").json(&flavor).send(base);
    assert_eq!(res.status, 200, "{}", res.describe());
    assert_versioned(&res, "2.55", "POST /flavors");
    let res = Request::new("DELETE", "/v2.1/flavors/rules-1").version("2.55").send(base);
    assert_eq!(res.status, 202, "{}", res.describe());
    assert_versioned(&res, "2.55", "DELETE /flavors/{id}");
    for (version, create, delete) in [("2.1", 200, 202), ("2.2", 201, 204), ("2.10", 201, 204)] {
        let name = format!("rules-key-{}", version.replace('.', "-"));
        let body = json!({"keypair": {"name": name}});
        let res = Request::new("POST", "/v2.1/os-keypairs").version(version).json(&body).send(base);
        assert_eq!(res.status, create, "POST /os-keypairs at {version}\n{}", res.describe());
        assert_versioned(&res, version, "POST /os-keypairs");
        let res = Request::new("DELETE", &format!("/v2.1/os-keypairs/{name}")).version(version).send(base);
        assert_eq!(res.status, delete, "DELETE /os-keypairs at {version}\n{}", res.describe());
        assert_versioned(&res, version, "DELETE /os-keypairs/{name}");
    }
}

/// 400 for a malformed version, with a JSON fault and `Vary`
/// (docs/reference.md §3.1 and §3.4).
#[test]
fn malformed_version_is_400_with_vary() {
    let server = server();
    for (name, value) in [(S, &b"compute bogus"[..]), (L, b"2.1.3"), (L, b"")] {
        let res = Request::get("/v2.1/flavors").header(name, value).send(&server.url);
        let context = show_headers(&[(name, value)]);
        assert_eq!(res.status, 400, "{context}\n{}", res.describe());
        assert_vary(&res, &context);
        assert!(
            res.header("content-type").is_some_and(|t| t.starts_with("application/json")),
            "{context}: JSON body\n{}",
            res.describe()
        );
        assert_fault(&res, "badRequest", &context);
        assert_fault_range(&res, "badRequest", MIN, MAX, &context);
    }
}

/// 406 for a well-formed version outside [min, max], the range in the
/// body's message, in the fault's `min_version`/`max_version` and in
/// headers, and `Vary` (docs/reference.md §3.2, §5.2, §5.3).
#[test]
fn unsupported_version_is_406_with_range() {
    let server = server();
    for (name, value, requested) in [
        (S, &b"compute 3.0"[..], "3.0"),
        (S, b"compute 2.97", "2.97"),
        (S, b"compute 2.0", "2.0"),
        (L, b"2.200", "2.200"),
    ] {
        let context = show_headers(&[(name, value)]);
        let res = Request::get("/v2.1/flavors/detail").header(name, value).send(&server.url);
        assert_eq!(res.status, 406, "{context}\n{}", res.describe());
        assert_vary(&res, &context);
        assert_eq!(res.header("OpenStack-API-Minimum-Version").as_deref(), Some(MIN), "{context}");
        assert_eq!(res.header("OpenStack-API-Maximum-Version").as_deref(), Some(MAX), "{context}");
        let message = assert_fault(&res, "computeFault", &context);
        assert_fault_range(&res, "computeFault", MIN, MAX, &context);
        assert_eq!(
            message,
            format!(
                "Version {requested} is not supported by the API. Minimum is {MIN} and maximum is {MAX}."
            ),
            "{context}"
        );
    }
}

/// Errors raised by handlers carry the version headers and `Vary` too
/// (docs/reference.md §3.3), in Nova's fault shapes (§5.2).
#[test]
fn handler_errors_carry_version_headers() {
    let server = server();
    let base = server.url.as_str();
    let res = Request::get("/v2.1/flavors/no-such-flavor").version("2.5").send(base);
    assert_eq!(res.status, 404, "{}", res.describe());
    assert_versioned(&res, "2.5", "GET a missing flavor");
    assert_fault(&res, "itemNotFound", "GET a missing flavor");

    let res = Request::get("/v2.1/os-keypairs/no-such-key").version("2.10").send(base);
    assert_eq!(res.status, 404, "{}", res.describe());
    assert_versioned(&res, "2.10", "GET a missing keypair");
    assert_fault(&res, "itemNotFound", "GET a missing keypair");

    let duplicate = json!({"flavor": {"name": "another-name", "ram": 512, "vcpus": 1, "disk": 1, "id": "1"}});
    let res = Request::new("POST", "/v2.1/flavors").version("2.61").json(&duplicate).send(base);
    assert_eq!(res.status, 409, "{}", res.describe());
    assert_versioned(&res, "2.61", "POST a duplicate flavor id");
    assert_fault(&res, "conflictingRequest", "POST a duplicate flavor id");

    let invalid = json!({"flavor": {"name": "zero-ram", "ram": 0, "vcpus": 1, "disk": 1}});
    let res = Request::new("POST", "/v2.1/flavors").version("2.61").json(&invalid).send(base);
    assert_eq!(res.status, 400, "{}", res.describe());
    assert_versioned(&res, "2.61", "POST an invalid flavor");
    assert_fault(&res, "badRequest", "POST an invalid flavor");

    // `description` is an unknown key before 2.55.
    let early = json!({"flavor": {"name": "early", "ram": 512, "vcpus": 1, "disk": 1, "description": "x"}});
    let res = Request::new("POST", "/v2.1/flavors").version("2.54").json(&early).send(base);
    assert_eq!(res.status, 400, "{}", res.describe());
    assert_versioned(&res, "2.54", "POST a description at 2.54");
}

/// A method that does not exist at the negotiated version answers 404, with
/// the version headers and `Vary` (docs/reference.md §4.2 and §3.3).
#[test]
fn method_missing_at_version_is_404_with_version_headers() {
    let server = server();
    let base = server.url.as_str();
    let body = json!({"flavor": {"description": "new"}});
    for version in ["2.1", "2.54"] {
        let res = Request::new("PUT", "/v2.1/flavors/1").version(version).json(&body).send(base);
        let context = format!("PUT /flavors/1 at {version}");
        assert_eq!(res.status, 404, "{context}\n{}", res.describe());
        assert_versioned(&res, version, &context);
        assert_fault(&res, "itemNotFound", &context);
    }
    for version in ["2.55", MAX] {
        let res = Request::new("PUT", "/v2.1/flavors/1").version(version).json(&body).send(base);
        assert_eq!(res.status, 200, "PUT /flavors/1 at {version}\n{}", res.describe());
        assert_versioned(&res, version, "PUT /flavors/1");
        assert_eq!(res.json()["flavor"]["description"], json!("new"), "{}", res.describe());
    }
}

/// Discovery ignores version headers, malformed or unsupported
/// (docs/reference.md §7).
#[test]
fn discovery_ignores_version_headers() {
    let server = server();
    let headers: &[(&[u8], &[u8])] = &[
        (S, b"compute 3.0"),
        (S, b"compute bogus"),
        (L, b""),
        (L, b"2.97"),
        (S, b"compute latest"),
        (S, b"compute \xff"),
    ];
    for path in ["/", "/v2.1", "/v2.1/"] {
        for (name, value) in std::iter::once((&b"X-Unrelated"[..], &b"1"[..])).chain(headers.iter().copied())
        {
            let context = format!("GET {path} with {}", show_headers(&[(name, value)]));
            let res = Request::get(path).header(name, value).send(&server.url);
            assert_eq!(res.status, 200, "{context}\n{}", res.describe());
            let body = res.json();
            let version = if path == "/" {
                let versions = body["versions"].as_array().cloned().unwrap_or_default();
                assert_eq!(versions.len(), 1, "{context}\n{}", res.describe());
                versions[0].clone()
            } else {
                assert!(
                    body["version"]["media-types"].is_array(),
                    "{context}: media-types\n{}",
                    res.describe()
                );
                body["version"].clone()
            };
            assert_eq!(version["id"], json!("v2.1"), "{context}");
            assert_eq!(version["status"], json!("CURRENT"), "{context}");
            assert_eq!(version["version"], json!(MAX), "{context}");
            assert_eq!(version["max_version"], json!(MAX), "{context}: the guideline's name for the maximum");
            assert_eq!(version["min_version"], json!(MIN), "{context}");
            assert!(
                version["links"].as_array().is_some_and(|l| l.iter().any(|l| l["rel"] == json!("self"))),
                "{context}: a self link\n{}",
                res.describe()
            );
        }
    }
}

/// A deployer's cap drives 406, `latest` and discovery (docs/reference.md §3.5).
#[test]
fn capped_server() {
    let server =
        RunningServer::start_with_cap(FRAMEWORK, Some(Version::new(2, 60))).expect("a capped server starts");
    let base = server.url.as_str();
    check(base, "/v2.1/flavors", &[(S, b"compute latest")], Expect::Version("2.60"));
    check(base, "/v2.1/flavors", &[(S, b"compute 2.60")], Expect::Version("2.60"));
    let res = Request::get("/v2.1/flavors").version("2.61").send(base);
    assert_eq!(res.status, 406, "{}", res.describe());
    assert_vary(&res, "2.61 above the cap");
    assert_eq!(res.header("OpenStack-API-Minimum-Version").as_deref(), Some(MIN));
    assert_eq!(res.header("OpenStack-API-Maximum-Version").as_deref(), Some("2.60"));
    let message = assert_fault(&res, "computeFault", "2.61 above the cap");
    assert_fault_range(&res, "computeFault", MIN, "2.60", "2.61 above the cap");
    assert!(message.contains("2.60"), "{message}");
    for path in ["/", "/v2.1"] {
        let body = Request::get(path).send(base).json();
        let doc = if path == "/" { &body["versions"][0] } else { &body["version"] };
        assert_eq!(doc["version"], json!("2.60"), "GET {path} on the capped server: {body}");
        assert_eq!(doc["max_version"], json!("2.60"), "GET {path} on the capped server: {body}");
        assert_eq!(doc["min_version"], json!(MIN), "GET {path} on the capped server: {body}");
    }
}

/// The raw client itself: chunked and sized bodies, repeated headers.
#[test]
fn raw_client_parses_responses() {
    let raw = b"HTTP/1.1 200 OK\r\nVary: a\r\nvary: B, c\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n";
    let res = common::parse_response(raw).expect("parses");
    assert_eq!((res.status, res.body.as_slice()), (200, &b"abcde"[..]));
    assert_eq!(res.vary(), ["a", "b", "c"]);
    let raw = b"HTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n\r\n{}trailing";
    let res = common::parse_response(raw).expect("parses");
    assert_eq!((res.status, res.text().as_str()), (404, "{}"));
    let bytes = Request::get("/x").header("A", b"\xff").header("a", "").to_bytes("h:1");
    assert_eq!(bytes, b"GET /x HTTP/1.1\r\nHost: h:1\r\nA: \xff\r\na: \r\nConnection: close\r\n\r\n");
}
