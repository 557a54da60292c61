//! A request at the oldest of eleven versions, served by a head handler
//! through ten version changes (ten typed upgrades of its body, ten
//! downgrades of its answer) and by the same-named variant of that version,
//! side by side; and the same at the head, where neither walks. The whole
//! request is measured: negotiation, body read and parsed, handler, answer
//! written (`benches/src/changes.rs`). Instructions, not time:
//! `scripts/changes_instructions.sh`.
//!
//! Run: `cargo bench -p microversion-benches --bench changes`.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use microversion_benches::changes::{Variants, Walked, answer, router};

fn bench(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    let (walked, variants) = (router(Walked), router(Variants));
    let mut group = c.benchmark_group("version_changes");
    for minor in [0u16, 10] {
        group.bench_with_input(BenchmarkId::new("ten_changes", format!("1.{minor}")), &minor, |b, &minor| {
            b.iter(|| runtime.block_on(answer(&walked, minor)))
        });
        group.bench_with_input(BenchmarkId::new("variants", format!("1.{minor}")), &minor, |b, &minor| {
            b.iter(|| runtime.block_on(answer(&variants, minor)))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
