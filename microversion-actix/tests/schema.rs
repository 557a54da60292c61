//! Versioned request validation (docs/reference.md §6), end to end and at the API level.

mod common;

use actix_web::http::StatusCode;
use actix_web::test::{self, TestRequest};
use actix_web::{App, HttpMessage, HttpRequest, HttpResponse, web};
use common::*;
use microversion_actix::test::{call_at, read_json};
use microversion_actix::{
    Json, Native,
    body::{BodyLimit, read_json_body},
    schema::{SchemaError, SchemaSource, VersionedSchemas},
    version::VersionRange,
};
use microversion_core::body::ParsedJson;
use serde_json::{Value, json};

fn post(path: &str, body: &str) -> TestRequest {
    TestRequest::post()
        .uri(path)
        .insert_header(("Content-Type", "application/json"))
        .set_payload(body.to_owned())
}

#[actix_web::test]
async fn a_valid_body_passes_at_each_version() {
    let app = service().await;
    let res =
        call_at(&app, &API, "2.1", post("/v2.1/flavors", r#"{"flavor": {"name": "m1", "ram": 512}}"#)).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    assert_version_headers(&res, "2.1");
    let body = r#"{"flavor": {"name": "m1", "ram": 512, "description": "small"}, "extra": 1}"#;
    let res = call_at(&app, &API, "2.6", post("/v2.1/flavors", body)).await;
    assert_eq!(res.status(), StatusCode::CREATED);
}

#[actix_web::test]
async fn every_violation_is_listed_with_its_path() {
    let app = service().await;
    let body = r#"{"flavor": {"name": "", "ram": "abc"}, "extra": true}"#;
    let res = call_at(&app, &API, "2.4", post("/v2.1/flavors", body)).await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert_version_headers(&res, "2.4");
    let body = read_json(res).await;
    let error = &body["errors"][0];
    assert_eq!(error["code"], "compute.invalid-input");
    let mut violations = error["violations"].as_array().unwrap().clone();
    violations.sort_by_key(|v| v["path"].as_str().unwrap().to_owned());
    // Each names the failed keyword, where it is in the document and in the
    // schema, the value, and says what is wrong in Python jsonschema's words.
    assert_eq!(
        Value::Array(violations),
        json!([
            {"path": "", "keyword": "additionalProperties", "schema_path": "/additionalProperties",
             "value": {"extra": true, "flavor": {"name": "", "ram": "abc"}},
             "message": "Additional properties are not allowed ('extra' was unexpected)"},
            {"path": "/flavor/name", "keyword": "minLength",
             "schema_path": "/properties/flavor/properties/name/minLength",
             "value": "", "message": "'' should be non-empty"},
            {"path": "/flavor/ram", "keyword": "type", "schema_path": "/properties/flavor/properties/ram/type",
             "value": "abc", "message": "'abc' is not of type 'integer'"},
        ]),
        "{body}"
    );
    // The detail is the first violation in Nova's words.
    let detail = error["detail"].as_str().unwrap();
    let nova_sentence = match error["violations"][0]["path"].as_str().unwrap() {
        "" => "Additional properties are not allowed ('extra' was unexpected)",
        "/flavor/name" => "Invalid input for field/attribute name. Value: . '' should be non-empty",
        _ => "Invalid input for field/attribute ram. Value: abc. 'abc' is not of type 'integer'",
    };
    assert_eq!(detail, nova_sentence, "the first violation listed: {body}");
}

#[actix_web::test]
async fn long_values_are_cut_in_messages_and_left_out_of_violations() {
    let app = service().await;
    let long = "x".repeat(5000);
    let body = json!({"flavor": {"name": "m1", "ram": long}}).to_string();
    let res = call_at(&app, &API, "2.1", post("/v2.1/flavors", &body)).await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    let body = read_json(res).await;
    let violation = &body["errors"][0]["violations"][0];
    assert_eq!(violation["path"], "/flavor/ram");
    assert_eq!(violation.get("value"), None, "a long value is not echoed: {violation}");
    let message = violation["message"].as_str().unwrap();
    let echoed = "x".repeat(microversion_actix::error::MAX_ECHOED_VALUE_CHARS);
    assert_eq!(message, format!("'{echoed}'... is not of type 'integer'"));
    let detail = body["errors"][0]["detail"].as_str().unwrap();
    assert_eq!(detail, format!("Invalid input for field/attribute ram. Value: .... {message}"));
}

#[actix_web::test]
async fn the_schema_follows_the_version() {
    let app = service().await;
    let body = r#"{"flavor": {"name": "m1", "ram": 512}}"#;
    // Valid for 2.1-2.4, but 2.6 requires a description.
    let res = call_at(&app, &API, "2.6", post("/v2.1/flavors", body)).await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    let detail = read_json(res).await["errors"][0]["detail"].as_str().unwrap().to_owned();
    assert_eq!(
        detail,
        "Invalid input for field/attribute flavor. Value: {'name': 'm1', 'ram': 512}. \
         'description' is a required property"
    );
    // 2.5 has no schema: not validated at all (Nova).
    let res = call_at(&app, &API, "2.5", post("/v2.1/flavors", r#"{"anything": [1, 2]}"#)).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    assert_eq!(FLAVOR_SCHEMAS.schema_for(v("2.5")).map(|s| s.name()), None);
    assert_eq!(FLAVOR_SCHEMAS.schema_for(v("2.4")).map(|s| s.name()), Some("flavor_v2_1"));
    assert_eq!(FLAVOR_SCHEMAS.schema_for(v("2.10")).map(|s| s.range()), Some(VersionRange::from(v("2.6"))));
}

#[actix_web::test]
async fn malformed_json_and_bytes_are_400_never_500() {
    let app = service().await;
    for body in ["{", "{\"flavor\": }", "nul", "[1,]", "\"\\ud800\"x"] {
        let res = call_at(&app, &API, "2.1", post("/v2.1/flavors", body)).await;
        assert_eq!(res.status(), StatusCode::BAD_REQUEST, "{body}");
        let detail = read_json(res).await["errors"][0]["detail"].as_str().unwrap().to_owned();
        assert!(detail.starts_with("Malformed request body: "), "{detail}");
    }
    let bytes: Vec<u8> = vec![b'{', b'"', 0xff, 0xfe, b'"', b':', b'1', b'}'];
    let req = TestRequest::post().uri("/v2.1/flavors").set_payload(bytes);
    assert_eq!(call_at(&app, &API, "2.1", req).await.status(), StatusCode::BAD_REQUEST);
    let deep = "[".repeat(100_000);
    assert_eq!(
        call_at(&app, &API, "2.1", post("/v2.1/flavors", &deep)).await.status(),
        StatusCode::BAD_REQUEST
    );
    // Every single byte value alone.
    for byte in 0..=255u8 {
        let res =
            call_at(&app, &API, "2.1", TestRequest::post().uri("/v2.1/flavors").set_payload(vec![byte]))
                .await;
        assert_eq!(res.status(), StatusCode::BAD_REQUEST, "byte {byte}");
    }
}

#[actix_web::test]
async fn an_empty_body_is_null_and_rejected_by_the_schema() {
    let app = service().await;
    let res = call_at(&app, &API, "2.1", TestRequest::post().uri("/v2.1/flavors")).await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    let detail = read_json(res).await["errors"][0]["detail"].as_str().unwrap().to_owned();
    assert_eq!(detail, "None is not of type 'object'");
}

#[actix_web::test]
async fn content_types() {
    let app = service().await;
    let body = r#"{"flavor": {"name": "m1", "ram": 512}}"#;
    for ok in [
        "application/json",
        "application/json; charset=utf-8",
        "application/vnd.openstack+json",
        "text/plain",
    ] {
        let req =
            TestRequest::post().uri("/v2.1/flavors").insert_header(("Content-Type", ok)).set_payload(body);
        assert_eq!(call_at(&app, &API, "2.1", req).await.status(), StatusCode::CREATED, "{ok}");
    }
    // Missing content type: accepted as JSON, as Nova does.
    let req = TestRequest::post().uri("/v2.1/flavors").set_payload(body);
    assert_eq!(call_at(&app, &API, "2.1", req).await.status(), StatusCode::CREATED);
    for bad in ["application/xml", "multipart/form-data; boundary=x", "application/x-www-form-urlencoded"] {
        let req =
            TestRequest::post().uri("/v2.1/flavors").insert_header(("Content-Type", bad)).set_payload(body);
        let res = call_at(&app, &API, "2.1", req).await;
        assert_eq!(res.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE, "{bad}");
        assert_version_headers(&res, "2.1");
        assert_eq!(read_json(res).await["errors"][0]["code"], "compute.unsupported-media-type");
    }
}

#[actix_web::test]
async fn bodies_over_the_limit_are_413() {
    let app = test::init_service(App::new().app_data(BodyLimit(64)).service(
        web::scope("/v2.1").wrap(microversion_actix::VersionNegotiation::new(API)).configure(routes),
    ))
    .await;
    let big = format!(r#"{{"flavor": {{"name": "{}", "ram": 1}}}}"#, "x".repeat(100));
    let res = call_at(&app, &API, "2.1", post("/v2.1/flavors", &big)).await;
    assert_eq!(res.status(), StatusCode::PAYLOAD_TOO_LARGE);
    assert_version_headers(&res, "2.1");
    let body = read_json(res).await;
    assert_eq!(body["errors"][0]["detail"], "The request body is larger than the limit of 64 bytes.");
    // A lying Content-Length does not help: reading stops at the limit.
    let req = post("/v2.1/flavors", &big).insert_header(("Content-Length", "10"));
    assert_eq!(call_at(&app, &API, "2.1", req).await.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let small = r#"{"flavor": {"name": "m", "ram": 1}}"#;
    assert_eq!(call_at(&app, &API, "2.1", post("/v2.1/flavors", small)).await.status(), StatusCode::CREATED);
    // The default limit is 1 MiB.
    let app = service().await;
    let huge = format!("\"{}\"", "x".repeat(1024 * 1024));
    assert_eq!(
        call_at(&app, &API, "2.5", post("/v2.1/flavors", &huge)).await.status(),
        StatusCode::PAYLOAD_TOO_LARGE
    );
}

#[actix_web::test]
async fn query_strings_are_validated_per_version() {
    let app = service().await;
    let res =
        call_at(&app, &API, "2.3", TestRequest::get().uri("/v2.1/search?limit=10&name=a&name=b%20c")).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(read_json(res).await["query"], json!({"limit": ["10"], "name": ["a", "b c"]}));
    for bad in ["limit=ten", "limit=1&limit=2", "sort=name"] {
        let res = call_at(&app, &API, "2.3", TestRequest::get().uri(&format!("/v2.1/search?{bad}"))).await;
        assert_eq!(res.status(), StatusCode::BAD_REQUEST, "{bad}");
        assert_version_headers(&res, "2.3");
        let body = read_json(res).await;
        assert!(!body["errors"][0]["violations"].as_array().unwrap().is_empty(), "{body}");
    }
    // Before 2.3 the query is not validated.
    let res = call_at(&app, &API, "2.2", TestRequest::get().uri("/v2.1/search?sort=name&%ff=%fe")).await;
    assert_eq!(res.status(), StatusCode::OK);
}

#[test]
fn overlapping_ranges_are_rejected_naming_both() {
    let sources = [
        SchemaSource { name: "old", range: VersionRange::between(v("2.1"), v("2.5")), schema: || json!({}) },
        SchemaSource { name: "new", range: VersionRange::from(v("2.5")), schema: || json!({}) },
    ];
    let err = VersionedSchemas::compile(&sources).unwrap_err();
    assert_eq!(
        err,
        SchemaError::Overlap {
            first: "old",
            first_range: VersionRange::between(v("2.1"), v("2.5")),
            second: "new",
            second_range: VersionRange::from(v("2.5")),
        }
    );
    assert_eq!(
        err.to_string(),
        "schemas \"old\" (2.1 to 2.5) and \"new\" (2.5 and later) overlap: one version would have two schemas"
    );
    let open = [
        SchemaSource { name: "a", range: VersionRange::from(v("2.9")), schema: || json!({}) },
        SchemaSource { name: "b", range: VersionRange::until(v("2.9")), schema: || json!({}) },
    ];
    assert!(matches!(VersionedSchemas::compile(&open), Err(SchemaError::Overlap { .. })));
}

#[test]
fn invalid_schemas_are_rejected_naming_them() {
    let sources = [
        SchemaSource {
            name: "fine",
            range: VersionRange::until(v("2.1")),
            schema: || json!({"type": "object"}),
        },
        SchemaSource { name: "broken", range: VersionRange::from(v("2.2")), schema: || json!({"type": 12}) },
    ];
    match VersionedSchemas::compile(&sources).unwrap_err() {
        SchemaError::Invalid { name, message } => {
            assert_eq!(name, "broken");
            assert!(!message.is_empty());
        }
        other => panic!("expected Invalid, got {other:?}"),
    }
    // A remote reference is never fetched: it fails at compile time.
    let remote = [SchemaSource {
        name: "remote",
        range: VersionRange::ANY,
        schema: || json!({"$ref": "https://example.com/schema.json"}),
    }];
    assert!(matches!(VersionedSchemas::compile(&remote), Err(SchemaError::Invalid { name: "remote", .. })));
}

#[derive(serde::Deserialize, Debug)]
struct Rename {
    name: String,
}

/// What generated dispatch code does: read once, validate at the negotiated
/// version, hand the parsed value on to the handler's extractor.
async fn dispatcher(
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, microversion_actix::Error> {
    let version = microversion_actix::version::version_of(&req)?;
    let body = read_json_body(&req, &mut payload.into_inner()).await?;
    FLAVOR_SCHEMAS.validate(version.version(), &body)?;
    req.extensions_mut().insert(ParsedJson(body));
    let Native(body) = <Native<Json<Value>> as actix_web::FromRequest>::extract(&req).await?;
    Ok(HttpResponse::Ok().json(body.into_inner()))
}

#[actix_web::test]
async fn a_dispatcher_validates_then_hands_the_parsed_body_on() {
    let app = test::init_service(
        App::new().service(
            web::scope("/v2.1")
                .wrap(microversion_actix::VersionNegotiation::new(API))
                .route("/dispatch", web::post().to(dispatcher)),
        ),
    )
    .await;
    let body = r#"{"flavor": {"name": "m1", "ram": 5}}"#;
    let res = call_at(&app, &API, "2.2", post("/v2.1/dispatch", body)).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(read_json(res).await, json!({"flavor": {"name": "m1", "ram": 5}}));
    let res = call_at(&app, &API, "2.6", post("/v2.1/dispatch", body)).await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert_version_headers(&res, "2.6");
}

#[actix_web::test]
async fn typed_json_extractor() {
    let app = service().await;
    let res = call_at(&app, &API, "2.1", post("/v2.1/rename", r#"{"name": "vm-2"}"#)).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(test::read_body(res).await, "vm-2");
    let res = call_at(&app, &API, "2.1", post("/v2.1/rename", r#"{"name": 2}"#)).await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    let body = read_json(res).await;
    assert_eq!(body["errors"][0]["code"], "compute.invalid-body");
    assert_eq!(
        body["errors"][0]["detail"],
        "Invalid request body: invalid type: integer `2`, expected a string."
    );
    let res = call_at(&app, &API, "2.1", TestRequest::post().uri("/v2.1/rename")).await;
    assert_eq!(
        read_json(res).await["errors"][0]["detail"],
        "The request body is missing: a JSON document is required."
    );
}

#[actix_web::test]
async fn extractors_take_the_parsed_body_from_extensions() {
    let req = TestRequest::post().set_payload("this is not JSON").to_http_request();
    req.extensions_mut().insert(ParsedJson(json!({"name": "parsed"})));
    let Native(Json(rename)) = <Native<Json<Rename>> as actix_web::FromRequest>::extract(&req).await.unwrap();
    assert_eq!(rename.name, "parsed");

    let req = TestRequest::post().set_payload("this is not JSON").to_http_request();
    req.extensions_mut().insert(ParsedJson(json!([1, 2])));
    let Native(Json(body)) = <Native<Json<Value>> as actix_web::FromRequest>::extract(&req).await.unwrap();
    assert_eq!(body, json!([1, 2]));

    let (req, mut payload) = TestRequest::post().set_payload(r#"{"a": 1}"#).to_http_parts();
    let value: Value = read_json_body(&req, &mut payload).await.unwrap();
    assert_eq!(value, json!({"a": 1}));
}

/// After a `#[schema]` check has read the body, any body extractor still
/// reads it: actix's own `web::Json` and `String` get the bytes that were
/// validated, as this crate's `Json` gets the parsed document.
#[actix_web::test]
async fn actix_extractors_read_the_validated_body() {
    use microversion_actix::controller;

    fn echo_schema() -> Value {
        json!({"type": "object", "required": ["name"]})
    }

    struct Echo;

    #[controller(api = API)]
    impl Echo {
        #[post("/echo")]
        #[schema(echo_schema, "2.1")]
        async fn echo(body: web::Json<Value>) -> web::Json<Value> {
            body
        }

        #[post("/text")]
        #[schema(echo_schema, "2.1")]
        async fn text(body: String) -> String {
            body
        }
    }

    let app =
        test::init_service(App::new().wrap(microversion_actix::VersionNegotiation::new(API)).service(Echo))
            .await;
    let sent = r#"{"name": "vm", "extra": [1, 2]}"#;
    let echoed = call_at(&app, &API, "2.1", post("/echo", sent)).await;
    assert_eq!(echoed.status(), StatusCode::OK);
    assert_eq!(read_json(echoed).await, json!({"name": "vm", "extra": [1, 2]}));
    let text = call_at(&app, &API, "2.1", post("/text", sent)).await;
    assert_eq!(text.status(), StatusCode::OK);
    assert_eq!(test::read_body(text).await, sent);
    let refused = call_at(&app, &API, "2.1", post("/echo", r#"{"nom": "vm"}"#)).await;
    assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
}
