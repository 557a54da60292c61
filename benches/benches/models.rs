//! Rendering a list of versioned models from data the service holds: the
//! models copy each string they show (`String` fields, what the derive
//! allowed before it took lifetimes), or borrow it (`&str` fields). Both
//! sides build their list of N models from the same rows and serialize it at
//! the same version into a reused buffer, so the difference is the copies.
//!
//! Run: `cargo bench -p microversion-benches --bench models`.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use microversion_actix::{Version, VersionedModel};

/// A provider as the service holds it (a row read from its store).
struct Row {
    uuid: String,
    name: String,
    generation: i64,
    parent: Option<String>,
    root: String,
    traits: Vec<String>,
}

/// A provider's summary that copies what it shows.
#[derive(VersionedModel)]
struct OwnedSummary {
    uuid: String,
    name: String,
    generation: i64,
    #[versioned(since = "1.14")]
    parent_provider_uuid: Option<String>,
    #[versioned(since = "1.14", default)]
    root_provider_uuid: String,
    #[versioned(since = "1.17", skip_none)]
    traits: Option<Vec<String>>,
}

/// The same summary, borrowing from the row.
#[derive(VersionedModel)]
struct Summary<'a> {
    uuid: &'a str,
    name: &'a str,
    generation: i64,
    #[versioned(since = "1.14")]
    parent_provider_uuid: Option<&'a str>,
    #[versioned(since = "1.14", default)]
    root_provider_uuid: &'a str,
    #[versioned(since = "1.17", skip_none)]
    traits: Option<&'a [String]>,
}

/// The list either summary is rendered in.
#[derive(VersionedModel)]
struct List<T> {
    #[versioned(nested)]
    resource_providers: Vec<T>,
}

fn owned(row: &Row) -> OwnedSummary {
    OwnedSummary {
        uuid: row.uuid.clone(),
        name: row.name.clone(),
        generation: row.generation,
        parent_provider_uuid: row.parent.clone(),
        root_provider_uuid: row.root.clone(),
        traits: Some(row.traits.clone()),
    }
}

fn borrowed(row: &Row) -> Summary<'_> {
    Summary {
        uuid: &row.uuid,
        name: &row.name,
        generation: row.generation,
        parent_provider_uuid: row.parent.as_deref(),
        root_provider_uuid: &row.root,
        traits: Some(&row.traits),
    }
}

fn rows(n: usize) -> Vec<Row> {
    (0..n)
        .map(|i| Row {
            uuid: format!("{i:08x}-1d5c-4a1b-9f11-6c8e2b3a4d5e"),
            name: format!("compute-{i}.example.org"),
            generation: i as i64,
            parent: (i % 4 != 0).then(|| format!("{:08x}-1d5c-4a1b-9f11-6c8e2b3a4d5e", i - i % 4)),
            root: format!("{:08x}-1d5c-4a1b-9f11-6c8e2b3a4d5e", i - i % 4),
            traits: vec!["HW_CPU_X86_AVX2".into(), "COMPUTE_STATUS_DISABLED".into(), "CUSTOM_GOLD".into()],
        })
        .collect()
}

const AT: Version = Version::lit("1.17");

/// What a handler does: the list of models made from the rows, rendered.
fn render<'a, M: VersionedModel>(out: &mut Vec<u8>, rows: &'a [Row], summary: fn(&'a Row) -> M) -> usize {
    out.clear();
    let list = List { resource_providers: rows.iter().map(summary).collect() };
    serde_json::to_writer(&mut *out, &list.at(black_box(AT))).expect("serializes");
    black_box(out.len())
}

fn models(c: &mut Criterion) {
    let mut group = c.benchmark_group("models/list");
    for n in [10, 100, 1000] {
        let rows = rows(n);
        let owned_list = List { resource_providers: rows.iter().map(owned).collect() };
        let borrowed_list = List { resource_providers: rows.iter().map(borrowed).collect() };
        let (a, b) = (serde_json::to_vec(&owned_list.at(AT)), serde_json::to_vec(&borrowed_list.at(AT)));
        assert_eq!(a.expect("serializes"), b.expect("serializes"), "both render the same body");
        let mut out = Vec::with_capacity(256 * n);
        group.bench_with_input(BenchmarkId::new("owned", n), &rows, |bench, rows| {
            bench.iter(|| render(&mut out, rows, owned))
        });
        group.bench_with_input(BenchmarkId::new("borrowed", n), &rows, |bench, rows| {
            bench.iter(|| render(&mut out, rows, borrowed))
        });
    }
    group.finish();
}

criterion_group!(benches, models);
criterion_main!(benches);
