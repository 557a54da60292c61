//! A service's own answers checked against what its operations declare
//! (docs/reference.md §14.6): the status, and the body against the schema
//! of the version it was answered at.

use serde_json::Value;

use crate::Version;

/// Compiled response schemas, by document and version.
type CompiledAnswers =
    std::sync::Mutex<std::collections::HashMap<(usize, Version), std::sync::Arc<jsonschema::Validator>>>;

fn answer_validator(
    document: crate::operation::SchemaDocument,
    version: Version,
) -> Result<std::sync::Arc<jsonschema::Validator>, String> {
    static CACHE: std::sync::OnceLock<CompiledAnswers> = std::sync::OnceLock::new();
    let key = match document {
        crate::operation::SchemaDocument::Fixed(f) => (f as usize, Version::new(0, 0)),
        crate::operation::SchemaDocument::AtVersion(f) => (f as usize, version),
    };
    let cache = CACHE.get_or_init(CompiledAnswers::default);
    if let Some(validator) = cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get(&key) {
        return Ok(std::sync::Arc::clone(validator));
    }
    let validator =
        std::sync::Arc::new(jsonschema::validator_for(&document.at(version)).map_err(|e| e.to_string())?);
    cache
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .insert(key, std::sync::Arc::clone(&validator));
    Ok(validator)
}

/// Whether a route's success answers are checked against the status and
/// body schema its variant declares with `#[response(...)]`, at the
/// negotiated version (Nova's `[api] response_validation`,
/// docs/reference.md §14.6). Each facade reads it from its requests (app
/// data on actix, an extension on axum); without it nothing is checked.
///
/// - [`ResponseValidation::Error`]: a violation answers 500 naming it (for
///   tests: a wrong answer fails them);
/// - [`ResponseValidation::Warn`]: a violation is logged, the answer goes out;
/// - [`ResponseValidation::Ignore`]: nothing is checked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ResponseValidation {
    /// A violation answers 500.
    Error,
    /// A violation is logged.
    Warn,
    /// Nothing is checked.
    #[default]
    Ignore,
}

/// What becomes of a checked answer ([`ResponseValidation::judge`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnswerVerdict {
    /// It goes out as it is.
    Send,
    /// It goes out, and this is logged as a warning.
    SendAndWarn(String),
    /// A 500 with this detail answers instead.
    Refuse(String),
}

impl AnswerVerdict {
    /// The detail of an answer that must not go out; a warning's detail is
    /// handed to `warn` (the facade's log) and the answer goes out.
    ///
    /// ```
    /// use microversion_core::schema::AnswerVerdict;
    ///
    /// let mut warned = Vec::new();
    /// let refused = AnswerVerdict::Refuse("no name".into()).refusal(|w| warned.push(w.to_owned()));
    /// assert_eq!(refused.as_deref(), Some("no name"));
    /// assert_eq!(AnswerVerdict::SendAndWarn("odd".into()).refusal(|w| warned.push(w.to_owned())), None);
    /// assert_eq!(AnswerVerdict::Send.refusal(|w| warned.push(w.to_owned())), None);
    /// assert_eq!(warned, ["odd"]);
    /// ```
    pub fn refusal(self, warn: impl FnOnce(&str)) -> Option<String> {
        match self {
            AnswerVerdict::Send => None,
            AnswerVerdict::SendAndWarn(detail) => {
                warn(&detail);
                None
            }
            AnswerVerdict::Refuse(detail) => Some(detail),
        }
    }
}

impl ResponseValidation {
    /// Whether an answer with `status` is read and checked at all: only
    /// successes are, and nothing when ignored.
    pub fn checks(self, status: u16) -> bool {
        self != ResponseValidation::Ignore && (200..300).contains(&status)
    }

    /// The verdict on the answer `(status, body)` of `method path` at
    /// `version` against `declared`.
    pub fn judge(
        self,
        (method, path): (&str, &str),
        (status, body): (u16, &[u8]),
        version: Version,
        declared: &crate::operation::ResponseDescription,
    ) -> AnswerVerdict {
        let problems = answer_problems(status, body, version, declared);
        if problems.is_empty() || self == ResponseValidation::Ignore {
            return AnswerVerdict::Send;
        }
        let detail = format!(
            "The response of {method} {path} at version {version} breaks its declaration: {}.",
            problems.join("; ")
        );
        match self {
            ResponseValidation::Error => AnswerVerdict::Refuse(detail),
            _ => AnswerVerdict::SendAndWarn(detail),
        }
    }
}

/// How a service's own success answer breaks what its variant declares
/// with `#[response(...)]` at `version`: a status other than the declared
/// one, a body that is not JSON or breaks the declared schema (the first
/// ten violations). Empty when it keeps it. Each facade checks its answers
/// with it, as Nova's `[api] response_validation` says.
pub fn answer_problems(
    status: u16,
    body: &[u8],
    version: Version,
    declared: &crate::operation::ResponseDescription,
) -> Vec<String> {
    let mut problems = Vec::new();
    if status != declared.status {
        problems.push(format!("status {status} where {} is declared", declared.status));
    }
    if let Some(document) = declared.body {
        match (serde_json::from_slice::<Value>(body), answer_validator(document, version)) {
            (Ok(value), Ok(validator)) => problems.extend(
                validator.iter_errors(&value).take(10).map(|e| format!("{}: {e}", e.instance_path())),
            ),
            (Err(e), _) => problems.push(format!("the body is not JSON: {e}")),
            (_, Err(e)) => problems.push(format!("the declared schema is invalid: {e}")),
        }
    }
    problems
}
