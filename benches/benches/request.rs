//! A whole request in process (`actix_web::test::init_service` +
//! `call_service`, body read included): through the middleware, the
//! `ApiVersion` negotiation and a `#[controller]` route, against the same
//! handler as a plain actix route. Each side is an app of its own (as in
//! the load server, so neither is routed past the other's scope first) and
//! receives the same headers; building the request is outside the timing.
//!
//! - `show`: `GET /servers/42`, a small JSON answer;
//! - `detail`: `GET /servers/detail`, ten servers (about 7 kB of JSON);
//! - `create`: `POST /servers` with a Nova-sized body, validated by schema on
//!   both sides (actix's `web::Json` + the validator on the plain side).
//!
//! Run: `cargo bench -p microversion-benches --bench request`.

use actix_web::test::{self, TestRequest};
use actix_web::{App, http::Method};
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use microversion_benches::schema::create_server_body;
use microversion_benches::server::{COMPUTE, VERSION_HEADER, configure_plain, configure_versioned};

fn request(c: &mut Criterion) {
    let rt = actix_web::rt::System::new();
    let plain = rt.block_on(test::init_service(App::new().configure(configure_plain)));
    let framework = rt.block_on(test::init_service(App::new().configure(configure_versioned(COMPUTE))));
    let body = serde_json::to_vec(&create_server_body()).expect("serializes");

    let cases: [(&str, Method, &str, Option<&[u8]>); 3] = [
        ("show", Method::GET, "/servers/42", None),
        ("detail", Method::GET, "/servers/detail", None),
        ("create", Method::POST, "/servers", Some(&body)),
    ];
    for (name, method, path, payload) in cases {
        let mut group = c.benchmark_group(format!("request/{name}"));
        for (side, prefix, app) in [("plain", "/plain", &plain), ("framework", "/v2.1", &framework)] {
            let uri = format!("{prefix}{path}");
            let make = || {
                let mut req =
                    TestRequest::default().method(method.clone()).uri(&uri).insert_header(VERSION_HEADER);
                if let Some(bytes) = payload {
                    req = req.insert_header(("Content-Type", "application/json")).set_payload(bytes.to_vec());
                }
                req.to_request()
            };
            let res = rt.block_on(test::call_service(app, make()));
            assert!(res.status().is_success(), "{side} {name}: {}", res.status());
            group.bench_function(side, |b| {
                b.iter_batched(
                    make,
                    |req| {
                        rt.block_on(async {
                            let res = test::call_service(app, req).await;
                            test::read_body(res).await
                        })
                    },
                    BatchSize::SmallInput,
                )
            });
        }
        group.finish();
    }
}

criterion_group!(benches, request);
criterion_main!(benches);
