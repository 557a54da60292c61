//! Schema validation through the framework against the `jsonschema`
//! validator called directly on the same body (docs/reference.md §11: only the
//! validator's own cost, one parse, no per-request compilation).
//!
//! - `validate`: `VersionedSchemas::validate` at a version vs
//!   `Validator::is_valid` on the same parsed `Value`;
//! - `read_and_validate`: the generated route's path, `read_json_body` then
//!   `validate`, vs reading the payload, `serde_json::from_slice` and
//!   `is_valid`, from the same request;
//! - `compile`: what one compilation costs, the figure that would show in
//!   `validate` if a schema were compiled per request.
//!
//! Run: `cargo bench -p microversion-benches --bench schema`.

use std::hint::black_box;

use actix_web::dev::Payload;
use actix_web::test::TestRequest;
use actix_web::{HttpRequest, web};
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use futures_util::StreamExt;
use microversion_actix::body::read_json_body;
use microversion_benches::schema::{AT, create_server_body, create_server_schema, direct, versioned};

fn request(body: &[u8]) -> (HttpRequest, Payload) {
    TestRequest::post()
        .uri("/v2.1/servers")
        .insert_header(("Content-Type", "application/json"))
        .set_payload(body.to_vec())
        .to_http_parts()
}

fn schema(c: &mut Criterion) {
    let framework = versioned().expect("schemas compile");
    let validator = direct();
    let body = create_server_body();
    assert!(framework.validate(AT, &body).is_ok() && validator.is_valid(&body), "the body is valid");

    let mut group = c.benchmark_group("schema/validate");
    group.bench_function("framework", |b| b.iter(|| framework.validate(black_box(AT), black_box(&body))));
    group.bench_function("direct", |b| b.iter(|| validator.is_valid(black_box(&body))));
    group.finish();

    let bytes = serde_json::to_vec(&body).expect("serializes");
    let rt = actix_web::rt::System::new();
    let mut group = c.benchmark_group("schema/read_and_validate");
    group.bench_function("framework", |b| {
        b.iter_batched(
            || request(&bytes),
            |(req, mut payload)| {
                rt.block_on(async {
                    let value = read_json_body(&req, &mut payload).await.expect("reads");
                    framework.validate(AT, &value).expect("valid");
                    value
                })
            },
            BatchSize::SmallInput,
        )
    });
    group.bench_function("direct", |b| {
        b.iter_batched(
            || request(&bytes),
            |(_req, mut payload)| {
                rt.block_on(async {
                    let mut buf = web::BytesMut::new();
                    while let Some(chunk) = payload.next().await {
                        buf.extend_from_slice(&chunk.expect("reads"));
                    }
                    let value: serde_json::Value = serde_json::from_slice(&buf).expect("parses");
                    assert!(validator.is_valid(&value));
                    value
                })
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();

    let document = create_server_schema();
    c.bench_function("schema/compile_once", |b| {
        b.iter(|| jsonschema::options().should_validate_formats(true).build(black_box(&document)))
    });
}

criterion_group!(benches, schema);
criterion_main!(benches);
