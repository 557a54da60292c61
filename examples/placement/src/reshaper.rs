//! The reshaper (`POST /reshaper`, from 1.30): inventories and allocations
//! of several providers moved in one transaction.

use std::sync::Arc;

use actix_web::{HttpResponse, http::StatusCode};
use indexmap::IndexMap;
use microversion_actix::{ApiError, ApiVersion, Json, controller};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::allocations::{self, ConsumerBody, ConsumerRequest, Extras};
use crate::api::PLACEMENT;
use crate::db::{StoreError, Tx};
use crate::errors;
use crate::inventories;
use crate::query::UUID_KEY_PATTERN;
use crate::store::{self, Inventory, Provider, Store};

/// The reshaper resource.
pub(crate) struct Reshaper {
    store: Arc<Store>,
}

impl Reshaper {
    pub(crate) fn new(store: Arc<Store>) -> Reshaper {
        Reshaper { store }
    }
}

fn body(extras: Extras) -> Value {
    json!({"type": "object",
           "properties": {
               "inventories": {"type": "object",
                   "patternProperties": {UUID_KEY_PATTERN: inventories::put_all_schema()},
                   "minProperties": 1, "additionalProperties": false},
               "allocations": allocations::post_body(extras, 0)},
           "required": ["inventories", "allocations"], "additionalProperties": false})
}

fn reshape_v1_30() -> Value {
    body(Extras { generations: true, mappings: false, types: false })
}

fn reshape_v1_34() -> Value {
    body(Extras { generations: true, mappings: true, types: false })
}

fn reshape_v1_38() -> Value {
    body(Extras { generations: true, mappings: true, types: true })
}

/// The body of `POST /reshaper`: every consumer's allocations, and every
/// provider's inventories, each in the order sent.
#[derive(Deserialize)]
struct Reshape {
    allocations: IndexMap<String, ConsumerBody>,
    inventories: IndexMap<String, inventories::ProviderInventories>,
}

#[controller(api = PLACEMENT)]
impl Reshaper {
    #[post("/reshaper")]
    #[api_version("1.30")]
    #[schema(reshape_v1_30, "1.30", "1.33")]
    #[schema(reshape_v1_34, "1.34", "1.37")]
    #[schema(reshape_v1_38, "1.38")]
    async fn reshape(&self, version: ApiVersion, body: Json<Reshape>) -> Result<HttpResponse, ApiError> {
        let Reshape { allocations, inventories } = body.into_inner();
        let requests = ConsumerRequest::of_consumers(allocations)?;
        // Placement's order: each provider of `inventories` and its
        // generation, then the consumers and the providers of the
        // allocations (`inspect_consumers`, `create_allocation_list`), then
        // the write. A reshape checks no inventory's capacity.
        let wanted = self
            .store
            .read(async |tx| -> Result<_, ApiError> {
                let mut wanted: Vec<(Provider, Vec<Inventory>)> = Vec::new();
                for (uuid, data) in &inventories {
                    let provider = store::provider(tx, uuid).await?.ok_or_else(|| {
                        errors::coded(
                            StatusCode::BAD_REQUEST,
                            "resource_provider.not_found",
                            format!(
                                "Resource provider {uuid} in inventories not found: No resource provider with uuid {uuid} found"
                            ),
                        )
                    })?;
                    if data.resource_provider_generation != Some(provider.generation) {
                        let given = data.resource_provider_generation.unwrap_or(-1);
                        return Err(errors::concurrent_update(format!(
                            "resource provider generation conflict for provider {uuid}: actual: {}, given: {given}",
                            provider.generation
                        )));
                    }
                    wanted.push((provider, data.inventories()?));
                }
                Ok(wanted)
            })
            .await?;
        let reshape = async |tx: &Tx, ensured: &allocations::Ensured| {
            // The rows it writes are locked first, in the order a claim
            // takes them, whatever order the body names them in: its
            // consumers by uuid (the new ones are, by `claim`; the others
            // are re-owned here, as Placement's `update_consumers` does
            // first), then every provider it may write, by id. Two reshapes,
            // or a reshape and a claim, naming the same providers or
            // consumers in other orders then never wait for each other in a
            // cycle (a deadlock, which PostgreSQL breaks after a second).
            allocations::own_consumers(tx, version, &requests, ensured).await?;
            let mut ids = allocations::providers_written(tx, &requests).await?;
            ids.extend(wanted.iter().map(|(provider, _)| provider.id));
            let mut moved = Vec::new();
            for id in ids {
                let locked = store::lock_provider(tx, id).await?;
                if let Some((provider, _)) = wanted.iter().find(|(provider, _)| provider.id == id)
                    && locked != Some(provider.generation)
                {
                    moved.push(id);
                }
            }
            // Then Placement's order, each provider in the order sent.
            // Interim inventory: the new records over the old ones, so
            // that allocations can move; then the allocations; then each
            // provider's inventory becomes exactly what was asked (a class
            // still allocated is 409). Each step bumps the generation, the
            // first from the one checked above (`set_inventory` bumps the
            // provider the handler read): a provider another request moved
            // on (or removed) since is Placement's 409.
            for (provider, records) in &wanted {
                if records.is_empty() {
                    continue;
                }
                inventories::add_inventories(tx, provider, records).await.map_err(malformed)?;
                store::bump_provider(tx, provider.id, provider.generation).await.map_err(moved_on)?;
            }
            allocations::replace_allocations(tx, &requests, ensured).await.map_err(update_conflict)?;
            for (provider, records) in &wanted {
                if moved.contains(&provider.id) {
                    // No interim step (no records): its first bump is this
                    // one's, from the generation checked, after the in-use
                    // check (`_set_inventory`).
                    inventories::remove_other_inventories(tx, provider, records).await?;
                    return Err(moved_on(StoreError::GenerationChanged));
                }
                let current = crate::resource_providers::provider_or_404(tx, &provider.uuid).await?;
                inventories::set_inventories(tx, &current, records).await.map_err(malformed)?;
            }
            Ok(())
        };
        allocations::claim(&self.store, &requests, allocations::Claimant::Reshaper, reshape).await?;
        Ok(HttpResponse::NoContent().finish())
    }
}

/// A provider's generation that moved on since the reshape read it, as the
/// reshaper words Placement's `ResourceProviderConcurrentUpdateDetected`;
/// any other store error as it is.
fn moved_on(error: StoreError) -> ApiError {
    match error {
        StoreError::GenerationChanged => errors::concurrent_update(
            "update conflict: Another thread concurrently updated the resource provider data. \
             Please retry your update",
        ),
        error => error.into(),
    }
}

/// A generation a claim's write finds moved on (a consumer's: the reshape
/// holds its providers), as the reshaper words Placement's
/// `ConcurrentUpdateDetected` (`update conflict: ...`), not as `POST
/// /allocations` does; any other error as it is.
fn update_conflict(error: ApiError) -> ApiError {
    match error.detail().strip_prefix("Inventory and/or allocations changed while attempting to allocate: ") {
        Some(why) => errors::concurrent_update(format!("update conflict: {why}")),
        None => error,
    }
}

/// An unknown class in a reshape, as the reshaper words it (`malformed
/// reshaper data: No such resource class X.`); any other error as it is.
fn malformed(error: ApiError) -> ApiError {
    match error.detail().split_once(": No such resource class ") {
        Some((_, class)) => {
            errors::bad_request(format!("malformed reshaper data: No such resource class {class}"))
        }
        None => error,
    }
}
