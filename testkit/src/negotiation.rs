//! A deliberately naive re-statement of docs/reference.md §1 and §2, used as an oracle
//! for `Api::negotiate` by the property tests
//! (`testkit/tests/negotiation_properties.rs`), the `negotiate` fuzz
//! target, and the response contract of the compute example
//! ([`crate::http::check_contract`]).
//!
//! It joins repeated headers the way WSGI does and works on whole strings,
//! with no attempt at speed, so that it shares no code and no shortcut with
//! the implementation it checks.

use microversion_core::{Api, Microversion, Negotiated, NegotiationError, Version, version::VersionSource};

/// The header every service reads first.
const STANDARD: &[u8] = b"openstack-api-version";

/// What a request must get, as the contract states it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    /// Served at this version, chosen this way.
    Served(Version, VersionSource),
    /// 400: the text is not a version nor `latest`.
    Malformed(Vec<u8>),
    /// 406: a well-formed version outside the served set.
    NotAcceptable(Version),
}

/// Python's `str.isspace` on ASCII: what microversion-parse strips and splits on.
fn is_python_space(b: u8) -> bool {
    b" \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f".contains(&b)
}

fn strip(text: &[u8]) -> &[u8] {
    let start = text.iter().position(|b| !is_python_space(*b)).unwrap_or(text.len());
    let end = text.iter().rposition(|b| !is_python_space(*b)).map_or(start, |i| i + 1);
    &text[start..end.max(start)]
}

/// Every value of header `name` (case-insensitive) joined with `,`, or
/// `None` if the header is absent.
fn joined(headers: &[(&[u8], &[u8])], name: &[u8]) -> Option<Vec<u8>> {
    let values: Vec<&[u8]> =
        headers.iter().filter(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| *v).collect();
    (!values.is_empty()).then(|| values.join(&b","[..]))
}

/// `^([1-9][0-9]*)\.([1-9][0-9]*|0)$` with 16-bit components, by hand.
pub fn parse_version(text: &[u8]) -> Option<Version> {
    let text = std::str::from_utf8(text).ok()?;
    let (major, minor) = text.split_once('.')?;
    let component = |s: &str, zero_ok: bool| -> Option<u16> {
        let digits = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        let leading_zero = s.starts_with('0') && !(zero_ok && s == "0");
        if digits && !leading_zero { s.parse().ok() } else { None }
    };
    let major = component(major, false)?;
    Some(Version::new(major, component(minor, true)?))
}

/// What `api` must answer to `headers` (name and value bytes, in order).
pub fn expected(api: &Api, headers: &[(&[u8], &[u8])]) -> Expected {
    let mut requested: Option<Vec<u8>> = None;
    if let Some(value) = joined(headers, STANDARD) {
        for entry in value.split(|b| *b == b',') {
            let entry = strip(entry);
            let Some(gap) = entry.iter().position(|b| is_python_space(*b)) else { continue };
            if entry[..gap].eq_ignore_ascii_case(api.service_type().as_bytes()) {
                requested = Some(strip(&entry[gap..]).to_vec());
            }
        }
    }
    if requested.is_none() {
        requested = api.legacy_headers().iter().find_map(|name| {
            let value = joined(headers, name.as_bytes())?;
            let last = value.split(|b| *b == b',').next_back().unwrap_or_default();
            Some(strip(last).to_vec())
        });
    }
    let Some(text) = requested else {
        return Expected::Served(api.default_version(), VersionSource::Default);
    };
    if text == b"latest" {
        return Expected::Served(api.max(), VersionSource::Latest);
    }
    match parse_version(&text) {
        None => Expected::Malformed(text),
        Some(version) if api.serves(version) => Expected::Served(version, VersionSource::Explicit),
        Some(version) => Expected::NotAcceptable(version),
    }
}

/// Negotiates `headers` with `api` and checks the outcome against the oracle
/// and the shape of docs/reference.md §3: a served version, or a 400/406 naming the
/// served range. Returns a description of the first disagreement.
pub fn check(api: &Api, headers: &[(&[u8], &[u8])]) -> Result<(), String> {
    let got = api.negotiate(headers.iter().map(|(n, v)| (*n, *v)));
    let want = expected(api, headers);
    let fail = |why: &str| Err(format!("{why}: got {got:?}, expected {want:?}, headers {headers:?}"));
    match (&got, &want) {
        (Ok(Negotiated { version, source, .. }), Expected::Served(v, s)) if version == v && source == s => {
            if !api.serves(*version) {
                return fail("served a version the API does not serve");
            }
        }
        (Err(err @ NegotiationError::Malformed { requested, min, max }), Expected::Malformed(text)) => {
            if err.status() != 400 || (*min, *max) != (api.min(), api.max()) {
                return fail("a malformed version must be a 400 naming the served range");
            }
            let shown = String::from_utf8_lossy(&text[..text.len().min(64)]);
            let echoed = requested.strip_suffix('…').unwrap_or(requested);
            if echoed != shown || (text.len() > 64) != requested.ends_with('…') {
                return fail("the echoed text must be the first 64 bytes, marked when cut");
            }
        }
        (Err(err @ NegotiationError::NotAcceptable { requested, min, max }), Expected::NotAcceptable(v)) => {
            if err.status() != 406 || requested != v || (*min, *max) != (api.min(), api.max()) {
                return fail("an unserved version must be a 406 naming the served range");
            }
        }
        _ => return fail("negotiation disagrees with the contract"),
    }
    Ok(())
}

static HISTORY: [Microversion; 12] = [
    Microversion::new("2.1", "a"),
    Microversion::new("2.2", "b"),
    Microversion::new("2.3", "c"),
    Microversion::new("2.4", "d"),
    Microversion::new("2.5", "e"),
    Microversion::new("2.6", "f"),
    Microversion::new("2.7", "g"),
    Microversion::new("2.8", "h"),
    Microversion::new("2.9", "i"),
    Microversion::new("2.10", "j"),
    Microversion::new("2.11", "k"),
    Microversion::new("2.100", "l"),
];
static DISABLED: [Version; 2] = [Version::new(2, 4), Version::new(2, 10)];

/// The declarations checked: plain, with a legacy header, two legacy
/// headers, a default above the minimum, disabled versions, and a cap.
pub fn apis() -> Vec<Api> {
    let nova = Api::new("compute", &HISTORY).with_legacy_headers(&["X-OpenStack-Nova-API-Version"]);
    vec![
        Api::new("compute", &HISTORY),
        nova,
        Api::new("compute", &HISTORY).with_legacy_headers(&["X-First", "X-Second"]),
        nova.with_default_version("2.5"),
        nova.with_disabled(&DISABLED),
        nova.capped_at(Version::new(2, 9)).expect("2.9 is declared"),
    ]
}

/// Checks `headers` against every declaration of [`apis`].
pub fn check_all(headers: &[(Vec<u8>, Vec<u8>)]) -> Result<(), String> {
    let pairs: Vec<(&[u8], &[u8])> = headers.iter().map(|(n, v)| (n.as_slice(), v.as_slice())).collect();
    apis().iter().try_for_each(|api| check(api, &pairs))
}

/// Header lines `name: value` (or `name:value`), one per `\n`, as the fuzz
/// target and its seed corpus write them; lines without a colon are skipped.
pub fn parse_lines(bytes: &[u8]) -> Vec<(Vec<u8>, Vec<u8>)> {
    bytes
        .split(|b| *b == b'\n')
        .filter_map(|line| {
            let colon = line.iter().position(|b| *b == b':')?;
            let value = &line[colon + 1..];
            Some((line[..colon].to_vec(), value.strip_prefix(b" ").unwrap_or(value).to_vec()))
        })
        .collect()
}
