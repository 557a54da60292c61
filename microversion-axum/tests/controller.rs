//! `#[controller(api = API, axum)]`: one controller declaration, expanded
//! for actix and for axum, answers alike. For every request of a matrix
//! (versions, a variant that starts later, an operation removed, a method
//! not routed, a handler's error, a helper dispatched by version) both
//! frameworks give the same status, contract headers, `Allow` and body.

use actix_web::test as actix_test;
use axum::Router;
use http_body_util::BodyExt as _;
use microversion_core::{Api, Microversion, error::NovaFaults};
use serde_json::{Value, json};
use tower::ServiceExt as _;

const API: Api = Api::new(
    "compute",
    &[
        Microversion::new("2.1", "Initial version."),
        Microversion::new("2.2", "Servers are named by version."),
        Microversion::new("2.3", "Servers show their host."),
        Microversion::new("2.4", "Servers can be locked; delete is removed."),
        Microversion::new("2.5", "The list shows the version."),
    ],
);

/// The same controller for either framework, in module `$module`:
/// `$framework` names the facade crate, `$($axum)?` the macro's `axum` flag, `$Path` and `$Json` the
/// framework's extractors.
macro_rules! servers {
    ($module:ident, $framework:ident, $Path:ty, $($Json:ident)::+ $(, $axum:ident)?) => {
        mod $module {
            use $framework::{ApiError, ApiVersion, JsonQuery, Versioned, VersionedModel, controller};
            use serde_json::{Value, json};

            /// A server as each version shows it.
            #[derive(VersionedModel)]
            #[versioned(crate = $framework)]
            pub(crate) struct Server {
                id: String,
                name: String,
                #[versioned(since = "2.3")]
                description: Option<String>,
            }

            /// A rename as each version may send it.
            #[derive(VersionedModel)]
            #[versioned(crate = $framework)]
            pub(crate) struct Rename {
                name: String,
                #[versioned(since = "2.3")]
                description: Option<String>,
            }

            fn lock_schema() -> Value {
                json!({"type": "object", "required": ["locked"], "properties": {"locked": {"type": "boolean"}},
                       "additionalProperties": false})
            }

            fn list_query() -> Value {
                json!({"type": "object", "properties": {
                    "limit": {"type": "array", "items": {"type": "string", "pattern": "^[0-9]+$"}}},
                    "additionalProperties": false})
            }

            pub(crate) struct Servers {
                pub(crate) prefix: &'static str,
            }

            #[controller(api = super::API, scope = "/v2.1" $(, $axum)?)]
            impl Servers {
                #[get("/servers/{id}")]
                #[api_version("2.1", "2.2")]
                async fn show(&self, id: $Path) -> $($Json)::+<Value> {
                    $($Json)::+(json!({"server": {"id": id.as_str()}}))
                }

                #[get("/servers/{id}")]
                #[api_version("2.3")]
                async fn show(&self, id: $Path, version: ApiVersion) -> $($Json)::+<Value> {
                    let host = format!("{}-{}", self.prefix, version.version());
                    $($Json)::+(json!({"server": {"id": id.as_str(), "host": host}}))
                }

                /// Only from 2.4; earlier, a 405 naming what is allowed then.
                #[put("/servers/{id}")]
                #[api_version("2.4", missing = 405)]
                #[schema(lock_schema, "2.4")]
                async fn lock(&self, id: $Path, body: $($Json)::+<Value>) -> Result<$($Json)::+<Value>, ApiError> {
                    match body.0["locked"].as_bool() {
                        Some(locked) => Ok($($Json)::+(json!({"server": {"id": id.as_str(), "locked": locked}}))),
                        None => Err(ApiError::bad_request("'locked' must be a boolean.")),
                    }
                }

                /// Removed at 2.4, answered 410 naming the version.
                #[delete("/servers/{id}")]
                #[api_version("2.1", "2.3", missing = 410)]
                async fn delete(&self, id: $Path) -> String {
                    format!("deleted {}", id.as_str())
                }

                /// From 2.5 the query is checked: a limit of digits, nothing else.
                /// A model read and rendered at the version.
                #[post("/servers/{id}/rename")]
                #[api_version("2.1")]
                async fn rename(&self, id: $Path, body: Versioned<Rename>) -> Result<Versioned<Server>, ApiError> {
                    let Rename { name, description } = body.into_inner();
                    if name.is_empty() {
                        return Err(ApiError::bad_request("A name cannot be empty."));
                    }
                    Ok(Versioned::created(Server { id: id.as_str().to_owned(), name, description }))
                }

                #[get("/servers")]
                #[api_version("2.1")]
                #[schema(query = list_query, "2.5")]
                async fn list(&self, version: ApiVersion, query: JsonQuery) -> Result<$($Json)::+<Value>, ApiError> {
                    let name = self.name(version.version())?;
                    Ok($($Json)::+(json!({"servers": [{"name": name}], "limit": query.last("limit")})))
                }

                /// A versioned helper with gaps: none at 2.1 or 2.4 (there the
                /// list answers 500, the service's bug), one for each other.
                #[api_version("2.2", "2.3")]
                fn name(&self) -> &'static str {
                    "vm"
                }

                #[api_version("2.5")]
                fn name(&self) -> &'static str {
                    "vm (2.5)"
                }
            }
        }
    };
}

servers!(on_actix, microversion_actix, actix_web::web::Path<String>, microversion_actix::Json);
servers!(on_axum, microversion_axum, axum::extract::Path<String>, microversion_axum::Json, axum);

/// The headers compared between the two.
const CONTRACT_HEADERS: [&str; 7] = [
    "openstack-api-version",
    "vary",
    "openstack-api-minimum-version",
    "openstack-api-maximum-version",
    "cache-control",
    "content-type",
    "allow",
];

type Answer = (u16, Vec<(String, Option<String>)>, Value);

fn contract_headers<'a>(get_all: impl Fn(&str) -> Vec<&'a [u8]>) -> Vec<(String, Option<String>)> {
    CONTRACT_HEADERS
        .iter()
        .map(|name| {
            let values: Vec<String> =
                get_all(name).into_iter().map(|v| String::from_utf8_lossy(v).into_owned()).collect();
            (name.to_string(), (!values.is_empty()).then(|| values.join(", ")))
        })
        .collect()
}

fn body(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes).unwrap_or_else(|_| Value::String(String::from_utf8_lossy(bytes).into()))
}

/// One request: method, path, version header, body (its content type and bytes).
type Request<'a> = (&'a str, &'a str, Option<&'a str>, Option<(&'a str, String)>);

fn json_body(value: Value) -> Option<(&'static str, String)> {
    Some(("application/json", value.to_string()))
}

async fn actix_answer<S, B>(app: &S, (method, path, version, body_sent): &Request<'_>) -> Answer
where
    S: actix_web::dev::Service<
            actix_http::Request,
            Response = actix_web::dev::ServiceResponse<B>,
            Error = actix_web::Error,
        >,
    B: actix_web::body::MessageBody,
{
    let mut req = actix_test::TestRequest::default().method(method.parse().expect("a method")).uri(path);
    if let Some(version) = version {
        req = req.insert_header(("OpenStack-API-Version", format!("compute {version}")));
    }
    if let Some((content_type, bytes)) = body_sent {
        req = req.insert_header(("Content-Type", *content_type)).set_payload(bytes.clone());
    }
    let res = actix_test::call_service(app, req.to_request()).await;
    let status = res.status().as_u16();
    let named = contract_headers(|name| res.headers().get_all(name).map(|v| v.as_bytes()).collect());
    (status, named, body(&actix_test::read_body(res).await))
}

async fn axum_answer(app: &Router, (method, path, version, body_sent): &Request<'_>) -> Answer {
    let mut req = http::Request::builder().method(*method).uri(*path);
    if let Some(version) = version {
        req = req.header("OpenStack-API-Version", format!("compute {version}"));
    }
    let payload = match body_sent {
        Some((content_type, bytes)) => {
            req = req.header("Content-Type", *content_type).header("Content-Length", bytes.len());
            axum::body::Body::from(bytes.clone())
        }
        None => axum::body::Body::empty(),
    };
    let res = app.clone().oneshot(req.body(payload).expect("a request")).await.expect("infallible");
    let status = res.status().as_u16();
    let named = contract_headers(|name| res.headers().get_all(name).iter().map(|v| v.as_bytes()).collect());
    (status, named, body(&res.into_body().collect().await.expect("the body").to_bytes()))
}

fn requests() -> Vec<Request<'static>> {
    let mut requests = Vec::new();
    for version in
        [None, Some("2.1"), Some("2.2"), Some("2.3"), Some("2.4"), Some("latest"), Some("2.9"), Some("2.x")]
    {
        requests.push(("GET", "/v2.1/servers/42", version, None));
        requests.push(("GET", "/v2.1/servers", version, None));
        requests.push(("DELETE", "/v2.1/servers/42", version, None));
        requests.push(("PUT", "/v2.1/servers/42", version, json_body(json!({"locked": true}))));
        requests.push(("GET", "/v2.1/servers?limit=10", version, None));
        let renamed = json!({"name": "vm-2", "description": "the second"});
        requests.push(("POST", "/v2.1/servers/42/rename", version, json_body(renamed)));
        requests.push(("POST", "/v2.1/servers/42/rename", version, json_body(json!({"name": ""}))));
        requests.push((
            "POST",
            "/v2.1/servers/42/rename",
            version,
            json_body(json!({"name": 7, "color": "red"})),
        ));
        requests.push(("GET", "/v2.1/servers?limit=ten&sort=name", version, None));
        requests.push(("PATCH", "/v2.1/servers/42", version, None));
        requests.push(("POST", "/v2.1/servers", version, None));
    }
    // What a schema or the body rules refuse, at a version that checks them.
    let lock = |body: Option<(&'static str, String)>| ("PUT", "/v2.1/servers/42", Some("2.4"), body);
    requests.push(lock(json_body(json!({"locked": "yes"}))));
    requests.push(lock(json_body(json!({"locked": true, "reason": 7, "extra": [1]}))));
    requests.push(lock(json_body(json!([]))));
    requests.push(lock(Some(("application/json", "{\"locked\": tru".into()))));
    requests.push(lock(Some(("application/json", String::new()))));
    requests.push(lock(Some(("application/xml", "<locked/>".into()))));
    requests.push(lock(Some(("text/plain", "{\"locked\": false}".into()))));
    requests.push(lock(Some((
        "application/json",
        format!("{{\"locked\": true, \"pad\": \"{}\"}}", "x".repeat(1 << 20)),
    ))));
    requests
}

async fn compare(nova: bool) -> Vec<Answer> {
    let mut negotiation = microversion_actix::Negotiation::new(API);
    let mut layer = microversion_axum::Negotiation::new(API);
    if nova {
        negotiation = negotiation.with_error_format(NovaFaults::default());
        layer = layer.with_error_format(NovaFaults::default());
    }
    let actix = actix_test::init_service(
        actix_web::App::new()
            .wrap(microversion_actix::VersionNegotiation::new(negotiation))
            .service(on_actix::Servers { prefix: "compute" }),
    )
    .await;
    let axum = Router::new()
        .merge(on_axum::Servers { prefix: "compute" })
        .layer(microversion_axum::VersionNegotiation::new(layer));
    let mut answers = Vec::new();
    for request in requests() {
        let expected = actix_answer(&actix, &request).await;
        let got = axum_answer(&axum, &request).await;
        assert_eq!(got, expected, "{request:?} (nova faults: {nova})");
        answers.push(got);
    }
    answers
}

#[actix_web::test]
async fn one_declaration_answers_alike_on_actix_and_axum() {
    let answers = compare(false).await;
    // What the matrix reaches: every kind of answer, not one path many times.
    let statuses: std::collections::BTreeSet<u16> = answers.iter().map(|(status, ..)| *status).collect();
    assert_eq!(statuses, [200, 201, 400, 405, 406, 410, 413, 415, 500].into());
}

#[actix_web::test]
async fn with_nova_faults_too() {
    compare(true).await;
}

/// The answers themselves, on axum: the variant of the version, the 405's
/// `Allow` at the version, the removal named, the helper's gap a 500.
#[tokio::test]
async fn axum_routes_answer_by_version() {
    let app = Router::new()
        .merge(on_axum::Servers { prefix: "compute" })
        .layer(microversion_axum::VersionNegotiation::new(API));
    let header = |name: &str, answer: &Answer| {
        answer.1.iter().find(|(n, _)| n == name).and_then(|(_, value)| value.clone())
    };
    let show_21 = axum_answer(&app, &("GET", "/v2.1/servers/42", Some("2.1"), None)).await;
    assert_eq!(show_21.2, json!({"server": {"id": "42"}}));
    let show_23 = axum_answer(&app, &("GET", "/v2.1/servers/42", Some("2.3"), None)).await;
    assert_eq!(show_23.2, json!({"server": {"id": "42", "host": "compute-2.3"}}));
    assert_eq!(header("openstack-api-version", &show_23).as_deref(), Some("compute 2.3"));

    let lock_early =
        axum_answer(&app, &("PUT", "/v2.1/servers/42", Some("2.3"), json_body(json!({"locked": true}))))
            .await;
    assert_eq!(lock_early.0, 405);
    assert_eq!(header("allow", &lock_early).as_deref(), Some("GET, DELETE"));
    let patch_late = axum_answer(&app, &("PATCH", "/v2.1/servers/42", Some("2.4"), None)).await;
    assert_eq!((patch_late.0, header("allow", &patch_late).as_deref()), (405, Some("GET, PUT")));

    let gone = axum_answer(&app, &("DELETE", "/v2.1/servers/42", Some("2.4"), None)).await;
    assert_eq!(gone.0, 410);
    assert_eq!(
        gone.2["errors"][0]["detail"],
        "This method was removed in API version 2.4; version 2.4 does not have it."
    );
    assert_eq!(gone.2["errors"][0]["code"], "compute.method-removed");

    let unserved_helper = axum_answer(&app, &("GET", "/v2.1/servers", Some("2.1"), None)).await;
    assert_eq!(unserved_helper.0, 500);
    let rename = |version, body| ("POST", "/v2.1/servers/42/rename", Some(version), json_body(body));
    let renamed = axum_answer(&app, &rename("2.3", json!({"name": "vm-2", "description": "two"}))).await;
    assert_eq!((renamed.0, renamed.2), (201, json!({"id": "42", "name": "vm-2", "description": "two"})));
    let early = axum_answer(&app, &rename("2.2", json!({"name": "vm-2"}))).await;
    assert_eq!((early.0, early.2), (201, json!({"id": "42", "name": "vm-2"})));
    let too_early = axum_answer(&app, &rename("2.2", json!({"name": "vm-2", "description": "two"}))).await;
    assert_eq!(too_early.0, 400);
    assert_eq!(too_early.2["errors"][0]["violations"][0]["path"], "/description", "{:?}", too_early.2);
    let list = axum_answer(&app, &("GET", "/v2.1/servers?limit=3", Some("2.5"), None)).await;
    assert_eq!(list.2, json!({"servers": [{"name": "vm (2.5)"}], "limit": "3"}));
    let refused = axum_answer(&app, &("GET", "/v2.1/servers?limit=ten", Some("2.5"), None)).await;
    assert_eq!(refused.0, 400);
    assert_eq!(refused.2["errors"][0]["violations"][0]["path"], "/limit/0");
    assert_eq!(refused.2["errors"][0]["violations"][0]["input"], "query");
    let invalid =
        axum_answer(&app, &("PUT", "/v2.1/servers/42", Some("2.4"), json_body(json!({"locked": 1})))).await;
    assert_eq!(invalid.0, 400);
    assert_eq!(invalid.2["errors"][0]["code"], "compute.invalid-input");
    assert_eq!(invalid.2["errors"][0]["violations"][0]["keyword"], "type");
}

/// Without the layer, a generated route cannot know its version: a 500
/// naming the mistake, never a guessed version.
#[tokio::test]
async fn without_the_layer_a_route_is_a_500_naming_it() {
    let app = Router::new().merge(on_axum::Servers { prefix: "compute" });
    let (status, _, body) = axum_answer(&app, &("GET", "/v2.1/servers/42", None, None)).await;
    assert_eq!(status, 500);
    let detail = body["errors"][0]["detail"].as_str().expect("a detail");
    assert!(detail.contains("GET /v2.1/servers/42") && detail.contains("VersionNegotiation"), "{detail}");
}

/// The controller describes its operations on axum as on actix.
#[test]
fn the_operations_are_described_alike() {
    use microversion_axum::operation::Controller as _;
    let axum_ops = <on_axum::Servers>::OPERATIONS;
    let actix_ops = <on_actix::Servers as microversion_actix::operation::Controller>::OPERATIONS;
    let summary = |ops: &[microversion_core::operation::Operation]| -> Vec<String> {
        ops.iter()
            .map(|op| {
                let ranges: Vec<String> = op.variants.iter().map(|v| v.range.to_string()).collect();
                format!("{} {:?} {:?} {ranges:?} {}", op.name, op.http_method, op.path, op.missing_status)
            })
            .collect()
    };
    assert_eq!(summary(axum_ops), summary(actix_ops));
    assert_eq!(axum_ops.len(), 6);
}

/// After a `#[schema]` check has read the body, any body extractor still
/// reads it: axum's own `Json` and `String` get the bytes that were validated.
#[tokio::test]
async fn axum_extractors_read_the_validated_body() {
    use microversion_axum::controller;

    fn echo_schema() -> Value {
        json!({"type": "object", "required": ["name"]})
    }

    struct Echo;

    #[controller(api = API, axum)]
    impl Echo {
        #[post("/echo")]
        #[schema(echo_schema, "2.1")]
        async fn echo(body: axum::Json<Value>) -> axum::Json<Value> {
            body
        }

        #[post("/text")]
        #[schema(echo_schema, "2.1")]
        async fn text(body: String) -> String {
            body
        }
    }

    let app = Router::new().merge(Echo).layer(microversion_axum::VersionNegotiation::new(API));
    let sent = json!({"name": "vm", "extra": [1, 2]});
    let echoed = axum_answer(&app, &("POST", "/echo", None, json_body(sent.clone()))).await;
    assert_eq!((echoed.0, echoed.2), (200, sent.clone()));
    let text = axum_answer(&app, &("POST", "/text", None, json_body(sent.clone()))).await;
    assert_eq!((text.0, text.2), (200, sent));
    let refused = axum_answer(&app, &("POST", "/echo", None, json_body(json!({"nom": "vm"})))).await;
    assert_eq!(refused.0, 400);
}

/// axum's own extractors answer a refusal in plain text; in a controller
/// route, the refusal is in the API's format (as the actix layer renders an
/// extractor's error), with its status and axum's words, and the version
/// headers. A server error's words are for the log: axum's missing
/// `Extension` names a type of the service, which the client never reads.
#[tokio::test]
async fn axum_extractor_refusals_are_in_the_api_format() {
    use microversion_axum::controller;

    struct Items;

    #[controller(api = API, axum)]
    impl Items {
        #[get("/items/{id}")]
        async fn show(id: axum::extract::Path<u32>) -> String {
            id.0.to_string()
        }

        #[post("/items")]
        async fn create(body: axum::Json<Value>) -> axum::Json<Value> {
            body
        }

        #[get("/settings")]
        async fn settings(settings: axum::Extension<std::sync::Arc<String>>) -> String {
            settings.0.to_string()
        }
    }

    let app = Router::new().merge(Items).layer(microversion_axum::VersionNegotiation::new(API));
    let shown = axum_answer(&app, &("GET", "/items/7", None, None)).await;
    assert_eq!((shown.0, shown.2), (200, json!(7)));
    let not_a_number = axum_answer(&app, &("GET", "/items/seven", None, None)).await;
    let plain_text = axum_answer(&app, &("POST", "/items", None, Some(("text/plain", "{}".into())))).await;
    for ((status, headers, body), expected) in [(not_a_number, 400), (plain_text, 415)] {
        assert_eq!(status, expected, "{body}");
        let header = |name: &str| headers.iter().find(|(n, _)| n == name).and_then(|(_, v)| v.clone());
        assert_eq!(header("content-type").as_deref(), Some("application/json"), "{body}");
        assert!(header("openstack-api-version").is_some(), "negotiated: {headers:?}");
        let error = &body["errors"][0];
        assert_eq!(error["status"], expected, "{body}");
        assert!(!error["detail"].as_str().unwrap_or_default().is_empty(), "axum's words: {body}");
    }
    let (status, _, body) = axum_answer(&app, &("GET", "/settings", None, None)).await;
    assert_eq!(status, 500, "{body}");
    let detail = body["errors"][0]["detail"].as_str().unwrap_or_default();
    assert!(detail.starts_with("The server has either erred"), "Nova's words, not axum's: {body}");
    assert!(!body.to_string().contains("Arc"), "no type of the service: {body}");
}

/// With `ResponseValidation::Error` in the requests' extensions, an answer
/// that breaks its `#[response(...)]` is a 500 naming the break; with
/// `Ignore` (or none), it goes out as it is.
#[tokio::test]
async fn declared_answers_are_checked_when_asked() {
    use microversion_axum::{controller, middleware::ResponseValidation};

    fn named() -> Value {
        json!({"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}})
    }

    struct Answers;

    #[controller(api = API, axum)]
    impl Answers {
        #[get("/good")]
        #[response(200, named)]
        async fn good() -> axum::Json<Value> {
            axum::Json(json!({"name": "vm"}))
        }

        #[get("/bad")]
        #[response(200, named)]
        async fn bad() -> axum::Json<Value> {
            axum::Json(json!({"name": 7}))
        }

        #[get("/status")]
        #[response(201)]
        async fn status() -> &'static str {
            "made"
        }
    }

    let checked = |mode| {
        Router::new()
            .merge(Answers)
            .layer(axum::Extension(mode))
            .layer(microversion_axum::VersionNegotiation::new(API))
    };
    let app = checked(ResponseValidation::Error);
    let good = axum_answer(&app, &("GET", "/good", None, None)).await;
    assert_eq!((good.0, good.2), (200, json!({"name": "vm"})));
    let bad = axum_answer(&app, &("GET", "/bad", None, None)).await;
    assert_eq!(bad.0, 500);
    let detail = bad.2["errors"][0]["detail"].as_str().expect("a detail");
    assert!(
        detail.contains("GET /bad at version 2.1 breaks its declaration") && detail.contains("/name"),
        "{detail}"
    );
    let status = axum_answer(&app, &("GET", "/status", None, None)).await;
    assert_eq!(status.0, 500);
    assert!(
        status.2["errors"][0]["detail"]
            .as_str()
            .is_some_and(|d| d.contains("status 200 where 201 is declared"))
    );

    let ignored = checked(ResponseValidation::Ignore);
    assert_eq!(axum_answer(&ignored, &("GET", "/bad", None, None)).await.0, 200);
    let warned = checked(ResponseValidation::Warn);
    assert_eq!(axum_answer(&warned, &("GET", "/bad", None, None)).await.2, json!({"name": 7}));
}
