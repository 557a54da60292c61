//! Checking a service's own answers against what its variants declare
//! (Nova's `[api] response_validation = error|warn|ignore`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use actix_web::{HttpRequest, HttpResponse, ResponseError, web};

use crate::{
    ApiError, Version,
    operation::{ResponseDescription, SchemaDocument},
};

/// Whether a route's success answers are checked against the status and
/// body schema its variant declares with `#[response(...)]`, at the
/// negotiated version. Register it as app data; without it nothing is
/// checked.
///
/// - [`ResponseValidation::Error`]: a violation answers 500 naming it (for
///   tests: a wrong answer fails them);
/// - [`ResponseValidation::Warn`]: a violation is logged, the answer goes out;
/// - [`ResponseValidation::Ignore`]: nothing is checked.
///
/// ```
/// use actix_web::App;
/// use microversion_actix::middleware::ResponseValidation;
///
/// let app = App::new().app_data(ResponseValidation::Error);
/// # drop(app);
/// ```
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

impl ResponseValidation {
    /// The setting registered for `req`, or [`ResponseValidation::Ignore`].
    pub fn of(req: &HttpRequest) -> ResponseValidation {
        req.app_data::<ResponseValidation>()
            .or_else(|| req.app_data::<web::Data<ResponseValidation>>().map(|d| d.get_ref()))
            .copied()
            .unwrap_or_default()
    }
}

/// Compiled response schemas, by document and version.
type Compiled = Mutex<HashMap<(usize, Version), Arc<jsonschema::Validator>>>;

fn compiled(document: SchemaDocument, version: Version) -> Result<Arc<jsonschema::Validator>, String> {
    static CACHE: OnceLock<Compiled> = OnceLock::new();
    let key = match document {
        SchemaDocument::Fixed(f) => (f as usize, Version::new(0, 0)),
        SchemaDocument::AtVersion(f) => (f as usize, version),
    };
    let cache = CACHE.get_or_init(Compiled::default);
    if let Some(validator) = cache.lock().unwrap_or_else(|p| p.into_inner()).get(&key) {
        return Ok(Arc::clone(validator));
    }
    let validator = Arc::new(jsonschema::validator_for(&document.at(version)).map_err(|e| e.to_string())?);
    cache.lock().unwrap_or_else(|p| p.into_inner()).insert(key, Arc::clone(&validator));
    Ok(validator)
}

/// Checks a variant's success answer at `version` against `declared`, as
/// the registered [`ResponseValidation`] says (called by `#[controller]`).
pub(crate) async fn check(
    req: &HttpRequest,
    version: Version,
    declared: &ResponseDescription,
    res: HttpResponse,
) -> HttpResponse {
    let mode = ResponseValidation::of(req);
    if mode == ResponseValidation::Ignore || !res.status().is_success() {
        return res;
    }
    let (res, body) = res.into_parts();
    let Ok(bytes) = actix_web::body::to_bytes(body).await else {
        return ApiError::internal("the response body could not be read for validation").error_response();
    };
    let mut problems = Vec::new();
    if res.status().as_u16() != declared.status {
        problems.push(format!("status {} where {} is declared", res.status().as_u16(), declared.status));
    }
    if let Some(document) = declared.body {
        match (serde_json::from_slice::<serde_json::Value>(&bytes), compiled(document, version)) {
            (Ok(value), Ok(validator)) => problems.extend(
                validator.iter_errors(&value).take(10).map(|e| format!("{}: {e}", e.instance_path())),
            ),
            (Err(e), _) => problems.push(format!("the body is not JSON: {e}")),
            (_, Err(e)) => problems.push(format!("the declared schema is invalid: {e}")),
        }
    }
    if problems.is_empty() {
        return res.set_body(bytes).map_into_boxed_body();
    }
    let detail = format!(
        "The response of {} {} at version {version} breaks its declaration: {}.",
        req.method(),
        req.path(),
        problems.join("; ")
    );
    match mode {
        ResponseValidation::Error => ApiError::internal(detail).error_response(),
        _ => {
            log::warn!("{detail}");
            res.set_body(bytes).map_into_boxed_body()
        }
    }
}
