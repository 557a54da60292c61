//! One controller source served by both facades (docs/reference.md §4.8):
//! a controller written with the core's portable types and registered
//! with actix-web and axum (`#[controller(api = API, actix, axum)]`)
//! answers every request the same on both, byte for byte in its bodies:
//! route parameters, query strings, bodies checked by a schema, the
//! negotiated version, links, versioned models, hand-built replies, errors
//! in the API's format, and the answers at versions no variant serves.
//! Request bodies typed by `schemars` (`#[schema(json_schema = T)]`) are
//! validated by their type's schema at the negotiated version and
//! described by it in the OpenAPI documents; query strings typed the same
//! way (`#[schema(query_json_schema = T)]`) are read by their type's types
//! (integers, booleans, a repeated key as a list) and validated by it.

#[path = "portable/servers.rs"]
mod servers;

use microversion_tests::API;
use serde_json::{Value, json};
use servers::*;

#[actix_web::test]
async fn one_controller_source_answers_alike_on_actix_and_axum() {
    for case in CASES {
        let (actix, axum) = (on_actix(case).await, on_axum(case).await);
        assert_eq!(actix, axum, "{case:?}: actix {} / axum {}", text(&actix.body), text(&axum.body));
    }
}

/// Without the negotiation in front, routes negotiate from the declaration
/// the app registered, alike on both: the variant of the version asked
/// for, 400 and 406 in the API-SIG format, the missing variant and the 405
/// at that version; and no answer is stamped.
#[actix_web::test]
async fn outside_the_negotiation_routes_negotiate_alike_from_a_registered_declaration() {
    let cases: &[Case] = &[
        ("GET", "/v2.1/servers/7", "2.3", None),
        ("GET", "/v2.1/servers/7", "2.2", None),
        ("GET", "/v2.1/servers/7", "9.9", None),
        ("GET", "/v2.1/servers/7", "2.x", None),
        ("PUT", "/v2.1/servers/7", "2.1", Some(r#"{"name":"web"}"#)),
        ("POST", "/v2.1/servers/7", "2.3", None),
        ("DELETE", "/v2.1/servers/7", "2.6", None),
    ];
    for case in cases {
        let actix = on_actix_behind(Front::Registered, case).await;
        let axum = on_axum_behind(Front::Registered, case).await;
        assert_eq!(actix, axum, "{case:?}: actix {} / axum {}", text(&actix.body), text(&axum.body));
        assert_eq!(actix.version, None, "{case:?}: nothing stamps the answer");
    }
    let at =
        async |version| on_axum_behind(Front::Registered, &("GET", "/v2.1/servers/7", version, None)).await;
    assert_eq!(at("2.2").await.status_and_json(), (200, json!({"id": 7, "name": "s7"})));
    assert_eq!(at("9.9").await.status, 406);
    assert_eq!(at("2.x").await.status, 400);
}

#[actix_web::test]
async fn portable_arguments_and_answers_read_and_write_what_the_facades_own_do() {
    let answer = async |case: Case| on_axum(&case).await.status_and_json();
    let (status, body) = answer(("GET", "/v2.1/servers?name=a&name=b", "2.7", None)).await;
    assert_eq!((status, &body["at"], &body["names"]), (200, &json!("2.7"), &json!(["a", "b"])));
    assert_eq!(body["root"], "http://cloud.example");
    let (_, below) = answer(("GET", "/v2.1/servers/7?limit=3", "2.2", None)).await;
    let (_, above) = answer(("GET", "/v2.1/servers/7?limit=3", "2.3", None)).await;
    assert_eq!(below, json!({"id": 7, "name": "s7"}), "the model at 2.2 has no host");
    assert_eq!(above, json!({"id": 7, "name": "s7", "host": "hSome(3)"}));
    let (status, error) = answer(("PUT", "/v2.1/servers/7", "2.2", Some(r#"{"name":"taken"}"#))).await;
    assert_eq!(status, 409);
    assert_eq!(error["errors"][0]["code"], "compute.conflict", "{error}");
    let (status, _) = answer(("PUT", "/v2.1/servers/7", "2.2", Some(r#"{"size":1}"#))).await;
    assert_eq!(status, 400, "the schema of 2.2 requires a name");
    let (status, _) = answer(("DELETE", "/v2.1/servers/7", "2.6", None)).await;
    assert_eq!(status, 404, "delete ends at 2.5");
    let (status, error) = answer(("DELETE", "/v2.1/servers/0", "2.5", None)).await;
    assert_eq!((status, &error["errors"][0]["detail"]), (404, &json!("The resource could not be found.")));
    let (status, error) = answer(("DELETE", "/v2.1/servers/1", "2.5", None)).await;
    assert_eq!(status, 503);
    assert_eq!(error["errors"][0]["code"], "compute.service-unavailable", "a bodiless error is rendered");
    let (status, touched) = answer(("PATCH", "/v2.1/servers/7", "2.3", Some(r#"{"a":[1,2]}"#))).await;
    assert_eq!((status, touched), (200, json!({"id": 7, "touched": {"a": [1, 2]}})));
    let (status, error) = answer(("PATCH", "/v2.1/servers/0", "2.3", Some(r#"{"a":1}"#))).await;
    assert_eq!((status, &error["errors"][0]["detail"]), (409, &json!("Server 0 is locked.")));
}

#[actix_web::test]
async fn typed_bodies_are_validated_by_their_types_schema_at_each_version() {
    let answer = async |case: Case| on_actix(&case).await.status_and_json();
    let (status, created) =
        answer(("POST", "/v2.1/servers", "2.4", Some(r#"{"name":"web","count":3}"#))).await;
    assert_eq!((status, created), (201, json!({"name": "web", "servers": 3})));
    let (status, refused) =
        answer(("POST", "/v2.1/servers", "2.4", Some(r#"{"name":"web","count":0}"#))).await;
    let detail = refused["errors"][0]["detail"].as_str().unwrap_or_default().to_owned();
    assert_eq!(status, 400, "{refused}");
    assert!(detail.contains("count") && detail.contains("less than the minimum of 1"), "{detail}");
    let body = Some(r#"{"name":"web","description":"d"}"#);
    let (below, _) = answer(("POST", "/v2.1/servers", "2.4", body)).await;
    let (from, created) = answer(("POST", "/v2.1/servers", "2.5", body)).await;
    assert_eq!((below, from), (400, 201), "a description is accepted from 2.5 only");
    assert_eq!(created["name"], "web (d)");
    let (status, refused) = answer(("POST", "/v2.1/servers", "2.5", Some(r#"{"description":"d"}"#))).await;
    assert_eq!(status, 400);
    assert!(
        refused["errors"][0]["detail"].as_str().unwrap_or_default().contains("'name' is a required property")
    );
}

#[actix_web::test]
async fn typed_queries_are_read_and_validated_by_their_types_schema_at_each_version() {
    let answer = async |case: Case| on_axum(&case).await.status_and_json();
    let (status, read) = answer(("GET", "/v2.1/flavors?min_ram=512&tag=a&tag=b%20c", "2.4", None)).await;
    assert_eq!((status, read), (200, json!({"min_ram": 512, "tags": ["a", "b c"]})));
    let (status, read) = answer(("GET", "/v2.1/flavors?public=false&tag=x", "2.5", None)).await;
    assert_eq!(status, 200, "{read}");
    assert_eq!(
        (&read["min_ram"], &read["tags"], &read["public"]),
        (&Value::Null, &json!(["x"]), &json!(false))
    );
    assert_eq!(read["query"], json!({"public": false, "tag": ["x"]}), "JsonQuery holds what was validated");
    let refusal = async |query: &'static str, version: &'static str| {
        let (status, body) = answer(("GET", query, version, None)).await;
        assert_eq!(status, 400, "{query} at {version}: {body}");
        body["errors"][0]["detail"].as_str().unwrap_or_default().to_owned()
    };
    let detail = refusal("/v2.1/flavors?public=true", "2.4").await;
    assert!(detail.contains("Additional properties are not allowed ('public' was unexpected)"), "{detail}");
    let detail = refusal("/v2.1/flavors?min_ram=0", "2.5").await;
    assert!(detail.contains("min_ram") && detail.contains("less than the minimum of 1"), "{detail}");
    let detail = refusal("/v2.1/flavors?min_ram=lots", "2.5").await;
    assert!(detail.contains("'lots' is not of type"), "{detail}");
    let detail = refusal("/v2.1/flavors?public=yes", "2.5").await;
    assert!(detail.contains("'yes' is not of type"), "{detail}");
    let detail = refusal("/v2.1/flavors?min_ram=1&min_ram=2", "2.5").await;
    assert!(detail.contains("min_ram"), "a key given twice for one value: {detail}");
}

#[test]
fn typed_queries_are_described_as_parameters_of_their_types() {
    use microversion_axum::openapi::ApiDescription;
    let description = ApiDescription::new(API).with_prefix("").controller::<Servers>();
    let parameters = |version: &str| {
        let document = description.document(microversion_axum::Version::lit(version));
        let parameters = document["paths"]["/v2.1/flavors"]["get"]["parameters"].as_array().cloned();
        let parameters = parameters.unwrap_or_default().into_iter();
        parameters
            .filter(|p| p["in"] == "query")
            .map(|p| (p["name"].as_str().unwrap().to_owned(), p))
            .collect::<Vec<_>>()
    };
    let at_2_4 = parameters("2.4");
    let names: Vec<&str> = at_2_4.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, ["min_ram", "tag"]);
    assert_eq!(at_2_4[0].1["schema"]["minimum"], 1);
    assert!(at_2_4[0].1["schema"]["type"].to_string().contains("integer"), "{}", at_2_4[0].1);
    assert_eq!(at_2_4[1].1["schema"]["type"], "array");
    assert_eq!((&at_2_4[1].1["style"], &at_2_4[1].1["explode"]), (&json!("form"), &json!(true)));
    let names: Vec<String> = parameters("2.5").into_iter().map(|(name, _)| name).collect();
    assert_eq!(names, ["min_ram", "public", "tag"], "2.5 adds public");
}

#[test]
fn typed_bodies_and_answers_are_described_by_their_types_schema() {
    use microversion_axum::openapi::ApiDescription;
    use microversion_axum::schema::json_schema_of;
    let description = ApiDescription::new(API).with_prefix("").controller::<Servers>();
    let body_at = |version: &str| {
        let document = description.document(microversion_axum::Version::lit(version));
        let create = &document["paths"]["/v2.1/servers"]["post"];
        let schema = |content: &Value| content["content"]["application/json"]["schema"].clone();
        (schema(&create["requestBody"]), schema(&create["responses"]["201"]))
    };
    let (request, response) = body_at("2.1");
    assert_eq!(request, json_schema_of::<CreateServer>(), "2.1 is described by CreateServer");
    assert_eq!(response, json_schema_of::<Created>());
    assert_eq!(body_at("2.7").0, json_schema_of::<CreateServerV2_5>(), "2.7 by CreateServerV2_5");
    assert_eq!(json_schema_of::<CreateServer>()["properties"]["count"]["minimum"], 1);
}

/// Every request of a controller is answered by one future type, which
/// each framework boxes per request: it holds the request once (the
/// route function's `Either` tree adds no copy, each operation's block
/// owns the request it is given) and no body reader, a check of an answer
/// or a refused extraction's answer, each boxed on its own when it runs. On
/// this controller, whose routes read bodies, validate them by schema and
/// check their answers, the future was 968 bytes on actix (on axum, the
/// load server's controller's was 1,272, over glibc's per-thread cache of
/// 1,032 bytes: every request took the allocator's slow path); through the
/// core's routes, generic over the facade, it is 296 bytes on actix and 504
/// on axum, for requests of 144 and 352.
#[test]
fn a_route_future_holds_the_request_once_and_nothing_that_reads_a_body() {
    const ROOM: usize = 256;
    let [(actix, actix_request), (axum, axum_request)] = route_future_sizes();
    assert!(
        actix <= actix_request + ROOM,
        "actix: a future of {actix} bytes for a request of {actix_request}"
    );
    assert!(axum <= axum_request + ROOM, "axum: a future of {axum} bytes for a request of {axum_request}");
}
