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
use crate::db::Tx;
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
            // Interim inventory: the new records over the old ones, so
            // that allocations can move; then the allocations; then each
            // provider's inventory becomes exactly what was asked (a class
            // still allocated is 409). Each step bumps the generation.
            for (provider, records) in &wanted {
                if records.is_empty() {
                    continue;
                }
                let current = crate::resource_providers::provider_or_404(tx, &provider.uuid).await?;
                inventories::add_inventories(tx, &current, records).await.map_err(malformed)?;
                store::bump_provider(tx, current.id, current.generation).await?;
            }
            allocations::write_allocations(tx, version, &requests, ensured).await?;
            for (provider, records) in &wanted {
                let current = crate::resource_providers::provider_or_404(tx, &provider.uuid).await?;
                inventories::set_inventories(tx, &current, records).await.map_err(malformed)?;
            }
            Ok(())
        };
        allocations::claim(&self.store, &requests, allocations::Claimant::Reshaper, reshape).await?;
        Ok(HttpResponse::NoContent().finish())
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
