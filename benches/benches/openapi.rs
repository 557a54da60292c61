//! The API described: building every document of an API with 1,000
//! versions and 100 operations (each with three variants, a body schema per
//! variant and a versioned response), the whole-history document, and
//! serving one document from the built set.
//!
//! Run: `cargo bench -p microversion-benches --bench openapi`.

use std::hint::black_box;

use actix_web::App;
use actix_web::test::{self, TestRequest};
use criterion::{Criterion, criterion_group, criterion_main};
use microversion_actix::openapi::{ApiDescription, OpenApiService};
use microversion_actix::{
    Version,
    operation::{Operation, OperationVariant, ResponseDescription, SchemaDescription, SchemaDocument},
    version::VersionRange,
};
use microversion_benches::history::leaked_api;
use serde_json::{Value, json};

const VERSIONS: u16 = 1000;
const OPERATIONS: usize = 100;

fn body() -> Value {
    json!({"type": "object", "required": ["server"], "properties": {"server": {"type": "object",
        "properties": {"name": {"type": "string", "maxLength": 255}, "flavor": {"type": "string"}}}}})
}

/// A response whose schema gains a field every 250 versions.
fn view(version: Version) -> Value {
    let fields = 1 + version.minor() / 250;
    let properties: serde_json::Map<String, Value> =
        (0..fields).map(|i| (format!("field_{i}"), json!({"type": "string"}))).collect();
    json!({"type": "object", "properties": properties})
}

/// 100 operations, each with variants 2.1 to 2.333, 2.334 to 2.666, and
/// 2.667 on; leaked once, as `Controller::OPERATIONS` is static.
fn operations() -> &'static [Operation] {
    let ranges = [
        VersionRange::between(Version::new(2, 1), Version::new(2, 333)),
        VersionRange::between(Version::new(2, 334), Version::new(2, 666)),
        VersionRange::from(Version::new(2, 667)),
    ];
    let variants: &'static [OperationVariant] = Vec::leak(
        ranges
            .iter()
            .map(|range| OperationVariant {
                range: *range,
                schemas: Vec::leak(vec![SchemaDescription {
                    name: "body",
                    range: *range,
                    document: SchemaDocument::Fixed(body),
                }]),
                query_schemas: &[],
                response: Some(ResponseDescription {
                    status: 200,
                    body: Some(SchemaDocument::AtVersion(view)),
                    body_name: Some("model View"),
                }),
                errors: &[404],
                deprecation: None,
                doc: "",
                changes: &[],
                examples: &[],
            })
            .collect(),
    );
    Vec::leak(
        (0..OPERATIONS)
            .map(|i| Operation {
                name: "update",
                http_method: Some("PUT"),
                path: Some(String::leak(format!("/resources{i}/{{id}}"))),
                variants,
                missing_status: 404,
            })
            .collect(),
    )
}

fn building(c: &mut Criterion) {
    let description =
        ApiDescription::new(leaked_api(VERSIONS)).with_prefix("/v2").with_operations(operations());
    let mut group = c.benchmark_group("openapi/build");
    group.sample_size(10);
    group.bench_function("every_version_1000x100", |b| {
        b.iter(|| {
            description
                .versions()
                .map(|v| description.document(black_box(v)).as_object().map_or(0, |o| o.len()))
                .sum::<usize>()
        })
    });
    group.bench_function("history_1000x100", |b| b.iter(|| description.history_document()));
    group.finish();
}

fn serving(c: &mut Criterion) {
    let description =
        ApiDescription::new(leaked_api(VERSIONS)).with_prefix("/v2").with_operations(operations());
    let runtime = actix_web::rt::System::new();
    let app = runtime.block_on(test::init_service(App::new().service(OpenApiService::new(description))));
    c.bench_function("openapi/serve_one_of_1000", |b| {
        b.iter(|| {
            runtime.block_on(async {
                let req = TestRequest::get().uri("/openapi.json?version=2.500").to_request();
                test::call_service(&app, req).await.status()
            })
        })
    });
}

criterion_group!(benches, building, serving);
criterion_main!(benches);
