//! The framework's contract written by hand, without a framework's types:
//! what the middleware and dispatch do for the load server's routes, in the
//! plain code a competent team writes without the framework: Nova's header
//! rules, 400 and 406 with the range in the API-SIG format, a `match` on
//! the version, the version headers and `Vary`. The actix side
//! ([`crate::server::configure_hand`]) and the axum side
//! ([`crate::axum_server::hand`]) read and write their own headers around it.

use serde::Serialize;
use serde_json::{Value, json};

/// A version as a hand-writer keeps it: (major, minor).
pub type HandVersion = (u16, u16);
const HAND_MIN: HandVersion = (2, 1);
const HAND_MAX: HandVersion = (2, 96);

/// `Vary` of every answer: both version headers.
pub const VARY: &str = "OpenStack-API-Version, X-OpenStack-Nova-API-Version";

/// The least any implementation of the contract writes on the measured
/// request (`OpenStack-API-Version: compute 2.27`): the `/floor` side of
/// the load server answers with these constants whenever the request names
/// a version, reading one header and negotiating nothing. Not a service
/// (any version gets 2.27's headers), a measuring stick: framework/floor is
/// the framework's cost over the contract's own, the three headers a
/// framework's map stores and its encoder writes (docs/performance.md).
/// Built once ([`crate::server`] and [`crate::axum_server`] make their
/// frameworks' constants of them).
pub const FLOOR_HEADERS: [(&str, &str); 3] =
    [("openstack-api-version", "compute 2.27"), ("x-openstack-nova-api-version", "2.27"), ("vary", VARY)];

/// The headers of a refusal, besides its JSON content type.
pub const REFUSAL_HEADERS: [(&str, &str); 4] = [
    ("OpenStack-API-Minimum-Version", "2.1"),
    ("OpenStack-API-Maximum-Version", "2.96"),
    ("Vary", VARY),
    ("Cache-Control", "no-store"),
];

/// A version header whose value is not visible ASCII.
#[derive(Debug)]
pub struct NotText;

/// Why a request's version was refused: malformed (400), or outside the
/// served range (406).
#[derive(Debug)]
pub enum Refusal {
    /// The text that is not a version.
    Invalid(String),
    /// A version outside 2.1 to 2.96.
    Unsupported(HandVersion),
}

impl Refusal {
    /// The status and the error document, with the served range, as the
    /// framework renders them.
    pub fn answer(self) -> (u16, Value) {
        let (status, title, code, detail) = match self {
            Refusal::Invalid(text) => (
                400,
                "Bad Request",
                "compute.invalid_version",
                format!("Version {text} is not a valid API version."),
            ),
            Refusal::Unsupported((major, minor)) => (
                406,
                "Not Acceptable",
                "compute.version_not_supported",
                format!(
                    "Version {major}.{minor} is not supported by the API. Minimum is 2.1 and maximum is 2.96."
                ),
            ),
        };
        let document = json!({"errors": [{
            "status": status, "code": code, "title": title, "detail": detail,
            "min_version": "2.1", "max_version": "2.96",
        }]});
        (status, document)
    }
}

/// Nova's rules over the request's headers (`header(name)`: `None` when
/// absent): the standard header's `compute` entry, else the legacy header;
/// none is the minimum, `latest` the maximum; a malformed version is 400 and
/// one outside the range 406.
pub fn negotiate<'a>(
    header: impl Fn(&str) -> Option<Result<&'a str, NotText>>,
) -> Result<HandVersion, Refusal> {
    let not_text = |_| Refusal::Invalid("(not ASCII)".to_owned());
    let requested = if let Some(value) = header("OpenStack-API-Version") {
        value.map_err(not_text)?.split(',').find_map(|entry| {
            let mut words = entry.split_whitespace();
            match (words.next(), words.next(), words.next()) {
                (Some(service), Some(version), None) if service.eq_ignore_ascii_case("compute") => {
                    Some(version)
                }
                _ => None,
            }
        })
    } else if let Some(value) = header("X-OpenStack-Nova-API-Version") {
        Some(value.map_err(not_text)?.trim())
    } else {
        None
    };
    let version = match requested {
        None => HAND_MIN,
        Some(text) if text.eq_ignore_ascii_case("latest") => HAND_MAX,
        Some(text) => {
            let number = |part: &str| {
                part.bytes().all(|b| b.is_ascii_digit()).then(|| part.parse::<u16>().ok()).flatten()
            };
            match text.split_once('.').map(|(major, minor)| (number(major), number(minor))) {
                Some((Some(major), Some(minor))) => (major, minor),
                _ => return Err(Refusal::Invalid(text.to_owned())),
            }
        }
    };
    if version < HAND_MIN || version > HAND_MAX {
        return Err(Refusal::Unsupported(version));
    }
    Ok(version)
}

/// The version headers of an answer at `version`, by their lowercase names.
pub fn version_headers(version: HandVersion) -> [(&'static str, String); 2] {
    let number = format!("{}.{}", version.0, version.1);
    [("openstack-api-version", format!("compute {number}")), ("x-openstack-nova-api-version", number)]
}

/// A server as a hand-writer renders it at a version: the fields the
/// version has, the others left out.
#[derive(Serialize)]
pub struct HandServer {
    id: u32,
    name: String,
    status: String,
    tenant_id: String,
    flavor_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    host: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    locked: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    host_status: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tags: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    flavor_ram: Option<u32>,
    /// Shown from 2.73, `null` when the server is not locked.
    #[serde(skip_serializing_if = "Option::is_none")]
    locked_reason: Option<Option<String>>,
}

/// The server of `GET /hand/servers/{id}/model` at `version`.
pub fn hand_server(id: u32, version: HandVersion) -> HandServer {
    let since = |minor: u16| version >= (2, minor);
    HandServer {
        id,
        name: "web-01".into(),
        status: "ACTIVE".into(),
        tenant_id: "6f70656e737461636b20342065766572".into(),
        flavor_id: "1".into(),
        host: since(3).then(|| "compute-1".into()),
        locked: since(9).then_some(false),
        host_status: since(16).then(|| "UP".into()),
        description: since(19).then(|| "a web server".into()),
        tags: since(26).then(|| vec!["web".into(), "prod".into()]),
        flavor_ram: since(47).then_some(2048),
        locked_reason: since(73).then_some(None),
    }
}

/// The two variants of `GET /servers/{id}`, as on the framework side (Nova
/// changed the view at 2.47): which one serves `version`.
pub fn show_variant(version: HandVersion) -> u8 {
    match version {
        (2, 47..) | (3.., _) => 2,
        _ => 1,
    }
}
