//! Behind a shared HTTP cache, no response for one version is ever served
//! to a request for another (docs/reference.md §3.4 and §12).
//!
//! The test starts a real nginx (Debian's `nginx-light` or `nginx`) of its
//! own: its own configuration in a temporary directory, on free loopback
//! ports, in the foreground as a single process, killed at the end. Two
//! caching proxies stand in front of one compute server, both with
//! `proxy_cache_valid any 1m`, so 200s, 400s, 404s and 406s are all cached:
//! - the cache under test honours `Vary` (nginx's default): every response
//!   it gives must be the one the origin gives for that request's own
//!   headers, and a 400/406 cached for a bad header must never answer a
//!   later valid request;
//! - the control ignores `Vary` (`proxy_ignore_headers Vary`), which is what
//!   any cache does when the origin forgets to send it: the same requests
//!   MUST get responses of the wrong version there. That proves the
//!   scenario can fail, so a regression that drops `Vary` is caught.
//!
//! nginx missing is a failure, not a skip: `.ci/run` installs it.

use super::FRAMEWORK;

use std::sync::atomic::{AtomicUsize, Ordering};

use common::{LEGACY_HEADER, Request, Response, STANDARD_HEADER, check_contract};
use compute::PublicUrl;
use compute::{RunningServer, Settings};
use microversion_testkit::http as common;
use microversion_testkit::nginx::{self, free_port};

/// The two caching proxies of a test, stopped when dropped.
struct Nginx {
    process: nginx::Nginx,
    /// `http://127.0.0.1:PORT` of the cache that honours `Vary`.
    honouring: String,
    /// `http://127.0.0.1:PORT` of the control that ignores it.
    ignoring: String,
}

/// One caching server block proxying to `upstream`.
fn server_block(port: u16, upstream: &str, zone: &str, extra: &str) -> String {
    format!(
        "    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass {upstream};
            proxy_http_version 1.1;
            proxy_set_header Connection \"\";
            proxy_cache {zone};
            proxy_cache_valid any 1m;
            proxy_cache_lock on;
            {extra}
            add_header X-Cache-Status $upstream_cache_status always;
        }}
    }}
"
    )
}

fn start_nginx(upstream: &str) -> Nginx {
    static STARTED: AtomicUsize = AtomicUsize::new(0);
    let nth = STARTED.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!(
        "microversion-cache-safety-{}-{}-{nth}",
        FRAMEWORK.name(),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    for sub in ["cache-honouring", "cache-ignoring"] {
        std::fs::create_dir_all(dir.join(sub)).expect("the nginx directory");
    }
    let (honouring, ignoring) = (free_port(), free_port());
    let d = dir.display();
    let http = format!(
        "    proxy_cache_path {d}/cache-honouring keys_zone=honouring:1m max_size=16m inactive=10m use_temp_path=off;
    proxy_cache_path {d}/cache-ignoring keys_zone=ignoring:1m max_size=16m inactive=10m use_temp_path=off;
{}{}",
        server_block(honouring, upstream, "honouring", ""),
        server_block(ignoring, upstream, "ignoring", "proxy_ignore_headers Vary;"),
    );
    Nginx {
        process: nginx::Nginx::start(&dir, &http, &[honouring, ignoring]),
        honouring: format!("http://127.0.0.1:{honouring}"),
        ignoring: format!("http://127.0.0.1:{ignoring}"),
    }
}

type Headers = &'static [(&'static str, &'static str)];

/// Requests for the same URLs that the origin answers at different
/// versions, or with 400/406: the errors come first, so that a cached error
/// would be served to the valid requests after it if the cache mixed them.
/// Each is sent twice; the second normally comes from the cache.
const VARIANTS: &[Headers] = &[
    &[(STANDARD_HEADER, "compute bogus")],
    &[(STANDARD_HEADER, "compute 3.0")],
    &[(LEGACY_HEADER, "")],
    &[(LEGACY_HEADER, "2.1.3")],
    &[],
    &[(STANDARD_HEADER, "compute 2.1")],
    &[(STANDARD_HEADER, "compute 2.55")],
    &[(STANDARD_HEADER, "compute 2.61")],
    &[(STANDARD_HEADER, "COMPUTE   2.61")],
    &[(STANDARD_HEADER, "compute 2.75")],
    &[(STANDARD_HEADER, "compute latest")],
    &[(STANDARD_HEADER, "volume 3.5")],
    &[(LEGACY_HEADER, "2.10")],
    &[(LEGACY_HEADER, "2.92")],
    &[(STANDARD_HEADER, "volume 3.5"), (LEGACY_HEADER, "2.55")],
    &[(STANDARD_HEADER, "compute 2.2"), (LEGACY_HEADER, "2.75")],
    &[(STANDARD_HEADER, "compute 2.1"), (STANDARD_HEADER, "compute 2.75")],
    &[(STANDARD_HEADER, "compute 2.75"), (STANDARD_HEADER, "compute 2.1")],
    &[(STANDARD_HEADER, "compute 2.1, compute 2.61")],
    &[(LEGACY_HEADER, "2.1"), (LEGACY_HEADER, "2.61")],
];

/// The valid requests of [`VARIANTS`], for URLs no error was cached for.
const VALID: &[Headers] = VARIANTS.split_at(4).1;

/// URLs whose bodies differ between versions (flavor views at 2.55, 2.61
/// and 2.75; keypair views at 2.2) or only in their headers, and a 404:
/// sent with every variant, errors first.
const URLS: [&str; 5] = [
    "/v2.1/flavors/1",
    "/v2.1/flavors/detail?limit=2",
    "/v2.1/os-keypairs",
    "/v2.1/flavors/1/os-extra_specs",
    "/v2.1/flavors/no-such-flavor",
];

/// Other URLs, sent with the valid variants only: there the first cached
/// response is a 200 of one version.
const VALID_URLS: [&str; 3] =
    ["/v2.1/flavors/2", "/v2.1/flavors/detail?limit=3", "/v2.1/flavors/2/os-extra_specs"];

fn request(url: &str, headers: Headers) -> Request {
    headers.iter().fold(Request::get(url), |req, (name, value)| req.header(name, value))
}

/// What went through one cache: responses that broke the contract or
/// differed from the origin's, and how many were cache hits.
#[derive(Default)]
struct Outcome {
    mixed: Vec<String>,
    /// Requests whose only version header was blank, answered with the
    /// response to the same request without it (see [`only_blank_version_headers`]).
    folded: usize,
    hits: usize,
    error_hits: usize,
    sent: usize,
}

/// Every request of the scenario, in order: each URL of [`URLS`] with every
/// variant, errors first, then each of [`VALID_URLS`] with the valid ones.
fn scenario() -> Vec<(&'static str, Headers)> {
    let with = |urls: &'static [&'static str], variants: &'static [Headers]| {
        urls.iter().flat_map(move |url| variants.iter().map(move |headers| (*url, *headers)))
    };
    with(&URLS, VARIANTS).chain(with(&VALID_URLS, VALID)).collect()
}

/// Sends the scenario twice through `cache`, each request also to `origin`.
fn run_through(cache: &str, origin: &str) -> Outcome {
    let mut outcome = Outcome::default();
    for round in 0..2 {
        for (url, headers) in scenario() {
            let req = request(url, headers);
            let via_cache = req.send(cache);
            let direct = req.send(origin);
            outcome.sent += 1;
            if via_cache.header("x-cache-status").as_deref() == Some("HIT") {
                outcome.hits += 1;
                if via_cache.status >= 400 {
                    outcome.error_hits += 1;
                }
            }
            let Some(why) = mismatch(req.headers(), url, &via_cache, &direct) else { continue };
            let bare = request(url, &[]);
            if only_blank_version_headers(headers)
                && mismatch(bare.headers(), url, &via_cache, &bare.send(origin)).is_none()
            {
                outcome.folded += 1;
            } else {
                outcome.mixed.push(format!("round {round}: GET {url} with {headers:?}: {why}"));
            }
        }
    }
    outcome
}

/// Whether every version header of the request is empty or blank. nginx
/// matches `Vary` on values and folds an empty header into an absent one,
/// so it may answer such a request (a 400 at the origin, which keeps
/// Nova's rule for an empty legacy header: docs/reference.md §2.3) with the
/// stored response to the same URL without the header: the default version,
/// named in its headers, which is what the client gets by sending nothing. The reverse, a stored
/// 400 answering the request without the header, cannot happen: negotiation
/// errors are `Cache-Control: no-store`.
fn only_blank_version_headers(headers: Headers) -> bool {
    !headers.is_empty() && headers.iter().all(|(_, value)| value.trim().is_empty())
}

/// Why a cached response is not the origin's answer to the same request.
fn mismatch(
    headers: &[(Vec<u8>, Vec<u8>)],
    url: &str,
    via_cache: &Response,
    direct: &Response,
) -> Option<String> {
    if let Err(why) = check_contract("GET", url.as_bytes(), headers, via_cache) {
        return Some(why);
    }
    let version = |r: &Response| (r.status, r.header(STANDARD_HEADER), r.header(LEGACY_HEADER));
    if version(via_cache) != version(direct) || via_cache.body != direct.body {
        return Some(format!(
            "the cache gave\n{}\nthe origin gives\n{}",
            via_cache.describe(),
            direct.describe()
        ));
    }
    None
}

#[test]
fn a_shared_cache_never_serves_one_version_to_another() {
    let origin = RunningServer::start(FRAMEWORK).expect("the compute example starts");
    let nginx = start_nginx(&origin.url);

    let honoured = run_through(&nginx.honouring, &origin.url);
    assert!(
        honoured.mixed.is_empty(),
        "the Vary-honouring cache served {} responses of another version or error:\n{}",
        honoured.mixed.len(),
        honoured
            .mixed
            .iter()
            .map(|m| m.lines().take(2).collect::<Vec<_>>().join(" / "))
            .collect::<Vec<_>>()
            .join("\n")
    );
    // The cache really cached: the second round came from it, errors included.
    assert!(
        honoured.hits >= honoured.sent / 4,
        "only {} of {} responses were cache hits: the test would prove nothing\n{}",
        honoured.hits,
        honoured.sent,
        nginx.process.log("error.log")
    );
    assert!(honoured.error_hits > 0, "no cached 404 was ever served: errors were not cached");
    println!(
        "Vary honoured: {} requests, {} cache hits ({} of errors), {} mixed, {} blank-header requests \
         answered with the default version",
        honoured.sent,
        honoured.hits,
        honoured.error_hits,
        honoured.mixed.len(),
        honoured.folded
    );

    // The control: the same requests through a cache that ignores Vary mix versions.
    let ignored = run_through(&nginx.ignoring, &origin.url);
    assert!(
        ignored.mixed.len() >= URLS.len(),
        "the control cache (Vary ignored) served only {} mixed responses: the scenario cannot tell a \
         cache that honours Vary from one that does not",
        ignored.mixed.len()
    );
    let served = |status: &str| ignored.mixed.iter().any(|m| m.contains(&format!("\nHTTP {status}")));
    assert!(served("200") && served("404"), "the control must serve one version's 200 and 404 to another");
    println!(
        "Vary ignored (control): {} requests, {} cache hits, {} mixed",
        ignored.sent,
        ignored.hits,
        ignored.mixed.len()
    );
}

const POISONS: [(&str, &str); 3] = [
    ("X-Forwarded-Host", "evil.example"),
    ("Forwarded", "host=evil.example;proto=https"),
    ("X-Forwarded-Proto", "gopher"),
];

/// URLs whose bodies carry links built from the public URL.
const LINKED_URLS: [&str; 5] = ["/", "/v2.1", "/v2.1/", "/v2.1/flavors/1", "/v2.1/flavors/detail?limit=1"];

fn poisoned(res: &Response) -> bool {
    let text = res.text();
    text.contains("evil.example") || text.contains("gopher")
}

/// Sends each URL of [`LINKED_URLS`] through `cache` with each forwarding
/// header of [`POISONS`] and then without; returns whether the origin read
/// them (the first response named the forged host or scheme) and checks
/// that the clean request never gets the forged links. `base` makes the
/// cache keys of one run fresh.
fn poison_then_fetch(cache: &str, base: usize) -> bool {
    let mut read = false;
    for (i, url) in LINKED_URLS.iter().enumerate() {
        for (j, (name, value)) in POISONS.iter().enumerate() {
            // A fresh cache key per case: the URL with a query the handler ignores is not
            // possible everywhere, so each case uses its own version header value instead.
            let version = format!("compute 2.{}", base + i * POISONS.len() + j);
            let first = Request::get(url).header(STANDARD_HEADER, &version).header(name, value).send(cache);
            assert_eq!(first.status, 200, "GET {url} with {name}\n{}", first.describe());
            read |= poisoned(&first);
            let clean = Request::get(url).header(STANDARD_HEADER, &version).send(cache);
            assert_eq!(clean.status, 200, "GET {url}\n{}", clean.describe());
            assert!(
                !poisoned(&clean),
                "GET {url} without {name} got the links of a request with it (cache status {:?})\n{}",
                clean.header("x-cache-status"),
                clean.describe()
            );
        }
    }
    read
}

/// By default the origin reads no forwarding header (any client can send
/// one; OpenStack's `enable_proxy_headers_parsing` is off by default), so a
/// request carrying them gets the same links as any other, and nothing
/// varies on them.
#[test]
fn forwarding_headers_are_ignored_by_default() {
    let origin = RunningServer::start(FRAMEWORK).expect("the compute example starts");
    let nginx = start_nginx(&origin.url);
    assert!(!poison_then_fetch(&nginx.honouring, 61), "the origin built links from a forwarding header");
    for url in LINKED_URLS {
        let res = Request::get(url).header("X-Forwarded-Host", "evil.example").send(&nginx.honouring);
        let vary = res.vary();
        assert!(vary.contains(&"host".to_owned()), "GET {url}: links come from Host\n{}", res.describe());
        assert!(
            !vary.iter().any(|name| name.starts_with("x-forwarded") || name == "forwarded"),
            "GET {url}: Vary names headers that are not read\n{}",
            res.describe()
        );
    }
}

/// When the deployer trusts the proxy (here nginx, the origin's only peer),
/// a response whose body is built from forwarding headers (the `self` links
/// of discovery and of flavors) must name them in `Vary`, or one request
/// carrying them poisons the cached document for every client (web cache
/// poisoning through an unkeyed header).
#[test]
fn forwarding_headers_cannot_poison_cached_links() {
    let loopback = std::net::IpAddr::from([127, 0, 0, 1]);
    let settings = Settings {
        framework: FRAMEWORK,
        public_url: PublicUrl::trust_proxies([loopback]),
        ..Settings::default()
    };
    let origin = RunningServer::start_with(settings).expect("the compute example starts");
    let nginx = start_nginx(&origin.url);
    assert!(
        poison_then_fetch(&nginx.honouring, 61),
        "the origin builds links from the forwarding headers of a trusted proxy (else this proves nothing)"
    );
}
