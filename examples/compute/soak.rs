//! A bounded soak of the compute example (docs/reference.md §12): many keep-alive
//! connections on loopback sending a mix of valid, `latest`, malformed,
//! out-of-range and header-less requests (and schema-invalid bodies) for a
//! fixed time, every response checked for its status, version headers,
//! `Vary`, fault body and `Cache-Control`, and the server's resident memory
//! read from `/proc/PID/status` before and after.
//!
//! ```text
//! cargo run --release --example soak -- [--seconds 60] [--connections 64]
//!     [--server target/release/examples/compute | --url http://127.0.0.1:PORT]
//! ```
//!
//! With `--server` (what `scripts/soak.sh` does) the soak starts the
//! server binary itself on a free loopback port, so the memory measured is
//! the server's alone, and stops it at the end. It exits non-zero on any
//! mismatch, any I/O error, or memory that grows past the warm-up level by
//! more than 10% (and 4 MiB).

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{LEGACY_HEADER, Response, STANDARD_HEADER, check_contract};
use compute::COMPUTE;
use microversion_actix::{Version, version::VersionSource};
use microversion_testkit::http as common;
use microversion_testkit::negotiation::{self, Expected};

const USAGE: &str =
    "usage: soak [--seconds N] [--connections N] [--server PATH | --url http://127.0.0.1:PORT]";
/// How long the load runs before the "before" memory reading: the
/// allocator and actix's pools grow to their working size first.
const WARM_UP: Duration = Duration::from_secs(3);
const IO_TIMEOUT: Duration = Duration::from_secs(10);

struct Options {
    seconds: u64,
    connections: usize,
    server: Option<String>,
    url: Option<String>,
}

fn options() -> Result<Options, String> {
    let mut options = Options { seconds: 60, connections: 64, server: None, url: None };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{arg} needs a value\n{USAGE}"));
        match arg.as_str() {
            "--seconds" => options.seconds = value()?.parse().map_err(|e| format!("--seconds: {e}"))?,
            "--connections" => {
                options.connections = value()?.parse().map_err(|e| format!("--connections: {e}"))?
            }
            "--server" => options.server = Some(value()?),
            "--url" => options.url = Some(value()?),
            "-h" | "--help" => return Err(USAGE.to_owned()),
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }
    if options.server.is_none() == options.url.is_none() {
        return Err(format!("give one of --server and --url\n{USAGE}"));
    }
    if options.seconds == 0
        || options.seconds > 3600
        || options.connections == 0
        || options.connections > 4096
    {
        return Err("--seconds must be 1..=3600 and --connections 1..=4096".to_owned());
    }
    Ok(options)
}

/// The server process the soak started, stopped when dropped.
struct Server {
    child: Child,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_server(binary: &str) -> Result<(Server, String), String> {
    let port =
        TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map_err(|e| e.to_string())?.port();
    let child = Command::new(binary)
        .args(["--listen", &format!("127.0.0.1:{port}")])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("{binary}: {e}"))?;
    let mut server = Server { child };
    let addr: SocketAddr = ([127, 0, 0, 1], port).into();
    let deadline = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_err() {
        if let Ok(Some(status)) = server.child.try_wait() {
            return Err(format!("the server exited: {status}"));
        }
        if Instant::now() > deadline {
            return Err("the server did not listen within 20 s".to_owned());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Ok((server, format!("http://127.0.0.1:{port}")))
}

/// `VmRSS` of `pid`, in KiB.
fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// A small deterministic generator (xorshift), one per connection.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// One request of the mix and what kind it is (for the report).
struct Planned {
    kind: &'static str,
    method: &'static str,
    path: &'static str,
    headers: Vec<(Vec<u8>, Vec<u8>)>,
    body: Option<&'static [u8]>,
}

const PATHS: [&str; 5] = [
    "/v2.1/flavors/1",
    "/v2.1/flavors/detail?limit=2",
    "/v2.1/flavors",
    "/v2.1/os-keypairs",
    "/v2.1/flavors/1/os-extra_specs",
];

fn plan(rng: &mut Rng, versions: &[Version]) -> Planned {
    let std = |v: String| vec![(STANDARD_HEADER.as_bytes().to_vec(), v.into_bytes())];
    let legacy = |v: &str| vec![(LEGACY_HEADER.as_bytes().to_vec(), v.as_bytes().to_vec())];
    let path = PATHS[rng.below(PATHS.len())];
    let version = versions[rng.below(versions.len())];
    let get = |kind, headers| Planned { kind, method: "GET", path, headers, body: None };
    match rng.below(20) {
        0..=5 => get("valid", std(format!("compute {version}"))),
        6..=7 => get("valid (legacy header)", legacy(&version.to_string())),
        8..=9 => get("latest", std("compute latest".to_owned())),
        10..=12 => {
            let bad = ["compute bogus", "compute 2.1.3", "compute 02.1", "compute LATEST", "compute 2.65536"];
            get("malformed", std(bad[rng.below(bad.len())].to_owned()))
        }
        13 => get("malformed", legacy("")),
        14..=15 => {
            let out = ["compute 3.0", "compute 2.97", "compute 2.0", "compute 1.1", "compute 2.200"];
            get("out of range", std(out[rng.below(out.len())].to_owned()))
        }
        16..=17 => get("no header", Vec::new()),
        18 => get("other service only", std("volume 3.5".to_owned())),
        _ => Planned {
            kind: "invalid body",
            method: "POST",
            path: "/v2.1/flavors",
            headers: [
                std(format!("compute {version}")),
                vec![(b"Content-Type".to_vec(), b"application/json".to_vec())],
            ]
            .concat(),
            body: Some(br#"{"flavor": {"name": "", "ram": 0}}"#),
        },
    }
}

/// Checks one response against the contract and the request's own rules.
fn check(planned: &Planned, res: &Response) -> Result<(), String> {
    check_contract(planned.method, planned.path.as_bytes(), &planned.headers, res)?;
    // The expected version comes from the oracle, not from the code under test.
    let pairs: Vec<(&[u8], &[u8])> =
        planned.headers.iter().map(|(n, v)| (n.as_slice(), v.as_slice())).collect();
    match negotiation::expected(&COMPUTE, &pairs) {
        Expected::Malformed(_) | Expected::NotAcceptable(_) => {
            if res.header("cache-control").as_deref() != Some("no-store") {
                return Err(format!("a {} of negotiation without Cache-Control: no-store", res.status));
            }
        }
        Expected::Served(version, source) => {
            let expected = if planned.method == "POST" { 400 } else { 200 };
            if res.status != expected {
                return Err(format!("expected {expected} at {version}, got {}", res.status));
            }
            if planned.kind == "latest" && source != VersionSource::Latest {
                return Err("latest was not negotiated as latest".to_owned());
            }
            if planned.path == "/v2.1/flavors/1" {
                let body = res.json();
                let has = |key: &str| body["flavor"].get(key).is_some();
                if has("description") != (version >= Version::new(2, 55))
                    || has("extra_specs") != (version >= Version::new(2, 61))
                {
                    return Err(format!("the flavor view is not the one of {version}: {body}"));
                }
            }
        }
    }
    Ok(())
}

/// A keep-alive connection that reads one response at a time.
struct Connection {
    stream: TcpStream,
    buffer: Vec<u8>,
}

impl Connection {
    fn open(addr: SocketAddr) -> std::io::Result<Connection> {
        let stream = TcpStream::connect_timeout(&addr, IO_TIMEOUT)?;
        stream.set_read_timeout(Some(IO_TIMEOUT))?;
        stream.set_write_timeout(Some(IO_TIMEOUT))?;
        stream.set_nodelay(true)?;
        Ok(Connection { stream, buffer: Vec::new() })
    }

    fn exchange(&mut self, host: &str, planned: &Planned) -> std::io::Result<(Response, bool)> {
        let mut request =
            format!("{} {} HTTP/1.1\r\nHost: {host}\r\n", planned.method, planned.path).into_bytes();
        for (name, value) in &planned.headers {
            request.extend_from_slice(name);
            request.extend_from_slice(b": ");
            request.extend_from_slice(value);
            request.extend_from_slice(b"\r\n");
        }
        if let Some(body) = planned.body {
            request.extend_from_slice(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
            request.extend_from_slice(body);
        } else {
            request.extend_from_slice(b"\r\n");
        }
        self.stream.write_all(&request)?;
        let invalid = |m: String| std::io::Error::new(std::io::ErrorKind::InvalidData, m);
        let head_end = loop {
            if let Some(at) = self.buffer.windows(4).position(|w| w == b"\r\n\r\n") {
                break at + 4;
            }
            self.fill()?;
        };
        let head = String::from_utf8_lossy(&self.buffer[..head_end]).to_ascii_lowercase();
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .ok_or_else(|| invalid(format!("no Content-Length in {head:?}")))?
            .trim()
            .parse()
            .map_err(|e| invalid(format!("Content-Length: {e}")))?;
        while self.buffer.len() < head_end + length {
            self.fill()?;
        }
        let res = common::parse_response(&self.buffer[..head_end + length])?;
        let close = head.lines().any(|l| l.trim() == "connection: close");
        self.buffer.drain(..head_end + length);
        Ok((res, close))
    }

    fn fill(&mut self) -> std::io::Result<()> {
        let mut chunk = [0u8; 16 * 1024];
        let n = self.stream.read(&mut chunk)?;
        if n == 0 {
            return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "the server closed"));
        }
        self.buffer.extend_from_slice(&chunk[..n]);
        Ok(())
    }
}

/// What the connections counted.
#[derive(Default)]
struct Tally {
    sent: u64,
    statuses: BTreeMap<u16, u64>,
    kinds: BTreeMap<&'static str, u64>,
    mismatches: u64,
    first_mismatches: Vec<String>,
    io_errors: u64,
    reconnects: u64,
}

impl Tally {
    fn merge(&mut self, other: Tally) {
        self.sent += other.sent;
        for (status, n) in other.statuses {
            *self.statuses.entry(status).or_default() += n;
        }
        for (kind, n) in other.kinds {
            *self.kinds.entry(kind).or_default() += n;
        }
        self.mismatches += other.mismatches;
        self.first_mismatches.extend(other.first_mismatches);
        self.first_mismatches.truncate(5);
        self.io_errors += other.io_errors;
        self.reconnects += other.reconnects;
    }
}

fn load(url: &str, seed: u64, stop: &AtomicBool) -> Tally {
    let host = common::host_of(url).to_owned();
    let addr: SocketAddr = host.parse().expect("a loopback address");
    let versions: Vec<Version> = COMPUTE.served_versions().collect();
    let mut rng = Rng(seed | 1);
    let mut tally = Tally::default();
    let mut connection: Option<Connection> = None;
    while !stop.load(Ordering::Relaxed) {
        let conn = match connection.as_mut() {
            Some(conn) => conn,
            None => match Connection::open(addr) {
                Ok(conn) => connection.insert(conn),
                Err(_) => {
                    tally.io_errors += 1;
                    std::thread::sleep(Duration::from_millis(10));
                    continue;
                }
            },
        };
        let planned = plan(&mut rng, &versions);
        match conn.exchange(&host, &planned) {
            Ok((res, close)) => {
                tally.sent += 1;
                *tally.statuses.entry(res.status).or_default() += 1;
                *tally.kinds.entry(planned.kind).or_default() += 1;
                if let Err(why) = check(&planned, &res) {
                    tally.mismatches += 1;
                    if tally.first_mismatches.len() < 5 {
                        let headers: Vec<String> = planned
                            .headers
                            .iter()
                            .map(|(n, v)| {
                                format!("{}: {}", String::from_utf8_lossy(n), String::from_utf8_lossy(v))
                            })
                            .collect();
                        tally
                            .first_mismatches
                            .push(format!("{} {} {headers:?}: {why}", planned.method, planned.path));
                    }
                }
                if close {
                    connection = None;
                    tally.reconnects += 1;
                }
            }
            Err(_) => {
                tally.io_errors += 1;
                connection = None;
            }
        }
    }
    tally
}

fn mib(kib: u64) -> String {
    format!("{:.1} MiB", kib as f64 / 1024.0)
}

fn main() {
    let options = options().unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let (server, url) = match (&options.server, &options.url) {
        (Some(binary), _) => {
            let (server, url) = start_server(binary).unwrap_or_else(|e| {
                eprintln!("soak: {e}");
                std::process::exit(2)
            });
            (Some(server), url)
        }
        (None, Some(url)) => (None, url.clone()),
        (None, None) => unreachable!("checked by options()"),
    };
    if !common::host_of(&url).starts_with("127.") {
        eprintln!("soak: only loopback servers (127.0.0.0/8) are soaked, not {url}");
        std::process::exit(2);
    }
    let pid = server.as_ref().map(|s| s.child.id());
    println!(
        "soak: {} s, {} keep-alive connections, {url}{}",
        options.seconds,
        options.connections,
        pid.map(|p| format!(", server pid {p}")).unwrap_or_default()
    );
    let rss_start = pid.and_then(rss_kib);

    let stop = Arc::new(AtomicBool::new(false));
    let total = Arc::new(Mutex::new(Tally::default()));
    let workers: Vec<_> = (0..options.connections)
        .map(|i| {
            let (url, stop, total) = (url.clone(), Arc::clone(&stop), Arc::clone(&total));
            std::thread::spawn(move || {
                let tally = load(
                    &url,
                    0x9E37_79B9_7F4A_7C15 ^ (i as u64 + 1).wrapping_mul(0x2545_F491_4F6C_DD1D),
                    &stop,
                );
                total.lock().expect("the tally").merge(tally);
            })
        })
        .collect();

    let started = Instant::now();
    let end = started + Duration::from_secs(options.seconds);
    let warm_up = WARM_UP.min(Duration::from_secs(options.seconds) / 4);
    std::thread::sleep(warm_up);
    let rss_before = pid.and_then(rss_kib);
    let mut samples = Vec::new();
    let mut peak = rss_before.unwrap_or(0);
    while Instant::now() < end {
        std::thread::sleep(Duration::from_secs(1).min(end.saturating_duration_since(Instant::now())));
        if let Some(rss) = pid.and_then(rss_kib) {
            peak = peak.max(rss);
            if samples.len() < 1000 {
                samples.push((started.elapsed().as_secs(), rss));
            }
        }
    }
    stop.store(true, Ordering::Relaxed);
    for worker in workers {
        let _ = worker.join();
    }
    let elapsed = started.elapsed().as_secs_f64();
    let rss_after = pid.and_then(rss_kib);
    drop(server);

    let tally = std::mem::take(&mut *total.lock().expect("the tally"));
    println!("requests sent: {} ({:.0}/s)", tally.sent, tally.sent as f64 / elapsed);
    for (status, n) in &tally.statuses {
        println!("  status {status}: {n}");
    }
    for (kind, n) in &tally.kinds {
        println!("  {kind}: {n}");
    }
    println!("mismatches: {}", tally.mismatches);
    for mismatch in &tally.first_mismatches {
        println!("  {mismatch}");
    }
    println!("I/O errors: {}, reconnects after Connection: close: {}", tally.io_errors, tally.reconnects);
    let mut failed = tally.mismatches > 0 || tally.io_errors > 0 || tally.sent == 0;
    if let (Some(start), Some(before), Some(after)) = (rss_start, rss_before, rss_after) {
        let step = (samples.len() / 6).max(1);
        let timeline: Vec<String> =
            samples.iter().step_by(step).map(|(s, rss)| format!("{s}s {}", mib(*rss))).collect();
        println!(
            "server RSS: at start {}, after {} s of warm-up (before) {}, at the end (after) {}, peak {}",
            mib(start),
            warm_up.as_secs(),
            mib(before),
            mib(after),
            mib(peak)
        );
        println!("  samples: {}", timeline.join(", "));
        let allowed = (before / 10).max(4 * 1024);
        let grown = after.saturating_sub(before);
        println!("  growth after warm-up: {} (allowed {})", mib(grown), mib(allowed));
        if grown > allowed {
            println!("memory is not flat");
            failed = true;
        }
    }
    println!("{}", if failed { "soak: FAILED" } else { "soak: ok" });
    std::process::exit(i32::from(failed));
}
