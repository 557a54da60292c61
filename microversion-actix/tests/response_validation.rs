//! Response validation: a variant's success answer checked against its
//! `#[response(...)]` at the negotiated version, as `ResponseValidation` says.

use actix_web::http::StatusCode;
use actix_web::{App, HttpResponse, test};
use microversion_actix::test::{call_at, read_json};
use microversion_actix::{
    Api, Json, VersionNegotiation, controller, history, middleware::ResponseValidation,
};
use serde_json::{Value, json};

const API: Api = Api::new("compute", history!["2.1" => "Initial.", "2.2" => "Names are strings."]);

fn named() -> Value {
    json!({"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}},
           "additionalProperties": false})
}

struct Servers;

#[controller(api = API)]
impl Servers {
    /// Answers what it declares at 2.2, and a number for the name at 2.1.
    #[get("/servers/{id}")]
    #[response(200, named)]
    async fn show(&self, version: microversion_actix::ApiVersion) -> Json<Value> {
        if version < microversion_actix::Version::lit("2.2") {
            Json(json!({"name": 7}))
        } else {
            Json(json!({"name": "vm"}))
        }
    }

    /// Declares 201, answers 200.
    #[post("/servers")]
    #[response(201)]
    async fn create(&self) -> HttpResponse {
        HttpResponse::Ok().finish()
    }
}

async fn status(
    mode: Option<ResponseValidation>,
    method: &str,
    uri: &str,
    version: &str,
) -> (StatusCode, Value) {
    let mut app = App::new().wrap(VersionNegotiation::new(API)).service(Servers);
    if let Some(mode) = mode {
        app = app.app_data(mode);
    }
    let app = test::init_service(app).await;
    let request = test::TestRequest::default().method(method.parse().expect("a method")).uri(uri);
    let res = call_at(&app, &API, version, request).await;
    let status = res.status();
    let body = actix_web::body::to_bytes(res.into_body()).await.unwrap_or_default();
    (status, serde_json::from_slice(&body).unwrap_or(Value::Null))
}

#[actix_web::test]
async fn a_body_that_breaks_the_declared_schema_is_a_500_in_error_mode() {
    let (code, body) = status(Some(ResponseValidation::Error), "GET", "/servers/1", "2.1").await;
    assert_eq!(code, StatusCode::INTERNAL_SERVER_ERROR);
    let detail = body["errors"][0]["detail"].as_str().unwrap_or_default();
    assert!(detail.contains("at version 2.1 breaks its declaration") && detail.contains("/name"), "{detail}");
    // The same variant at a version where it answers what it declares.
    let (code, body) = status(Some(ResponseValidation::Error), "GET", "/servers/1", "2.2").await;
    assert_eq!((code, body), (StatusCode::OK, json!({"name": "vm"})));
}

#[actix_web::test]
async fn a_status_other_than_the_declared_one_is_a_violation() {
    let (code, body) = status(Some(ResponseValidation::Error), "POST", "/servers", "2.2").await;
    assert_eq!(code, StatusCode::INTERNAL_SERVER_ERROR);
    assert!(
        body["errors"][0]["detail"].as_str().unwrap_or_default().contains("status 200 where 201 is declared")
    );
}

#[actix_web::test]
async fn warn_and_ignore_let_the_answer_through() {
    for mode in [Some(ResponseValidation::Warn), Some(ResponseValidation::Ignore), None] {
        let (code, body) = status(mode, "GET", "/servers/1", "2.1").await;
        assert_eq!((code, body), (StatusCode::OK, json!({"name": 7})), "{mode:?}");
    }
}

#[actix_web::test]
async fn the_body_is_read_once_and_passed_on_whole() {
    let app = test::init_service(
        App::new().app_data(ResponseValidation::Error).wrap(VersionNegotiation::new(API)).service(Servers),
    )
    .await;
    let res = call_at(&app, &API, "2.2", test::TestRequest::get().uri("/servers/9")).await;
    assert_eq!(res.headers().get("OpenStack-API-Version").and_then(|v| v.to_str().ok()), Some("compute 2.2"));
    assert_eq!(read_json(res).await, json!({"name": "vm"}));
}
