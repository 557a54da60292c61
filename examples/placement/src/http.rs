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
    ApiError, ApiVersion, Version,
    error::ErrorRenderer,
    operation::{Controller, Operation},
};

use crate::aggregates::Aggregates;
use crate::allocations::Allocations;
use crate::candidates::Candidates;
use crate::errors::{self, PlacementErrors};
use crate::inventories::Inventories;
use crate::reshaper::Reshaper;
use crate::resource_classes::ResourceClasses;
use crate::resource_providers::ResourceProviders;
use crate::root;
use crate::traits::Traits;
use crate::usages::Usages;

const V1_7: Version = Version::lit("1.7");
const V1_15: Version = Version::lit("1.15");
const V1_23: Version = Version::lit("1.23");

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

/// Whether the request is Placement's test user rather than an admin: the
/// `noauth2` token `user[:project]` without the admin role. Every policy
/// of the API is admin-only by default, so such a request is a 403.
fn forbidden(headers: &header::HeaderMap) -> bool {
    let Some(token) = headers.get("x-auth-token").and_then(|v| v.to_str().ok()) else { return false };
    let user = token.split(':').next().unwrap_or_default();
    let roles = headers.get("x-roles").and_then(|v| v.to_str().ok());
    match roles {
        Some(roles) => !roles.split(',').any(|r| r.trim() == "admin"),
        None => user != "admin",
    }
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

/// Whether the request is a `PUT` that takes no body.
fn bodiless_put(path: &str, version: Option<Version>) -> bool {
    let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
    match segments.as_slice() {
        ["traits", _] => true,
        ["resource_classes", _] => version.is_none_or(|v| v >= V1_7),
        _ => false,
    }
}

fn render(error: &ApiError) -> HttpResponse {
    ErrorRenderer::new(PlacementErrors).with_service("placement").render(error)
}

/// Placement's request rules, inside the version middleware (so that every
/// answer, these included, carries the version headers).
pub(crate) async fn placement_rules(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let request_id = format!("req-{}", uuid::Uuid::new_v4());
    let version = ApiVersion::from_http_request(req.request()).ok().map(|v| v.version());
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
    let mut refusal = None;
    let first = first_version(&path);
    let served = first.is_some_and(|first| version.is_none_or(|v| v >= first));
    if method == Method::GET
        && let Some(accept) = headers.get(header::ACCEPT).and_then(|v| v.to_str().ok())
        && !accept.trim().is_empty()
        && !accepts_json(accept)
        && first.is_some()
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
            format!("Policy does not allow placement:{} to be performed.", path.trim_matches('/')),
        ));
    }
    if refusal.is_none()
        && served
        && (method == Method::POST || method == Method::PUT)
        && has_method(&path, &method)
        && !(method == Method::PUT && bodiless_put(&path, version))
        && length.unwrap_or(0) == 0
        && !headers.contains_key(header::TRANSFER_ENCODING)
    {
        // Python's `json.loads('')`, which Placement reports.
        refusal = Some(errors::bad_request("Malformed JSON: Expecting value: line 1 column 1 (char 0)"));
    }
    if let Some(error) = refusal {
        let mut res = render(&error.with_request_id(request_id.clone()));
        res.headers_mut().insert(REQUEST_ID, header::HeaderValue::from_str(&request_id).expect("ascii"));
        return Ok(req.into_response(res));
    }
    let res = next.call(req).await?;
    if res.status() == StatusCode::METHOD_NOT_ALLOWED {
        let error = ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "undefined_code",
            "Method Not Allowed",
            format!(
                "The method {method} is not allowed for this resource.\n\n The method specified is not allowed for this resource."
            ),
        )
        .with_request_id(request_id.clone());
        let mut response = render(&error);
        // The framework names the methods served at the request's version;
        // where none is (below the path's first version), Placement's
        // `handle_405` names every method the path declares.
        let at_version = res.headers().get(header::ALLOW).filter(|allow| !allow.is_empty()).cloned();
        let allow = at_version.or_else(|| {
            let every: Vec<&str> = routed(&path).filter_map(|op| op.http_method).collect();
            header::HeaderValue::from_str(&every.join(", ")).ok()
        });
        if let Some(allow) = allow {
            response.headers_mut().insert(header::ALLOW, allow);
        }
        response.headers_mut().insert(REQUEST_ID, header::HeaderValue::from_str(&request_id).expect("ascii"));
        let (req, _) = res.into_parts();
        return Ok(ServiceResponse::new(req, response));
    }
    let mut res = res;
    res.headers_mut().insert(REQUEST_ID, header::HeaderValue::from_str(&request_id).expect("ascii"));
    Ok(res.map_into_boxed_body())
}

/// What Placement's WSGI stack does to every answer, outside the version
/// middleware: lower-case `Vary` names, absolute `Location`s, and 406
/// (not 400) for a well-formed version outside the served range, such as
/// `0.5`.
pub(crate) async fn placement_outer(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let read_as_placement_does = req
        .headers()
        .get(header::HeaderName::from_static("openstack-api-version"))
        .and_then(|value| value.to_str().ok())
        .and_then(without_leading_zeros)
        .and_then(|value| header::HeaderValue::from_str(&value).ok());
    if let Some(value) = read_as_placement_does {
        req.headers_mut().insert(header::HeaderName::from_static("openstack-api-version"), value);
    }
    let base = {
        let info = req.connection_info();
        format!("{}://{}", info.scheme(), info.host())
    };
    let html = req
        .headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|a| a.contains("text/html") && !a.contains("json"));
    let res = next.call(req).await?.map_into_boxed_body();
    let (req, mut res) = res.into_parts();
    let headers = res.headers_mut();
    if let Some(vary) = headers.get(header::VARY).and_then(|v| v.to_str().ok()).map(str::to_ascii_lowercase) {
        headers.insert(header::VARY, header::HeaderValue::from_str(&vary).expect("ascii"));
    }
    if let Some(location) =
        headers.get(header::LOCATION).and_then(|v| v.to_str().ok()).filter(|l| l.starts_with('/'))
    {
        let absolute = format!("{base}{location}");
        headers.insert(header::LOCATION, header::HeaderValue::from_str(&absolute).expect("ascii"));
    }
    if res.status() == StatusCode::BAD_REQUEST {
        let (head, body) = res.into_parts();
        let bytes = actix_web::body::to_bytes(body).await.unwrap_or_default();
        res = head.set_body(BoxBody::new(bytes.clone()));
        if let Ok(mut doc) = serde_json::from_slice::<serde_json::Value>(&bytes)
            && let Some(text) =
                doc["errors"][0]["detail"].as_str().and_then(|d| d.strip_prefix("invalid version string: "))
            && text.split('.').count() == 2
            && text.split('.').all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        {
            let detail = format!("Unacceptable version header: {text}");
            doc["errors"][0]["detail"] = detail.into();
            doc["errors"][0]["status"] = 406.into();
            doc["errors"][0]["title"] = "Not Acceptable".into();
            let mut fixed = HttpResponse::NotAcceptable();
            for (name, value) in res.headers() {
                if name != header::CONTENT_LENGTH {
                    fixed.append_header((name.clone(), value.clone()));
                }
            }
            res = fixed.json(doc);
        }
    }
    // Placement's error documents name a `code` from 1.23 only
    // (`json_error_formatter`); a refused version negotiated none.
    let with_code = ApiVersion::from_http_request(&req).is_ok_and(|v| v.version() >= V1_23);
    let request_id =
        (!res.headers().contains_key(REQUEST_ID)).then(|| format!("req-{}", uuid::Uuid::new_v4()));
    if res.status().is_client_error() || res.status().is_server_error() {
        // Read only for an error: a success pays for none of it.
        let page = (!html).then(|| page_request(&req));
        res = placement_error_document(res, request_id.as_deref(), with_code, page.as_ref()).await;
    }
    if let Some(request_id) = request_id {
        res.headers_mut().insert(REQUEST_ID, header::HeaderValue::from_str(&request_id).expect("ascii"));
    }
    if html && (res.status().is_client_error() || res.status().is_server_error()) {
        res = as_html(res).await;
    }
    Ok(ServiceResponse::new(req, res))
}

/// The `OpenStack-API-Version` value with placement's version read as
/// Placement reads it (microversion-parse's `int()` of each part:
/// `placement 1.05` is 1.5, `placement 01.5` too), when that changes it.
/// The framework reads versions strictly (reference §2.5).
fn without_leading_zeros(value: &str) -> Option<String> {
    let mut changed = false;
    let entries: Vec<String> = value
        .split(',')
        .map(|entry| {
            let mut words = entry.split_whitespace();
            let (Some(service), Some(version), None) = (words.next(), words.next(), words.next()) else {
                return entry.to_owned();
            };
            let Some((major, minor)) = version.split_once('.') else { return entry.to_owned() };
            let digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
            let padded = |part: &str| part.len() > 1 && part.starts_with('0');
            let placement_digits =
                service.eq_ignore_ascii_case("placement") && digits(major) && digits(minor);
            if !(placement_digits && (padded(major) || padded(minor))) {
                return entry.to_owned();
            }
            match (major.parse::<u64>(), minor.parse::<u64>()) {
                (Ok(major), Ok(minor)) => {
                    changed = true;
                    format!("{service} {major}.{minor}")
                }
                _ => entry.to_owned(),
            }
        })
        .collect();
    changed.then(|| entries.join(","))
}

/// What webob's error pages quote of `req`; the headers are cut, as every
/// echo of the client's input is.
fn page_request(req: &actix_web::HttpRequest) -> errors::PageRequest {
    let text = |name| req.headers().get(name).and_then(|v| v.to_str().ok()).map(|v| cut(v, 200));
    errors::PageRequest {
        method: req.method().to_string(),
        accept: text(header::ACCEPT),
        content_type: text(header::CONTENT_TYPE),
    }
}

/// The header of the request id every answer carries.
const REQUEST_ID: header::HeaderName = header::HeaderName::from_static("x-openstack-request-id");

/// An error document as Placement's `json_error_formatter` writes it: the
/// request id named when no inner layer did (the version middleware's own
/// 400 and 406; Placement's request id middleware is outermost), and no
/// `code` unless `with_code`; the `detail` as webob's page writes it (`errors::webob_detail`)
/// unless the client asked for HTML (`page` is `None`), which gets the page itself.
async fn placement_error_document(
    res: HttpResponse,
    request_id: Option<&str>,
    with_code: bool,
    page: Option<&errors::PageRequest>,
) -> HttpResponse {
    let (head, body) = res.into_parts();
    let bytes = actix_web::body::to_bytes(body).await.unwrap_or_default();
    let Ok(mut doc) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
        return head.set_body(BoxBody::new(bytes));
    };
    for error in doc["errors"].as_array_mut().into_iter().flatten() {
        let Some(error) = error.as_object_mut() else { continue };
        if let Some(request_id) = request_id {
            error.entry("request_id").or_insert_with(|| request_id.into());
        }
        if !with_code {
            error.remove("code");
        }
        if let (Some(page), Some(status), Some(detail)) =
            (page, error.get("status").and_then(|s| s.as_u64()), error.get("detail").and_then(|d| d.as_str()))
        {
            let status = u16::try_from(status).unwrap_or(500);
            let detail = errors::webob_detail(status, page, detail);
            error.insert("detail".into(), detail.into());
        }
    }
    let mut res = head.set_body(BoxBody::new(doc.to_string()));
    res.headers_mut().remove(header::CONTENT_LENGTH);
    res
}

/// An error answer as webob writes it for a client that asked for HTML.
async fn as_html(res: HttpResponse) -> HttpResponse {
    let status = res.status();
    let (head, body) = res.into_parts();
    let bytes = actix_web::body::to_bytes(body).await.unwrap_or_default();
    let detail = serde_json::from_slice::<serde_json::Value>(&bytes)
        .ok()
        .and_then(|doc| doc["errors"][0]["detail"].as_str().map(str::to_owned))
        .unwrap_or_default();
    let title = format!("{} {}", status.as_u16(), status.canonical_reason().unwrap_or("Error"));
    let page = format!(
        "<html>\n <head>\n  <title>{title}</title>\n </head>\n <body>\n  <h1>{title}</h1>\n  {detail}<br /><br />\n\n\n\n </body>\n</html>"
    );
    let mut res = head.set_body(BoxBody::new(page));
    res.headers_mut()
        .insert(header::CONTENT_TYPE, header::HeaderValue::from_static("text/html; charset=UTF-8"));
    res.headers_mut().remove(header::CONTENT_LENGTH);
    res
}

/// A path the API does not have.
pub(crate) async fn not_found() -> Result<HttpResponse, ApiError> {
    Err(errors::not_found("The resource could not be found."))
}

/// Sets `Cache-Control: no-cache` and `Last-Modified` from 1.15.
pub(crate) fn cache_headers(builder: &mut HttpResponseBuilder, version: ApiVersion, modified: i64) {
    if version >= V1_15 {
        let time = std::time::UNIX_EPOCH + std::time::Duration::from_secs(modified.max(0) as u64);
        builder.insert_header((header::CACHE_CONTROL, "no-cache"));
        builder.insert_header((header::LAST_MODIFIED, httpdate::fmt_http_date(time)));
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
