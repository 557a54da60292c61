//! Allocations and consumers: `/allocations/{consumer_uuid}` (a list body
//! until 1.11, a dict from 1.12; project and user required from 1.8;
//! consumer generations from 1.28; consumer types from 1.38), `POST
//! /allocations` for several consumers from 1.13, and the allocations of
//! a provider.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use crate::db::{StoreError, Tx};
use actix_web::{HttpResponse, web};
use indexmap::IndexMap;
use microversion_actix::{ApiError, ApiVersion, Json, Version, VersionedModel, controller};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::api::PLACEMENT;
use crate::errors;
use crate::http::{cache_headers, generation, integer};
use crate::query::{self, UUID_KEY_PATTERN, UUID_PATTERN};
use crate::store::{self, Store};

const V1_38: Version = Version::lit("1.38");
/// The project and user of consumers created without them (before 1.8).
const INCOMPLETE: &str = "00000000-0000-0000-0000-000000000000";
const RC_PATTERN: &str = "^[A-Z0-9_]+$";
const CONSUMER_TYPE_PATTERN: &str = "^[A-Z0-9_]+$";

/// `GET /allocations/{consumer_uuid}`: the consumer's project and user
/// from 1.12, its generation from 1.28 and its type from 1.38, each left
/// out for a consumer that does not exist.
#[derive(VersionedModel)]
#[versioned(api = PLACEMENT)]
struct ConsumerAllocations<'a> {
    /// Per provider uuid, in Placement's order: the consumer's allocation
    /// rows by id (the order they were written, that of the request body),
    /// each provider where its first row is, and its resource classes in
    /// the order of its rows; each `{"resources": {...}, "generation": N}`.
    #[versioned(schema = by_provider_schema)]
    allocations: Map<String, Value>,
    #[versioned(since = "1.12", skip_none)]
    project_id: Option<&'a str>,
    #[versioned(since = "1.12", skip_none)]
    user_id: Option<&'a str>,
    #[versioned(since = "1.28", skip_none)]
    consumer_generation: Option<i64>,
    /// `unknown` for a consumer written before 1.38.
    #[versioned(since = "1.38", skip_none)]
    consumer_type: Option<&'a str>,
}

/// The schema of a consumer's allocations: per provider uuid, its
/// generation and the amounts per resource class.
fn by_provider_schema() -> Value {
    json!({"type": "object", "additionalProperties": {
        "type": "object",
        "properties": {
            "resources": {"type": "object", "additionalProperties": {"type": "integer"}},
            "generation": {"type": "integer"}},
        "required": ["resources", "generation"]}})
}

/// One consumer's allocations in `GET /resource_providers/{uuid}/allocations`:
/// its amounts per class, in the order of its rows, then from 1.28 its
/// generation (`null` for a consumer without a row).
#[derive(VersionedModel)]
#[versioned(api = PLACEMENT)]
struct ConsumerOnProvider {
    #[versioned(schema = amounts_schema)]
    resources: Map<String, Value>,
    #[versioned(since = "1.28")]
    consumer_generation: Option<i64>,
}

/// Amounts per resource class.
fn amounts_schema() -> Value {
    json!({"type": "object", "additionalProperties": {"type": "integer"}})
}

/// The allocation resources.
pub(crate) struct Allocations {
    store: Arc<Store>,
}

impl Allocations {
    pub(crate) fn new(store: Arc<Store>) -> Allocations {
        Allocations { store }
    }
}

fn resources_schema() -> Value {
    json!({"type": "object", "minProperties": 1,
           "patternProperties": {RC_PATTERN: {"type": "integer", "minimum": 1}},
           "additionalProperties": false})
}

fn ids() -> Value {
    json!({"type": "string", "minLength": 1, "maxLength": 255})
}

/// Placement's `ALLOCATION_SCHEMA`, and from 1.8 `ALLOCATION_SCHEMA_V1_8`,
/// which adds `project_id` and `user_id` (required): before 1.8 they are
/// unknown keys, refused as any other.
fn list_body(with_ids: bool) -> Value {
    let mut body = json!({"type": "object",
           "properties": {
               "allocations": {"type": "array", "minItems": 1, "items": {
                   "type": "object",
                   "properties": {
                       "resource_provider": {"type": "object",
                           "properties": {"uuid": {"type": "string", "pattern": UUID_PATTERN}},
                           "additionalProperties": false, "required": ["uuid"]},
                       "resources": resources_schema()},
                   "required": ["resource_provider", "resources"], "additionalProperties": false}}},
           "required": ["allocations"], "additionalProperties": false});
    if with_ids {
        body["properties"]["project_id"] = ids();
        body["properties"]["user_id"] = ids();
        body["required"] = json!(["allocations", "project_id", "user_id"]);
    }
    body
}

fn put_v1_0() -> Value {
    list_body(false)
}

fn put_v1_8() -> Value {
    list_body(true)
}

fn dict_allocations(min_properties: u32) -> Value {
    json!({"type": "object", "minProperties": min_properties,
           "patternProperties": {UUID_KEY_PATTERN: {"type": "object",
               "properties": {"generation": {"type": "integer"}, "resources": resources_schema()},
               "required": ["resources"], "additionalProperties": false}},
           "additionalProperties": false})
}

/// What a dict body holds beyond allocations, project and user.
#[derive(Clone, Copy)]
pub(crate) struct Extras {
    /// `consumer_generation` (1.28).
    pub(crate) generations: bool,
    /// `mappings` (1.34).
    pub(crate) mappings: bool,
    /// `consumer_type` (1.38).
    pub(crate) types: bool,
}

const V1_12_EXTRAS: Extras = Extras { generations: false, mappings: false, types: false };
const V1_28_EXTRAS: Extras = Extras { generations: true, mappings: false, types: false };
const V1_34_EXTRAS: Extras = Extras { generations: true, mappings: true, types: false };
const V1_38_EXTRAS: Extras = Extras { generations: true, mappings: true, types: true };

/// One consumer's dict body (from 1.12).
fn dict_body(extras: Extras, min_properties: u32) -> Value {
    let mut schema = json!({"type": "object",
        "properties": {"allocations": dict_allocations(min_properties), "project_id": ids(), "user_id": ids()},
        "additionalProperties": false, "required": ["allocations", "project_id", "user_id"]});
    if extras.generations {
        schema["properties"]["consumer_generation"] =
            json!({"type": ["integer", "null"], "additionalProperties": false});
        schema["required"].as_array_mut().expect("a list").push(json!("consumer_generation"));
    }
    if extras.mappings {
        schema["properties"]["mappings"] = json!({"type": "object", "minProperties": 1,
            "patternProperties": {"[a-zA-Z0-9_-]{1,64}": {"type": "array", "minItems": 1,
                "items": {"type": "string", "pattern": UUID_PATTERN}}}});
    }
    if extras.types {
        schema["properties"]["consumer_type"] =
            json!({"type": "string", "pattern": CONSUMER_TYPE_PATTERN, "minLength": 1, "maxLength": 255});
        schema["required"].as_array_mut().expect("a list").push(json!("consumer_type"));
    }
    schema
}

fn put_v1_12() -> Value {
    dict_body(V1_12_EXTRAS, 1)
}

fn put_v1_28() -> Value {
    dict_body(V1_28_EXTRAS, 0)
}

fn put_v1_34() -> Value {
    dict_body(V1_34_EXTRAS, 0)
}

fn put_v1_38() -> Value {
    dict_body(V1_38_EXTRAS, 0)
}

/// The body of `POST /allocations` (and the reshaper's allocations, which
/// may be empty).
pub(crate) fn post_body(extras: Extras, min_properties: u32) -> Value {
    json!({"type": "object", "minProperties": min_properties, "additionalProperties": false,
           "patternProperties": {UUID_KEY_PATTERN: dict_body(extras, 0)}})
}

fn post_v1_13() -> Value {
    post_body(V1_12_EXTRAS, 1)
}

fn post_v1_28() -> Value {
    post_body(V1_28_EXTRAS, 1)
}

fn post_v1_34() -> Value {
    post_body(V1_34_EXTRAS, 1)
}

fn post_v1_38() -> Value {
    post_body(V1_38_EXTRAS, 1)
}

/// What a request asks for one consumer.
pub(crate) struct ConsumerRequest {
    uuid: String,
    /// Provider uuid to class to amount, in the order of the body: the
    /// allocations are written in that order, as Placement writes them
    /// (`create_allocation_list`), and read back in it.
    allocations: Vec<(String, Vec<(String, i64)>)>,
    project_id: Option<String>,
    user_id: Option<String>,
    generation: Option<Option<i64>>,
    consumer_type: Option<String>,
}

/// One consumer's allocations as a body its version's schema accepted
/// gives them. The form tells the versions apart, so no version is read
/// here: a list of providers until 1.11, keyed by provider from 1.12;
/// `consumer_generation` present (required) from 1.28, `consumer_type`
/// from 1.38. One body for the three operations that carry a consumer's
/// allocations: `PUT /allocations/{c}`, each consumer of `POST
/// /allocations` and of `POST /reshaper`.
#[derive(Deserialize)]
pub(crate) struct ConsumerBody {
    allocations: AllocationsBody,
    project_id: Option<String>,
    user_id: Option<String>,
    /// Absent: not checked (before 1.28); `Some(None)`: a new consumer.
    #[serde(default, deserialize_with = "present_generation")]
    consumer_generation: Option<Option<i64>>,
    consumer_type: Option<String>,
}

/// The two forms of a consumer's allocations.
#[derive(Deserialize)]
#[serde(untagged)]
enum AllocationsBody {
    /// From 1.12: `{"<provider>": {"resources": {...}}}`, in the order sent.
    ByProvider(IndexMap<String, ProviderResources>),
    /// Until 1.11: `[{"resource_provider": {"uuid": ...}, "resources": {...}}]`.
    Listed(Vec<ListedAllocation>),
}

#[derive(Deserialize)]
struct ProviderResources {
    resources: IndexMap<String, Amount>,
}

#[derive(Deserialize)]
struct ListedAllocation {
    resource_provider: ProviderRef,
    resources: IndexMap<String, Amount>,
}

#[derive(Deserialize)]
struct ProviderRef {
    uuid: String,
}

/// An amount of a class, an integer however written (`2`, `2.0`).
#[derive(Deserialize)]
struct Amount(#[serde(deserialize_with = "integer")] i64);

/// A present `consumer_generation`, `null` (a new consumer) or not.
fn present_generation<'de, D: serde::Deserializer<'de>>(field: D) -> Result<Option<Option<i64>>, D::Error> {
    generation(field).map(Some)
}

/// The amounts of `resources`, in the order sent.
fn amounts(resources: IndexMap<String, Amount>) -> Vec<(String, i64)> {
    resources.into_iter().map(|(class, Amount(amount))| (class, amount)).collect()
}

impl ConsumerRequest {
    /// The request of consumer `uuid`.
    pub(crate) fn from_body(uuid: &str, body: ConsumerBody) -> ConsumerRequest {
        let allocations = match body.allocations {
            AllocationsBody::ByProvider(providers) => {
                providers.into_iter().map(|(rp, a)| (rp, amounts(a.resources))).collect()
            }
            AllocationsBody::Listed(listed) => {
                // One entry per provider, where it first appears; a later
                // item's amount of a class replaces an earlier one's.
                let mut list: Vec<(String, Vec<(String, i64)>)> = Vec::new();
                for ListedAllocation { resource_provider: ProviderRef { uuid: rp }, resources } in listed {
                    let index = match list.iter().position(|(p, _)| *p == rp) {
                        Some(i) => i,
                        None => {
                            list.push((rp, Vec::new()));
                            list.len() - 1
                        }
                    };
                    for (class, amount) in amounts(resources) {
                        let resources = &mut list[index].1;
                        match resources.iter_mut().find(|(c, _)| *c == class) {
                            Some(entry) => entry.1 = amount,
                            None => resources.push((class, amount)),
                        }
                    }
                }
                list
            }
        };
        ConsumerRequest {
            uuid: uuid.to_owned(),
            allocations,
            project_id: body.project_id,
            user_id: body.user_id,
            generation: body.consumer_generation,
            consumer_type: body.consumer_type,
        }
    }

    /// The requests of the consumers of a `POST /allocations` or a
    /// reshape, in the order sent, each consumer's uuid checked.
    ///
    /// Two spellings of one uuid (either case, with or without hyphens)
    /// name one consumer: the later one's claim stands, in the earlier
    /// one's place, as a key written twice does in a JSON object.
    pub(crate) fn of_consumers(
        consumers: IndexMap<String, ConsumerBody>,
    ) -> Result<Vec<ConsumerRequest>, ApiError> {
        let mut requests: Vec<ConsumerRequest> = Vec::with_capacity(consumers.len());
        for (uuid, body) in consumers {
            let request = ConsumerRequest::from_body(&check_consumer_uuid(&uuid)?, body);
            match requests.iter_mut().find(|r| r.uuid == request.uuid) {
                Some(earlier) => *earlier = request,
                None => requests.push(request),
            }
        }
        Ok(requests)
    }
}

/// The order in which CPython iterates a set of non-negative integers
/// (below 2^61, each its own hash) built by adding `items` in turn:
/// Placement names resource classes in the order of a set of their ids
/// (`_check_capacity_exceeded`'s `rc_ids`). CPython 3's `setobject.c`: a
/// table of 8 slots, an item at its hash masked, else in the next nine
/// slots where the table has them, else further by `i * 5 + 1 + perturb`
/// with the hash shifted into `perturb` 5 bits at a time; the table grows
/// to the first power of two above four times its items once it is three
/// fifths full, its items added again in slot order.
fn python_set_order(items: impl IntoIterator<Item = i64>) -> Vec<i64> {
    const LINEAR_PROBES: usize = 9;
    fn slot(table: &[Option<i64>], item: i64) -> usize {
        let mask = table.len() - 1;
        let hash = item.unsigned_abs() as usize;
        let (mut i, mut perturb) = (hash & mask, hash);
        loop {
            let probes = if i + LINEAR_PROBES <= mask { LINEAR_PROBES } else { 0 };
            if let Some(free) = (i..=i + probes).find(|&j| table[j].is_none_or(|there| there == item)) {
                return free;
            }
            perturb >>= 5;
            i = (i * 5 + 1 + perturb) & mask;
        }
    }
    let mut table: Vec<Option<i64>> = vec![None; 8];
    let mut used = 0;
    for item in items {
        let at = slot(&table, item);
        if table[at].is_some() {
            continue;
        }
        table[at] = Some(item);
        used += 1;
        if used * 5 >= (table.len() - 1) * 3 {
            let mut size = 8;
            while size <= used * 4 {
                size <<= 1;
            }
            let old = std::mem::replace(&mut table, vec![None; size]);
            for item in old.into_iter().flatten() {
                let at = slot(&table, item);
                table[at] = Some(item);
            }
        }
    }
    table.into_iter().flatten().collect()
}

/// `items` without repeats, in their first order.
fn unique<'a>(items: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut seen = Vec::new();
    for item in items {
        if !seen.contains(&item) {
            seen.push(item);
        }
    }
    seen
}

/// A claim, in one transaction. Placement's handlers
/// (`_set_allocations_for_consumer`, `set_allocations`) ensure each
/// consumer in a transaction of its own first ([`ensure_consumers`]), so
/// that an unknown provider, a 400, leaves the consumers it made, while any
/// later failure removes them (`delete_consumers`). Here the consumers, the
/// checks and the write are one transaction, which a failure rolls back,
/// and after an unknown provider the consumers are made once more on their
/// own: the answer and what stays are Placement's, in one `COMMIT` rather
/// than three transactions.
pub(crate) async fn claim(
    store: &Store,
    requests: &[ConsumerRequest],
    by: Claimant,
    write: impl AsyncFn(&Tx, &Ensured) -> Result<(), ApiError>,
) -> Result<(), ApiError> {
    let claimed = store
        .tx(async |tx| -> Result<(), Refusal> {
            let ensured = ensure_consumers(tx, requests).await?;
            // Placement's order: an unknown provider first (its 400; a
            // storage failure stays what it is), then an unknown class.
            if let Err(error) = find_providers(tx, requests).await {
                return Err(match error.status() {
                    microversion_actix::portable::StatusCode::BAD_REQUEST => Refusal::UnknownProvider(error, ensured.made),
                    _ => Refusal::Other(error),
                });
            }
            if let Some((consumer, class)) = unknown_class(tx, requests).await? {
                return Err(Refusal::Other(errors::bad_request(match by {
                    Claimant::OneConsumer => format!(
                        "Unable to allocate inventory for consumer {consumer}: No such resource class {class}."
                    ),
                    Claimant::Consumers => format!("Unable to allocate inventory No such resource class {class}."),
                    Claimant::Reshaper => format!("malformed reshaper data: No such resource class {class}."),
                })));
            }
            Ok(write(tx, &ensured).await?)
        })
        .await;
    match claimed {
        Ok(()) => Ok(()),
        Err(Refusal::Other(error)) => Err(error),
        Err(Refusal::UnknownProvider(error, created)) => {
            // The consumers the claim made, made again; the answer stays
            // the 400, whatever that meets.
            if !created.is_empty() {
                let _ = store
                    .tx(async |tx| -> Result<Ensured, ApiError> {
                        ensure_consumers(tx, requests.iter().filter(|r| created.contains(&r.uuid))).await
                    })
                    .await;
            }
            Err(error)
        }
    }
}

/// Why a claim's transaction was rolled back: an unknown provider leaves
/// the consumers the claim made (their uuids), anything else does not.
enum Refusal {
    UnknownProvider(ApiError, Vec<String>),
    Other(ApiError),
}

impl From<ApiError> for Refusal {
    fn from(error: ApiError) -> Refusal {
        Refusal::Other(error)
    }
}

impl From<StoreError> for Refusal {
    fn from(error: StoreError) -> Refusal {
        Refusal::Other(error.into())
    }
}

/// Which handler claims: an unknown class is worded by each its own way.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Claimant {
    /// `PUT /allocations/{consumer_uuid}`.
    OneConsumer,
    /// `POST /allocations`.
    Consumers,
    /// `POST /reshaper`.
    Reshaper,
}

/// The first consumer and resource class the requests name that does not
/// exist.
async fn unknown_class(tx: &Tx, requests: &[ConsumerRequest]) -> Result<Option<(String, String)>, ApiError> {
    let known = store::classes::ids(tx).await?;
    Ok(requests.iter().find_map(|request| {
        let mut classes = request.allocations.iter().flat_map(|(_, resources)| resources);
        classes
            .find(|(class, _)| !known.contains_key(class))
            .map(|(class, _)| (request.uuid.clone(), class.clone()))
    }))
}

/// What a claim's [`ensure_consumers`] did with its consumers: those it
/// made, and the generation it read of each it found, which the write
/// moves on from (Placement's `_increment_consumer_generation` expects the
/// generation `ensure_consumer` read, so a claim committed meanwhile is a
/// 409, at any version).
#[derive(Default)]
pub(crate) struct Ensured {
    made: Vec<String>,
    found: HashMap<String, i64>,
}

/// Placement's `ensure_consumer`, for each consumer of `requests`: a
/// consumer that does not exist made, at generation 0, with the request's
/// owner (the incomplete consumer's before 1.8), and the consumer's
/// generation checked where the version asks for one.
///
/// The consumers are made in one order, by uuid, whatever order the
/// request names them in: a new consumer's row is locked from its insert
/// until the commit, and two claims making the same consumers in opposite
/// orders would each wait for the other (a deadlock, which PostgreSQL
/// breaks after a second: a 409). Their generations are checked in the
/// request's order, as Placement checks them: the first that fails is the
/// one the 409 names, and its refusal rolls back the rows made.
async fn ensure_consumers<'a>(
    tx: &Tx,
    requests: impl IntoIterator<Item = &'a ConsumerRequest>,
) -> Result<Ensured, ApiError> {
    let requests: Vec<&ConsumerRequest> = requests.into_iter().collect();
    let mut by_uuid = requests.clone();
    by_uuid.sort_unstable_by(|a, b| a.uuid.cmp(&b.uuid));
    let mut made = Vec::new();
    for request in by_uuid {
        let project = request.project_id.as_deref().unwrap_or(INCOMPLETE);
        let user = request.user_id.as_deref().unwrap_or(INCOMPLETE);
        let consumer_type = request.consumer_type.as_deref();
        if store::consumers::insert_if_new(tx, &request.uuid, project, user, consumer_type).await? {
            made.push(request.uuid.clone());
        }
    }
    let mut ensured = Ensured::default();
    for request in requests {
        if made.contains(&request.uuid) {
            check_consumer_generation(None, request)?;
            ensured.made.push(request.uuid.clone());
        } else {
            let existing = store::consumers::get(tx, &request.uuid).await?;
            check_consumer_generation(existing.as_ref(), request)?;
            // Deleted since the insert met it: the write makes it again, at 0.
            ensured.found.insert(request.uuid.clone(), existing.map_or(0, |c| c.generation));
        }
    }
    Ok(ensured)
}

/// The consumer generation check: the one the request names must be the
/// consumer's, or null for a consumer that does not exist.
fn check_consumer_generation(
    existing: Option<&store::consumers::Consumer>,
    request: &ConsumerRequest,
) -> Result<(), ApiError> {
    let Some(expected) = request.generation else { return Ok(()) };
    match (existing, expected) {
        (Some(c), Some(g)) if c.generation == g => Ok(()),
        (Some(c), got) => Err(errors::concurrent_update(format!(
            "consumer generation conflict - expected {} but got {}",
            c.generation,
            got.map_or("None".to_owned(), |g| g.to_string())
        ))),
        (None, Some(g)) => Err(errors::concurrent_update(format!(
            "consumer generation conflict - expected null but got {g}"
        ))),
        (None, None) => Ok(()),
    }
}

/// Every provider the requests allocate from, by uuid; an unknown one is
/// Placement's 400 (`_resource_providers_by_uuid`).
async fn find_providers<'a>(
    tx: &Tx,
    requests: &'a [ConsumerRequest],
) -> Result<BTreeMap<&'a str, store::Provider>, ApiError> {
    let mut providers = BTreeMap::new();
    for (rp_uuid, _) in requests.iter().flat_map(|r| &r.allocations) {
        if !providers.contains_key(rp_uuid.as_str()) {
            let provider = store::provider(tx, rp_uuid).await?.ok_or_else(|| {
                errors::bad_request(format!(
                    "Allocation for resource provider '{rp_uuid}' that does not exist."
                ))
            })?;
            providers.insert(rp_uuid.as_str(), provider);
        }
    }
    Ok(providers)
}

/// Writes the allocations of several consumers in [`claim`]'s transaction,
/// checking consumer generations (but those of the consumers
/// [`ensure_consumers`] just made), capacities and constraints, and bumping
/// the generation of every provider whose allocations changed and of every
/// consumer whose allocations were written or removed: [`own_consumers`],
/// then [`replace_allocations`].
pub(crate) async fn write_allocations(
    tx: &Tx,
    version: ApiVersion,
    requests: &[ConsumerRequest],
    ensured: &Ensured,
) -> Result<(), ApiError> {
    own_consumers(tx, version, requests, ensured).await?;
    replace_allocations(tx, requests, ensured).await
}

/// The first half of [`write_allocations`] (Placement's `update_consumers`):
/// each consumer [`ensure_consumers`] found checked again and given the
/// request's owner and type, which locks its row. A reshape calls it before
/// it locks any provider, so that it takes its rows in a claim's order.
pub(crate) async fn own_consumers(
    tx: &Tx,
    version: ApiVersion,
    requests: &[ConsumerRequest],
    ensured: &Ensured,
) -> Result<(), ApiError> {
    // A consumer just made by [`ensure_consumers`], in this transaction, is
    // at 0 and as the request has it: nothing to read or re-own. Any other
    // moves on from the generation `ensure_consumers` read. Their
    // generations are checked in the request's order (the first that fails
    // is the one the 409 names), then they are re-owned in one order, by
    // uuid, as `ensure_consumers` makes the new ones: a re-owned consumer's
    // row is locked until the commit, and two claims re-owning the same
    // consumers in opposite orders would each wait for the other (a
    // deadlock). Every row a claim locks after them (allocations of its
    // consumers, providers by id) is taken in one order too.
    let mut found = Vec::new();
    for request in requests.iter().filter(|r| !ensured.made.contains(&r.uuid)) {
        let existing = store::consumers::get(tx, &request.uuid).await?;
        check_consumer_generation(existing.as_ref(), request)?;
        found.push((request, existing));
    }
    found.sort_unstable_by(|(a, _), (b, _)| a.uuid.cmp(&b.uuid));
    for (request, existing) in found {
        let project = request.project_id.clone().unwrap_or_else(|| INCOMPLETE.to_owned());
        let user = request.user_id.clone().unwrap_or_else(|| INCOMPLETE.to_owned());
        match &existing {
            Some(c) => {
                // 1.38: the request names the consumer's type; before, an
                // existing consumer keeps its own (a rule of the write, not
                // of the body's form, so no schema can say it).
                let consumer_type =
                    if version >= V1_38 { request.consumer_type.clone() } else { c.consumer_type.clone() };
                // Below 1.8 the owner is the configured incomplete
                // consumer's, and `ensure_consumer` re-owns an existing
                // consumer to it, as to any other owner the request names.
                store::consumers::reown(tx, &request.uuid, &project, &user, consumer_type.as_deref()).await?;
            }
            None => {
                let made = store::consumers::insert_if_new(
                    tx,
                    &request.uuid,
                    &project,
                    &user,
                    request.consumer_type.as_deref(),
                )
                .await?;
                // Made meanwhile by another request: a lost race, as a taken key is.
                if !made {
                    return Err(StoreError::LostRace.into());
                }
            }
        }
    }
    Ok(())
}

/// Every provider whose row a claim of `requests` may write, by id: those
/// the requests allocate from and those the consumers have allocations
/// of now. Read once the consumers are locked ([`own_consumers`]): their
/// allocations cannot change meanwhile.
pub(crate) async fn providers_written(
    tx: &Tx,
    requests: &[ConsumerRequest],
) -> Result<std::collections::BTreeSet<i64>, ApiError> {
    let mut ids: std::collections::BTreeSet<i64> =
        find_providers(tx, requests).await?.values().map(|provider| provider.id).collect();
    for request in requests {
        let rows = store::allocations::providers_of_consumer(tx, &request.uuid).await?;
        ids.extend(rows.iter().map(|(id, _, _)| *id));
    }
    Ok(ids)
}

/// The second half of [`write_allocations`] (Placement's `_set_allocations`):
/// the consumers' allocations replaced, capacities and constraints checked,
/// the generations of the providers and consumers moved on.
pub(crate) async fn replace_allocations(
    tx: &Tx,
    requests: &[ConsumerRequest],
    ensured: &Ensured,
) -> Result<(), ApiError> {
    let mut touched: BTreeMap<i64, i64> = BTreeMap::new();
    // Every consumer's previous allocations go; the providers of a consumer
    // whose allocations are emptied change, as do those of the new ones.
    let mut previous_usage: BTreeMap<(i64, String), i64> = BTreeMap::new();
    let mut had_allocations = Vec::with_capacity(requests.len());
    // The classes of Placement's `allocs`, in its order: each consumer's
    // new allocations, and the existing ones, at 0, of a consumer whose
    // allocations are emptied.
    let mut allocated: Vec<String> = Vec::new();
    for request in requests {
        let rows = store::allocations::providers_of_consumer(tx, &request.uuid).await?;
        if request.allocations.is_empty() {
            touched.extend(rows.iter().map(|(id, generation, _)| (*id, *generation)));
            allocated.extend(rows.iter().map(|(_, _, class)| class.clone()));
        } else {
            let resources = request.allocations.iter().flat_map(|(_, resources)| resources);
            allocated.extend(resources.map(|(class, _)| class.clone()));
        }
        had_allocations.push(!rows.is_empty());
        for (id, _, class) in rows {
            previous_usage.entry((id, class)).or_insert(0);
        }
    }
    for ((id, class), used) in previous_usage.iter_mut() {
        *used = store::allocations::used(tx, *id, class).await?;
    }
    // A new consumer has nothing to delete: one statement less per claim.
    for (request, _) in requests.iter().zip(&had_allocations).filter(|(_, had)| **had) {
        store::allocations::delete_of_consumer(tx, &request.uuid).await?;
    }
    // What the request has asked so far of each provider and class, as
    // `_check_capacity_exceeded` sums it (`rp_resource_class_sum`) while it
    // walks the allocations in order: an allocation is checked against
    // what those before it asked, so a class without inventory after one
    // that fits is refused as the missing inventory, not the capacity.
    let mut asked: BTreeMap<(String, String), i64> = BTreeMap::new();
    // The providers as this transaction sees them now (a reshape's interim
    // inventories moved their generations on). [`claim`] found them and
    // every class first, in Placement's order (a provider 400, then a
    // class 400) and in this transaction; a class cannot go while a
    // provider has inventory of it, which an allocation needs (409 below).
    let providers = find_providers(tx, requests).await?;
    // A provider without inventory of any class of `allocs` is refused
    // first, naming every such provider and every class, in the order of
    // a set of their ids (`_check_capacity_exceeded`'s `missing_provs`).
    let classes: Vec<&str> = unique(allocated.iter().map(String::as_str));
    let mut bare = Vec::new();
    let mut inventories_of = BTreeMap::new();
    for (rp_uuid, provider) in &providers {
        let inventories = store::inventories(tx, provider.id).await?;
        if !inventories.iter().any(|i| classes.contains(&i.resource_class.as_str())) {
            bare.push(*rp_uuid);
        }
        inventories_of.insert(provider.id, inventories);
    }
    if !bare.is_empty() {
        let ids = store::classes::ids(tx).await?;
        let by_id: BTreeMap<i64, &str> = classes.iter().filter_map(|c| Some((*ids.get(*c)?, *c))).collect();
        let in_set_order = python_set_order(classes.iter().filter_map(|c| ids.get(*c).copied()));
        let named: Vec<&str> = in_set_order.iter().filter_map(|id| by_id.get(id).copied()).collect();
        return Err(errors::conflict(format!(
            "Unable to allocate inventory: Inventory for '{}' on resource provider '{}' invalid.",
            named.join(", "),
            bare.join(", ")
        )));
    }
    // Usages as they are once the consumers' allocations are gone, before
    // any new one.
    let mut base_usage: BTreeMap<i64, Vec<(String, i64)>> = BTreeMap::new();
    for request in requests {
        for (rp_uuid, resources) in &request.allocations {
            let provider = &providers[rp_uuid.as_str()];
            let inventories = &inventories_of[&provider.id];
            if let std::collections::btree_map::Entry::Vacant(entry) = base_usage.entry(provider.id) {
                entry.insert(store::usages(tx, provider.id).await?);
            }
            let usages = &base_usage[&provider.id];
            for (class, amount) in resources {
                let inventory = inventories.iter().find(|i| &i.resource_class == class);
                let invalid = |what: &str| {
                    errors::conflict(format!(
                        "Unable to allocate inventory: Unable to create allocation for '{class}' on resource provider '{rp_uuid}'. The requested amount would {what}."
                    ))
                };
                let Some(inv) = inventory else {
                    return Err(errors::conflict(format!(
                        "Unable to allocate inventory: Inventory for '{class}' on resource provider '{rp_uuid}' invalid."
                    )));
                };
                if *amount < inv.min_unit || *amount > inv.max_unit || amount % inv.step_size != 0 {
                    return Err(invalid("violate inventory constraints"));
                }
                let used = usages.iter().find(|(c, _)| c == class).map_or(0, |(_, u)| *u);
                let all = {
                    let so_far = asked.entry((rp_uuid.clone(), class.clone())).or_default();
                    *so_far += amount;
                    *so_far
                };
                let capacity = inv.capacity();
                if capacity < used + amount || capacity < used + all {
                    // Allowed only when it reduces an existing overage.
                    let reduces = previous_usage
                        .get(&(provider.id, class.clone()))
                        .is_some_and(|previous| used + all <= *previous);
                    if !reduces {
                        return Err(invalid("exceed the capacity"));
                    }
                }
                store::allocations::insert(tx, provider.id, &request.uuid, class, *amount).await?;
            }
            touched.insert(provider.id, provider.generation);
        }
    }
    // A lost race is this 409; a storage failure stays what it is.
    let raced = |e| match e {
        StoreError::GenerationChanged | StoreError::LostRace => errors::concurrent_update(
            "Inventory and/or allocations changed while attempting to allocate: Another thread concurrently updated the data. Please retry your update",
        ),
        e => e.into(),
    };
    for (id, generation) in touched {
        store::bump_provider(tx, id, generation).await.map_err(raced)?;
    }
    // The consumers whose allocations were written or removed move on
    // (`_set_allocations`); one of them left without allocations is gone
    // (only those: a scan of every consumer would grow with the tables). A
    // consumer that had none and is given none stays, as in Placement.
    let emptied = |r: &ConsumerRequest| r.allocations.iter().all(|(_, resources)| resources.is_empty());
    for (request, _) in requests.iter().zip(&had_allocations).filter(|(r, had)| **had || !emptied(r)) {
        let expected = ensured.found.get(&request.uuid).copied().unwrap_or(0);
        store::consumers::bump(tx, &request.uuid, expected).await.map_err(raced)?;
    }
    for (request, _) in requests.iter().zip(&had_allocations).filter(|(r, had)| **had && emptied(r)) {
        store::consumers::delete_if_empty(tx, &request.uuid).await?;
    }
    Ok(())
}

pub(crate) fn check_consumer_uuid(uuid: &str) -> Result<String, ApiError> {
    if !query::is_uuid(uuid) {
        return Err(errors::bad_request(format!("Malformed consumer_uuid: {uuid}")));
    }
    Ok(uuid::Uuid::try_parse(uuid).map(|u| u.hyphenated().to_string()).unwrap_or_else(|_| uuid.to_owned()))
}

#[controller(api = PLACEMENT)]
impl Allocations {
    #[get("/allocations/{consumer_uuid}")]
    async fn show(&self, version: ApiVersion, uuid: web::Path<String>) -> Result<HttpResponse, ApiError> {
        let (rows, found) = self
            .store
            .read(async |tx| -> Result<_, ApiError> {
                let rows = store::allocations::of_consumer(tx, &uuid).await?;
                Ok((rows, store::consumers::get(tx, &uuid).await?))
            })
            .await?;
        // Placement's `_serialize_allocations_for_consumer`: providers and
        // classes in the order of the rows (by id), `resources` before
        // `generation`; the consumer only when it has allocations (a
        // consumer left without any, which Placement keeps, is not shown).
        let found = found.filter(|_| !rows.is_empty());
        let mut allocations = Map::new();
        for (rp, generation, class, used, _) in &rows {
            let entry = allocations
                .entry(rp.clone())
                .or_insert_with(|| json!({"resources": {}, "generation": generation}));
            entry["resources"][class] = json!(used);
        }
        let body = ConsumerAllocations {
            allocations,
            project_id: found.as_ref().map(|c| c.project_id.as_str()),
            user_id: found.as_ref().map(|c| c.user_id.as_str()),
            consumer_generation: found.as_ref().map(|c| c.generation),
            consumer_type: found.as_ref().map(|c| c.consumer_type.as_deref().unwrap_or("unknown")),
        };
        let modified = rows.iter().map(|r| r.4).max().unwrap_or_else(store::now);
        let mut res = HttpResponse::Ok();
        cache_headers(&mut res, version, modified);
        Ok(res.json(body.at(version.version())))
    }

    #[put("/allocations/{consumer_uuid}")]
    #[schema(put_v1_0, "1.0", "1.7")]
    #[schema(put_v1_8, "1.8", "1.11")]
    #[schema(put_v1_12, "1.12", "1.27")]
    #[schema(put_v1_28, "1.28", "1.33")]
    #[schema(put_v1_34, "1.34", "1.37")]
    #[schema(put_v1_38, "1.38")]
    async fn replace(
        &self,
        version: ApiVersion,
        uuid: web::Path<String>,
        body: Json<ConsumerBody>,
    ) -> Result<HttpResponse, ApiError> {
        let uuid = check_consumer_uuid(&uuid)?;
        let request = ConsumerRequest::from_body(&uuid, body.into_inner());
        let requests = [request];
        let write =
            async |tx: &Tx, ensured: &Ensured| write_allocations(tx, version, &requests, ensured).await;
        claim(&self.store, &requests, Claimant::OneConsumer, write).await?;
        Ok(HttpResponse::NoContent().finish())
    }

    #[post("/allocations")]
    #[api_version("1.13")]
    #[schema(post_v1_13, "1.13", "1.27")]
    #[schema(post_v1_28, "1.28", "1.33")]
    #[schema(post_v1_34, "1.34", "1.37")]
    #[schema(post_v1_38, "1.38")]
    async fn create(
        &self,
        version: ApiVersion,
        body: Json<IndexMap<String, ConsumerBody>>,
    ) -> Result<HttpResponse, ApiError> {
        let requests = ConsumerRequest::of_consumers(body.into_inner())?;
        let write =
            async |tx: &Tx, ensured: &Ensured| write_allocations(tx, version, &requests, ensured).await;
        claim(&self.store, &requests, Claimant::Consumers, write).await?;
        Ok(HttpResponse::NoContent().finish())
    }

    #[delete("/allocations/{consumer_uuid}")]
    async fn delete(&self, uuid: web::Path<String>) -> Result<HttpResponse, ApiError> {
        // As Placement does, the providers' generations stay as they are.
        self.store
            .tx(async |tx| -> Result<_, ApiError> {
                if !store::consumers::delete_with_allocations(tx, &uuid).await? {
                    return Err(errors::not_found(format!("No allocations for consumer '{uuid}'")));
                }
                Ok(())
            })
            .await?;
        Ok(HttpResponse::NoContent().finish())
    }

    #[get("/resource_providers/{uuid}/allocations")]
    async fn for_provider(
        &self,
        version: ApiVersion,
        uuid: web::Path<String>,
    ) -> Result<HttpResponse, ApiError> {
        let (generation, rows) = self
            .store
            .read(async |tx| -> Result<_, ApiError> {
                let provider = store::provider(tx, &uuid).await?.ok_or_else(|| {
                    errors::not_found(format!(
                        "Resource provider '{uuid}' not found: No resource provider with uuid {uuid} found"
                    ))
                })?;
                let rows = store::allocations::of_provider(tx, provider.id).await?;
                Ok((provider.generation, rows))
            })
            .await?;
        // Placement's `_serialize_allocations_for_resource_provider`:
        // consumers and classes in the order of the rows (by id).
        let mut consumers: Vec<(String, ConsumerOnProvider)> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::new();
        for (consumer, class, used, consumer_generation) in rows {
            let at = *index.entry(consumer.clone()).or_insert_with(|| {
                consumers.push((consumer, ConsumerOnProvider { resources: Map::new(), consumer_generation }));
                consumers.len() - 1
            });
            consumers[at].1.resources.insert(class, json!(used));
        }
        let allocations: Map<String, Value> = consumers
            .iter()
            .map(|(consumer, model)| (consumer.clone(), json!(model.at(version.version()))))
            .collect();
        let mut res = HttpResponse::Ok();
        cache_headers(&mut res, version, store::now());
        Ok(res.json(json!({"allocations": allocations, "resource_provider_generation": generation})))
    }
}

#[cfg(test)]
mod tests {
    use super::python_set_order;

    /// Each list's order as `list(set(items))` prints it in CPython 3.11.
    #[test]
    fn sets_of_ids_iterate_as_python_iterates_them() {
        let cases: [(&[i64], &[i64]); 13] = [
            (&[1, 0, 10003], &[0, 1, 10003]),
            (&[10003, 1, 0], &[0, 1, 10003]),
            (&[1, 0, 10008, 10001], &[0, 1, 10001, 10008]),
            (&[0, 1, 2, 3, 4, 5, 10000, 10001, 10002], &[0, 1, 2, 3, 4, 5, 10000, 10001, 10002]),
            (&[10005, 10013, 5, 13, 21], &[5, 13, 21, 10005, 10013]),
            (&[9, 1, 17, 25, 33, 41, 10000], &[33, 1, 9, 41, 10000, 17, 25]),
            (&[10000, 0, 8, 16, 0, 24], &[0, 8, 10000, 16, 24]),
            (&[], &[]),
            (&[41, 19, 10005, 10038, 6], &[6, 41, 19, 10005, 10038]),
            (&[9, 10023, 12, 10001, 10029, 7], &[10023, 7, 9, 12, 10029, 10001]),
            (&[10019, 27, 4, 11, 10010, 10008, 8, 30, 11], &[10019, 4, 8, 11, 10008, 10010, 27, 30]),
            (
                &[10025, 10009, 7, 10027, 15, 28, 10035, 10035, 10029, 7, 10028, 10029],
                &[7, 10025, 10027, 10028, 10029, 15, 10035, 10009, 28],
            ),
            (
                &[
                    10005, 6, 28, 5, 10026, 17, 37, 10008, 18, 10024, 15, 10028, 39, 10026, 23, 13, 10029,
                    10028, 10036, 24,
                ],
                &[5, 6, 37, 10024, 39, 10026, 10028, 13, 10029, 15, 17, 18, 10036, 10005, 23, 10008, 24, 28],
            ),
        ];
        for (items, python) in cases {
            assert_eq!(python_set_order(items.iter().copied()), python, "set({items:?})");
        }
    }
}
