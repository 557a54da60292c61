//! The selection against reading everything: on random clouds (flat or
//! nested, with or without sharing providers), every random request gives
//! the same candidates, summaries and errors from the selected trees as
//! from the whole graph; and the capacity clause in SQL keeps exactly the
//! inventories [`Inv::fits`] keeps.

use std::fmt::Write as _;

use microversion_actix::Version;

use super::super::{Features, parse, search};
use super::*;
use crate::query::Query;

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n`.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const CLASSES: [&str; 4] = ["VCPU", "MEMORY_MB", "DISK_GB", "SRIOV_NET_VF"];
const TRAITS: [&str; 5] =
    ["HW_CPU_X86_AVX2", "HW_CPU_X86_SSE", "STORAGE_DISK_SSD", "HW_NUMA_ROOT", "COMPUTE_VOLUME_MULTI_ATTACH"];
const AGGREGATES: [&str; 4] = [
    "11111111-1111-4111-8111-111111111111",
    "22222222-2222-4222-8222-222222222222",
    "33333333-3333-4333-8333-333333333333",
    "44444444-4444-4444-8444-444444444444",
];

fn uuid_of(id: usize) -> String {
    format!("00000000-0000-4000-8000-{id:012}")
}

/// What a cloud has.
#[derive(Clone, Copy)]
struct Shape {
    nested: bool,
    sharing: bool,
}

/// Writes a random cloud of `roots` trees; the number of providers.
async fn cloud(store: &Store, rng: &mut Rng, shape: Shape, roots: usize) -> usize {
    store
        .tx(async |tx| -> Result<_, StoreError> {
            let mut next = 0usize;
            let mut consumer = 0usize;
            for _ in 0..roots {
                next += 1;
                let root = next;
                let mut members = vec![(root, None)];
                if shape.nested {
                    for _ in 0..rng.below(4) {
                        next += 1;
                        let child = next;
                        members.push((child, Some(root)));
                        for _ in 0..rng.below(3) {
                            next += 1;
                            members.push((next, Some(child)));
                        }
                    }
                }
                let sharing = shape.sharing && members.len() == 1 && rng.chance(20);
                for (id, parent) in members {
                    tx.execute(
                        "INSERT INTO resource_providers (id, uuid, name, generation, parent_id, root_id, \
                         created_at, updated_at) VALUES ($1, $2, $2, 0, $3, $4, 0, 0)",
                        params![id as i64, uuid_of(id), parent.map(|p: usize| p as i64), root as i64],
                    )
                    .await?;
                    for class in CLASSES {
                        if !(rng.chance(45) || (sharing && class == "DISK_GB")) {
                            continue;
                        }
                        let total = 1 + rng.below(16) as i64;
                        let reserved = if rng.chance(30) { rng.below(3) as i64 } else { 0 };
                        let min_unit = 1 + rng.below(2) as i64;
                        let max_unit = (min_unit + rng.below(total as usize) as i64).min(total).max(min_unit);
                        let step = *rng.pick(&[1, 1, 2, 3]);
                        let ratio = *rng.pick(&[1.0, 1.0, 1.5, 0.5, 16.0]);
                        tx.execute(
                            "INSERT INTO inventories (provider_id, resource_class, total, reserved, min_unit, \
                             max_unit, step_size, allocation_ratio, created_at, updated_at) \
                             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0, 0)",
                            params![id as i64, class, total, reserved, min_unit, max_unit, step, ratio],
                        )
                        .await?;
                        for _ in 0..rng.below(3) {
                            consumer += 1;
                            tx.execute(
                                "INSERT INTO allocations (provider_id, consumer_uuid, resource_class, used, \
                                 created_at, updated_at) VALUES ($1, $2, $3, $4, 0, 0)",
                                params![id as i64, uuid_of(consumer), class, 1 + rng.below(4) as i64],
                            )
                            .await?;
                        }
                    }
                    let mut traits: Vec<&str> = TRAITS.iter().copied().filter(|_| rng.chance(35)).collect();
                    if sharing {
                        traits.push(SHARES);
                    }
                    for name in traits {
                        tx.execute(
                            "INSERT INTO provider_traits (provider_id, trait) VALUES ($1, $2)",
                            params![id as i64, name],
                        )
                        .await?;
                    }
                    for agg in AGGREGATES {
                        if rng.chance(if sharing { 60 } else { 25 }) {
                            tx.execute(
                                "INSERT INTO provider_aggregates (provider_id, aggregate) VALUES ($1, $2)",
                                params![id as i64, agg],
                            )
                            .await?;
                        }
                    }
                }
            }
            Ok(next)
        })
        .await
        .expect("the cloud is written")
}

/// A trait list as `required` takes it: names, `!` names, or `in:` names.
fn traits_value(rng: &mut Rng) -> String {
    let mut names: Vec<String> = Vec::new();
    for _ in 0..1 + rng.below(2) {
        let name = if rng.chance(5) { "CUSTOM_UNKNOWN" } else { *rng.pick(&TRAITS) };
        names.push(if rng.chance(30) { format!("!{name}") } else { name.to_owned() });
    }
    if rng.chance(20) {
        let a = rng.pick(&TRAITS);
        let b = rng.pick(&TRAITS);
        return format!("in:{a},{b}");
    }
    names.join(",")
}

fn aggregates_value(rng: &mut Rng) -> String {
    match rng.below(4) {
        0 => format!("in:{},{}", rng.pick(&AGGREGATES), rng.pick(&AGGREGATES)),
        1 => format!("!{}", rng.pick(&AGGREGATES)),
        2 => "55555555-5555-4555-8555-555555555555".to_owned(),
        _ => (*rng.pick(&AGGREGATES)).to_owned(),
    }
}

fn resources_value(rng: &mut Rng) -> String {
    let mut out: Vec<String> = Vec::new();
    for _ in 0..1 + rng.below(2) {
        let class = if rng.chance(3) { "CUSTOM_NONE" } else { *rng.pick(&CLASSES) };
        out.push(format!("{class}:{}", *rng.pick(&[1_i64, 1, 2, 3, 4, 6, 8, 16, 5_000_000_000])));
    }
    out.join(",")
}

/// A random query of allocation candidates on a cloud of `providers`.
fn random_query(rng: &mut Rng, providers: usize) -> String {
    let mut pairs: Vec<String> = Vec::new();
    let suffixes: Vec<&str> = match rng.below(4) {
        0 => vec![""],
        1 => vec!["", "1"],
        2 => vec!["1", "2"],
        _ => vec!["", "_A", "_B"],
    };
    for suffix in &suffixes {
        let resourceless = !suffix.is_empty() && rng.chance(10);
        if !resourceless {
            pairs.push(format!("resources{suffix}={}", resources_value(rng)));
        }
        if rng.chance(35) || resourceless {
            pairs.push(format!("required{suffix}={}", traits_value(rng)));
        }
        if rng.chance(30) {
            pairs.push(format!("member_of{suffix}={}", aggregates_value(rng)));
            if rng.chance(20) {
                pairs.push(format!("member_of{suffix}={}", aggregates_value(rng)));
            }
        }
        if rng.chance(15) {
            pairs.push(format!("in_tree{suffix}={}", uuid_of(1 + rng.below(providers + 1))));
        }
    }
    if suffixes.iter().filter(|s| !s.is_empty()).count() > 1 || rng.chance(20) {
        pairs.push(format!("group_policy={}", rng.pick(&["none", "isolate"])));
    }
    let named: Vec<&&str> = suffixes.iter().filter(|s| !s.is_empty()).collect();
    if named.len() == 2 && (rng.chance(30) || pairs.iter().any(|p| !p.starts_with("resources"))) {
        pairs.push(format!("same_subtree={},{}", named[0], named[1]));
    }
    if rng.chance(15) {
        pairs.push(format!(
            "root_required={}",
            traits_value(rng).trim_start_matches("in:").replace("in:", "")
        ));
    }
    if rng.chance(20) {
        pairs.push(format!("limit={}", 1 + rng.below(5)));
    }
    pairs.join("&")
}

/// The search's answer on `world`, written out by uuid.
fn answer(world: &World, groups: &[Group], wide: &Wide, nested: bool) -> String {
    let (requests, summaries) = match search(world, groups, wide, nested) {
        Ok(found) => found,
        Err(e) => return format!("error: {}", e.detail()),
    };
    let uuid = |i: usize| world.nodes[i].uuid.as_str();
    let mut out = String::new();
    for a in &requests {
        let resources: Vec<(&str, &str, i64)> =
            a.resources.iter().map(|r| (uuid(r.provider), r.class, r.amount)).collect();
        let mappings: Vec<(&str, Vec<&str>)> =
            a.mappings.iter().map(|(s, p)| (*s, p.iter().map(|&p| uuid(p)).collect())).collect();
        writeln!(out, "{} {resources:?} {mappings:?}", uuid(a.anchor)).expect("a string");
    }
    for &i in &summaries {
        let node = &world.nodes[i];
        let resources: Vec<(&Name, i64, i64)> =
            node.inventories.iter().map(|(c, inv)| (c, inv.capacity(), world.used(i, c))).collect();
        writeln!(
            out,
            "summary {} {resources:?} {:?} {:?} {}",
            node.uuid,
            node.trait_order,
            node.parent.map(uuid),
            uuid(node.root)
        )
        .expect("a string");
    }
    out
}

/// Random requests on four random clouds of `roots` trees each, in a fresh
/// store from `open` per cloud.
async fn same_answers(open: impl AsyncFn(usize) -> Store, roots: usize, queries: usize) {
    let shapes = [
        Shape { nested: false, sharing: false },
        Shape { nested: false, sharing: true },
        Shape { nested: true, sharing: false },
        Shape { nested: true, sharing: true },
    ];
    let mut compared = 0;
    let mut found = 0;
    for (n, shape) in shapes.into_iter().enumerate() {
        let store = open(n).await;
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ (n as u64 + 1));
        let providers = cloud(&store, &mut rng, shape, roots).await;
        for _ in 0..queries {
            let text = random_query(&mut rng, providers);
            for version in ["1.39", "1.28"] {
                let features = Features::at(Version::lit(version));
                let Ok((groups, wide)) = parse(features, &Query::parse(&text)) else { continue };
                let (selected, always, everything) = store
                    .read(async |tx| -> Result<_, StoreError> {
                        Ok((
                            read(tx, &groups, &wide, Reach::Selected, store.cloud()).await?,
                            read(tx, &groups, &wide, Reach::AlwaysSelected, &CloudCache::default()).await?,
                            read(tx, &groups, &wide, Reach::Everything, &CloudCache::default()).await?,
                        ))
                    })
                    .await
                    .expect("the graph is read");
                let want = answer(&everything, &groups, &wide, features.changes.nested);
                assert_eq!(
                    answer(&always, &groups, &wide, features.changes.nested),
                    want,
                    "{text} at {version}"
                );
                assert_eq!(
                    answer(&selected, &groups, &wide, features.changes.nested),
                    want,
                    "{text} at {version}"
                );
                compared += 1;
                if want.lines().next().is_some_and(|l| !l.starts_with("error")) {
                    found += 1;
                }
            }
        }
    }
    // The requests are not all refused or empty.
    assert!(compared > queries && found > queries / 4, "{compared} compared, {found} with candidates");
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime")
}

#[test]
fn selected_trees_answer_as_the_whole_graph_on_sqlite() {
    runtime().block_on(same_answers(async |_| Store::in_memory().await.expect("a store"), 40, 300));
}

#[test]
fn selected_trees_answer_as_the_whole_graph_on_postgres() {
    let pg = microversion_testkit::postgres::PgServer::start();
    runtime().block_on(same_answers(
        async |n| {
            let url = pg.create_database(&format!("select_{n}"));
            Store::connect(&url).await.expect("a store")
        },
        25,
        120,
    ));
}

/// The same answers, on a random cloud in `store`, from a copy of the cloud
/// capped below it (every tree read from the tables, nothing kept) as from
/// one kept; a cap the cloud fits keeps it.
async fn capped_answers_as_kept(store: Store, roots: usize, queries: usize) {
    let mut rng = Rng(0x05ee_dca9);
    let providers = cloud(&store, &mut rng, Shape { nested: true, sharing: true }, roots).await;
    let kept = CloudCache::default();
    let capped = CloudCache::capped(providers / 3);
    let mut compared = 0;
    for n in 0..queries {
        // Every other request with no narrowing at all: it reads the
        // whole cloud, from the copy or from the tables.
        let text = if n % 2 == 0 {
            random_query(&mut rng, providers)
        } else {
            format!("resources={}", resources_value(&mut rng))
        };
        for version in ["1.39", "1.28"] {
            let features = Features::at(Version::lit(version));
            let Ok((groups, wide)) = parse(features, &Query::parse(&text)) else { continue };
            let (from_copy, from_tables, whole_copy, whole_tables) = store
                .read(async |tx| -> Result<_, StoreError> {
                    Ok((
                        read(tx, &groups, &wide, Reach::Selected, &kept).await?,
                        read(tx, &groups, &wide, Reach::Selected, &capped).await?,
                        read(tx, &groups, &wide, Reach::Everything, &kept).await?,
                        read(tx, &groups, &wide, Reach::Everything, &capped).await?,
                    ))
                })
                .await
                .expect("the graph is read");
            let nested = features.changes.nested;
            let want = answer(&from_copy, &groups, &wide, nested);
            assert_eq!(answer(&from_tables, &groups, &wide, nested), want, "{text} at {version}");
            assert_eq!(answer(&whole_tables, &groups, &wide, nested), want, "{text} at {version}");
            assert_eq!(answer(&whole_copy, &groups, &wide, nested), want, "{text} at {version}");
            assert_eq!(whole(&whole_tables), whole(&whole_copy), "{text} at {version}");
            compared += 1;
        }
    }
    assert!(compared > queries, "{compared} compared");
    assert!(kept.get().is_some_and(|cloud| cloud.ids.len() == providers), "the copy is kept");
    assert!(capped.get().is_none(), "past the cap, nothing is kept");
    // The store's own copy, capped at the cloud's size, keeps it.
    let store = store.with_cloud_cap(providers);
    store
        .read(async |tx| read(tx, &[], &Wide::default(), Reach::Everything, store.cloud()).await)
        .await
        .expect("the cloud is read");
    assert!(store.cloud().get().is_some(), "a cloud within the cap is kept");
}

#[test]
fn a_capped_copy_of_the_cloud_answers_as_a_kept_one_on_sqlite() {
    runtime().block_on(async {
        capped_answers_as_kept(Store::in_memory().await.expect("a store"), 40, 200).await;
    });
}

#[test]
fn a_capped_copy_of_the_cloud_answers_as_a_kept_one_on_postgres() {
    let pg = microversion_testkit::postgres::PgServer::start();
    let url = pg.create_database("capped_copy");
    runtime().block_on(async {
        capped_answers_as_kept(Store::connect(&url).await.expect("a store"), 25, 80).await;
    });
}

/// The whole cloud as `world` holds it, what is used of it included.
fn whole(world: &World) -> String {
    format!("{:?}\n{:?}\n{}", world.nodes, world.used, world.has_trees)
}

/// Writes, each a change of the cloud the search keeps, or not (`false`).
const WRITES: [(&str, bool); 13] = [
    (
        "UPDATE inventories SET total = total + 1 WHERE provider_id = (SELECT MIN(provider_id) FROM inventories)",
        true,
    ),
    (
        "INSERT INTO inventories (provider_id, resource_class, total, reserved, min_unit, max_unit, step_size, \
         allocation_ratio, created_at, updated_at) SELECT MIN(id), 'VCPU', 8, 0, 1, 8, 1, 1.0, 0, 0 \
         FROM resource_providers WHERE id NOT IN (SELECT provider_id FROM inventories WHERE resource_class = 'VCPU')",
        true,
    ),
    ("DELETE FROM inventories WHERE provider_id = (SELECT MAX(provider_id) FROM inventories)", true),
    (
        "INSERT INTO provider_traits (provider_id, trait) SELECT MIN(id), 'CUSTOM_GOLD' FROM resource_providers",
        true,
    ),
    ("DELETE FROM provider_traits WHERE provider_id = (SELECT MAX(provider_id) FROM provider_traits)", true),
    (
        "INSERT INTO provider_aggregates (provider_id, aggregate) \
         SELECT MAX(id), '55555555-5555-4555-8555-555555555555' FROM resource_providers",
        true,
    ),
    (
        "DELETE FROM provider_aggregates WHERE provider_id = (SELECT MIN(provider_id) FROM provider_aggregates)",
        true,
    ),
    // A leaf of a tree made a root.
    (
        "UPDATE resource_providers SET parent_id = NULL, root_id = id WHERE id = (SELECT MAX(id) FROM \
         resource_providers WHERE parent_id IS NOT NULL AND id NOT IN \
         (SELECT parent_id FROM resource_providers WHERE parent_id IS NOT NULL))",
        true,
    ),
    // The last provider removed, and another made under its id.
    (
        "DELETE FROM allocations WHERE provider_id = (SELECT MAX(id) FROM resource_providers); \
         DELETE FROM inventories WHERE provider_id = (SELECT MAX(id) FROM resource_providers); \
         DELETE FROM provider_traits WHERE provider_id = (SELECT MAX(id) FROM resource_providers); \
         DELETE FROM provider_aggregates WHERE provider_id = (SELECT MAX(id) FROM resource_providers); \
         DELETE FROM resource_providers WHERE id = (SELECT MAX(id) FROM resource_providers) \
         AND id NOT IN (SELECT parent_id FROM resource_providers WHERE parent_id IS NOT NULL)",
        true,
    ),
    (
        "INSERT INTO resource_providers (id, uuid, name, generation, parent_id, root_id, created_at, updated_at) \
         SELECT MAX(id) + 1, 'ffffffff-0000-4000-8000-000000000000', 'again', 0, NULL, MAX(id) + 1, 0, 0 \
         FROM resource_providers",
        true,
    ),
    // An inventory written again as it was, a rename and a claim change
    // nothing the copy holds.
    (
        "UPDATE inventories SET total = total, updated_at = updated_at + 1 \
         WHERE provider_id = (SELECT MIN(provider_id) FROM inventories)",
        false,
    ),
    (
        "UPDATE resource_providers SET name = name || '-renamed', generation = generation + 1 WHERE id = 1",
        false,
    ),
    (
        "INSERT INTO allocations (provider_id, consumer_uuid, resource_class, used, created_at, updated_at) \
         SELECT provider_id, 'eeeeeeee-0000-4000-8000-000000000000', resource_class, 1, 0, 0 FROM inventories \
         WHERE provider_id = (SELECT MIN(provider_id) FROM inventories) LIMIT 1",
        false,
    ),
];

/// A node's copy of the whole cloud (`reader`'s) after each write of
/// [`WRITES`] by `writer`: read again after a change, kept after anything
/// else, and always what the tables hold.
async fn the_copy_follows_every_change(reader: &Store, writer: &Store) {
    cloud(writer, &mut Rng(11), Shape { nested: true, sharing: true }, 12).await;
    let cached = async || {
        reader
            .read(async |tx| read(tx, &[], &Wide::default(), Reach::Everything, reader.cloud()).await)
            .await
            .expect("the cloud is read")
    };
    let from_tables = async || {
        reader
            .read(async |tx| read(tx, &[], &Wide::default(), Reach::Everything, &CloudCache::default()).await)
            .await
            .expect("the cloud is read")
    };
    let mut before = cached().await;
    assert!(Arc::ptr_eq(&cached().await.nodes, &before.nodes), "nothing changed: the copy is kept");
    for (n, (sql, changes)) in WRITES.into_iter().enumerate() {
        let mut written = 0;
        for statement in sql.split("; ") {
            written += writer
                .tx(async |tx| -> Result<u64, StoreError> { tx.execute(statement, params![]).await })
                .await
                .expect("the write is carried out");
        }
        assert!(written > 0, "write {n} changed no row: {sql}");
        let now = cached().await;
        assert_eq!(whole(&now), whole(&from_tables().await), "after write {n}: {sql}");
        assert_eq!(!Arc::ptr_eq(&now.nodes, &before.nodes), changes, "after write {n}: {sql}");
        before = now;
    }
}

#[test]
fn the_copy_of_the_cloud_follows_every_change_on_sqlite() {
    runtime().block_on(async {
        let store = Store::in_memory().await.expect("a store");
        the_copy_follows_every_change(&store, &store).await;
    });
}

#[test]
fn a_sqlite_file_made_before_revisions_gains_them() {
    let dir = std::env::temp_dir().join(format!("placement-revisions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let file = dir.join("old.sqlite");
    let old = rusqlite::Connection::open(&file).expect("an old file");
    old.execute_batch(
        "CREATE TABLE resource_providers (id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE, \
         name TEXT NOT NULL UNIQUE, generation INTEGER NOT NULL DEFAULT 0, \
         parent_id INTEGER REFERENCES resource_providers(id), root_id INTEGER, \
         created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL); \
         INSERT INTO resource_providers VALUES (1000, 'dddddddd-0000-4000-8000-000000000000', 'old', 0, NULL, 1000, 0, 0);",
    )
    .expect("the old schema");
    drop(old);
    runtime().block_on(async {
        let store = Store::connect(file.to_str().expect("a path")).await.expect("the old file opens");
        // The old provider, last by id, is removed and made again under its id.
        the_copy_follows_every_change(&store, &store).await;
    });
    std::fs::remove_dir_all(&dir).expect("the temp dir is removed");
}

#[test]
fn a_node_copy_of_the_cloud_follows_another_node_change_on_postgres() {
    let pg = microversion_testkit::postgres::PgServer::start();
    let url = pg.create_database("copy");
    runtime().block_on(async {
        let (reader, writer) =
            (Store::connect(&url).await.expect("a node"), Store::connect(&url).await.expect("a node"));
        the_copy_follows_every_change(&reader, &writer).await;
    });
}

/// Every provider with an inventory of `class` and room for `amount`, as
/// the search checks it in memory.
fn fit_in_memory(world: &World, class: &str, amount: i64) -> BTreeSet<String> {
    (0..world.nodes.len())
        .filter(|&i| {
            world.nodes[i].inventory(class).is_some_and(|inv| inv.fits(world.used(i, class), amount))
        })
        .map(|i| world.nodes[i].uuid.clone())
        .collect()
}

#[test]
fn the_capacity_clause_keeps_what_fits() {
    runtime().block_on(async {
        let store = Store::in_memory().await.expect("a store");
        let mut rng = Rng(7);
        cloud(&store, &mut rng, Shape { nested: true, sharing: true }, 60).await;
        let everything = Group::default();
        store
            .read(async |tx| -> Result<_, StoreError> {
                let world =
                    read(tx, &[], &Wide::default(), Reach::Everything, &CloudCache::default()).await?;
                let mut kept = 0;
                for class in CLASSES {
                    for amount in (1..=40).chain([MAX_INT]) {
                        let sql = fits(class, amount, &everything, false, None);
                        let found: BTreeSet<String> = tx
                            .query_sql(&sql, |r| r.get::<i64>(0))
                            .await?
                            .into_iter()
                            .map(|id| uuid_of(id as usize))
                            .collect();
                        assert_eq!(found, fit_in_memory(&world, class, amount), "{class}:{amount}");
                        kept += found.len();
                    }
                }
                assert!(kept > 100, "{kept}");
                Ok(())
            })
            .await
            .expect("the reads");
    });
}
