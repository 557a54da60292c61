//! The body properties of DESIGN 3.6 on arbitrary bytes and content types,
//! used by the property test (`tests/hostile_bodies.rs`) and by the
//! `schema_body` fuzz target (`fuzz/`), which includes this file.
//!
//! A body goes through `read_json_body` and `VersionedSchemas::validate` as
//! a dispatcher runs them. The outcome must be the one the rules state (415
//! for a non-JSON content type, 413 over the limit, `null` for a blank body,
//! 400 for malformed JSON, else the parsed document), validation must end
//! in success or a 400 listing a bounded number of bounded violations, and
//! every error must render as a JSON document of its status. Nothing panics.

#![allow(dead_code, unreachable_pub)]

use std::cell::RefCell;
use std::sync::LazyLock;

use actix_web::http::header::{CONTENT_TYPE, HeaderValue};
use actix_web::test::TestRequest;
use microversion_actix::{
    ApiError, ApiSigErrors, BodyLimit, ErrorFormat, MAX_LISTED_VIOLATIONS, SchemaSource, Version,
    VersionRange, VersionedSchemas, read_json_body,
};
use serde_json::{Value, json};

/// A server create body as Nova's schemas shape it, with the keywords that
/// cost the most: patterns with look-around (fancy-regex), formats,
/// `oneOf`, `uniqueItems`, `patternProperties` and a recursive `$ref`.
fn create_v2_1() -> Value {
    json!({
        "type": "object", "required": ["server"], "additionalProperties": false,
        "properties": {"server": {
            "type": "object", "required": ["name", "flavorRef"], "additionalProperties": false,
            "properties": {
                "name": {"type": "string", "minLength": 1, "maxLength": 255,
                         "pattern": "^(?! )[a-zA-Z0-9. _-]+(?<! )$"},
                "flavorRef": {"type": ["string", "integer"], "minLength": 1},
                "min_count": {"type": ["integer", "string"], "pattern": "^[0-9]*$",
                              "minimum": 1, "maximum": 2147483647},
                "metadata": {"type": "object", "additionalProperties": false,
                             "patternProperties": {"^[a-zA-Z0-9-_:. ]{1,255}$": {"type": "string", "maxLength": 255}}},
                "networks": {"oneOf": [
                    {"type": "string", "enum": ["auto", "none"]},
                    {"type": "array", "maxItems": 20, "items": {
                        "type": "object", "additionalProperties": false,
                        "properties": {"uuid": {"type": "string", "format": "uuid"},
                                       "fixed_ip": {"type": "string", "format": "ipv4"}}}}
                ]},
                "tags": {"type": "array", "uniqueItems": true, "maxItems": 50,
                         "items": {"type": "string", "minLength": 1, "maxLength": 60}}
            }
        }}
    })
}

fn create_v2_10() -> Value {
    let mut schema = create_v2_1();
    let properties = &mut schema["properties"]["server"]["properties"];
    properties["description"] = json!({"type": ["string", "null"], "maxLength": 255});
    properties["hostname"] = json!({"type": "string", "format": "hostname"});
    properties["accessIPv6"] = json!({"type": "string", "format": "ipv6"});
    properties["launched_at"] = json!({"type": "string", "format": "date-time"});
    properties["contact"] = json!({"type": "string", "format": "email"});
    properties["layout"] = json!({"$ref": "#/$defs/tree"});
    schema["$defs"] = json!({"tree": {"type": "object", "additionalProperties": false, "properties": {
        "name": {"type": "string"},
        "children": {"type": "array", "items": {"$ref": "#/$defs/tree"}}
    }}});
    schema
}

/// The schemas: 2.1 to 2.9, then 2.10 to 2.49; 2.50 and later have none
/// (not validated, as in Nova).
pub static SCHEMAS: LazyLock<VersionedSchemas> = LazyLock::new(|| {
    VersionedSchemas::compile(&[
        SchemaSource {
            name: "create_v2_1",
            range: VersionRange::between(Version::new(2, 1), Version::new(2, 9)),
            schema: create_v2_1,
        },
        SchemaSource {
            name: "create_v2_10",
            range: VersionRange::between(Version::new(2, 10), Version::new(2, 49)),
            schema: create_v2_10,
        },
    ])
    .expect("the hostile-body schemas are valid")
});

/// The versions a case picks from: each schema, its edges, and none.
pub const VERSIONS: [Version; 5] =
    [Version::new(2, 1), Version::new(2, 9), Version::new(2, 10), Version::new(2, 49), Version::new(2, 50)];

/// One request body to check.
#[derive(Clone, Debug)]
pub struct BodyCase<'a> {
    /// The `Content-Type` bytes, or `None` for no header.
    pub content_type: Option<&'a [u8]>,
    /// The body bytes.
    pub body: &'a [u8],
    /// The negotiated version.
    pub version: Version,
    /// The configured [`BodyLimit`].
    pub limit: usize,
}

/// What reading the body must give.
#[derive(Debug, PartialEq)]
enum Read {
    Status(u16),
    Document(Value),
}

/// The rules of `read_json_body`, restated.
fn expected_read(case: &BodyCase<'_>) -> Read {
    if let Some(content_type) = case.content_type {
        // `HeaderValue::to_str`: visible ASCII and tabs only, else not text.
        let text = content_type.iter().all(|b| *b == b'\t' || (0x20..0x7f).contains(b));
        let essence = if text {
            let text = std::str::from_utf8(content_type).unwrap_or_default();
            text.split(';').next().unwrap_or_default().trim().to_ascii_lowercase()
        } else {
            "<not text>".to_owned()
        };
        let json_suffix =
            essence.len() > 5 && essence.ends_with("+json") && essence[..essence.len() - 5].contains('/');
        let accepted =
            essence.is_empty() || essence == "text/plain" || essence == "application/json" || json_suffix;
        if !accepted {
            return Read::Status(415);
        }
    }
    if case.body.len() > case.limit {
        return Read::Status(413);
    }
    if case.body.iter().all(u8::is_ascii_whitespace) {
        return Read::Document(Value::Null);
    }
    match serde_json::from_slice(case.body) {
        Ok(value) => Read::Document(value),
        Err(_) => Read::Status(400),
    }
}

thread_local! {
    static RUNTIME: RefCell<actix_web::rt::SystemRunner> = RefCell::new(actix_web::rt::System::new());
}

/// Checks one case; the first broken property, described, on failure.
/// Header bytes that are not a valid header value are not a case (the
/// HTTP codec refuses them before any handler runs): `Ok`.
pub fn check(case: &BodyCase<'_>) -> Result<(), String> {
    let mut req = TestRequest::post().uri("/servers").app_data(BodyLimit(case.limit));
    if let Some(content_type) = case.content_type {
        let Ok(value) = HeaderValue::from_bytes(content_type) else { return Ok(()) };
        req = req.insert_header((CONTENT_TYPE, value));
    }
    let (req, mut payload) = req.set_payload(case.body.to_vec()).to_http_parts();
    let read = RUNTIME.with(|rt| rt.borrow().block_on(read_json_body(&req, &mut payload)));
    let fail = |why: String| Err(format!("{why}; case {case:?}"));
    let value = match (read, expected_read(case)) {
        (Ok(value), Read::Document(expected)) if value == expected => value,
        (Err(err), Read::Status(status)) if err.status().as_u16() == status => {
            return check_error(&err).or_else(fail);
        }
        (got, expected) => return fail(format!("read {got:?}, expected {expected:?}")),
    };
    match SCHEMAS.validate(case.version, &value) {
        Ok(()) => Ok(()),
        Err(err) => {
            if SCHEMAS.schema_for(case.version).is_none() {
                return fail("a version without a schema was validated".into());
            }
            if err.status().as_u16() != 400 || err.violations().is_empty() {
                return fail(format!("a schema failure must be a 400 listing violations: {err:?}"));
            }
            if err.violations().len() > MAX_LISTED_VIOLATIONS + 1 {
                return fail(format!("{} violations listed", err.violations().len()));
            }
            if let Some(long) = err.violations().iter().find(|v| v.message.chars().count() > 201) {
                return fail(format!("a violation message of {} chars", long.message.chars().count()));
            }
            check_error(&err).or_else(fail)
        }
    }
}

/// An error renders as a JSON document of its status, in both formats.
fn check_error(err: &ApiError) -> Result<(), String> {
    let status = err.status().as_u16();
    if !(400..500).contains(&status) {
        return Err(format!("a {status} for a body"));
    }
    let body = ApiSigErrors.render(err, Some("compute"));
    let text = body.to_string();
    let parsed: Value = serde_json::from_str(&text).map_err(|e| format!("the error does not render: {e}"))?;
    if parsed["errors"][0]["status"] != json!(status) {
        return Err(format!("the rendered error does not carry {status}: {text}"));
    }
    if text.len() > 64 * 1024 {
        return Err(format!("an error body of {} bytes", text.len()));
    }
    Ok(())
}

/// The fuzz target's input format: the content type on the first line (`~`
/// alone for none), the version on the second, then the body.
pub fn parse_input(data: &[u8]) -> Option<BodyCase<'_>> {
    let mut parts = data.splitn(3, |b| *b == b'\n');
    let content_type = parts.next()?;
    let version = parts.next()?;
    let body = parts.next().unwrap_or_default();
    let content_type = (content_type != b"~").then_some(content_type);
    let version = Version::parse_bytes(version).unwrap_or(VERSIONS[0]);
    Some(BodyCase { content_type, body, version, limit: 16 * 1024 })
}
