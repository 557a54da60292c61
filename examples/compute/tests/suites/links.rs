//! Where the compute example's links point (docs/reference.md §7.1) and how
//! long it waits for a body (§6.2): against running servers over the raw
//! client, so that the TCP peer is real (127.0.0.1).

use super::FRAMEWORK;

use std::io::{Read, Write};
use std::net::{IpAddr, TcpStream};
use std::time::{Duration, Instant};

use common::{Request, Response};
use compute::{PublicUrl, RunningServer, Settings};
use microversion_testkit::http as common;

const STANDARD: &str = "OpenStack-API-Version";
const LOOPBACK: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);

fn start(public_url: PublicUrl) -> RunningServer {
    RunningServer::start_with(Settings { framework: FRAMEWORK, public_url, ..Settings::default() })
        .expect("the compute example starts")
}

/// A request every link-writing response answers, with forged forwarding
/// headers: discovery, a flavor, and a keypair page.
fn forged(path: &str) -> Request {
    Request::get(path)
        .header(STANDARD, "compute 2.61")
        .header("X-Forwarded-Host", "evil.example")
        .header("X-Forwarded-Proto", "https")
        .header("Forwarded", "host=evil.example;proto=https")
}

const LINKED: [&str; 3] = ["/", "/v2.1/", "/v2.1/flavors/1"];

/// The `href`s of a response, and its `Vary` (lower case).
fn hrefs(res: &Response) -> Vec<String> {
    fn walk(value: &serde_json::Value, out: &mut Vec<String>) {
        match value {
            serde_json::Value::Object(map) => {
                for (key, value) in map {
                    match value.as_str() {
                        Some(href) if key == "href" => out.push(href.to_owned()),
                        _ => walk(value, out),
                    }
                }
            }
            serde_json::Value::Array(items) => items.iter().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(&res.json(), &mut out);
    assert!(!out.is_empty(), "no links in\n{}", res.describe());
    out
}

fn assert_links(res: &Response, root: &str, vary: &[&str], context: &str) {
    assert_eq!(res.status, 200, "{context}\n{}", res.describe());
    for href in hrefs(res) {
        assert!(href.starts_with(&format!("{root}/")), "{context}: {href} is not under {root}");
    }
    let got = res.vary();
    for name in ["host", "forwarded", "x-forwarded-host", "x-forwarded-proto"] {
        assert_eq!(got.contains(&name.to_owned()), vary.contains(&name), "{context}: Vary {got:?}");
    }
}

/// Regression (reliability work): any client's `X-Forwarded-Host` put its
/// host into discovery and flavor links. By default forwarded headers are
/// ignored, and so they are from a peer outside the trusted set.
#[test]
fn forged_forwarding_headers_from_an_untrusted_peer_change_nothing() {
    let other_proxy: IpAddr = "10.0.0.1".parse().unwrap();
    for public in [PublicUrl::from_request(), PublicUrl::trust_proxies([other_proxy])] {
        let server = start(public.clone());
        let root = server.url.clone();
        for path in LINKED {
            let res = forged(path).send(&server.url);
            assert_links(&res, &root, &["host"], &format!("{public:?} GET {path}"));
        }
    }
}

#[test]
fn trusted_proxies_forward_scheme_and_host() {
    for public in [PublicUrl::trust_all_proxies(), PublicUrl::trust_proxies([LOOPBACK])] {
        let server = start(public.clone());
        for path in LINKED {
            let res = forged(path).send(&server.url);
            assert_links(
                &res,
                "https://evil.example",
                &["host", "forwarded", "x-forwarded-host", "x-forwarded-proto"],
                &format!("{public:?} GET {path}"),
            );
        }
    }
}

#[test]
fn a_public_url_wins_over_every_header() {
    let server = start(PublicUrl::fixed("https://cloud.example/compute").unwrap());
    for path in LINKED {
        let res = forged(path).send(&server.url);
        assert_links(&res, "https://cloud.example/compute", &[], &format!("GET {path}"));
    }
    // A keypair page's `next` link.
    for name in ["a", "b"] {
        let body = serde_json::json!({"keypair": {"name": name}});
        let res = Request::new("POST", "/v2.1/os-keypairs").version("2.35").json(&body).send(&server.url);
        assert_eq!(res.status, 201, "{}", res.describe());
    }
    let res = forged("/v2.1/os-keypairs?limit=1").header(STANDARD, "compute 2.35").send(&server.url);
    let res_links = hrefs(&res);
    assert_eq!(res_links, ["https://cloud.example/compute/v2.1/os-keypairs?limit=1&marker=a"]);
}

/// A client that starts a request head and never ends it is answered 408
/// and disconnected once the head deadline passes, on both builds, and the
/// server goes on serving.
#[test]
fn a_stalled_head_is_disconnected() {
    // actix reckons the deadline from a clock it updates every 500 ms: a
    // shorter one could expire as a connection opens, and it may end up to
    // 500 ms early.
    let timeout = Duration::from_secs(1);
    let settings = Settings { framework: FRAMEWORK, head_timeout: Some(timeout), ..Settings::default() };
    let server = RunningServer::start_with(settings).expect("the compute example starts");
    let mut stream = TcpStream::connect(server.url.trim_start_matches("http://")).expect("a connection");
    // Far beyond the deadline: a read that times out is a connection never closed.
    stream.set_read_timeout(Some(Duration::from_secs(30))).expect("a read timeout");
    let started = Instant::now();
    stream.write_all(b"GET /v2.1/flavors HTTP/1.1\r\nHost: h\r\nOpenStack-API-").expect("half a head");
    let mut answer = Vec::new();
    if let Err(e) = stream.read_to_end(&mut answer) {
        panic!("the stalled connection is still open after {:?}: {e}", started.elapsed());
    }
    assert!(started.elapsed() >= timeout / 2, "closed before the deadline");
    let res = common::parse_response(&answer).expect("an HTTP answer");
    assert_eq!(res.status, 408, "{}", res.describe());
    let res = Request::get("/v2.1/flavors/1").send(&server.url);
    assert_eq!(res.status, 200, "{}", res.describe());
}

/// A client that declares a body and sends none gets a 408 Nova fault once
/// the body deadline passes, and its connection is closed.
#[test]
fn a_stalled_body_is_answered_408() {
    let timeout = Duration::from_millis(200);
    let settings = Settings { framework: FRAMEWORK, body_timeout: Some(timeout), ..Settings::default() };
    let server = RunningServer::start_with(settings).expect("the compute example starts");
    let head = "POST /v2.1/flavors HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\n\
                OpenStack-API-Version: compute 2.61\r\nContent-Length: 100\r\n\r\n{\"flav";
    let started = Instant::now();
    // `send_raw` reads until the server closes: the 408 closes the connection.
    let res = common::send_raw(&server.url, head.as_bytes()).expect("an answer");
    assert_eq!(res.status, 408, "{}", res.describe());
    assert!(started.elapsed() >= timeout, "answered before the deadline");
    common::nova_fault(&res).unwrap_or_else(|why| panic!("{why}\n{}", res.describe()));
    assert_eq!(res.header(STANDARD).as_deref(), Some("compute 2.61"));
    // The server goes on serving.
    let res = Request::get("/v2.1/flavors/1").send(&server.url);
    assert_eq!(res.status, 200);
}
