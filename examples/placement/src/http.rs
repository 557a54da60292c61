//! The HTTP rules Placement applies around every handler: request ids,
//! `Accept` and `Content-Type` checks, 405 with `Allow`, JSON 404s, and
//! the `Last-Modified`/`Cache-Control` pair from 1.15.

use actix_web::body::BoxBody;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::{Method, StatusCode, header};
use actix_web::middleware::Next;
use actix_web::{HttpResponse, HttpResponseBuilder};
use microversion_actix::{
    ApiError, ApiVersion, Error, Json, Native, Version,
    error::ViolationInput,
    operation::{Controller, Operation},
    version::version_of,
};

use crate::aggregates::Aggregates;
use crate::allocations::Allocations;
use crate::candidates::Candidates;
use crate::errors;
use crate::inventories::Inventories;
use crate::reshaper::Reshaper;
use crate::resource_classes::ResourceClasses;
use crate::resource_providers::ResourceProviders;
use crate::root;
use crate::traits::Traits;
use crate::usages::Usages;

microversion_actix::version::version_gates! {
    /// What the HTTP layer does differently from a version on.
    struct Protocol for crate::api::PLACEMENT {
        /// `PUT /resource_classes/{name}` takes no body (it created a class
        /// from a body before).
        bodiless_class_put: "1.7",
        /// Reads send `Cache-Control: no-cache` and `Last-Modified`.
        cache_headers: "1.15",
    }
}

/// The operations a request path reaches, from the controllers'
/// declarations (their routes and versions).
fn routed(path: &str) -> impl Iterator<Item = &'static Operation> + '_ {
    let controllers: [&'static [Operation]; 10] = [
        root::Root::OPERATIONS,
        ResourceProviders::OPERATIONS,
        Inventories::OPERATIONS,
        Usages::OPERATIONS,
        Aggregates::OPERATIONS,
        ResourceClasses::OPERATIONS,
        Traits::OPERATIONS,
        Allocations::OPERATIONS,
        Reshaper::OPERATIONS,
        Candidates::OPERATIONS,
    ];
    controllers.into_iter().flatten().filter(move |op| op.matches_path(path))
}

/// Whether some operation of `path` answers `method` (at some version).
fn has_method(path: &str, method: &Method) -> bool {
    routed(path).any(|op| op.http_method == Some(method.as_str()))
}

/// The first version serving a path: below it the path is a 404, whatever
/// else is wrong with the request. `None` for a path no operation routes.
fn first_version(path: &str) -> Option<Version> {
    routed(path).flat_map(|op| op.variants).map(|v| v.range.min().unwrap_or(Version::new(0, 0))).min()
}

/// Whether Placement's policy refuses the request, as Placement's own
/// functional tests configure it (`enforce_new_defaults = False`, where a
/// rule's deprecated default still allows): every operation is `role:admin
/// or role:service`. The `noauth2` token `user[:project]` has the roles of
/// `X-Roles`, else `admin` for the user `admin`.
fn forbidden(headers: &header::HeaderMap) -> bool {
    let Some(token) = headers.get("x-auth-token").and_then(|v| v.to_str().ok()) else { return false };
    let user = token.split(':').next().unwrap_or_default();
    let roles: Vec<&str> = match headers.get("x-roles").and_then(|v| v.to_str().ok()) {
        Some(roles) => roles.split(',').map(str::trim).collect(),
        None if user == "admin" => vec!["admin"],
        None => Vec::new(),
    };
    !(roles.contains(&"admin") || roles.contains(&"service"))
}

/// The segments of a request path (`/resource_providers/x` is
/// `["resource_providers", "x"]`), which the routing rules below match.
fn segments(path: &str) -> Vec<&str> {
    path.trim_matches('/').split('/').collect()
}

/// The name of the policy rule Placement checks for an operation
/// (`placement/policies/*.py`).
fn policy_name(path: &str, method: &Method) -> String {
    let segments = segments(path);
    let action = |list: &'static str| match *method {
        Method::GET => list,
        Method::POST => "create",
        Method::PUT => "update",
        Method::DELETE => "delete",
        _ => "",
    };
    let name = match segments.as_slice() {
        ["resource_providers"] => format!("resource_providers:{}", action("list")),
        ["resource_providers", _] => format!("resource_providers:{}", action("show")),
        ["resource_providers", _, "inventories"] => {
            format!("resource_providers:inventories:{}", action("list"))
        }
        ["resource_providers", _, "inventories", _] => {
            format!("resource_providers:inventories:{}", action("show"))
        }
        ["resource_providers", _, "usages"] => "resource_providers:usages".to_owned(),
        ["resource_providers", _, "allocations"] => "resource_providers:allocations:list".to_owned(),
        ["resource_providers", _, sub @ ("aggregates" | "traits")] => {
            format!("resource_providers:{sub}:{}", action("list"))
        }
        ["resource_classes"] => format!("resource_classes:{}", action("list")),
        ["resource_classes", _] => format!("resource_classes:{}", action("show")),
        ["traits"] => "traits:list".to_owned(),
        ["traits", _] => format!("traits:{}", action("show")),
        ["allocations"] => "allocations:manage".to_owned(),
        ["allocations", _] => format!("allocations:{}", action("list")),
        ["usages"] => "usages".to_owned(),
        ["allocation_candidates"] => "allocation_candidates:list".to_owned(),
        ["reshaper"] => "reshaper:reshape".to_owned(),
        _ => segments.join(":"),
    };
    format!("placement:{name}")
}

/// Whether an `Accept` header admits `application/json`.
fn accepts_json(accept: &str) -> bool {
    accept.split(',').any(|range| {
        let mut parts = range.split(';');
        let media = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
        let q = parts
            .filter_map(|p| p.trim().strip_prefix("q=").and_then(|q| q.parse::<f32>().ok()))
            .next()
            .unwrap_or(1.0);
        q > 0.0 && matches!(media.as_str(), "application/json" | "application/*" | "*/*")
    })
}

/// Whether an operation of `path` serves `method` at `version`: Placement
/// checks the version (`version_handler`) before anything else a handler's
/// decorators check, such as `Accept`.
fn served_at(path: &str, method: &Method, version: Version) -> bool {
    routed(path)
        .filter(|op| op.http_method == Some(method.as_str()))
        .any(|op| op.variants.iter().any(|v| v.range.contains(version)))
}

/// Whether the `GET` of `path` refuses an `Accept` without JSON
/// (`util.check_accept`): every one but a trait's and the root's.
fn checks_accept(path: &str) -> bool {
    let segments = segments(path);
    !matches!(segments.as_slice(), ["traits", _] | [""])
}

/// Whether `path`'s `GET` checks `Accept` before its version: the
/// aggregates' alone (`get_aggregates` has `check_accept` outside
/// `version_handler`).
fn accept_before_version(path: &str) -> bool {
    matches!(segments(path).as_slice(), ["resource_providers", _, "aggregates"])
}

/// Whether the request is a `PUT` that takes no body.
fn bodiless_put(path: &str, version: Option<Version>) -> bool {
    let segments = segments(path);
    match segments.as_slice() {
        ["traits", _] => true,
        ["resource_classes", _] => version.is_none_or(|v| Protocol::at(v).bodiless_class_put),
        _ => false,
    }
}

/// `error`, for the version middleware to render in Placement's format at
/// the request's version, naming the request id.
fn render(error: ApiError) -> HttpResponse {
    HttpResponse::from_error(Error(error))
}

/// Placement's request rules, inside the version middleware (so that every
/// answer, these included, carries the version headers).
pub(crate) async fn placement_rules(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let version = version_of(req.request()).ok().map(|v| v.version());
    let path = req.path().to_owned();
    let method = req.method().clone();
    let headers = req.headers();
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.split(';').next().unwrap_or_default().trim().to_ascii_lowercase())
        .filter(|v| !v.is_empty());
    let length =
        headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    let mut refusal = crate::deadline::passed().then(errors::deadline_passed);
    let first = first_version(&path);
    let served = first.is_some_and(|first| version.is_none_or(|v| v >= first));
    if refusal.is_some() {
        // Past its deadline: nothing else is read.
    } else if method == Method::GET
        && let Some(accept) = headers.get(header::ACCEPT).and_then(|v| v.to_str().ok())
        && !accept.trim().is_empty()
        && !accepts_json(accept)
        && checks_accept(&path)
        && version.is_some_and(|v| served_at(&path, &method, v) || accept_before_version(&path))
    {
        refusal = Some(ApiError::new(
            StatusCode::NOT_ACCEPTABLE,
            "undefined_code",
            "Not Acceptable",
            "Only application/json is provided",
        ));
    } else if length.is_some_and(|l| l > 0) && content_type.is_none() {
        refusal = Some(errors::bad_request("content-type header required when content-length > 0"));
    } else if (method == Method::POST || method == Method::PUT)
        && served
        && has_method(&path, &method)
        && !(method == Method::PUT && bodiless_put(&path, version))
        && content_type.as_deref() != Some("application/json")
    {
        refusal = Some(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "undefined_code",
            "Unsupported Media Type",
            format!(
                "The media type {} is not supported, use application/json",
                cut(content_type.as_deref().unwrap_or("None"), 200)
            ),
        ));
    }
    if refusal.is_none() && served && path != "/" && has_method(&path, &method) && forbidden(headers) {
        refusal = Some(ApiError::new(
            StatusCode::FORBIDDEN,
            "undefined_code",
            "Forbidden",
            format!("Policy does not allow {} to be performed.", policy_name(&path, &method)),
        ));
    }
    if refusal.is_none()
        && served
        && (method == Method::POST || method == Method::PUT)
        && has_method(&path, &method)
        && !(method == Method::PUT && bodiless_put(&path, version))
        && !looks_up_first(&path, &method)
        && length.unwrap_or(0) == 0
        && !headers.contains_key(header::TRANSFER_ENCODING)
    {
        // Python's `json.loads('')`, which Placement reports.
        refusal = Some(errors::bad_request("Malformed JSON: Expecting value: line 1 column 1 (char 0)"));
    }
    if let Some(error) = refusal {
        // Not `req.into_response`, which keeps the answer but not its error.
        return Ok(ServiceResponse::new(req.into_parts().0, render(error)));
    }
    let res = next.call(req).await?;
    if let Some(error) = with_schema(&res, &path, &method, version) {
        let response = render(error);
        let (req, _) = res.into_parts();
        return Ok(ServiceResponse::new(req, response));
    }
    if res.status() == StatusCode::METHOD_NOT_ALLOWED {
        // A method the path declares, at a version before its first:
        // Placement's `version_handler` raises a bare 405, without a
        // message or an `Allow`. Any other method: `handle_405` names every
        // method the path declares, whatever the version.
        let declared = has_method(&path, &method);
        let message = if declared { "" } else { "The method specified is not allowed for this resource." };
        let error =
            ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "undefined_code", "Method Not Allowed", message);
        let mut response = render(error);
        let every: Vec<&str> = routed(&path).filter_map(|op| op.http_method).collect();
        if let (false, Ok(allow)) = (declared, header::HeaderValue::from_str(&every.join(", "))) {
            response.headers_mut().insert(header::ALLOW, allow);
        }
        let (req, _) = res.into_parts();
        return Ok(ServiceResponse::new(req, response));
    }
    Ok(res.map_into_boxed_body())
}

/// A body refused by the schema the operation declares (`#[schema]`),
/// whose error cannot name the schema (the error format does not see it):
/// the same error, the schema it broke in its detail
/// ([`errors::schema_failure`]).
fn with_schema(
    res: &ServiceResponse<impl MessageBody>,
    path: &str,
    method: &Method,
    version: Option<Version>,
) -> Option<ApiError> {
    let violations = res.response().error()?.as_error::<Error>()?.0.violations();
    let of_the_body = violations.first().is_some_and(|v| v.input == ViolationInput::Body);
    let version = version.filter(|_| of_the_body)?;
    let schema = routed(path)
        .filter(|op| op.http_method == Some(method.as_str()))
        .find_map(|op| op.variant_at(version)?.schema_at(version))?
        .document
        .at(version);
    Some(errors::schema_failure(violations, &schema))
}

/// What Placement's router does to every answer, outside the version
/// middleware: a path no route has varies by nothing (Placement's 404
/// names no `Vary`). (Its request ids, lower-case `Vary`, refusals without
/// `Cache-Control`, absolute `Location`s and webob's error pages are the
/// negotiation's settings and its error format, `routes`.)
pub(crate) async fn placement_outer(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let mut res = next.call(req).await?.map_into_boxed_body();
    // The path as routed (`%72` read as `r`), not as sent.
    if first_version(res.request().match_info().as_str()).is_none() {
        res.headers_mut().remove(header::VARY);
    }
    Ok(res)
}

/// A path the API does not have.
pub(crate) async fn not_found() -> Result<HttpResponse, Error> {
    // webob's page says it; Placement's router adds no message.
    Err(errors::not_found(""))?
}

/// Sets `Cache-Control: no-cache` and `Last-Modified` from 1.15.
pub(crate) fn cache_headers(
    builder: &mut HttpResponseBuilder,
    version: ApiVersion,
    modified: impl Into<Option<i64>>,
) {
    if Protocol::at(version.version()).cache_headers {
        builder.insert_header((header::CACHE_CONTROL, "no-cache"));
        // Without a date (an empty inventory list), webob sends none.
        if let Some(modified) = modified.into() {
            let time = std::time::UNIX_EPOCH + std::time::Duration::from_secs(modified.max(0) as u64);
            builder.insert_header((header::LAST_MODIFIED, httpdate::fmt_http_date(time)));
        }
    }
}

/// A JSON body read before the handler runs but judged only when the
/// handler asks, after it has looked its resource up: Placement's handlers
/// that call `get_by_uuid` before `extract_json` answer 404 for an unknown
/// provider whatever the body is. An empty body is Python's
/// `json.loads('')` error, not `null`.
pub(crate) struct BodyAfterLookup(Result<serde_json::Value, ApiError>);

impl BodyAfterLookup {
    /// The body, or why it cannot be read.
    pub(crate) fn value(&self) -> Result<&serde_json::Value, ApiError> {
        self.0.as_ref().map_err(Clone::clone)
    }

    /// The body judged by `schema`, then read as `T`, the type of what
    /// the schema accepts.
    pub(crate) fn read<T: serde::de::DeserializeOwned>(
        &self,
        schema: fn() -> serde_json::Value,
    ) -> Result<T, ApiError> {
        let body = self.value()?;
        validate(schema, body).map_err(|e| errors::schema_failure(e.violations(), &schema()))?;
        T::deserialize(body).map_err(|e| errors::unreadable("the request body", e))
    }
}

/// A resource provider generation as a body gives it, for
/// `#[serde(deserialize_with = "generation")]`: [`integer`]'s reading, or
/// `None` for a number that is none (the schemas' `integer` has no bound),
/// which equals no provider's generation, so the write is a conflict.
pub(crate) fn generation<'de, D: serde::Deserializer<'de>>(body: D) -> Result<Option<i64>, D::Error> {
    Ok(as_integer(&<serde_json::Value as serde::Deserialize>::deserialize(body)?))
}

/// An integer field of a body, for `#[serde(deserialize_with = "integer")]`:
/// the schemas' `integer` (JSON Schema 2020-12, as Placement's `jsonschema`
/// reads it) takes `1.0` and `1e3`, which Python then compares and stores
/// as the integers they are.
pub(crate) fn integer<'de, D: serde::Deserializer<'de>>(body: D) -> Result<i64, D::Error> {
    let value = <serde_json::Value as serde::Deserialize>::deserialize(body)?;
    as_integer(&value).ok_or_else(|| serde::de::Error::custom(format!("{value} is not an integer")))
}

/// A JSON number as the integer it is, if it is one that fits 64 bits.
pub(crate) fn as_integer(value: &serde_json::Value) -> Option<i64> {
    const BOUND: f64 = 9_223_372_036_854_775_808.0; // 2^63
    value.as_i64().or_else(|| {
        let float = value.as_f64()?;
        (float.fract() == 0.0 && (-BOUND..BOUND).contains(&float)).then_some(float as i64)
    })
}

impl actix_web::FromRequest for BodyAfterLookup {
    type Error = Error;
    type Future = futures_util::future::LocalBoxFuture<'static, Result<Self, Error>>;

    fn from_request(req: &actix_web::HttpRequest, payload: &mut actix_web::dev::Payload) -> Self::Future {
        let headers = req.headers();
        let empty = !headers.contains_key(header::TRANSFER_ENCODING)
            && headers
                .get(header::CONTENT_LENGTH)
                .and_then(|v| v.to_str().ok())
                .is_none_or(|v| v.trim() == "0");
        if empty {
            let error = errors::bad_request("Malformed JSON: Expecting value: line 1 column 1 (char 0)");
            return Box::pin(std::future::ready(Ok(BodyAfterLookup(Err(error)))));
        }
        let json = Native::<Json<serde_json::Value>>::from_request(req, payload);
        Box::pin(async move {
            Ok(BodyAfterLookup(json.await.map(|Native(json)| json.0).map_err(|Error(error)| error)))
        })
    }
}

/// Whether the operation looks its provider up before it reads its body
/// ([`BodyAfterLookup`]), so that an empty body is judged after that.
fn looks_up_first(path: &str, method: &Method) -> bool {
    let segments = segments(path);
    match segments.as_slice() {
        ["resource_providers", _] | ["resource_providers", _, "aggregates"] => method == Method::PUT,
        ["resource_providers", _, "inventories"] => method == Method::PUT || method == Method::POST,
        ["resource_providers", _, "inventories", _] => method == Method::PUT,
        _ => false,
    }
}

/// Validates `body` against `schema` inside a handler, for the operations
/// where Placement looks its resource up (a 404) before it reads the body,
/// which the framework's `#[schema]` (checked before the handler) cannot
/// do. The compiled schemas are kept per schema function.
pub(crate) fn validate(schema: fn() -> serde_json::Value, body: &serde_json::Value) -> Result<(), ApiError> {
    use std::collections::HashMap;
    use std::sync::{Arc, LazyLock, Mutex};

    use microversion_actix::{
        schema::{SchemaSource, VersionedSchemas},
        version::VersionRange,
    };

    static COMPILED: LazyLock<Mutex<HashMap<usize, Arc<VersionedSchemas>>>> = LazyLock::new(Default::default);
    let key = schema as usize;
    let compiled = {
        let mut cache = COMPILED.lock().unwrap_or_else(|e| e.into_inner());
        match cache.get(&key) {
            Some(compiled) => compiled.clone(),
            None => {
                let compiled = Arc::new(
                    VersionedSchemas::compile(&[SchemaSource {
                        name: "body",
                        range: VersionRange::ANY,
                        schema,
                    }])
                    .map_err(|e| ApiError::internal(format!("a schema does not compile: {e}")))?,
                );
                cache.insert(key, compiled.clone());
                compiled
            }
        }
    };
    Ok(compiled.validate(Version::lit("1.0"), body)?)
}

/// `text` cut to `max` characters (`...` marking the cut), for an echo of
/// what the client sent.
pub(crate) fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_owned(),
    }
}
