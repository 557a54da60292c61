//! The one-file example (`examples/hello.rs`) does what its comment says.

#[allow(dead_code, unreachable_pub)]
#[path = "../examples/hello.rs"]
mod hello;

use actix_web::test::{self, TestRequest};
use actix_web::{App, http::StatusCode};
use serde_json::{Value, json};

#[actix_web::test]
async fn the_hello_example_serves_its_three_versions() {
    let app = test::init_service(App::new().configure(hello::app)).await;
    let get = |version: Option<&str>| {
        let req = TestRequest::get().uri("/v1/greetings/ada");
        match version {
            Some(v) => req.insert_header(("OpenStack-API-Version", format!("hello {v}"))),
            None => req,
        }
        .to_request()
    };
    let body: Value = test::call_and_read_body_json(&app, get(None)).await;
    assert_eq!(body, json!({"name": "ada", "text": "Hello, ada!"}));
    let body: Value = test::call_and_read_body_json(&app, get(Some("1.1"))).await;
    assert_eq!(body["language"], "en");
    assert_eq!(test::call_service(&app, get(Some("1.9"))).await.status(), StatusCode::NOT_ACCEPTABLE);

    let put = |version: &str, body: Value| {
        TestRequest::put()
            .uri("/v1/greetings/ada")
            .insert_header(("OpenStack-API-Version", format!("hello {version}")))
            .set_json(body)
            .to_request()
    };
    assert_eq!(
        test::call_service(&app, put("1.1", json!({"text": "Hi"}))).await.status(),
        StatusCode::NOT_FOUND
    );
    let res = test::call_service(&app, put("1.2", json!({"text": ""}))).await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    let body: Value = test::read_body_json(res).await;
    assert_eq!(body["errors"][0]["violations"][0]["keyword"], "minLength");
    let body: Value = test::call_and_read_body_json(&app, put("1.2", json!({"text": "Hi"}))).await;
    assert_eq!(body["text"], "Hi");
    let body: Value = test::call_and_read_body_json(&app, TestRequest::get().uri("/").to_request()).await;
    assert_eq!(body["versions"][0]["version"], "1.2");
}
