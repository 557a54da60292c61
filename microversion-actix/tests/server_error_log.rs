//! A server error's cause is for the log, never the client (docs/reference.md
//! §5.1), and it is logged once per request. Its own test binary: the
//! logger it installs is the process's.

use std::sync::Mutex;

use actix_web::{App, HttpResponse, test, web};
use microversion_actix::{Api, Microversion, VersionNegotiation};

/// Every line logged in this process.
static LOGGED: Mutex<Vec<String>> = Mutex::new(Vec::new());

struct Capture;

impl log::Log for Capture {
    fn enabled(&self, _: &log::Metadata<'_>) -> bool {
        true
    }

    fn log(&self, record: &log::Record<'_>) {
        LOGGED.lock().unwrap_or_else(|e| e.into_inner()).push(record.args().to_string());
    }

    fn flush(&self) {}
}

const API: Api = Api::new("compute", &[Microversion::new("2.1", "Initial version.")]);

async fn broken() -> Result<HttpResponse, actix_web::Error> {
    Err(actix_web::error::ErrorInternalServerError("the disk /srv/secret is full"))
}

#[actix_web::test]
async fn a_server_error_s_cause_is_logged_once_and_never_sent() {
    log::set_logger(&Capture).expect("the only logger of this test binary");
    log::set_max_level(log::LevelFilter::Error);
    let scope =
        web::scope("/v2.1").wrap(VersionNegotiation::new(API)).route("/broken", web::get().to(broken));
    let app = test::init_service(App::new().service(scope)).await;

    let res = test::call_service(&app, test::TestRequest::get().uri("/v2.1/broken").to_request()).await;
    assert_eq!(res.status(), 500);
    let body = String::from_utf8_lossy(&test::read_body(res).await).into_owned();
    assert!(body.contains("The server has either erred"), "Nova's words: {body}");
    assert!(!body.contains("/srv/secret"), "the cause is not sent: {body}");

    let logged = LOGGED.lock().unwrap_or_else(|e| e.into_inner());
    let mentions = logged.iter().filter(|line| line.contains("/srv/secret")).count();
    assert_eq!(mentions, 1, "logged once: {logged:?}");
}
