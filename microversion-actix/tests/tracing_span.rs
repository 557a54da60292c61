//! The negotiated version as a field of a `tracing` span on every request
//! (feature `tracing`). Its own test binary: tracing caches whether a
//! callsite is enabled process-wide, so a test of another thread reaching
//! the middleware first, without a subscriber, could hide the span from this
//! test's scoped one.
#![cfg(feature = "tracing")]

use actix_web::test::{self, TestRequest};
use actix_web::{App, HttpResponse, web};
use microversion_actix::test::call_at;
use microversion_actix::{Api, VersionNegotiation, history};

const API: Api = Api::new("compute", history!["2.1" => "Initial.", "2.60" => "Later."]);

use std::sync::{Arc, Mutex};

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

/// Records the fields of every `microversion` span.
#[derive(Clone, Default)]
struct Spans(Arc<Mutex<Vec<String>>>);

struct Fields(Vec<String>);

impl Visit for Fields {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.push(format!("{}={value:?}", field.name()));
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.push(format!("{}={value}", field.name()));
    }
}

impl Subscriber for Spans {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, span: &Attributes<'_>) -> Id {
        let mut fields = Fields(Vec::new());
        span.record(&mut fields);
        let mut all = self.0.lock().unwrap();
        all.push(format!("{}: {}", span.metadata().name(), fields.0.join(" ")));
        Id::from_u64(all.len() as u64)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, _: &Event<'_>) {}
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

#[test]
fn each_request_runs_in_a_span_naming_its_version() {
    let spans = Spans::default();
    tracing::subscriber::with_default(spans.clone(), || {
        actix_web::rt::System::new().block_on(async {
            let app = test::init_service(
                App::new().service(
                    web::scope("/v2.1")
                        .wrap(VersionNegotiation::new(API))
                        .route("/servers", web::get().to(|| async { HttpResponse::Ok().finish() })),
                ),
            )
            .await;
            call_at(&app, &API, "2.60", TestRequest::get().uri("/v2.1/servers")).await;
            call_at(&app, &API, "3.0", TestRequest::get().uri("/v2.1/servers")).await;
        });
    });
    let recorded = spans.0.lock().unwrap().clone();
    assert_eq!(
        recorded,
        [
            "microversion: service=compute api_version=2.60 chosen_by=standard",
            "microversion: service=compute api_version=none refused=406",
        ]
    );
}
