//! Error bodies (docs/reference.md §5): API-SIG by default, Nova faults, re-rendering of
//! actix's own errors, never a 500 for client input.

mod common;

use actix_web::http::StatusCode;
use actix_web::test::{self, TestRequest};
use common::*;
use microversion_actix::test::{call_at, header, read_json};
use microversion_actix::{
    ApiError, Discovery, Error, Negotiation, VersionNegotiation,
    error::{ErrorFormat, NovaFaults, Problem},
};
use serde_json::{Value, json};

async fn nova_service() -> impl actix_web::dev::Service<
    actix_http::Request,
    Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>,
    Error = actix_web::Error,
> {
    test::init_service(app_with(
        VersionNegotiation::new(Negotiation::new(API).with_error_format(NovaFaults::default())),
        Discovery::new(&[API]),
    ))
    .await
}

#[actix_web::test]
async fn handler_errors_get_the_service_in_their_code() {
    let app = service().await;
    let res = call_at(&app, &API, "2.2", TestRequest::post().uri("/v2.1/locked")).await;
    assert_eq!(
        read_json(res).await,
        json!({"errors": [{"code": "compute.conflict", "status": 409, "title": "Conflict",
            "detail": "Server 7 is locked."}]})
    );
}

#[actix_web::test]
async fn request_ids_are_repeated_in_the_body() {
    let app = test::init_service(
        actix_web::App::new().service(
            actix_web::web::scope("/v2.1")
                .wrap(VersionNegotiation::new(API))
                .wrap(actix_web::middleware::DefaultHeaders::new().add(("x-openstack-request-id", "req-42")))
                .route(
                    "/x",
                    actix_web::web::get()
                        .to(|| async { Err::<String, _>(Error(ApiError::bad_request("no"))) }),
                ),
        ),
    )
    .await;
    // DefaultHeaders is outside ours here: the id is not known yet, so not shown.
    let res = call_at(&app, &API, "2.1", TestRequest::get().uri("/v2.1/x")).await;
    assert_eq!(read_json(res).await["errors"][0].get("request_id"), None);

    let app = test::init_service(
        actix_web::App::new().service(
            actix_web::web::scope("/v2.1")
                .wrap(actix_web::middleware::DefaultHeaders::new().add(("x-openstack-request-id", "req-42")))
                .wrap(VersionNegotiation::new(API))
                .route(
                    "/x",
                    actix_web::web::get()
                        .to(|| async { Err::<String, _>(Error(ApiError::bad_request("no"))) }),
                ),
        ),
    )
    .await;
    // DefaultHeaders is inside ours: the id is on the response our middleware renders.
    let res = call_at(&app, &API, "2.1", TestRequest::get().uri("/v2.1/x")).await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert_eq!(read_json(res).await["errors"][0]["request_id"], "req-42");
}

#[actix_web::test]
async fn server_errors_hide_their_cause() {
    let app = service().await;
    let res = call_at(&app, &API, "2.2", TestRequest::get().uri("/v2.1/db")).await;
    assert_eq!(res.status(), StatusCode::INTERNAL_SERVER_ERROR);
    let body = read_json(res).await;
    assert_eq!(body_str(&body, "/errors/0/code"), "compute.internal-server-error");
    let detail = body_str(&body, "/errors/0/detail");
    assert!(!detail.contains("hunter2"), "{detail}");
    assert!(detail.contains("has either erred"), "{detail}");
}

#[actix_web::test]
async fn actix_extractor_errors_become_json_400s() {
    let app = service().await;
    let req =
        TestRequest::post().uri("/v2.1/rename-actix").insert_header(("Content-Type", "application/json"));
    let res = call_at(&app, &API, "2.2", req.set_payload("{\"name\": 3}")).await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert_version_headers(&res, "2.2");
    let body = read_json(res).await;
    assert_eq!(body_str(&body, "/errors/0/code"), "compute.bad-request");
    assert!(body_str(&body, "/errors/0/detail").contains("invalid type: integer `3`"), "{body}");

    let res = call_at(&app, &API, "2.2", TestRequest::get().uri("/v2.1/query-actix?n=-1")).await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert!(body_str(&read_json(res).await, "/errors/0/detail").contains("Query deserialize error"));

    let res = call_at(&app, &API, "2.2", TestRequest::get().uri("/v2.1/servers/99999999999")).await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    let body = read_json(res).await;
    assert_eq!(body["errors"][0]["status"], 404);
    assert!(body_str(&body, "/errors/0/detail").contains("can not parse"), "{body}");
}

#[actix_web::test]
async fn nova_faults_for_every_kind_of_error() {
    let app = nova_service().await;
    let expect = |name: &str, code: u16, message: &str| json!({name: {"code": code, "message": message}});

    let res = call_at(&app, &API, "3.7", TestRequest::get().uri("/v2.1/servers")).await;
    assert_eq!(res.status(), StatusCode::NOT_ACCEPTABLE);
    assert_eq!(header(&res, "OpenStack-API-Maximum-Version").as_deref(), Some("2.10"));
    assert_eq!(
        read_json(res).await,
        json!({"computeFault": {
            "code": 406,
            "message": "Version 3.7 is not supported by the API. Minimum is 2.1 and maximum is 2.10.",
            "min_version": "2.1",
            "max_version": "2.10"
        }})
    );

    let res = call_at(&app, &API, "2.1", TestRequest::get().uri("/v2.1/keypairs")).await;
    assert_eq!(
        read_json(res).await,
        expect("itemNotFound", 404, "API version 2.1 is not supported on this method.")
    );

    let res = call_at(&app, &API, "2.1", TestRequest::post().uri("/v2.1/locked")).await;
    assert_eq!(read_json(res).await, expect("conflictingRequest", 409, "Server 7 is locked."));

    let res = call_at(&app, &API, "2.1", TestRequest::get().uri("/v2.1/nothing")).await;
    assert_eq!(read_json(res).await, expect("itemNotFound", 404, "The resource could not be found."));

    let res = call_at(&app, &API, "2.1", TestRequest::post().uri("/v2.1/flavors").set_payload("{")).await;
    let body = read_json(res).await;
    assert_eq!(body["badRequest"]["code"], 400);
    assert!(body_str(&body, "/badRequest/message").starts_with("Malformed request body"), "{body}");

    let res = call_at(&app, &API, "2.1", TestRequest::get().uri("/v2.1/db")).await;
    assert_eq!(read_json(res).await["computeFault"]["code"], 500);
}

#[actix_web::test]
async fn a_custom_format_is_used_for_every_error() {
    struct Plain;
    impl ErrorFormat for Plain {
        fn render(&self, problem: &Problem<'_>, service: Option<&str>) -> Value {
            json!({"message": problem.detail, "service": service, "code": problem.code})
        }
    }
    let app = test::init_service(app_with(
        VersionNegotiation::new(Negotiation::new(API).with_error_format(Plain)),
        Discovery::new(&[API]),
    ))
    .await;
    let res = call_at(&app, &API, "bogus", TestRequest::get().uri("/v2.1/servers")).await;
    let body = read_json(res).await;
    assert_eq!(body["service"], "compute");
    assert_eq!(body["code"], "invalid-version");
    let res = call_at(&app, &API, "2.1", TestRequest::post().uri("/v2.1/locked")).await;
    assert_eq!(read_json(res).await["message"], "Server 7 is locked.");
}

/// A format whose fields depend on the version (Placement's `code` from
/// 1.23) reads the version the error's request was served at: the
/// handler's, the router's; none for a refused version.
#[actix_web::test]
async fn a_format_reads_the_version_an_error_was_served_at() {
    struct ByVersion;
    impl ErrorFormat for ByVersion {
        fn render(&self, problem: &Problem<'_>, _: Option<&str>) -> Value {
            json!({"status": problem.status, "at": problem.version.map(|v| v.to_string())})
        }
    }
    let app = test::init_service(app_with(
        VersionNegotiation::new(Negotiation::new(API).with_error_format(ByVersion)),
        Discovery::new(&[API]),
    ))
    .await;
    for version in ["2.1", "2.3"] {
        let res = call_at(&app, &API, version, TestRequest::post().uri("/v2.1/locked")).await;
        assert_eq!(read_json(res).await, json!({"status": 409, "at": version}));
        let res = call_at(&app, &API, version, TestRequest::get().uri("/v2.1/nowhere")).await;
        assert_eq!(read_json(res).await, json!({"status": 404, "at": version}));
    }
    for refused in ["2.99", "two"] {
        let res = call_at(&app, &API, refused, TestRequest::post().uri("/v2.1/locked")).await;
        assert_eq!(read_json(res).await["at"], Value::Null, "{refused}");
    }
}

#[actix_web::test]
async fn without_middleware_api_error_renders_api_sig_without_service() {
    let app = test::init_service(actix_web::App::new().route(
        "/x",
        actix_web::web::get().to(|| async { Err::<String, _>(Error(ApiError::not_found("gone"))) }),
    ))
    .await;
    let res = test::call_service(&app, TestRequest::get().uri("/x").to_request()).await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert_eq!(header(&res, "Vary"), None);
    assert_eq!(
        read_json(res).await,
        json!({"errors": [{"code": "not-found", "status": 404, "title": "Not Found", "detail": "gone"}]})
    );
}

#[actix_web::test]
async fn an_inner_middlewares_err_is_rendered_with_version_headers() {
    use actix_web::dev::Service as _;
    let app = test::init_service(
        actix_web::App::new().service(
            actix_web::web::scope("/v2.1")
                .wrap_fn(|req, srv| {
                    let refuse = req.path().ends_with("/refused");
                    let fut = srv.call(req);
                    async move {
                        if refuse {
                            return Err(Error(ApiError::conflict("Refused by a middleware.")).into());
                        }
                        fut.await
                    }
                })
                .wrap(VersionNegotiation::new(Negotiation::new(API).with_error_format(NovaFaults::default())))
                .route("/refused", actix_web::web::get().to(|| async { "unreachable" })),
        ),
    )
    .await;
    let req = microversion_actix::test::versioned_request(&API, "2.6").uri("/v2.1/refused").to_request();
    let Err(err) = app.call(req).await else { panic!("the inner Err is passed on") };
    let res = err.error_response();
    assert_eq!(res.status(), StatusCode::CONFLICT);
    assert_eq!(res.headers().get(STD).unwrap(), "compute 2.6");
    assert_eq!(res.headers().get("Vary").unwrap(), VARY);
    let body = actix_web::body::to_bytes(res.into_body()).await.unwrap();
    let body: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(body, json!({"conflictingRequest": {"code": 409, "message": "Refused by a middleware."}}));
}
