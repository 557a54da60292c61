//! A minimal HTTP/1.1 client over `std::net::TcpStream` for tests that need
//! full control of the bytes on the wire: repeated header lines, odd name
//! casing, empty values, non-ASCII bytes, or a whole hand-written request.
//!
//! Every request is sent with `Connection: close` (unless the caller writes
//! the request itself) and read until the server closes, with timeouts, so a
//! misbehaving server fails a test instead of hanging it.
//!
//! Below the client, the response contract of the compute example under
//! hostile input ([`check_contract`]), shared by its tests, its soak client
//! and the `compute_service` fuzz target.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use crate::negotiation::{self, Expected};

/// How long a test waits for a connection, a write or a read.
pub const IO_TIMEOUT: Duration = Duration::from_secs(15);

/// A response as received: status, header lines in order (names as sent by
/// the server, values as raw bytes), and the decoded body.
#[derive(Debug, Clone)]
pub struct Response {
    /// The status code of the status line.
    pub status: u16,
    /// Every header line, in order.
    pub headers: Vec<(String, Vec<u8>)>,
    /// The body, de-chunked if it was sent chunked.
    pub body: Vec<u8>,
}

impl Response {
    /// Every value of the header `name` (case-insensitive), in order, as text
    /// (non-UTF-8 bytes replaced).
    pub fn headers_named(&self, name: &str) -> Vec<String> {
        self.headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| String::from_utf8_lossy(v).into_owned())
            .collect()
    }

    /// The only value of the header `name`; `None` if absent. Panics if the
    /// header is repeated, which these tests never expect.
    pub fn header(&self, name: &str) -> Option<String> {
        let mut values = self.headers_named(name);
        assert!(values.len() <= 1, "header {name} is repeated: {values:?}\n{}", self.describe());
        values.pop()
    }

    /// The names listed by every `Vary` header, lower-cased.
    pub fn vary(&self) -> Vec<String> {
        self.headers_named("vary")
            .iter()
            .flat_map(|v| v.split(','))
            .map(|s| s.trim().to_ascii_lowercase())
            .filter(|s| !s.is_empty())
            .collect()
    }

    /// The body as text (lossy).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body as JSON; panics with the response if it is not JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("the body is not JSON ({e}):\n{}", self.describe()))
    }

    /// The status line, headers and body, for assertion messages.
    pub fn describe(&self) -> String {
        let mut out = format!("HTTP {}\n", self.status);
        for (name, value) in &self.headers {
            out.push_str(&format!("{name}: {}\n", String::from_utf8_lossy(value)));
        }
        out.push('\n');
        out.push_str(&self.text());
        out
    }
}

/// A request to build and send.
#[derive(Debug, Clone)]
pub struct Request {
    method: String,
    path: String,
    headers: Vec<(Vec<u8>, Vec<u8>)>,
    body: Option<Vec<u8>>,
}

impl Request {
    /// A request with no headers yet (`Host`, `Connection: close` and, with a
    /// body, `Content-Length` are added when sent).
    pub fn new(method: &str, path: &str) -> Request {
        Request { method: method.to_owned(), path: path.to_owned(), headers: Vec::new(), body: None }
    }

    /// `GET path`.
    pub fn get(path: &str) -> Request {
        Request::new("GET", path)
    }

    /// Adds one header line, exactly as given (repeat the call for repeated lines).
    pub fn header(mut self, name: impl AsRef<[u8]>, value: impl AsRef<[u8]>) -> Request {
        self.headers.push((name.as_ref().to_vec(), value.as_ref().to_vec()));
        self
    }

    /// `OpenStack-API-Version: compute VERSION`.
    pub fn version(self, version: &str) -> Request {
        self.header("OpenStack-API-Version", format!("compute {version}"))
    }

    /// A JSON body (and its `Content-Type`).
    pub fn json(self, body: &serde_json::Value) -> Request {
        let mut req = self.header("Content-Type", "application/json");
        req.body = Some(body.to_string().into_bytes());
        req
    }

    /// A body of any bytes, with no `Content-Type` added (`Content-Length`
    /// is added when sent).
    pub fn body(mut self, body: impl Into<Vec<u8>>) -> Request {
        self.body = Some(body.into());
        self
    }

    /// The method.
    pub fn method(&self) -> &str {
        &self.method
    }

    /// The request target (path and query).
    pub fn target(&self) -> &str {
        &self.path
    }

    /// The header lines added so far, as sent.
    pub fn headers(&self) -> &[(Vec<u8>, Vec<u8>)] {
        &self.headers
    }

    /// The request's bytes for `host` (`127.0.0.1:PORT`).
    pub fn to_bytes(&self, host: &str) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(
            format!("{} {} HTTP/1.1\r\nHost: {host}\r\n", self.method, self.path).as_bytes(),
        );
        for (name, value) in &self.headers {
            out.extend_from_slice(name);
            out.extend_from_slice(b": ");
            out.extend_from_slice(value);
            out.extend_from_slice(b"\r\n");
        }
        if let Some(body) = &self.body {
            out.extend_from_slice(format!("Content-Length: {}\r\n", body.len()).as_bytes());
        }
        out.extend_from_slice(b"Connection: close\r\n\r\n");
        if let Some(body) = &self.body {
            out.extend_from_slice(body);
        }
        out
    }

    /// Sends the request to the server at `base` (`http://127.0.0.1:PORT`,
    /// any path ignored) and reads the whole response.
    pub fn send(&self, base: &str) -> Response {
        let host = host_of(base);
        send_raw(base, &self.to_bytes(host))
            .unwrap_or_else(|e| panic!("{} {} to {base} failed: {e}", self.method, self.path))
    }
}

/// `127.0.0.1:PORT` of `http://127.0.0.1:PORT[/...]`.
pub fn host_of(base: &str) -> &str {
    let rest = base.strip_prefix("http://").unwrap_or(base);
    rest.split('/').next().unwrap_or(rest)
}

/// Writes `request` as is to the server at `base` and reads one response
/// until the server closes the connection (the request should say
/// `Connection: close`).
pub fn send_raw(base: &str, request: &[u8]) -> std::io::Result<Response> {
    send_raw_then(base, request, Then::Wait)
}

/// What a client does once its request is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Then {
    /// Keeps its side open and waits for the answer.
    Wait,
    /// Shuts its side down (`shutdown(SHUT_WR)`, as `nc -N` or a client
    /// that sends one request per connection does), then reads the answer:
    /// a server must still answer.
    HalfClose,
}

/// [`send_raw`], the client doing `then` once the request is written.
pub fn send_raw_then(base: &str, request: &[u8], then: Then) -> std::io::Result<Response> {
    let addr: std::net::SocketAddr = host_of(base)
        .parse()
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("{base}: {e}")))?;
    let mut stream = TcpStream::connect_timeout(&addr, IO_TIMEOUT)?;
    stream.set_read_timeout(Some(IO_TIMEOUT))?;
    stream.set_write_timeout(Some(IO_TIMEOUT))?;
    // A server may answer before the whole request is written (a 413 for
    // its length) and close: the write then fails, and its answer, read
    // next, is what counts; so too with nothing left to shut down.
    let written = stream.write_all(request).and_then(|()| stream.flush());
    let shut = match (&written, then) {
        (Ok(()), Then::HalfClose) => stream.shutdown(std::net::Shutdown::Write),
        _ => Ok(()),
    };
    let mut raw = Vec::new();
    // A reset after a complete response (the server closing with unread
    // input) still leaves a usable response in `raw`.
    if let Err(e) = stream.read_to_end(&mut raw)
        && raw.is_empty()
    {
        return Err(written.and(shut).err().unwrap_or(e));
    }
    parse_response(&raw)
}

fn invalid(message: String) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, message)
}

/// Parses one HTTP/1.1 response (status line, headers, body by
/// `Content-Length`, chunked encoding, or the rest of the bytes), after any
/// interim `1xx` answers.
pub fn parse_response(raw: &[u8]) -> std::io::Result<Response> {
    let head_end = find(raw, b"\r\n\r\n")
        .ok_or_else(|| invalid(format!("no end of headers in {:?}", String::from_utf8_lossy(raw))))?;
    let head = &raw[..head_end];
    let mut lines = head.split(|&b| b == b'\n').map(|l| l.strip_suffix(b"\r").unwrap_or(l));
    let status_line = String::from_utf8_lossy(lines.next().unwrap_or_default()).into_owned();
    let mut parts = status_line.splitn(3, ' ');
    let (proto, code) = (parts.next().unwrap_or_default(), parts.next().unwrap_or_default());
    if !proto.starts_with("HTTP/1.") {
        return Err(invalid(format!("bad status line {status_line:?}")));
    }
    let status: u16 = code.parse().map_err(|_| invalid(format!("bad status line {status_line:?}")))?;
    // An interim answer (`100 Continue` to `Expect: 100-continue`) precedes the response.
    if (100..200).contains(&status) && status != 101 {
        return parse_response(&raw[head_end + 4..]);
    }
    let mut headers = Vec::new();
    for line in lines {
        let colon = line
            .iter()
            .position(|&b| b == b':')
            .ok_or_else(|| invalid(format!("bad header line {:?}", String::from_utf8_lossy(line))))?;
        let name = String::from_utf8_lossy(&line[..colon]).into_owned();
        let value = line[colon + 1..].trim_ascii().to_vec();
        headers.push((name, value));
    }
    let rest = &raw[head_end + 4..];
    let header = |name: &str| {
        headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| String::from_utf8_lossy(v).to_ascii_lowercase())
    };
    let body = if header("transfer-encoding").is_some_and(|v| v.contains("chunked")) {
        dechunk(rest)?
    } else if let Some(length) = header("content-length") {
        let length: usize =
            length.trim().parse().map_err(|_| invalid(format!("bad Content-Length {length:?}")))?;
        if rest.len() < length {
            return Err(invalid(format!("body cut short: {} of {length} bytes", rest.len())));
        }
        rest[..length].to_vec()
    } else {
        rest.to_vec()
    };
    Ok(Response { status, headers, body })
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn dechunk(mut rest: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let line_end = find(rest, b"\r\n").ok_or_else(|| invalid("chunk size line cut short".into()))?;
        let size_text = String::from_utf8_lossy(&rest[..line_end]);
        let size_text = size_text.split(';').next().unwrap_or_default().trim();
        let size = usize::from_str_radix(size_text, 16)
            .map_err(|_| invalid(format!("bad chunk size {size_text:?}")))?;
        rest = &rest[line_end + 2..];
        if size == 0 {
            return Ok(body);
        }
        if rest.len() < size + 2 {
            return Err(invalid("chunk cut short".into()));
        }
        body.extend_from_slice(&rest[..size]);
        rest = &rest[size + 2..];
    }
}

// ---- The response contract under hostile input (docs/reliability.md).

/// The standard version header.
pub const STANDARD_HEADER: &str = "OpenStack-API-Version";
/// Nova's legacy version header.
pub const LEGACY_HEADER: &str = "X-OpenStack-Nova-API-Version";

/// Whether the server routes `target` (a request target as sent: a path,
/// or an absolute URI, with or without a query) through the versioned
/// `/v2.1` scope rather than discovery (`/`, `/v2.1`, `/v2.1/`) or the
/// app's 404. The router matches the path with percent-encoded characters
/// decoded, except `%2F`, `%2B` and `%25` (actix-router's `Quoter`), so
/// `/%76%32%2e%31/flavors` is in the scope.
pub fn is_versioned_path(target: &[u8]) -> bool {
    let mut path = target;
    for scheme in [&b"http://"[..], b"https://"] {
        if target.len() >= scheme.len() && target[..scheme.len()].eq_ignore_ascii_case(scheme) {
            let rest = &target[scheme.len()..];
            path = rest.iter().position(|b| *b == b'/').map_or(&b"/"[..], |at| &rest[at..]);
        }
    }
    let end = path.iter().position(|b| *b == b'?' || *b == b'#').unwrap_or(path.len());
    let path = percent_decode_path(&path[..end]);
    path.len() > b"/v2.1/".len() && path.starts_with(b"/v2.1/")
}

/// Percent-decodes a path as actix's router does before matching.
fn percent_decode_path(path: &[u8]) -> Vec<u8> {
    let hex = |b: u8| (b as char).to_digit(16);
    let mut out = Vec::with_capacity(path.len());
    let mut i = 0;
    while i < path.len() {
        if path[i] == b'%'
            && let (Some(hi), Some(lo)) =
                (path.get(i + 1).and_then(|b| hex(*b)), path.get(i + 2).and_then(|b| hex(*b)))
        {
            let byte = (hi * 16 + lo) as u8;
            if !matches!(byte, b'/' | b'+' | b'%') {
                out.push(byte);
                i += 3;
                continue;
            }
        }
        out.push(path[i]);
        i += 1;
    }
    out
}

/// Checks what every response of the compute example must be, whatever the
/// request (docs/reference.md §3, §6 and §12):
/// - never a 5xx;
/// - an error (4xx) has a JSON body in Nova's fault shape,
///   `{"<name>": {"code": <status>, "message": "<non-empty>"}}`;
/// - a success with a body has a JSON body;
/// - on a path of the versioned scope, `Vary` names both version headers,
///   and the outcome is the one the negotiation oracle
///   ([`crate::negotiation::expected`], not the code under test) states for
///   `COMPUTE` and the request's headers: the version headers of the chosen
///   version, or the 400/406 with the served range in the minimum/maximum
///   headers and no version;
/// - elsewhere (discovery, unknown paths), no version headers.
///
/// `method` is needed because a response to HEAD has no body.
pub fn check_contract(
    method: &str,
    path: &[u8],
    request_headers: &[(Vec<u8>, Vec<u8>)],
    res: &Response,
) -> Result<(), String> {
    let fail = |why: String| Err(format!("{why}\n{}", res.describe()));
    if res.status >= 500 {
        return fail(format!("a {} answer", res.status));
    }
    let has_body = method != "HEAD" && !res.body.is_empty();
    let content_type = res.headers_named("content-type").join(",");
    if res.status >= 400 {
        if method != "HEAD" {
            if !content_type.starts_with("application/json") {
                return fail(format!("an error without a JSON content type ({content_type:?})"));
            }
            if let Err(why) = nova_fault(res) {
                return fail(why);
            }
        }
    } else if has_body && serde_json::from_slice::<serde_json::Value>(&res.body).is_err() {
        return fail("a success whose body is not JSON".into());
    }
    let standard = res.headers_named(STANDARD_HEADER);
    let legacy = res.headers_named(LEGACY_HEADER);
    if !is_versioned_path(path) {
        if !standard.is_empty() || !legacy.is_empty() {
            return fail("version headers outside the versioned scope".into());
        }
        return Ok(());
    }
    let vary = res.vary();
    for name in [STANDARD_HEADER, LEGACY_HEADER] {
        if !vary.contains(&name.to_ascii_lowercase()) {
            return fail(format!("Vary does not name {name}"));
        }
    }
    let pairs: Vec<(&[u8], &[u8])> =
        request_headers.iter().map(|(n, v)| (n.as_slice(), v.as_slice())).collect();
    let refused = match negotiation::expected(&compute::COMPUTE, &pairs) {
        Expected::Served(version, _) => {
            let version = version.to_string();
            if standard != [format!("compute {version}")] || legacy != [version.clone()] {
                return fail(format!("expected the version headers of {version}"));
            }
            return Ok(());
        }
        Expected::Malformed(text) => (400, format!("{:?} is malformed", String::from_utf8_lossy(&text))),
        Expected::NotAcceptable(version) => (406, format!("{version} is not served")),
    };
    let (status, why) = refused;
    if res.status != status {
        return fail(format!("expected the {status} of negotiation ({why})"));
    }
    if !standard.is_empty() || !legacy.is_empty() {
        return fail("version headers on a failed negotiation".into());
    }
    let (min, max) = (
        res.headers_named("OpenStack-API-Minimum-Version"),
        res.headers_named("OpenStack-API-Maximum-Version"),
    );
    if min != [compute::COMPUTE.min().to_string()] || max != [compute::COMPUTE.max().to_string()] {
        return fail("a failed negotiation must name the served range".into());
    }
    Ok(())
}

/// Checks Nova's fault shape: one key, whose `code` is the status and
/// whose `message` is a non-empty string.
pub fn nova_fault(res: &Response) -> Result<(), String> {
    let body: serde_json::Value =
        serde_json::from_slice(&res.body).map_err(|e| format!("an error body that is not JSON ({e})"))?;
    let fault = match body.as_object() {
        Some(object) if object.len() == 1 => object.values().next().cloned().unwrap_or_default(),
        _ => return Err("an error body that is not one fault object".into()),
    };
    if fault["code"] != serde_json::json!(res.status) {
        return Err("a fault whose code is not the status".into());
    }
    if fault["message"].as_str().is_none_or(str::is_empty) {
        return Err("a fault without a message".into());
    }
    Ok(())
}
