//! Allocation candidates (`GET /allocation_candidates`, from 1.10): the
//! ways a set of request groups can be satisfied by providers, their trees
//! and the providers sharing with them through aggregates, followed step
//! by step from Placement's `allocation_candidate` and `research_context`
//! objects, in memory over the part of the provider graph the request can
//! reach, which [`select`] finds in SQL and reads.

mod select;

pub(crate) use select::CloudCache;

use std::collections::{BTreeMap, BTreeSet};

use foldhash::{HashMap, HashMapExt};
use std::sync::Arc;

use actix_web::{HttpRequest, HttpResponse};
use microversion_actix::{ApiError, ApiVersion, Version, VersionedModel, controller};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value, json};

use crate::api::PLACEMENT;
use crate::errors;
use crate::http::{cache_headers, validate};
use crate::query::{self, Query};
use crate::store::{self, Store};

const V1_16: Version = Version::lit("1.16");
const V1_17: Version = Version::lit("1.17");
const V1_21: Version = Version::lit("1.21");
const V1_25: Version = Version::lit("1.25");
const V1_31: Version = Version::lit("1.31");
const V1_33: Version = Version::lit("1.33");
const V1_35: Version = Version::lit("1.35");
const V1_36: Version = Version::lit("1.36");

const SHARES: &str = "MISC_SHARES_VIA_AGGREGATE";

/// The allocation candidates resource.
pub(crate) struct Candidates {
    store: Arc<Store>,
}

impl Candidates {
    pub(crate) fn new(store: Arc<Store>) -> Candidates {
        Candidates { store }
    }
}

// The query schemas, one per version that changed them.

fn schema_1_10() -> Value {
    json!({"type": "object", "properties": {"resources": {"type": "string"}},
           "required": ["resources"], "additionalProperties": false})
}

fn schema_1_16() -> Value {
    let mut s = schema_1_10();
    s["properties"]["limit"] =
        json!({"type": ["integer", "string"], "pattern": "^[1-9][0-9]*$", "minimum": 1, "minLength": 1});
    s
}

fn schema_1_17() -> Value {
    let mut s = schema_1_16();
    s["properties"]["required"] = json!({"type": ["string"]});
    s
}

fn schema_1_21() -> Value {
    let mut s = schema_1_17();
    s["properties"]["member_of"] = json!({"type": ["string"]});
    s
}

const GROUP_PAT: &str = "[1-9][0-9]*";
const GROUP_PAT_1_33: &str = "[a-zA-Z0-9_-]{1,64}";

fn grouped(names: &[&str], group: &str) -> Value {
    let mut s = schema_1_17();
    let props = s["properties"].as_object_mut().expect("an object");
    props.remove("resources");
    props.remove("required");
    s.as_object_mut().expect("an object").remove("required");
    s["properties"]["group_policy"] = json!({"type": "string", "enum": ["none", "isolate"]});
    let patterns: Map<String, Value> =
        names.iter().map(|n| (format!("^{n}({group})?$"), json!({"type": "string"}))).collect();
    s["patternProperties"] = Value::Object(patterns);
    s
}

fn schema_1_25() -> Value {
    grouped(&["resources", "required", "member_of"], GROUP_PAT)
}

fn schema_1_31() -> Value {
    grouped(&["resources", "required", "member_of", "in_tree"], GROUP_PAT)
}

fn schema_1_33() -> Value {
    grouped(&["resources", "required", "member_of", "in_tree"], GROUP_PAT_1_33)
}

fn schema_1_35() -> Value {
    let mut s = schema_1_33();
    s["properties"]["root_required"] = json!({"type": ["string"]});
    s
}

fn schema_1_36() -> Value {
    let mut s = schema_1_35();
    s["properties"]["same_subtree"] = json!({"type": ["string"]});
    s
}

microversion_actix::version::version_gates! {
    /// What `GET /allocation_candidates` reads and answers at a version:
    /// each of Placement's changes named once, here, and read by the parser
    /// and the view rather than compared with versions in the handler.
    #[derive(Clone, Copy)]
    struct Changes for PLACEMENT {
        /// A candidate's allocations keyed by provider uuid (a list of
        /// objects before).
        allocations_by_uuid: "1.12",
        /// Numbered request groups (`resources1`, ...).
        granular: "1.25",
        /// A summary lists every class of its provider, not only those asked for.
        every_class_summarized: "1.27",
        /// Nested providers: a candidate may span a tree.
        nested: "1.29",
        /// Any suffix of letters, digits, `_` and `-`, up to 64.
        string_suffixes: "1.33",
        /// A candidate's `mappings` of groups to providers.
        mappings: "1.34",
        /// `same_subtree`, and groups without resources.
        resourceless_groups: "1.36",
    }
}

/// Everything a version decides about a candidates request: its query
/// schema, the filters' syntax and the changes above.
#[derive(Clone, Copy)]
struct Features {
    /// The query schema.
    schema: fn() -> Value,
    /// The trait and aggregate filters' syntax.
    syntax: query::Syntax,
    changes: Changes,
}

impl Features {
    fn at(version: Version) -> Features {
        let schema = [
            (V1_36, schema_1_36 as fn() -> Value),
            (V1_35, schema_1_35),
            (V1_33, schema_1_33),
            (V1_31, schema_1_31),
            (V1_25, schema_1_25),
            (V1_21, schema_1_21),
            (V1_17, schema_1_17),
            (V1_16, schema_1_16),
        ]
        .into_iter()
        .find(|(since, _)| version >= *since)
        .map_or(schema_1_10 as fn() -> Value, |(_, schema)| schema);
        Features { schema, syntax: query::Syntax::at(version), changes: Changes::at(version) }
    }
}

/// A provider's summary: its resources, its traits from 1.17, its parent
/// and root from 1.29, in that order (Placement's). It borrows the names
/// and uuids from the search's world, which outlives the answer.
#[derive(VersionedModel)]
#[versioned(api = PLACEMENT)]
struct ProviderSummary<'a> {
    /// Per resource class, `{"capacity": N, "used": N}`.
    #[versioned(schema = summary_resources_schema)]
    resources: Ordered<&'a str, Usage>,
    #[versioned(since = "1.17", skip_none)]
    traits: Option<Vec<&'a str>>,
    /// `null` for a root.
    #[versioned(since = "1.29")]
    parent_provider_uuid: Option<&'a str>,
    #[versioned(since = "1.29", skip_none)]
    root_provider_uuid: Option<&'a str>,
}

/// A class's capacity and usage in a provider's summary.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct Usage {
    capacity: i64,
    used: i64,
}

fn summary_resources_schema() -> Value {
    json!({"type": "object", "additionalProperties": {
        "type": "object",
        "properties": {"capacity": {"type": "integer"}, "used": {"type": "integer"}},
        "required": ["capacity", "used"]}})
}

/// One request group (`resources{suffix}` and its companions).
#[derive(Debug, Default)]
struct Group {
    suffix: String,
    use_same_provider: bool,
    resources: Vec<(String, i64)>,
    required: Vec<BTreeSet<String>>,
    forbidden: BTreeSet<String>,
    member_of: Vec<Vec<String>>,
    forbidden_aggs: BTreeSet<String>,
    in_tree: Option<String>,
}

/// The request-wide parameters.
#[derive(Debug, Default)]
struct Wide {
    limit: Option<usize>,
    group_policy: Option<String>,
    root_required: BTreeSet<String>,
    root_forbidden: BTreeSet<String>,
    same_subtrees: Vec<BTreeSet<String>>,
}

fn group_key(key: &str, verbose: bool) -> Option<(&'static str, String)> {
    for prefix in ["resources", "required", "member_of", "in_tree"] {
        if let Some(suffix) = key.strip_prefix(prefix) {
            let ok = suffix.is_empty()
                || if verbose {
                    suffix.len() <= 64
                        && suffix.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
                } else {
                    suffix.bytes().all(|b| b.is_ascii_digit()) && !suffix.starts_with('0')
                };
            if ok {
                return Some((prefix, suffix.to_owned()));
            }
        }
    }
    None
}

/// Reads and checks the query as Placement's handler does, in its order.
fn parse(features: Features, q: &Query) -> Result<(Vec<Group>, Wide), ApiError> {
    let seen = q.as_schema_sees_it();
    validate(features.schema, &seen)
        .map_err(|e| errors::query_validation(e.violations(), &(features.schema)(), &seen))?;

    let mut wide = Wide::default();
    if let Some(limit) = q.all("limit").first() {
        wide.limit = limit.parse().ok();
    }
    wide.group_policy = q.all("group_policy").first().map(|s| (*s).to_owned());
    let root_required = q.all("root_required");
    if let Some(value) = root_required.first() {
        if root_required.len() > 1 {
            return Err(errors::coded(
                actix_web::http::StatusCode::BAD_REQUEST,
                "query.duplicate_key",
                "Query parameter 'root_required' may be specified only once.",
            ));
        }
        let (required, forbidden) = query::required_traits(value, true, false)?;
        wide.root_required = required.into_iter().flatten().collect();
        wide.root_forbidden = forbidden.into_iter().collect();
        let conflicts: Vec<&String> = wide.root_required.intersection(&wide.root_forbidden).collect();
        if !conflicts.is_empty() {
            let names: Vec<&str> = conflicts.iter().map(|s| s.as_str()).collect();
            return Err(errors::coded(
                actix_web::http::StatusCode::BAD_REQUEST,
                "query.bad_value",
                format!(
                    "Conflicting required and forbidden traits found in root_required: {}",
                    names.join(", ")
                ),
            ));
        }
    }
    for value in q.all("same_subtree") {
        let suffixes: BTreeSet<String> = value.split(',').map(|s| s.trim().to_owned()).collect();
        if suffixes.contains("") {
            return Err(errors::coded(
                actix_web::http::StatusCode::BAD_REQUEST,
                "query.bad_value",
                "Empty string (unsuffixed group) can not be specified in `same_subtree` ",
            ));
        }
        wide.same_subtrees.push(suffixes);
    }

    let mut groups: Vec<Group> = Vec::new();
    for (key, value) in q.pairs() {
        let Some((prefix, suffix)) = group_key(key, features.changes.string_suffixes) else { continue };
        if !features.changes.granular && !suffix.is_empty() {
            continue;
        }
        let index = match groups.iter().position(|g| g.suffix == suffix) {
            Some(i) => i,
            None => {
                groups.push(Group {
                    use_same_provider: !suffix.is_empty(),
                    suffix: suffix.clone(),
                    ..Group::default()
                });
                groups.len() - 1
            }
        };
        let group = &mut groups[index];
        match prefix {
            "resources" => group.resources = query::resources(value)?,
            "required" => {
                let values = q.all(key);
                let (required, forbidden) = query::required_traits_all(&values, features.syntax)?;
                group.required = required.into_iter().map(|any| any.into_iter().collect()).collect();
                group.forbidden = forbidden.into_iter().collect();
            }
            "member_of" => {
                let values = q.all(key);
                let (required, forbidden) = query::member_of(&values, &suffix, features.syntax)?;
                group.member_of = required;
                group.forbidden_aggs = forbidden.into_iter().collect();
            }
            _ => {
                let tree = value.trim();
                if !query::is_uuid(tree) {
                    return Err(errors::bad_request(format!(
                        "Invalid query string parameters: Expected 'in_tree' parameter to be a format of uuid. Got: {value}"
                    )));
                }
                group.in_tree = Some(tree.to_owned());
            }
        }
    }

    if features.changes.resourceless_groups {
        let resourceless: Vec<&str> =
            groups.iter().filter(|g| g.resources.is_empty()).map(|g| g.suffix.as_str()).collect();
        let subtree: BTreeSet<&str> = wide.same_subtrees.iter().flatten().map(String::as_str).collect();
        if resourceless.len() == groups.len() {
            return Err(errors::coded(
                actix_web::http::StatusCode::BAD_REQUEST,
                "query.missing_value",
                "There must be at least one resources or resources[$S] parameter.",
            ));
        }
        let bad: Vec<&str> = resourceless.iter().copied().filter(|s| !subtree.contains(s)).collect();
        if !bad.is_empty() {
            return Err(errors::coded(
                actix_web::http::StatusCode::BAD_REQUEST,
                "query.bad_value",
                format!(
                    "Resourceless suffixed group request should be specified in `same_subtree` query param: bad group(s) - {}.",
                    python_list(&bad)
                ),
            ));
        }
        let bad: Vec<&str> =
            subtree.iter().copied().filter(|s| !groups.iter().any(|g| g.suffix == *s)).collect();
        if !bad.is_empty() {
            let all: Vec<&str> = groups.iter().map(|g| g.suffix.as_str()).collect();
            return Err(errors::coded(
                actix_web::http::StatusCode::BAD_REQUEST,
                "query.bad_value",
                format!(
                    "Real suffixes should be specified in `same_subtree`: {} not found in {}.",
                    python_list(&bad),
                    python_list(&all)
                ),
            ));
        }
    } else {
        let orphans: Vec<String> = groups
            .iter()
            .filter(|g| !g.required.is_empty() && g.resources.is_empty())
            .map(|g| format!("required{}", g.suffix))
            .collect();
        if !orphans.is_empty() {
            return Err(errors::bad_request(format!(
                "All traits parameters must be associated with resources.  Found the following orphaned traits keys: {}",
                orphans.join(", ")
            )));
        }
        let orphans: Vec<String> = groups
            .iter()
            .filter(|g| g.resources.is_empty() && (!g.member_of.is_empty() || !g.forbidden_aggs.is_empty()))
            .map(|g| format!("member_of{}", g.suffix))
            .collect();
        if !orphans.is_empty() {
            return Err(errors::bad_request(format!(
                "All member_of parameters must be associated with resources. Found the following orphaned member_of keys: {}",
                orphans.join(", ")
            )));
        }
        if groups.iter().any(|g| g.resources.is_empty()) {
            return Err(errors::bad_request("All request groups must specify resources."));
        }
        if groups.is_empty() {
            return Err(errors::bad_request(
                "At least one request group (`resources` or `resources{$S}`) is required.",
            ));
        }
    }
    if features.syntax.forbidden_traits {
        let mut conflicts: Vec<String> = Vec::new();
        for g in &groups {
            for any in &g.required {
                if any.iter().all(|t| g.forbidden.contains(t)) {
                    let names: Vec<&str> = any.iter().map(String::as_str).collect();
                    conflicts.push(format!("required{}: ({})", g.suffix, names.join(", ")));
                }
            }
        }
        if !conflicts.is_empty() {
            conflicts.sort();
            return Err(errors::bad_request(format!(
                "Conflicting required and forbidden traits found in the following traits keys: {}",
                conflicts.join(", ")
            )));
        }
    }
    if wide.group_policy.is_none() && groups.iter().filter(|g| g.use_same_provider).count() > 1 {
        return Err(errors::bad_request(
            "The \"group_policy\" parameter is required when specifying more than one \"resources{N}\" parameter.",
        ));
    }
    Ok((groups, wide))
}

/// A Python list of strings as `str()` writes it.
fn python_list(items: &[&str]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| format!("'{s}'")).collect();
    format!("[{}]", quoted.join(", "))
}

/// One inventory (what is used of it is the request's: [`World::used`]).
#[derive(Clone, Debug)]
struct Inv {
    total: i64,
    reserved: i64,
    ratio: f64,
    min_unit: i64,
    max_unit: i64,
    step: i64,
}

impl Inv {
    fn capacity(&self) -> i64 {
        ((self.total - self.reserved) as f64 * self.ratio) as i64
    }

    /// Placement's `_capacity_check_clause`, `used` of it being used.
    fn fits(&self, used: i64, amount: i64) -> bool {
        (used + amount) as f64 <= (self.total - self.reserved) as f64 * self.ratio
            && self.min_unit <= amount
            && self.max_unit >= amount
            && amount % self.step.max(1) == 0
    }
}

/// A class, trait or aggregate name, one allocation shared by every
/// provider of a read that has it.
type Name = Arc<str>;

/// A provider of the graph; its inventories, traits and aggregates in
/// vectors of their exact length, sorted by name (a node keeps the whole
/// cloud of them, [`select::CloudCache`]).
#[derive(Debug)]
struct Node {
    uuid: String,
    parent: Option<usize>,
    root: usize,
    inventories: Vec<(Name, Inv)>,
    traits: Vec<Name>,
    /// The same, in the order the traits were made (Placement's ids).
    trait_order: Vec<Name>,
    aggregates: Vec<Name>,
}

impl Node {
    fn inventory(&self, class: &str) -> Option<&Inv> {
        let at = self.inventories.binary_search_by(|(c, _)| (**c).cmp(class)).ok()?;
        Some(&self.inventories[at].1)
    }

    fn has_trait(&self, name: &str) -> bool {
        self.traits.binary_search_by(|t| (**t).cmp(name)).is_ok()
    }

    fn in_aggregate(&self, aggregate: &str) -> bool {
        self.aggregates.binary_search_by(|a| (**a).cmp(aggregate)).is_ok()
    }
}

/// The part of the provider graph a request can reach ([`select::load`]):
/// whole trees, by id, and what is used of them, read in one snapshot; with
/// what the search needs to know of the whole cloud.
struct World {
    /// Shared with the node's copy of the whole cloud when that is the part
    /// ([`select::CloudCache`]).
    nodes: Arc<[Node]>,
    /// Per provider, what is used of each class it has an inventory of.
    used: Vec<Vec<(String, i64)>>,
    class_ids: HashMap<String, i64>,
    /// Every trait's name.
    traits: BTreeSet<String>,
    /// Whether any provider of the cloud has a parent.
    has_trees: bool,
    /// Per request group, whether its `member_of` (if any) names a
    /// provider of the cloud.
    in_aggs_anywhere: Vec<bool>,
    /// Whether a root of the cloud passes `root_required` (or none is asked).
    root_required: bool,
}

impl World {
    /// What is used of provider `i`'s inventory of `class`.
    fn used(&self, i: usize, class: &str) -> i64 {
        self.used[i].iter().find(|(c, _)| c == class).map_or(0, |(_, amount)| *amount)
    }
}

/// One request group's providers of one class and amount in an allocation.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Arr<'g> {
    provider: usize,
    class: &'g str,
    amount: i64,
}

/// An allocation request: what it takes from which providers, the tree it
/// is anchored to, and which providers satisfied which group.
#[derive(Clone, Debug)]
struct AReq<'g> {
    anchor: usize,
    use_same_provider: bool,
    resources: Vec<Arr<'g>>,
    mappings: BTreeMap<&'g str, BTreeSet<usize>>,
}

impl<'g> AReq<'g> {
    /// Placement's equality: the same resources (as a set) and mappings.
    fn key(&self) -> (Vec<Arr<'g>>, BTreeMap<&'g str, BTreeSet<usize>>) {
        let mut resources = self.resources.clone();
        resources.sort_unstable();
        resources.dedup();
        (resources, self.mappings.clone())
    }
}

/// What a request found nothing for: an empty answer.
struct NotFound;

/// Placement's errors raised during the search, which are the client's.
enum SearchError {
    Empty,
    Api(ApiError),
}

impl From<NotFound> for SearchError {
    fn from(_: NotFound) -> SearchError {
        SearchError::Empty
    }
}

impl From<ApiError> for SearchError {
    fn from(e: ApiError) -> SearchError {
        SearchError::Api(e)
    }
}

/// The request-wide search state (`RequestWideSearchContext`).
struct WideCtx {
    anchor_roots: Option<BTreeSet<usize>>,
    has_trees: bool,
    nested_aware: bool,
    sharing: BTreeSet<usize>,
    /// The providers to summarize, in Placement's order (its
    /// `summaries_by_id`): tree by tree as each group's search reaches
    /// them, each batch's providers by id.
    summaries: Vec<usize>,
    /// Per provider, whether it is in `summaries`.
    summarized: Vec<bool>,
    multi_group_rcs: BTreeSet<String>,
    rcs_amounts: BTreeMap<String, i64>,
}

impl WideCtx {
    fn in_filtered_anchors(&self, root: usize) -> bool {
        self.anchor_roots.as_ref().is_none_or(|a| a.contains(&root))
    }
}

fn check_traits(world: &World, names: impl IntoIterator<Item = String>) -> Result<(), ApiError> {
    let missing: Vec<String> = names.into_iter().filter(|n| !world.traits.contains(n)).collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(errors::bad_request(format!("No such trait(s): {}.", missing.join(", "))))
}

/// Providers in every one of the `member_of` lists (any of each list).
fn in_aggregates(world: &World, member_of: &[Vec<String>]) -> BTreeSet<usize> {
    (0..world.nodes.len())
        .filter(|&i| member_of.iter().all(|any| any.iter().any(|a| world.nodes[i].in_aggregate(a))))
        .collect()
}

/// The roots of the trees sharing an aggregate with sharing provider `sp`
/// (its own included): Placement's `anchors_for_sharing_providers`.
fn anchors_for(world: &World, sp: usize) -> BTreeSet<usize> {
    let sharing = &world.nodes[sp];
    world
        .nodes
        .iter()
        .filter(|n| n.aggregates.iter().any(|a| sharing.in_aggregate(a)))
        .map(|n| n.root)
        .collect()
}

/// One group's search state (`RequestGroupSearchContext`).
struct GroupCtx<'a> {
    group: &'a Group,
    rps_in_aggs: BTreeSet<usize>,
    tree_root: Option<usize>,
    with_resource: BTreeMap<&'a str, BTreeSet<usize>>,
}

/// Group `index`'s search state.
fn group_ctx<'a>(world: &World, index: usize, group: &'a Group) -> Result<GroupCtx<'a>, SearchError> {
    for (class, _) in &group.resources {
        if !world.class_ids.contains_key(class) {
            return Err(SearchError::Api(errors::bad_request(format!(
                "Invalid resource class in resources parameter: No such resource class {class}."
            ))));
        }
    }
    let mut rps_in_aggs = BTreeSet::new();
    if !group.member_of.is_empty() {
        if !world.in_aggs_anywhere[index] {
            return Err(SearchError::Empty);
        }
        rps_in_aggs = in_aggregates(world, &group.member_of);
    }
    for any in &group.required {
        check_traits(world, any.iter().cloned())?;
    }
    check_traits(world, group.forbidden.iter().cloned())?;
    let mut tree_root = None;
    if let Some(tree) = &group.in_tree {
        // One lookup per group that names a tree: a scan, rather than a map
        // of every provider's uuid built for each request.
        let uuid = select::tree_uuid(tree);
        let Some(i) = world.nodes.iter().position(|n| n.uuid == uuid) else { return Err(SearchError::Empty) };
        tree_root = Some(world.nodes[i].root);
    }
    let mut with_resource = BTreeMap::new();
    for (class, amount) in &group.resources {
        let providers: BTreeSet<usize> = (0..world.nodes.len())
            .filter(|&i| tree_root.is_none_or(|r| world.nodes[i].root == r))
            .filter(|&i| {
                world.nodes[i].inventory(class).is_some_and(|inv| inv.fits(world.used(i, class), *amount))
            })
            .collect();
        if providers.is_empty() {
            return Err(SearchError::Empty);
        }
        with_resource.insert(class.as_str(), providers);
    }
    Ok(GroupCtx { group, rps_in_aggs, tree_root, with_resource })
}

fn has_any_trait(world: &World, i: usize, traits: &BTreeSet<String>) -> bool {
    world.nodes[i].traits.iter().any(|t| traits.contains(&**t))
}

/// Placement's `get_provider_ids_matching`: single providers satisfying
/// the whole group. Gives (provider, root) pairs.
fn providers_matching(world: &World, g: &GroupCtx<'_>) -> Vec<(usize, usize)> {
    let group = g.group;
    let mut filtered: BTreeSet<usize> = BTreeSet::new();
    if !group.required.is_empty() {
        filtered = (0..world.nodes.len())
            .filter(|&i| group.required.iter().all(|any| has_any_trait(world, i, any)))
            .collect();
        if filtered.is_empty() {
            return Vec::new();
        }
    }
    if !group.member_of.is_empty() {
        filtered = if filtered.is_empty() { g.rps_in_aggs.clone() } else { &filtered & &g.rps_in_aggs };
        if filtered.is_empty() {
            return Vec::new();
        }
    }
    let mut forbidden: BTreeSet<usize> = BTreeSet::new();
    if !group.forbidden_aggs.is_empty() {
        let bad = in_aggregates(world, &[group.forbidden_aggs.iter().cloned().collect()]);
        forbidden.extend(bad.iter().copied());
        if !filtered.is_empty() {
            filtered = &filtered - &bad;
            if filtered.is_empty() {
                return Vec::new();
            }
        }
    }
    if !group.forbidden.is_empty() {
        let bad: BTreeSet<usize> =
            (0..world.nodes.len()).filter(|&i| has_any_trait(world, i, &group.forbidden)).collect();
        forbidden.extend(bad.iter().copied());
        if !filtered.is_empty() {
            filtered = &filtered - &bad;
            if filtered.is_empty() {
                return Vec::new();
            }
        }
    }
    let mut first = true;
    for (class, _) in &group.resources {
        let ids = &g.with_resource[class.as_str()];
        if first {
            first = false;
            if !filtered.is_empty() {
                filtered = &filtered & ids;
            } else {
                filtered = ids - &forbidden;
            }
        } else {
            filtered = &filtered & ids;
        }
        if filtered.is_empty() {
            return Vec::new();
        }
    }
    if group.resources.is_empty() {
        // A resourceless group: the providers left, but not the forbidden.
        let all: BTreeSet<usize> =
            if filtered.is_empty() { (0..world.nodes.len()).collect() } else { filtered.clone() };
        return (&all - &forbidden).into_iter().map(|i| (i, world.nodes[i].root)).collect();
    }
    filtered.into_iter().map(|i| (i, world.nodes[i].root)).collect()
}

/// Placement's `RPCandidateList`: (provider, anchor root, class) triples.
type RpCandidates<'g> = BTreeSet<(usize, usize, &'g str)>;

fn trees(c: &RpCandidates<'_>) -> BTreeSet<usize> {
    c.iter().map(|t| t.1).collect()
}

/// Placement's `get_trees_matching_all`: the providers of trees (and
/// sharing providers) that can together satisfy the group.
fn trees_matching_all<'g>(world: &World, g: &GroupCtx<'g>, wide: &mut WideCtx) -> RpCandidates<'g> {
    let group = g.group;
    let bad_aggs = if group.forbidden_aggs.is_empty() {
        BTreeSet::new()
    } else {
        in_aggregates(world, &[group.forbidden_aggs.iter().cloned().collect()])
    };
    let mut all: RpCandidates<'_> = BTreeSet::new();
    for (class, _) in &group.resources {
        let with = &g.with_resource[class.as_str()];
        let mut rc: RpCandidates<'_> =
            with.iter().map(|&i| (i, world.nodes[i].root, class.as_str())).collect();
        if rc.is_empty() {
            return BTreeSet::new();
        }
        // The sharing providers with this class (Placement narrows the
        // request-wide set in place by the group's aggregates).
        if !group.member_of.is_empty() {
            wide.sharing = &wide.sharing & &g.rps_in_aggs;
        }
        let sharing: BTreeSet<usize> = wide.sharing.intersection(with).copied().collect();
        if !sharing.is_empty() && g.tree_root.is_none() {
            for &sp in &sharing {
                for anchor in anchors_for(world, sp) {
                    rc.insert((sp, anchor, class.as_str()));
                }
            }
        }
        if let Some(anchors) = &wide.anchor_roots {
            rc.retain(|t| anchors.contains(&t.1));
            if rc.is_empty() {
                return BTreeSet::new();
            }
        }
        if !group.member_of.is_empty() {
            rc.retain(|t| g.rps_in_aggs.contains(&t.0) || g.rps_in_aggs.contains(&t.1));
            if rc.is_empty() {
                return BTreeSet::new();
            }
        }
        if !group.forbidden_aggs.is_empty() {
            rc.retain(|t| !(bad_aggs.contains(&t.0) || bad_aggs.contains(&t.1)));
            if rc.is_empty() {
                return BTreeSet::new();
            }
        }
        if all.is_empty() {
            all = rc;
        } else {
            let both: BTreeSet<usize> = trees(&all).intersection(&trees(&rc)).copied().collect();
            all.extend(rc);
            all.retain(|t| both.contains(&t.1));
        }
        if all.is_empty() {
            return BTreeSet::new();
        }
    }
    if (group.required.is_empty() && group.forbidden.is_empty()) || !wide.sharing.is_empty() {
        return all;
    }
    // Placement's `_get_trees_with_traits`.
    let rps: BTreeSet<usize> = all.iter().map(|t| t.0).collect();
    let good: BTreeSet<usize> =
        rps.iter().copied().filter(|&i| !has_any_trait(world, i, &group.forbidden)).collect();
    let good_roots: BTreeSet<usize> = good.iter().map(|&i| world.nodes[i].root).collect();
    let keep: BTreeSet<(usize, usize)> = if group.required.is_empty() {
        rps.iter().map(|&i| (i, world.nodes[i].root)).filter(|(_, r)| good_roots.contains(r)).collect()
    } else {
        let mut by_root: BTreeMap<usize, BTreeSet<&str>> = BTreeMap::new();
        for &i in &good {
            by_root
                .entry(world.nodes[i].root)
                .or_default()
                .extend(world.nodes[i].traits.iter().map(|t| &**t));
        }
        let ok_roots: BTreeSet<usize> = by_root
            .into_iter()
            .filter(|(_, provided)| {
                group.required.iter().all(|any| any.iter().any(|t| provided.contains(t.as_str())))
            })
            .map(|(r, _)| r)
            .collect();
        rps.iter().map(|&i| (i, world.nodes[i].root)).filter(|(_, r)| ok_roots.contains(r)).collect()
    };
    all.retain(|t| keep.contains(&(t.0, t.1)));
    all
}

/// Adds the providers of the trees rooted at `roots` to the summaries,
/// after those already there, by id (the nodes are in id order).
fn summarize(world: &World, wide: &mut WideCtx, roots: &BTreeSet<usize>) {
    for (i, node) in world.nodes.iter().enumerate() {
        if roots.contains(&node.root) && !wide.summarized[i] {
            wide.summarized[i] = true;
            wide.summaries.push(i);
        }
    }
}

fn amount_of(group: &Group, class: &str) -> i64 {
    group.resources.iter().find(|(c, _)| c == class).map_or(0, |(_, a)| *a)
}

fn multiple_providers<'g>(
    world: &World,
    g: &GroupCtx<'g>,
    wide: &mut WideCtx,
    cands: &RpCandidates<'g>,
) -> Vec<AReq<'g>> {
    if cands.is_empty() {
        return Vec::new();
    }
    let mut roots: BTreeSet<usize> = cands.iter().map(|t| t.0).collect();
    roots.extend(trees(cands));
    summarize(world, wide, &roots);
    let mut tree_dict: BTreeMap<usize, BTreeMap<i64, Vec<Arr<'g>>>> = BTreeMap::new();
    for (rp, root, class) in cands {
        let rc_id = world.class_ids.get(*class).copied().unwrap_or(i64::MAX);
        tree_dict.entry(*root).or_default().entry(rc_id).or_default().push(Arr {
            provider: *rp,
            class,
            amount: amount_of(g.group, class),
        });
    }
    let mut out: Vec<AReq<'_>> = Vec::new();
    let mut seen = BTreeSet::new();
    for (root, by_class) in tree_dict {
        let lists: Vec<Vec<Arr<'_>>> = by_class.into_values().collect();
        for combination in product(&lists) {
            // Placement's `_check_traits_for_alloc_request`.
            let mut traits: BTreeSet<&str> = BTreeSet::new();
            let mut forbidden = false;
            for arr in &combination {
                let node = &world.nodes[arr.provider];
                if node.traits.iter().any(|t| g.group.forbidden.contains(&**t)) {
                    forbidden = true;
                }
                traits.extend(node.traits.iter().map(|t| &**t));
            }
            if forbidden
                || !g.group.required.iter().all(|any| any.iter().any(|t| traits.contains(t.as_str())))
            {
                continue;
            }
            let mut mappings: BTreeMap<&str, BTreeSet<usize>> = BTreeMap::new();
            mappings
                .entry(g.group.suffix.as_str())
                .or_default()
                .extend(combination.iter().map(|a| a.provider));
            let areq = AReq { anchor: root, use_same_provider: false, resources: combination, mappings };
            if seen.insert(areq.key()) {
                out.push(areq);
            }
        }
    }
    out
}

fn single_provider<'g>(
    world: &World,
    g: &GroupCtx<'g>,
    wide: &mut WideCtx,
    tuples: &[(usize, usize)],
) -> Vec<AReq<'g>> {
    if tuples.is_empty() {
        return Vec::new();
    }
    let roots: BTreeSet<usize> = tuples.iter().map(|t| t.1).collect();
    summarize(world, wide, &roots);
    let mut out = Vec::new();
    for &(rp, root) in tuples {
        let resources: Vec<Arr<'_>> = g
            .group
            .resources
            .iter()
            .map(|(class, amount)| Arr { provider: rp, class, amount: *amount })
            .collect();
        let mut mappings = BTreeMap::new();
        mappings.insert(g.group.suffix.as_str(), BTreeSet::from([rp]));
        let areq = AReq { anchor: world.nodes[rp].root, use_same_provider: false, resources, mappings };
        let shared: Vec<AReq<'_>> = if world.nodes[rp].has_trait(SHARES) {
            anchors_for(world, rp)
                .into_iter()
                .filter(|&anchor| anchor != root && wide.in_filtered_anchors(anchor))
                .map(|anchor| AReq { anchor, ..areq.clone() })
                .collect()
        } else {
            Vec::new()
        };
        if wide.in_filtered_anchors(root) {
            out.push(areq);
        }
        out.extend(shared);
    }
    out
}

/// The cartesian product of `lists`, in order.
fn product<T: Clone>(lists: &[Vec<T>]) -> Vec<Vec<T>> {
    let mut out: Vec<Vec<T>> = vec![Vec::new()];
    for list in lists {
        let mut next = Vec::with_capacity(out.len() * list.len());
        for prefix in &out {
            for item in list {
                let mut v = prefix.clone();
                v.push(item.clone());
                next.push(v);
            }
        }
        out = next;
        if out.len() > 200_000 {
            break;
        }
    }
    out
}

fn ancestors(world: &World, mut i: usize) -> BTreeSet<usize> {
    let mut out = BTreeSet::from([i]);
    while let Some(p) = world.nodes[i].parent {
        out.insert(p);
        i = p;
    }
    out
}

fn same_subtree(world: &World, providers: &BTreeSet<usize>) -> bool {
    if providers.len() <= 1 {
        return true;
    }
    let mut common: Option<BTreeSet<usize>> = None;
    for &p in providers {
        let a = ancestors(world, p);
        common = Some(match common {
            None => a,
            Some(c) => &c & &a,
        });
    }
    common.is_some_and(|c| c.iter().any(|x| providers.contains(x)))
}

/// Allocation requests by group suffix, in the order of the groups.
type BySuffix<'a, 'g> = Vec<(&'a str, Vec<&'a AReq<'g>>)>;

/// The whole search: allocation requests and the providers to summarize
/// (in the order of their summaries).
fn search<'g>(
    world: &World,
    groups: &'g [Group],
    wide_params: &Wide,
    nested_aware: bool,
) -> Result<(Vec<AReq<'g>>, Vec<usize>), ApiError> {
    let has_trees = world.has_trees;
    let sharing: BTreeSet<usize> =
        (0..world.nodes.len()).filter(|&i| world.nodes[i].has_trait(SHARES)).collect();
    let mut wide = WideCtx {
        anchor_roots: None,
        has_trees,
        nested_aware,
        sharing,
        summaries: Vec::new(),
        summarized: vec![false; world.nodes.len()],
        multi_group_rcs: BTreeSet::new(),
        rcs_amounts: BTreeMap::new(),
    };
    if !wide_params.root_required.is_empty() || !wide_params.root_forbidden.is_empty() {
        check_traits(world, wide_params.root_required.iter().chain(&wide_params.root_forbidden).cloned())?;
        let roots: BTreeSet<usize> = (0..world.nodes.len())
            .filter(|&i| world.nodes[i].parent.is_none())
            .filter(|&i| wide_params.root_required.iter().all(|t| world.nodes[i].has_trait(t)))
            .filter(|&i| !has_any_trait(world, i, &wide_params.root_forbidden))
            .collect();
        if !world.root_required {
            return Ok((Vec::new(), Vec::new()));
        }
        wide.anchor_roots = Some(roots);
    }
    let mut candidates: Vec<(&str, Vec<AReq<'_>>)> = Vec::new();
    for (index, group) in groups.iter().enumerate() {
        let g = match group_ctx(world, index, group) {
            Ok(g) => g,
            Err(SearchError::Empty) => return Ok((Vec::new(), Vec::new())),
            Err(SearchError::Api(e)) => return Err(e),
        };
        for (class, amount) in &group.resources {
            if wide.rcs_amounts.contains_key(class) {
                wide.multi_group_rcs.insert(class.clone());
            }
            *wide.rcs_amounts.entry(class.clone()).or_default() += amount;
        }
        let mut areqs = if !group.use_same_provider && (!wide.sharing.is_empty() || wide.has_trees) {
            if !group.required.is_empty() {
                let all: BTreeSet<String> = group.required.iter().flatten().cloned().collect();
                if !(0..world.nodes.len()).any(|i| has_any_trait(world, i, &all)) {
                    return Ok((Vec::new(), Vec::new()));
                }
            }
            let cands = trees_matching_all(world, &g, &mut wide);
            multiple_providers(world, &g, &mut wide, &cands)
        } else {
            let tuples = providers_matching(world, &g);
            single_provider(world, &g, &mut wide, &tuples)
        };
        if areqs.is_empty() {
            return Ok((Vec::new(), Vec::new()));
        }
        for areq in &mut areqs {
            areq.use_same_provider = group.use_same_provider;
        }
        candidates.push((group.suffix.as_str(), areqs));
    }
    // Placement's `_merge_candidates`.
    let mut by_anchor: Vec<(usize, BySuffix<'_, '_>)> = Vec::new();
    let mut anchor_index: HashMap<usize, usize> = HashMap::new();
    for (suffix, areqs) in &candidates {
        for areq in areqs {
            let index = *anchor_index.entry(areq.anchor).or_insert_with(|| {
                by_anchor.push((areq.anchor, Vec::new()));
                by_anchor.len() - 1
            });
            let lists = &mut by_anchor[index].1;
            match lists.iter_mut().find(|(s, _)| s == suffix) {
                Some((_, list)) => list.push(areq),
                None => lists.push((suffix, vec![areq])),
            }
        }
    }
    let num_granular = candidates.iter().filter(|(s, _)| !s.is_empty()).count();
    let mut out: Vec<AReq<'_>> = Vec::new();
    let mut seen = BTreeSet::new();
    for (_, lists) in &by_anchor {
        if lists.len() != candidates.len() {
            continue;
        }
        if !wide.multi_group_rcs.is_empty() {
            let available: BTreeSet<usize> = lists
                .iter()
                .flat_map(|(_, l)| l.iter().flat_map(|a| a.resources.iter().map(|r| r.provider)))
                .collect();
            let short = wide.multi_group_rcs.iter().any(|rc| {
                let capacity: i64 =
                    available.iter().filter_map(|&p| world.nodes[p].inventory(rc)).map(Inv::capacity).sum();
                wide.rcs_amounts.get(rc).copied().unwrap_or(0) > capacity
            });
            if short {
                continue;
            }
        }
        // Lists in the order of the groups.
        let ordered: Vec<Vec<&AReq<'_>>> = candidates
            .iter()
            .map(|(s, _)| lists.iter().find(|(x, _)| x == s).map(|(_, l)| l.clone()).unwrap_or_default())
            .collect();
        for combination in product(&ordered) {
            if wide_params.group_policy.as_deref() == Some("isolate") {
                let used: BTreeSet<usize> = combination
                    .iter()
                    .filter(|a| a.use_same_provider)
                    .filter_map(|a| a.mappings.values().next())
                    .flatten()
                    .copied()
                    .collect();
                if used.len() != num_granular {
                    continue;
                }
            }
            let subtree_ok = wide_params.same_subtrees.iter().all(|suffixes| {
                let providers: BTreeSet<usize> = combination
                    .iter()
                    .flat_map(|a| suffixes.iter().filter_map(|s| a.mappings.get(s.as_str())).flatten())
                    .copied()
                    .collect();
                same_subtree(world, &providers)
            });
            if !subtree_ok {
                continue;
            }
            // Consolidate.
            let mut resources: Vec<Arr<'_>> = Vec::new();
            let mut mappings: BTreeMap<&str, BTreeSet<usize>> = BTreeMap::new();
            for areq in &combination {
                for arr in &areq.resources {
                    match resources.iter_mut().find(|r| r.provider == arr.provider && r.class == arr.class) {
                        Some(r) => r.amount += arr.amount,
                        None => resources.push(arr.clone()),
                    }
                }
                for (s, p) in &areq.mappings {
                    mappings.entry(*s).or_default().extend(p.iter().copied());
                }
            }
            let exceeds = resources.iter().any(|arr| {
                world.nodes[arr.provider].inventory(arr.class).is_none_or(|inv| {
                    world.used(arr.provider, arr.class) + arr.amount > inv.capacity()
                        || arr.amount > inv.max_unit
                })
            });
            if exceeds {
                continue;
            }
            let areq = AReq { anchor: combination[0].anchor, use_same_provider: false, resources, mappings };
            if seen.insert(areq.key()) {
                out.push(areq);
            }
        }
    }
    if out.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    let tree_roots: BTreeSet<usize> =
        out.iter().flat_map(|a| a.resources.iter().map(|r| world.nodes[r.provider].root)).collect();
    let mut summaries: Vec<usize> =
        wide.summaries.iter().copied().filter(|&i| tree_roots.contains(&world.nodes[i].root)).collect();
    // Older versions see no request spanning providers of one tree.
    if !wide.nested_aware && wide.has_trees {
        out.retain(|a| {
            let rps: BTreeSet<usize> = a.resources.iter().map(|r| r.provider).collect();
            let roots: BTreeSet<usize> = rps.iter().map(|&p| world.nodes[p].root).collect();
            rps.len() == roots.len()
        });
        let used: BTreeSet<usize> = out.iter().flat_map(|a| a.resources.iter().map(|r| r.provider)).collect();
        summaries.retain(|i| used.contains(i));
    }
    if let Some(limit) = wide_params.limit
        && limit < out.len()
    {
        out.truncate(limit);
        let roots: BTreeSet<usize> =
            out.iter().flat_map(|a| a.resources.iter().map(|r| world.nodes[r.provider].root)).collect();
        summaries.retain(|&i| roots.contains(&world.nodes[i].root));
    }
    Ok((out, summaries))
}

/// The answer, serialized straight from the search's results: a thousand
/// candidates are half a megabyte of JSON, not worth a tree of values first.
struct Answer<'a> {
    world: &'a World,
    requests: &'a [AReq<'a>],
    summaries: &'a [usize],
    /// The classes the request names (the summaries' before 1.27).
    requested: BTreeSet<&'a str>,
    features: Features,
    version: ApiVersion,
}

impl Serialize for Answer<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut answer = serializer.serialize_map(Some(2))?;
        let requests: Vec<CandidateView<'_>> = self
            .requests
            .iter()
            .map(|request| CandidateView { world: self.world, request, features: self.features })
            .collect();
        answer.serialize_entry("allocation_requests", &requests)?;
        answer.serialize_entry("provider_summaries", &Summaries(self))?;
        answer.end()
    }
}

/// One allocation request: its allocations by provider uuid (from 1.12;
/// a list before) and its `mappings` (from 1.34).
struct CandidateView<'a> {
    world: &'a World,
    request: &'a AReq<'a>,
    features: Features,
}

impl Serialize for CandidateView<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // Providers in the order of the request's resources, each with its
        // classes in that order.
        let mut by_provider: Vec<(usize, Vec<(&str, i64)>)> = Vec::new();
        for arr in &self.request.resources {
            match by_provider.iter_mut().find(|(p, _)| *p == arr.provider) {
                Some((_, resources)) => resources.push((arr.class, arr.amount)),
                None => by_provider.push((arr.provider, vec![(arr.class, arr.amount)])),
            }
        }
        let uuid = |p: usize| self.world.nodes[p].uuid.as_str();
        let mut view = serializer.serialize_map(None)?;
        if self.features.changes.allocations_by_uuid {
            let allocations: Ordered<&str, ProviderResources<'_>> = Ordered(
                by_provider
                    .iter()
                    .map(|(p, r)| (uuid(*p), ProviderResources { resources: OrderedRef(r) }))
                    .collect(),
            );
            view.serialize_entry("allocations", &allocations)?;
            if self.features.changes.mappings {
                let mappings: BTreeMap<&str, Vec<&str>> = self
                    .request
                    .mappings
                    .iter()
                    .map(|(suffix, providers)| (*suffix, providers.iter().map(|&p| uuid(p)).collect()))
                    .collect();
                view.serialize_entry("mappings", &mappings)?;
            }
        } else {
            let allocations: Vec<Value> = by_provider
                .iter()
                .map(|(p, r)| json!({"resource_provider": {"uuid": uuid(*p)}, "resources": OrderedRef(r)}))
                .collect();
            view.serialize_entry("allocations", &allocations)?;
        }
        view.end()
    }
}

/// A provider's part of an allocation request from 1.12.
#[derive(serde::Serialize)]
struct ProviderResources<'a> {
    resources: OrderedRef<'a, &'a str, i64>,
}

/// The provider summaries, by provider uuid in the search's order.
struct Summaries<'a>(&'a Answer<'a>);

impl Serialize for Summaries<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let Answer { world, summaries, requested, features, version, .. } = self.0;
        let mut map = serializer.serialize_map(None)?;
        let mut written = BTreeSet::new();
        for &i in summaries.iter().filter(|&&i| written.insert(i)) {
            let node = &world.nodes[i];
            // Placement's rows of a provider's inventories come by resource
            // class id (standard classes in their order, then custom ones
            // as they were made).
            let mut inventories: Vec<&(Name, Inv)> = node.inventories.iter().collect();
            inventories.sort_by_key(|(class, _)| world.class_ids.get(&**class).copied().unwrap_or(i64::MAX));
            let resources = Ordered(
                inventories
                    .into_iter()
                    .filter(|(class, _)| {
                        features.changes.every_class_summarized || requested.contains(&**class)
                    })
                    .map(|(class, inv)| {
                        (&**class, Usage { capacity: inv.capacity(), used: world.used(i, class) })
                    })
                    .collect(),
            );
            let summary = ProviderSummary {
                resources,
                traits: Some(node.trait_order.iter().map(|t| &**t).collect()),
                parent_provider_uuid: node.parent.map(|p| world.nodes[p].uuid.as_str()),
                root_provider_uuid: Some(&world.nodes[node.root].uuid),
            };
            map.serialize_entry(&node.uuid, &summary.at(version.version()))?;
        }
        map.end()
    }
}

/// A JSON object with its keys in the order given.
#[derive(Debug)]
struct Ordered<K, V>(Vec<(K, V)>);

/// Read back in the order written (a summary read by a client's model).
impl<'de, K: serde::Deserialize<'de>, V: serde::Deserialize<'de>> serde::Deserialize<'de> for Ordered<K, V> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Entries<K, V>(std::marker::PhantomData<(K, V)>);
        impl<'de, K: serde::Deserialize<'de>, V: serde::Deserialize<'de>> serde::de::Visitor<'de> for Entries<K, V> {
            type Value = Ordered<K, V>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(Ordered(entries))
            }
        }
        deserializer.deserialize_map(Entries(std::marker::PhantomData))
    }
}

impl<K: Serialize, V: Serialize> Serialize for Ordered<K, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        OrderedRef(&self.0).serialize(serializer)
    }
}

/// [`Ordered`] borrowed: a JSON object of the entries of a slice, in order.
struct OrderedRef<'a, K, V>(&'a [(K, V)]);

impl<K: Serialize, V: Serialize> Serialize for OrderedRef<'_, K, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

#[controller(api = PLACEMENT)]
impl Candidates {
    #[get("/allocation_candidates")]
    #[api_version("1.10")]
    async fn list(&self, version: ApiVersion, req: HttpRequest) -> Result<HttpResponse, ApiError> {
        let features = Features::at(version.version());
        let q = Query::parse(req.query_string());
        let (groups, wide) = parse(features, &q)?;
        let world = select::load(&self.store, &groups, &wide).await?;
        let (areqs, summaries) = search(&world, &groups, &wide, features.changes.nested)?;
        let requested: BTreeSet<&str> =
            groups.iter().flat_map(|g| g.resources.iter().map(|(c, _)| c.as_str())).collect();
        let answer =
            Answer { world: &world, requests: &areqs, summaries: &summaries, requested, features, version };
        let body = serde_json::to_vec(&answer).map_err(errors::internal)?;
        let mut res = HttpResponse::Ok();
        cache_headers(&mut res, version, store::now());
        Ok(res.content_type("application/json").body(body))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A summary's resources read back keep the order they were written in
    /// (by class id, not by name), and the model writes them so.
    #[test]
    fn summary_resources_keep_their_order_both_ways() {
        let text = r#"{"VCPU":{"capacity":8,"used":1},"MEMORY_MB":{"capacity":4096,"used":0},"DISK_GB":{"capacity":10,"used":2}}"#;
        let read: Ordered<String, Usage> = serde_json::from_str(text).expect("an object of usages");
        let classes: Vec<&str> = read.0.iter().map(|(class, _)| class.as_str()).collect();
        assert_eq!(classes, ["VCPU", "MEMORY_MB", "DISK_GB"]);
        assert_eq!(serde_json::to_string(&read).expect("serializable"), text);
        assert!(serde_json::from_str::<Ordered<String, Usage>>("[1]").is_err(), "a list is no object");
    }
}
