//! How the per-request cost grows with the size of a declaration: header
//! negotiation and a whole in-process request through the middleware for
//! APIs of 10, 100 and 1000 versions (histories built at run time and
//! leaked once). Dispatch against the number of variants (2 to 512) is in
//! the `dispatch` bench; schema lookup against the number of schemas of one
//! variant is here.
//!
//! Run: `cargo bench -p microversion-benches --bench scaling`.

use std::hint::black_box;

use actix_web::App;
use actix_web::test::{self, TestRequest};
use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};
use microversion_actix::{
    Version,
    schema::{SchemaSource, VersionedSchemas},
    version::VersionRange,
};
use microversion_benches::history::leaked_api;
use microversion_benches::server::configure_versioned;
use serde_json::json;

const SIZES: [u16; 3] = [10, 100, 1000];

fn headers(version: &'static str) -> [(&'static str, &'static str); 5] {
    [
        ("Host", "127.0.0.1:8774"),
        ("User-Agent", "python-novaclient"),
        ("Accept", "application/json"),
        ("X-Auth-Token", "gAAAAABk0123456789abcdef"),
        ("OpenStack-API-Version", version),
    ]
}

fn negotiation(c: &mut Criterion) {
    let mut group = c.benchmark_group("scaling/negotiate");
    for n in SIZES {
        let api = leaked_api(n);
        for (case, header) in [("explicit", "compute 2.9"), ("latest", "compute latest")] {
            let hs = headers(header);
            group.bench_with_input(BenchmarkId::new(case, n), &hs, |b, hs| {
                b.iter(|| api.negotiate(black_box(hs).iter().map(|(n, v)| (*n, *v))))
            });
        }
    }
    group.finish();
}

fn request(c: &mut Criterion) {
    let rt = actix_web::rt::System::new();
    let mut group = c.benchmark_group("scaling/request");
    for n in SIZES {
        let app = rt.block_on(test::init_service(App::new().configure(configure_versioned(leaked_api(n)))));
        let make = || {
            TestRequest::get()
                .uri("/v2.1/servers/42")
                .insert_header(("OpenStack-API-Version", "compute 2.9"))
                .to_request()
        };
        let res = rt.block_on(test::call_service(&app, make()));
        assert!(res.status().is_success(), "{n} versions: {}", res.status());
        group.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter_batched(
                make,
                |req| rt.block_on(async { test::read_body(test::call_service(&app, req).await).await }),
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

/// One variant carrying `count` schemas, one per version 2.1 to 2.`count`:
/// the lookup of the schema of the newest version.
fn schema_lookup(c: &mut Criterion) {
    let mut group = c.benchmark_group("scaling/schema_for");
    for count in [1u16, 10, 100] {
        let sources: Vec<SchemaSource> = (1..=count)
            .map(|minor| SchemaSource {
                name: "s",
                range: if minor == count {
                    VersionRange::from(Version::new(2, minor))
                } else {
                    VersionRange::only(Version::new(2, minor))
                },
                schema: || json!({"type": "object"}),
            })
            .collect();
        let set = VersionedSchemas::compile(&sources).expect("compiles");
        let newest = Version::new(2, count);
        group.bench_function(BenchmarkId::from_parameter(count), |b| {
            b.iter(|| set.schema_for(black_box(newest)).map(|s| s.name()))
        });
    }
    group.finish();
}

criterion_group!(benches, negotiation, request, schema_lookup);
criterion_main!(benches);
