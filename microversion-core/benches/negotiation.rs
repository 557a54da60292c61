//! Header extraction and negotiation for typical, multi-service and legacy headers.
//! Run: `cargo bench -p microversion-core --bench negotiation`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use microversion_core::{Api, Microversion, Version};

static HISTORY: [Microversion; 3] =
    [Microversion::new("2.1", "a"), Microversion::new("2.27", "b"), Microversion::new("2.96", "c")];
const API: Api = Api::new("compute", &HISTORY).with_legacy_headers(&["X-OpenStack-Nova-API-Version"]);

/// The headers a client like python-novaclient sends besides the version.
fn request(version_headers: &[(&'static str, &'static str)]) -> Vec<(&'static str, &'static str)> {
    let mut headers = vec![
        ("Host", "127.0.0.1:8774"),
        ("User-Agent", "python-novaclient"),
        ("Accept", "application/json"),
        ("X-Auth-Token", "gAAAAABk0123456789abcdef"),
    ];
    headers.extend_from_slice(version_headers);
    headers
}

fn negotiation(c: &mut Criterion) {
    let cases = [
        ("typical", request(&[("OpenStack-API-Version", "compute 2.27")])),
        (
            "multi_service",
            request(&[("OpenStack-API-Version", "volume 3.5, placement 1.10, compute 2.27, identity 3.1")]),
        ),
        ("legacy", request(&[("X-OpenStack-Nova-API-Version", "2.27")])),
    ];
    let mut group = c.benchmark_group("negotiate");
    for (name, headers) in &cases {
        group.bench_function(*name, |b| {
            b.iter(|| API.negotiate(black_box(headers).iter().map(|(n, v)| (*n, *v))))
        });
    }
    group.finish();
    c.bench_function("parse_version", |b| b.iter(|| black_box("2.27").parse::<Version>()));
}

criterion_group!(benches, negotiation);
criterion_main!(benches);
