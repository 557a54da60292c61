//! The candidates search's reads, a part of the store: which providers a
//! request can use, selected in SQL through indexes, then the rows of their
//! trees only, all in one read-only transaction (one snapshot, one pooled
//! connection).
//!
//! The search ([`super::search`]) then runs in memory on that part of the
//! provider graph as it would on the whole: the part is made of whole trees
//! and holds every tree a candidate, its anchor or its summary can reach,
//! and what the search would otherwise learn from the whole cloud (whether
//! any provider has a parent, whether a group's `member_of` names any
//! provider, whether any root passes `root_required`) is asked of the
//! database and kept beside it.
//!
//! Per request group with resources, for each of its classes, the providers
//! with an inventory of the class with room for the amount (Placement's
//! `_capacity_check_clause`: used + amount within (total - reserved) ×
//! allocation ratio, min_unit, max_unit, step_size), narrowed where the
//! search narrows each provider on its own:
//!
//! - `in_tree`: to the providers of that tree (by root);
//! - `member_of`: to the providers in the aggregates (by aggregate), or,
//!   when a group may span a tree, also to those whose root is;
//! - forbidden aggregates: not the provider (nor, spanning, its root);
//! - required and forbidden traits, when the group is met by one provider.
//!
//! Then the trees of those providers, of every sharing provider, and of the
//! providers sharing an aggregate with a sharing provider that has room
//! (its anchors).
//!
//! A request that may reach most of the cloud reads every tree instead:
//! from the node's copy of the whole cloud when no provider was revised
//! since it was read ([`CloudCache`]), with what is used of it read anew;
//! from the tables, for this request only, when the cloud has more
//! providers than the copy may hold ([`CloudCache::capped`]).

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, PoisonError};

use foldhash::HashMap;

use crate::db::StoreError;

use super::{Group, Inv, Name, Node, SHARES, Wide, World};
use crate::db::{Row, Sql, Tx, Value, params};
use crate::store::Store;

/// The most values of one `IN` list; shorter lists are padded (their last
/// value repeated) to a power of two, so that a few shapes of each
/// statement serve every request and stay prepared.
const CHUNK: usize = 1024;

/// The largest amount an inventory can take (its `max_unit` is at most
/// this): a larger request fits nowhere, and no SQL adds it to a usage.
const MAX_INT: i64 = 2_147_483_647;

/// `values` in lists of at most [`CHUNK`], each padded to a power of two.
fn chunks<T: Clone>(values: &[T]) -> impl Iterator<Item = Vec<T>> + '_ {
    values.chunks(CHUNK).map(|chunk| {
        let mut padded = chunk.to_vec();
        padded.resize(chunk.len().next_power_of_two(), chunk[chunk.len() - 1].clone());
        padded
    })
}

/// The rows of `head (values...) tail` for every chunk of `values`, each
/// read by `f`.
async fn by_chunks<T, V: Clone + Into<Value>>(
    tx: &Tx,
    head: &'static str,
    values: &[V],
    tail: &'static str,
    f: impl Fn(&Row) -> Result<T, StoreError>,
) -> Result<Vec<T>, StoreError> {
    let mut out = Vec::new();
    for chunk in chunks(values) {
        let mut sql = Sql::new(head);
        sql.list(chunk).push(tail);
        out.extend(tx.query_sql(&sql, &f).await?);
    }
    Ok(out)
}

fn ids<T: Copy>(set: &BTreeSet<T>) -> Vec<T> {
    set.iter().copied().collect()
}

/// `in_tree`'s uuid as the providers' are written (hyphenated, lower case).
pub(super) fn tree_uuid(tree: &str) -> String {
    uuid::Uuid::try_parse(tree).map(|u| u.hyphenated().to_string()).unwrap_or_else(|_| tree.to_owned())
}

/// The providers in every one of `member_of`'s lists (in any aggregate of
/// each): Placement's `provider_ids_matching_aggregates`.
async fn in_aggregates(tx: &Tx, member_of: &[Vec<String>]) -> Result<BTreeSet<i64>, StoreError> {
    let mut out: Option<BTreeSet<i64>> = None;
    for any in member_of {
        let found: BTreeSet<i64> =
            by_chunks(tx, "SELECT provider_id FROM provider_aggregates WHERE aggregate IN ", any, "", |r| {
                r.get(0)
            })
            .await?
            .into_iter()
            .collect();
        let both = match out {
            None => found,
            Some(before) => &before & &found,
        };
        if both.is_empty() {
            return Ok(both);
        }
        out = Some(both);
    }
    Ok(out.unwrap_or_default())
}

/// The providers of the tree of the provider `tree` names.
async fn tree_members(tx: &Tx, tree: &str) -> Result<BTreeSet<i64>, StoreError> {
    Ok(tx
        .query_map(
            "SELECT p.id FROM resource_providers p JOIN resource_providers t ON t.root_id = p.root_id \
             WHERE t.uuid = $1",
            params![tree_uuid(tree)],
            |r| r.get(0),
        )
        .await?
        .into_iter()
        .collect())
}

/// The providers a group's search may keep before capacity, when its
/// `in_tree` or `member_of` narrows them (`None`: every provider), each
/// provider on its own: the tree's, in the aggregates.
async fn scope(tx: &Tx, group: &Group, in_aggs: &BTreeSet<i64>) -> Result<Option<BTreeSet<i64>>, StoreError> {
    let tree = match &group.in_tree {
        Some(tree) => Some(tree_members(tx, tree).await?),
        None => None,
    };
    Ok(match (tree, group.member_of.is_empty()) {
        (tree, true) => tree,
        (None, false) => Some(in_aggs.clone()),
        (Some(tree), false) => Some(&tree & in_aggs),
    })
}

/// The statement selecting (provider, root) of the providers with room for
/// `amount` of `class`, narrowed by `group` (see the module's comment),
/// among `scope` when given.
fn fits(class: &str, amount: i64, group: &Group, spanning: bool, scope: Option<Vec<i64>>) -> Sql {
    let mut sql = Sql::new(
        "SELECT i.provider_id, p.root_id FROM inventories i JOIN resource_providers p ON p.id = i.provider_id \
         WHERE i.resource_class = ",
    );
    sql.bind(class);
    if let Some(scope) = scope {
        sql.push(" AND i.provider_id IN ").list(scope);
    }
    sql.push(" AND i.min_unit <= ").bind(amount);
    sql.push(" AND i.max_unit >= ").bind(amount);
    sql.push(" AND ").bind(amount).push(" % i.step_size = 0");
    sql.push(
        " AND COALESCE((SELECT CAST(SUM(a.used) AS BIGINT) FROM allocations a \
         WHERE a.provider_id = i.provider_id AND a.resource_class = i.resource_class), 0) + ",
    )
    .bind(amount)
    .push(" <= (i.total - i.reserved) * i.allocation_ratio");
    if !group.forbidden_aggs.is_empty() {
        sql.push(if spanning {
            " AND NOT EXISTS (SELECT 1 FROM provider_aggregates g \
             WHERE g.provider_id IN (i.provider_id, p.root_id) AND g.aggregate IN "
        } else {
            " AND NOT EXISTS (SELECT 1 FROM provider_aggregates g WHERE g.provider_id = i.provider_id AND g.aggregate IN "
        })
        .list(group.forbidden_aggs.iter().cloned())
        .push(")");
    }
    if !spanning {
        for any in &group.required {
            sql.push(" AND EXISTS (SELECT 1 FROM provider_traits t WHERE t.provider_id = i.provider_id AND t.trait IN ")
                .list(any.iter().cloned())
                .push(")");
        }
        if !group.forbidden.is_empty() {
            sql.push(
                " AND NOT EXISTS (SELECT 1 FROM provider_traits t WHERE t.provider_id = i.provider_id AND t.trait IN ",
            )
            .list(group.forbidden.iter().cloned())
            .push(")");
        }
    }
    sql
}

/// Whether any root has every trait of `required` and none of `forbidden`.
async fn any_root_with(
    tx: &Tx,
    required: &BTreeSet<String>,
    forbidden: &BTreeSet<String>,
) -> Result<bool, StoreError> {
    let mut sql = Sql::new("SELECT 1 FROM resource_providers p WHERE p.parent_id IS NULL");
    for name in required {
        sql.push(" AND EXISTS (SELECT 1 FROM provider_traits t WHERE t.provider_id = p.id AND t.trait = ")
            .bind(name.as_str())
            .push(")");
    }
    if !forbidden.is_empty() {
        sql.push(
            " AND NOT EXISTS (SELECT 1 FROM provider_traits t WHERE t.provider_id = p.id AND t.trait IN ",
        )
        .list(forbidden.iter().cloned())
        .push(")");
    }
    sql.push(" LIMIT 1");
    Ok(!tx.query_sql(&sql, |_| Ok(())).await?.is_empty())
}

/// Reads the part of the provider graph the search of `groups` needs.
pub(super) async fn load(store: &Store, groups: &[Group], wide: &Wide) -> Result<World, StoreError> {
    store.read(async |tx| read(tx, groups, wide, Reach::Selected, store.cloud()).await).await
}

/// The whole cloud's providers as this node last read them, with the
/// revision of each: a search that reads every tree takes them from here
/// when its own snapshot holds the same providers at the same revisions,
/// and reads the tables only when one changed (see the schema's comment in
/// [`crate::store`]). What is used of them is read by every search.
///
/// A fleet's nodes each keep their own: the check is in the search's
/// snapshot, so a node sees another's change as soon as its search could
/// read it from the tables. It holds what one search of the whole cloud
/// holds, once, as long as the node runs: about 550 bytes a provider
/// (docs/performance.md), unless [`CloudCache::capped`].
#[derive(Default)]
pub(crate) struct CloudCache {
    kept: Mutex<Option<Arc<Cloud>>>,
    /// The most providers a copy may hold (`None`: any number).
    cap: Option<usize>,
}

/// The whole cloud's providers, by id, without what is used of them.
struct Cloud {
    /// Each provider's (id, revision), by id, as the check reads them.
    revisions: Vec<(i64, i64)>,
    /// The nodes' ids, in their order.
    ids: Vec<i64>,
    nodes: Arc<[Node]>,
    /// Whether any provider has a parent.
    has_trees: bool,
}

impl CloudCache {
    /// A copy of a cloud of at most `providers` providers: a search of a
    /// larger cloud reads every tree from the tables and keeps nothing (the
    /// same answers; what a node holds between searches stays bounded).
    pub(crate) fn capped(providers: usize) -> CloudCache {
        CloudCache { kept: Mutex::default(), cap: Some(providers) }
    }

    fn get(&self) -> Option<Arc<Cloud>> {
        self.kept.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Keeps `cloud` if the cap allows it; drops any copy it replaces.
    fn keep(&self, cloud: &Arc<Cloud>) {
        let allowed = self.cap.is_none_or(|cap| cloud.ids.len() <= cap);
        *self.kept.lock().unwrap_or_else(PoisonError::into_inner) = allowed.then(|| cloud.clone());
    }

    /// Whether a cloud of `providers` providers may be kept.
    fn holds(&self, providers: usize) -> bool {
        self.cap.is_none_or(|cap| providers <= cap)
    }
}

/// Every provider of the cloud, from `cache` when none changed since it
/// was read, else from the tables (and kept in `cache`).
async fn whole_cloud(
    tx: &Tx,
    cache: &CloudCache,
    trait_ids: &HashMap<String, i64>,
) -> Result<Arc<Cloud>, StoreError> {
    let mut revisions: Vec<(i64, i64)> = tx
        .query_table(&Sql::new("SELECT id, revision FROM resource_providers"), |r| Ok((r.get(0)?, r.get(1)?)))
        .await?;
    revisions.sort_unstable();
    if cache.holds(revisions.len())
        && let Some(cloud) = cache.get()
        && cloud.revisions == revisions
    {
        return Ok(cloud);
    }
    let (ids, nodes) = read_trees(tx, None, trait_ids).await?;
    // One snapshot: the providers read are those whose revisions were.
    debug_assert!(ids.iter().eq(revisions.iter().map(|(id, _)| id)));
    let has_trees = nodes.iter().any(|n| n.parent.is_some());
    let cloud = Arc::new(Cloud { revisions, ids, nodes: nodes.into(), has_trees });
    cache.keep(&cloud);
    Ok(cloud)
}

/// Which trees [`read`] reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reach {
    /// Those the request can reach.
    Selected,
    /// Every tree (the tests' measure of the selection).
    #[cfg_attr(not(test), allow(dead_code))]
    Everything,
    /// Those the request can reach, even when it can reach most of the
    /// cloud (the tests' way to the selection on any cloud).
    #[cfg_attr(not(test), allow(dead_code))]
    AlwaysSelected,
}

async fn read(
    tx: &Tx,
    groups: &[Group],
    wide: &Wide,
    reach: Reach,
    kept: &CloudCache,
) -> Result<World, StoreError> {
    let class_ids: HashMap<String, i64> = tx
        .query_map("SELECT name, id FROM resource_classes", params![], |r| Ok((r.get(0)?, r.get(1)?)))
        .await?
        .into_iter()
        .collect();
    // Every trait, with its place in the order they were made.
    let trait_ids: HashMap<String, i64> = tx
        .query_map("SELECT name, rowid FROM traits", params![], |r| Ok((r.get(0)?, r.get(1)?)))
        .await?
        .into_iter()
        .collect();
    let root_required = if wide.root_required.is_empty() && wide.root_forbidden.is_empty() {
        true
    } else {
        any_root_with(tx, &wide.root_required, &wide.root_forbidden).await?
    };
    let mut in_aggs = Vec::with_capacity(groups.len());
    for group in groups {
        in_aggs.push(in_aggregates(tx, &group.member_of).await?);
    }
    let in_aggs_anywhere =
        groups.iter().zip(&in_aggs).map(|(g, aggs)| g.member_of.is_empty() || !aggs.is_empty()).collect();
    let selected = match reach {
        Reach::Selected => selected_roots(tx, groups, &in_aggs, true).await?,
        Reach::AlwaysSelected => selected_roots(tx, groups, &in_aggs, false).await?,
        Reach::Everything => None,
    };
    let cloud;
    let (ids, nodes, roots, has_trees): (Cow<'_, [i64]>, Arc<[Node]>, _, _) = match selected {
        Some((roots, has_trees)) => {
            let (ids, nodes) = read_trees(tx, Some(&roots), &trait_ids).await?;
            (Cow::Owned(ids), nodes.into(), Some(roots), has_trees)
        }
        None => {
            cloud = whole_cloud(tx, kept, &trait_ids).await?;
            (Cow::Borrowed(&cloud.ids[..]), cloud.nodes.clone(), None, cloud.has_trees)
        }
    };
    let used = read_used(tx, roots.as_deref(), &ids).await?;
    let traits = trait_ids.into_keys().collect();
    Ok(World { nodes, used, class_ids, traits, has_trees, in_aggs_anywhere, root_required })
}

/// A request may select this share of the providers, at most, for its
/// trees to be read by root; past it, reading every tree costs less (a
/// whole table in one pass rather than an index probe per provider).
const SELECTIVE: usize = 8;

/// The roots of the trees the request can reach (see the module's
/// comment), and whether the cloud has any tree; `None` when a request
/// group with resources is narrowed by neither `in_tree` nor `member_of`,
/// or to more than one [`SELECTIVE`]th of the providers (unless not
/// `bounded`).
async fn selected_roots(
    tx: &Tx,
    groups: &[Group],
    in_aggs: &[BTreeSet<i64>],
    bounded: bool,
) -> Result<Option<(Vec<i64>, bool)>, StoreError> {
    // Per group, whether it may find anything, and its scope.
    let mut scopes: Vec<(bool, Option<BTreeSet<i64>>)> = Vec::with_capacity(groups.len());
    let mut selected = 0;
    for (group, aggs) in groups.iter().zip(in_aggs) {
        if group.resources.is_empty() || (!group.member_of.is_empty() && aggs.is_empty()) {
            scopes.push((false, None));
            continue;
        }
        let scope = scope(tx, group, aggs).await?;
        match &scope {
            Some(scope) => selected += scope.len(),
            None if bounded => return Ok(None),
            None => {}
        }
        scopes.push((true, scope));
    }
    if bounded {
        // The ids count the providers made (MAX(id), one index probe).
        let made: i64 = tx
            .query_row(
                "SELECT CAST(COALESCE(MAX(id), 0) AS BIGINT) FROM resource_providers",
                params![],
                |r| r.get(0),
            )
            .await?;
        if selected * SELECTIVE > made.max(0) as usize {
            return Ok(None);
        }
    }
    let has_trees =
        tx.exists("SELECT 1 FROM resource_providers WHERE parent_id IS NOT NULL LIMIT 1", params![]).await?;
    let sharing: BTreeSet<i64> = tx
        .query_map("SELECT provider_id FROM provider_traits WHERE trait = $1", params![SHARES], |r| r.get(0))
        .await?
        .into_iter()
        .collect();
    let mut roots: BTreeSet<i64> = BTreeSet::new();
    roots.extend(
        by_chunks(tx, "SELECT root_id FROM resource_providers WHERE id IN ", &ids(&sharing), "", |r| {
            r.get::<i64>(0)
        })
        .await?,
    );
    let mut sharing_with_room: BTreeSet<i64> = BTreeSet::new();
    for ((group, aggs), (may_find, scope)) in groups.iter().zip(in_aggs).zip(scopes) {
        if !may_find {
            continue;
        }
        // The search spans a tree for the group unless one provider must
        // meet it, or the cloud has neither trees nor sharing providers;
        // spanning, `member_of` also keeps the providers whose root is in
        // the aggregates.
        let spanning = !group.use_same_provider && (has_trees || !sharing.is_empty());
        let mut scope = scope;
        if let Some(scope) = scope.as_mut()
            && spanning
            && !group.member_of.is_empty()
        {
            let below: BTreeSet<i64> =
                by_chunks(tx, "SELECT id FROM resource_providers WHERE root_id IN ", &ids(aggs), "", |r| {
                    r.get::<i64>(0)
                })
                .await?
                .into_iter()
                .collect();
            scope.extend(match &group.in_tree {
                Some(tree) => &below & &tree_members(tx, tree).await?,
                None => below,
            });
        }
        let scope = scope.map(|scope| ids(&scope));
        for (class, amount) in &group.resources {
            if *amount > MAX_INT {
                continue;
            }
            let statements: Vec<Sql> = match &scope {
                Some(scope) => {
                    chunks(scope).map(|c| fits(class, *amount, group, spanning, Some(c))).collect()
                }
                None => vec![fits(class, *amount, group, spanning, None)],
            };
            for sql in statements {
                for (id, root) in tx.query_sql(&sql, |r| Ok((r.get::<i64>(0)?, r.get::<i64>(1)?))).await? {
                    roots.insert(root);
                    if sharing.contains(&id) {
                        sharing_with_room.insert(id);
                    }
                }
            }
        }
    }
    // The anchors of the sharing providers with room: the trees of the
    // providers in an aggregate with them.
    roots.extend(
        by_chunks(
            tx,
            "SELECT DISTINCT p.root_id FROM provider_aggregates s \
             JOIN provider_aggregates g ON g.aggregate = s.aggregate \
             JOIN resource_providers p ON p.id = g.provider_id WHERE s.provider_id IN ",
            &ids(&sharing_with_room),
            "",
            |r| r.get::<i64>(0),
        )
        .await?,
    );
    Ok(Some((ids(&roots), has_trees)))
}

/// The rows of `select` (a whole table), or, given `roots`, of those trees
/// only (`of_trees` opening the condition on them, `close` ending it),
/// then `tail`; each read by `f`.
async fn tree_rows<T>(
    tx: &Tx,
    roots: Option<&[i64]>,
    (select, of_trees, close, tail): (&'static str, &'static str, &'static str, &'static str),
    f: impl Fn(&Row) -> Result<T, StoreError>,
) -> Result<Vec<T>, StoreError> {
    let Some(roots) = roots else {
        let mut sql = Sql::new(select);
        sql.push(tail);
        return tx.query_table(&sql, f).await;
    };
    let mut out = Vec::new();
    for chunk in chunks(roots) {
        let mut sql = Sql::new(select);
        sql.push(of_trees).list(chunk).push(close).push(tail);
        out.extend(tx.query_sql(&sql, &f).await?);
    }
    Ok(out)
}

/// The condition on a row of a provider of the trees, and its end.
const OF_TREES: &str = " WHERE provider_id IN (SELECT id FROM resource_providers WHERE root_id IN ";

/// The ids of the providers of the trees with `roots` (every provider
/// without), in order, and the providers, with their inventories, traits
/// (in the order of `trait_ids`) and aggregates.
async fn read_trees(
    tx: &Tx,
    roots: Option<&[i64]>,
    trait_ids: &HashMap<String, i64>,
) -> Result<(Vec<i64>, Vec<Node>), StoreError> {
    let mut providers: Vec<(i64, String, Option<i64>, i64)> = tree_rows(
        tx,
        roots,
        ("SELECT id, uuid, parent_id, root_id FROM resource_providers", " WHERE root_id IN ", "", ""),
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
    )
    .await?;
    providers.sort_by_key(|p| p.0);
    let inventories = tree_rows(
        tx,
        roots,
        (
            "SELECT provider_id, resource_class, total, reserved, allocation_ratio, min_unit, max_unit, \
             step_size FROM inventories",
            OF_TREES,
            ")",
            "",
        ),
        |r| {
            let inv = Inv {
                total: r.get(2)?,
                reserved: r.get(3)?,
                ratio: r.get(4)?,
                min_unit: r.get(5)?,
                max_unit: r.get(6)?,
                step: r.get(7)?,
            };
            Ok((r.get::<i64>(0)?, r.get::<String>(1)?, inv))
        },
    )
    .await?;
    let named = |select| tree_rows(tx, roots, (select, OF_TREES, ")", ""), |r| Ok((r.get(0)?, r.get(1)?)));
    let traits: Vec<(i64, String)> = named("SELECT provider_id, trait FROM provider_traits").await?;
    let aggregates: Vec<(i64, String)> =
        named("SELECT provider_id, aggregate FROM provider_aggregates").await?;

    // A provider's place among them, by id (they are in id order).
    let ids: Vec<i64> = providers.iter().map(|p| p.0).collect();
    let index = |id: i64| ids.binary_search(&id).ok();
    let mut nodes: Vec<Node> = providers
        .into_iter()
        .enumerate()
        .map(|(i, (_, uuid, parent, root))| Node {
            uuid,
            parent: parent.and_then(index),
            root: index(root).unwrap_or(i),
            inventories: Vec::new(),
            traits: Vec::new(),
            trait_order: Vec::new(),
            aggregates: Vec::new(),
        })
        .collect();
    let mut names = Names::default();
    for (id, name) in traits {
        if let Some(i) = index(id) {
            nodes[i].traits.push(names.get(&name));
        }
    }
    for (id, name) in aggregates {
        if let Some(i) = index(id) {
            nodes[i].aggregates.push(names.get(&name));
        }
    }
    for (id, class, inv) in inventories {
        if let Some(i) = index(id) {
            nodes[i].inventories.push((names.get(&class), inv));
        }
    }
    for node in &mut nodes {
        node.traits.sort_unstable();
        node.traits.shrink_to_fit();
        node.aggregates.sort_unstable();
        node.aggregates.shrink_to_fit();
        node.inventories.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        node.inventories.shrink_to_fit();
        // A provider's traits in the order they were made (Placement's ids).
        node.trait_order = node.traits.clone();
        node.trait_order.sort_by_cached_key(|name| trait_ids.get(&**name).copied().unwrap_or(i64::MAX));
    }
    Ok((ids, nodes))
}

/// One [`Name`] per distinct name read.
#[derive(Default)]
struct Names(foldhash::HashSet<Name>);

impl Names {
    fn get(&mut self, name: &str) -> Name {
        if let Some(known) = self.0.get(name) {
            return known.clone();
        }
        let name: Name = name.into();
        self.0.insert(name.clone());
        name
    }
}

/// What is used of each inventory of the providers `ids` (of the trees with
/// `roots`, every provider without), per provider in the order of `ids`.
async fn read_used(
    tx: &Tx,
    roots: Option<&[i64]>,
    ids: &[i64],
) -> Result<Vec<Vec<(String, i64)>>, StoreError> {
    let rows = tree_rows(
        tx,
        roots,
        (
            "SELECT provider_id, resource_class, CAST(SUM(used) AS BIGINT) FROM allocations",
            OF_TREES,
            ")",
            " GROUP BY provider_id, resource_class",
        ),
        |r| Ok((r.get::<i64>(0)?, r.get::<String>(1)?, r.get::<i64>(2)?)),
    )
    .await?;
    let mut used = vec![Vec::new(); ids.len()];
    for (id, class, amount) in rows {
        if let Ok(i) = ids.binary_search(&id) {
            used[i].push((class, amount));
        }
    }
    Ok(used)
}

#[cfg(test)]
mod tests;
