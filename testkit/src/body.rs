//! The body contract of docs/reference.md §6.2 on arbitrary bytes and content types,
//! used by the property test (`microversion-actix/tests/hostile_bodies.rs`)
//! and the `schema_body` fuzz target.
//!
//! A body goes through `read_json_body` and `VersionedSchemas::validate` as
//! a dispatcher runs them. The oracle is stated from the documented rules,
//! not from the code: a table of reading rules ([`READ_RULES`], first match
//! wins, then JSON or a 400), the versions each schema covers, and
//! documents whose verdict is known per version ([`KNOWN`]). Beyond that,
//! any failed validation must be a 400 listing a bounded number of bounded
//! violations whose paths point into the document, and every error must
//! render as a JSON document of its status. Nothing panics.

use std::cell::RefCell;
use std::sync::LazyLock;

use actix_web::http::header::{CONTENT_LENGTH, CONTENT_TYPE, HeaderValue};
use actix_web::test::TestRequest;
use microversion_actix::{
    ApiError, Version,
    body::{BodyLimit, read_json_body},
    error::ApiSigErrors,
    schema::{MAX_LISTED_VIOLATIONS, SchemaSource, VersionedSchemas},
    version::VersionRange,
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

/// Which schema validates a version, as [`SCHEMAS`] declares them (the
/// oracle's own reading of the ranges, not `schema_for`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Era {
    /// 2.1 to 2.9: `create_v2_1`.
    V2_1,
    /// 2.10 to 2.49: `create_v2_10`.
    V2_10,
    /// 2.50 and later (or below 2.1): no schema, not validated.
    Unvalidated,
}

impl Era {
    /// The era of `version`.
    pub fn of(version: Version) -> Era {
        match (version.major(), version.minor()) {
            (2, 1..=9) => Era::V2_1,
            (2, 10..=49) => Era::V2_10,
            _ => Era::Unvalidated,
        }
    }
}

/// One request body to check.
#[derive(Clone, Debug)]
pub struct BodyCase<'a> {
    /// The `Content-Type` bytes, or `None` for no header.
    pub content_type: Option<&'a [u8]>,
    /// The body bytes.
    pub body: &'a [u8],
    /// The `Content-Length` sent; `None` for the honest one (the body's
    /// length). The bytes delivered are always the whole body.
    pub declared_length: Option<u64>,
    /// The negotiated version.
    pub version: Version,
    /// The configured [`BodyLimit`].
    pub limit: usize,
}

impl BodyCase<'_> {
    /// The case with its bytes shown as text, for failure messages.
    pub fn describe(&self) -> String {
        let text = |bytes: &[u8]| {
            let shown: String = String::from_utf8_lossy(bytes).chars().take(200).collect();
            format!("{shown:?} ({} bytes)", bytes.len())
        };
        format!(
            "content type {}, body {}, declared length {:?}, version {}, limit {}",
            self.content_type.map_or_else(|| "none".to_owned(), text),
            text(self.body),
            self.declared_length,
            self.version,
            self.limit
        )
    }
}

/// What reading a body must give.
#[derive(Clone, Debug, PartialEq)]
pub enum Read {
    /// Refused with this status, before any parsing.
    Refused(u16),
    /// Read as this document (`null` for a blank body).
    Document(Value),
}

/// One reading rule: when it applies, and what it gives.
#[derive(Clone, Copy, Debug)]
pub struct ReadRule {
    /// The rule, as the contract words it.
    pub name: &'static str,
    /// Whether the rule applies to a case.
    pub applies: fn(&BodyCase<'_>) -> bool,
    /// The status it answers, or `None` for a `null` document.
    pub status: Option<u16>,
}

/// The reading rules of docs/reference.md §6.2 (and `docs/reliability.md`), in order:
/// the first that applies decides. A body no rule catches is parsed as
/// JSON: the document, or 400 if it is not JSON.
pub const READ_RULES: [ReadRule; 4] = [
    ReadRule {
        name: "a content type that is not JSON is 415",
        applies: unsupported_media,
        status: Some(415),
    },
    ReadRule {
        name: "a declared length over the limit is 413, before reading",
        applies: |case| case.declared_length.is_some_and(|len| len > case.limit as u64),
        status: Some(413),
    },
    ReadRule {
        name: "more bytes than the limit is 413",
        applies: |case| case.body.len() > case.limit,
        status: Some(413),
    },
    ReadRule {
        name: "a blank body is null",
        applies: |case| case.body.iter().all(|b| b" \t\n\r\x0c".contains(b)),
        status: None,
    },
];

/// How a content type is taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Media {
    Json,
    Unsupported,
}

/// Whether an essence matches, and how such a type is taken.
type MediaRule = (fn(&str) -> bool, Media);

/// Content-type rules, first match wins, on the media type's essence (the
/// text before any `;`, without the optional whitespace around it,
/// case-insensitive). Nova reads a body without a type, with a blank one,
/// or as `text/plain` (many clients' default) as JSON.
const MEDIA_RULES: [MediaRule; 5] = [
    (|essence| essence.is_empty(), Media::Json),
    (|essence| essence.eq_ignore_ascii_case("application/json"), Media::Json),
    (|essence| essence.eq_ignore_ascii_case("text/plain"), Media::Json),
    // A structured `+json` syntax suffix: `type/subtype+json` (a bare `+json`
    // names no type).
    (
        |essence| {
            let lower = essence.to_ascii_lowercase();
            lower.strip_suffix("+json").is_some_and(|kind| kind.contains('/'))
        },
        Media::Json,
    ),
    (|_| true, Media::Unsupported),
];

/// Whether the content type of `case` is refused (415).
fn unsupported_media(case: &BodyCase<'_>) -> bool {
    let Some(bytes) = case.content_type else { return false };
    // A header value read as text is visible ASCII, spaces and tabs; other
    // bytes name no media type.
    let Some(text) = bytes
        .iter()
        .all(|b| *b == b'\t' || (b' '..=b'~').contains(b))
        .then(|| std::str::from_utf8(bytes).expect("ASCII"))
    else {
        return true;
    };
    let essence = text.split(';').next().unwrap_or_default().trim_matches([' ', '\t']);
    let (_, media) = MEDIA_RULES.iter().find(|(matches, _)| matches(essence)).expect("a catch-all rule");
    *media == Media::Unsupported
}

/// What reading `case` must give, and the rule that says so.
pub fn expected_read(case: &BodyCase<'_>) -> (Read, &'static str) {
    if let Some(rule) = READ_RULES.iter().find(|rule| (rule.applies)(case)) {
        return (rule.status.map_or(Read::Document(Value::Null), Read::Refused), rule.name);
    }
    match serde_json::from_slice(case.body) {
        Ok(value) => (Read::Document(value), "a JSON body is read as its document"),
        Err(_) => (Read::Refused(400), "a body that is not JSON is 400"),
    }
}

/// What validating a known document must give in one era.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Passes.
    Valid,
    /// A 400 listing a violation at this JSON pointer (`""` is the document).
    Invalid(&'static str),
}

/// A document whose verdict is known for each schema.
#[derive(Clone, Copy, Debug)]
pub struct Known {
    /// The document, as JSON text.
    pub body: &'static str,
    /// The verdict of `create_v2_1` (2.1 to 2.9).
    pub v2_1: Verdict,
    /// The verdict of `create_v2_10` (2.10 to 2.49).
    pub v2_10: Verdict,
}

impl Known {
    /// The verdict at `version`; versions without a schema take anything.
    pub fn verdict(&self, version: Version) -> Verdict {
        match Era::of(version) {
            Era::V2_1 => self.v2_1,
            Era::V2_10 => self.v2_10,
            Era::Unvalidated => Verdict::Valid,
        }
    }
}

/// Both schemas give this.
const fn both(verdict: Verdict) -> (Verdict, Verdict) {
    (verdict, verdict)
}

const fn known(body: &'static str, (v2_1, v2_10): (Verdict, Verdict)) -> Known {
    Known { body, v2_1, v2_10 }
}

use Verdict::{Invalid, Valid};

/// Documents known to pass or fail each schema, and where they fail.
pub const KNOWN: [Known; 30] = [
    known(r#"{"server": {"name": "web-1", "flavorRef": "1"}}"#, both(Valid)),
    known(
        r#"{"server": {"name": "web 1.a_b-c", "flavorRef": 42, "min_count": "3", "metadata": {"role": "db"},
            "networks": [{"uuid": "0d3c4b0e-8a9f-4b5e-9c1d-2e3f4a5b6c7d", "fixed_ip": "10.0.0.2"}],
            "tags": ["a", "b"]}}"#,
        both(Valid),
    ),
    known(r#"{"server": {"name": "a", "flavorRef": "1", "networks": "auto", "min_count": 2}}"#, both(Valid)),
    known(
        r#"{"server": {"name": "a", "flavorRef": "1", "description": null, "hostname": "web-1.example",
            "accessIPv6": "2001:db8::1", "launched_at": "2024-01-02T03:04:05Z", "contact": "ops@example.com",
            "layout": {"name": "root", "children": [{"name": "leaf", "children": []}]}}}"#,
        (Invalid("/server"), Valid),
    ),
    known("null", both(Invalid(""))),
    known("{}", both(Invalid(""))),
    known("[]", both(Invalid(""))),
    known(r#"{"server": {"name": "a", "flavorRef": "1"}, "extra": 1}"#, both(Invalid(""))),
    known(r#"{"server": "a"}"#, both(Invalid("/server"))),
    known(r#"{"server": {"flavorRef": "1"}}"#, both(Invalid("/server"))),
    known(r#"{"server": {"name": "a", "flavorRef": "1", "extra": 1}}"#, both(Invalid("/server"))),
    known(r#"{"server": {"name": " lead", "flavorRef": "1"}}"#, both(Invalid("/server/name"))),
    known(r#"{"server": {"name": "trail ", "flavorRef": "1"}}"#, both(Invalid("/server/name"))),
    known(r#"{"server": {"name": "", "flavorRef": "1"}}"#, both(Invalid("/server/name"))),
    known(r#"{"server": {"name": "a", "flavorRef": ""}}"#, both(Invalid("/server/flavorRef"))),
    known(r#"{"server": {"name": "a", "flavorRef": true}}"#, both(Invalid("/server/flavorRef"))),
    known(
        r#"{"server": {"name": "a", "flavorRef": "1", "min_count": 0}}"#,
        both(Invalid("/server/min_count")),
    ),
    known(
        r#"{"server": {"name": "a", "flavorRef": "1", "min_count": "1a"}}"#,
        both(Invalid("/server/min_count")),
    ),
    known(
        r#"{"server": {"name": "a", "flavorRef": "1", "metadata": {"k": 1}}}"#,
        both(Invalid("/server/metadata/k")),
    ),
    known(
        r#"{"server": {"name": "a", "flavorRef": "1", "networks": "some"}}"#,
        both(Invalid("/server/networks")),
    ),
    known(
        r#"{"server": {"name": "a", "flavorRef": "1", "networks": [{"uuid": "not-a-uuid"}]}}"#,
        both(Invalid("/server/networks")),
    ),
    known(
        r#"{"server": {"name": "a", "flavorRef": "1", "networks": [{"fixed_ip": "300.1.1.1"}]}}"#,
        both(Invalid("/server/networks")),
    ),
    known(
        r#"{"server": {"name": "a", "flavorRef": "1", "tags": ["x", "x"]}}"#,
        both(Invalid("/server/tags")),
    ),
    known(
        r#"{"server": {"name": "a", "flavorRef": "1", "tags": ["x", ""]}}"#,
        both(Invalid("/server/tags/1")),
    ),
    known(
        r#"{"server": {"name": "a", "flavorRef": "1", "description": 5}}"#,
        (Invalid("/server"), Invalid("/server/description")),
    ),
    known(
        r#"{"server": {"name": "a", "flavorRef": "1", "accessIPv6": "10.0.0.1"}}"#,
        (Invalid("/server"), Invalid("/server/accessIPv6")),
    ),
    known(
        r#"{"server": {"name": "a", "flavorRef": "1", "launched_at": "yesterday"}}"#,
        (Invalid("/server"), Invalid("/server/launched_at")),
    ),
    known(
        r#"{"server": {"name": "a", "flavorRef": "1", "contact": "not an address"}}"#,
        (Invalid("/server"), Invalid("/server/contact")),
    ),
    known(
        r#"{"server": {"name": "a", "flavorRef": "1", "layout": {"children": [{"name": 1}]}}}"#,
        (Invalid("/server"), Invalid("/server/layout/children/0/name")),
    ),
    known(
        r#"{"server": {"name": "a", "flavorRef": "1", "layout": {"children": [{"leaf": true}]}}}"#,
        (Invalid("/server"), Invalid("/server/layout/children/0")),
    ),
];

/// The verdict of `document` at `version` if it is one of [`KNOWN`].
fn known_verdict(document: &Value, version: Version) -> Option<Verdict> {
    static PARSED: LazyLock<Vec<Value>> = LazyLock::new(|| {
        KNOWN
            .iter()
            .map(|known| serde_json::from_str(known.body).expect("a known document is JSON"))
            .collect()
    });
    PARSED.iter().zip(&KNOWN).find(|(parsed, _)| *parsed == document).map(|(_, known)| known.verdict(version))
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
    req = req.set_payload(case.body.to_vec());
    if let Some(declared) = case.declared_length {
        req = req.insert_header((CONTENT_LENGTH, declared));
    }
    let (req, mut payload) = req.to_http_parts();
    let read = RUNTIME.with(|rt| rt.borrow().block_on(read_json_body(&req, &mut payload)));
    let fail = |why: String| Err(format!("{why}; case {}", case.describe()));
    let (expected, rule) = expected_read(case);
    let value = match (read, expected) {
        (Ok(value), Read::Document(expected)) if value == expected => value,
        (Err(err), Read::Refused(status)) if err.status().as_u16() == status => {
            return check_error(&err).or_else(fail);
        }
        (got, expected) => return fail(format!("read {got:?}, expected {expected:?} ({rule})")),
    };
    // As a handler answers it: the 400 of the facade.
    let validated = SCHEMAS.validate(case.version, &value).map_err(ApiError::from);
    match (validated, known_verdict(&value, case.version)) {
        (Ok(()), Some(Verdict::Invalid(path))) => fail(format!("passed, expected a 400 naming {path:?}")),
        (Ok(()), _) => Ok(()),
        (Err(err), _) if Era::of(case.version) == Era::Unvalidated => {
            fail(format!("a version without a schema was validated: {err:?}"))
        }
        (Err(err), Some(Verdict::Valid)) => fail(format!("a valid document failed: {err:?}")),
        (Err(err), verdict) => {
            check_violations(&err, &value).or_else(fail)?;
            if let Some(Verdict::Invalid(path)) = verdict
                && !err.violations().iter().any(|v| v.path == path)
            {
                return fail(format!("expected a violation at {path:?}: {:?}", err.violations()));
            }
            Ok(())
        }
    }
}

/// A schema failure is a 400 listing at most [`MAX_LISTED_VIOLATIONS`]
/// violations (and one counting the rest) of bounded length, each at a
/// path that exists in the document, and renders as JSON.
fn check_violations(err: &ApiError, document: &Value) -> Result<(), String> {
    let violations = err.violations();
    if err.status().as_u16() != 400 || violations.is_empty() {
        return Err(format!("a schema failure must be a 400 listing violations: {err:?}"));
    }
    if violations.len() > MAX_LISTED_VIOLATIONS + 1 {
        return Err(format!("{} violations listed", violations.len()));
    }
    let longest = microversion_actix::error::MAX_MESSAGE_CHARS + "...".len();
    if let Some(long) = violations.iter().find(|v| v.message.chars().count() > longest) {
        return Err(format!("a violation message of {} chars", long.message.chars().count()));
    }
    if let Some(lost) = violations.iter().find(|v| document.pointer(&v.path).is_none()) {
        return Err(format!("a violation at {:?}, which is not in the document", lost.path));
    }
    check_error(err)
}

/// An error renders as a JSON document of its status.
fn check_error(err: &ApiError) -> Result<(), String> {
    let status = err.status().as_u16();
    if !(400..500).contains(&status) {
        return Err(format!("a {status} for a body"));
    }
    let body = err.body(&ApiSigErrors, Some("compute"));
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
    Some(BodyCase { content_type, body, declared_length: None, version, limit: 16 * 1024 })
}
