//! Inventories of a provider (`/resource_providers/{uuid}/inventories`):
//! every write checks and bumps the provider generation; `DELETE` of all
//! of them from 1.5; a reserved amount equal to the total from 1.26.

use std::sync::Arc;

use crate::db::Tx;
use actix_web::{HttpResponse, http::StatusCode, web};
use indexmap::IndexMap;
use microversion_actix::{ApiError, ApiVersion, controller};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::api::PLACEMENT;
use crate::errors;
use crate::http::{BodyAfterLookup, cache_headers, generation, integer};
use crate::store::{self, Inventory, Provider, Store};

const MAX_INT: i64 = 2_147_483_647;
const RC_PATTERN: &str = "^[A-Z0-9_]+$";

/// The inventory resource.
pub(crate) struct Inventories {
    store: Arc<Store>,
}

impl Inventories {
    pub(crate) fn new(store: Arc<Store>) -> Inventories {
        Inventories { store }
    }
}

fn record_schema(generation_required: bool) -> Value {
    let int = |min: i64| json!({"type": "integer", "maximum": MAX_INT, "minimum": min});
    let mut required = vec!["total"];
    if generation_required {
        required.push("resource_provider_generation");
    }
    json!({"type": "object",
           "properties": {
               "resource_provider_generation": {"type": "integer"},
               "total": int(1), "reserved": int(0), "min_unit": int(1), "max_unit": int(1), "step_size": int(1),
               "allocation_ratio": {"type": "number", "maximum": 3.40282e38}},
           "required": required, "additionalProperties": false})
}

fn post_schema() -> Value {
    let mut schema = record_schema(false);
    schema["properties"]["resource_class"] = json!({"type": "string", "pattern": RC_PATTERN});
    schema["required"] = json!(["total", "resource_class"]);
    schema
}

fn update_schema() -> Value {
    record_schema(true)
}

pub(crate) fn put_all_schema() -> Value {
    json!({"type": "object",
           "properties": {
               "resource_provider_generation": {"type": "integer"},
               "inventories": {"type": "object", "patternProperties": {RC_PATTERN: record_schema(false)}}},
           "required": ["resource_provider_generation", "inventories"], "additionalProperties": false})
}

/// An inventory record as a body the schema accepted gives it, with
/// Placement's defaults for what it leaves out.
#[derive(Deserialize)]
pub(crate) struct InventoryRecord {
    #[serde(deserialize_with = "integer")]
    total: i64,
    #[serde(default, deserialize_with = "integer")]
    reserved: i64,
    #[serde(default = "one", deserialize_with = "integer")]
    min_unit: i64,
    #[serde(default = "max_int", deserialize_with = "integer")]
    max_unit: i64,
    #[serde(default = "one", deserialize_with = "integer")]
    step_size: i64,
    #[serde(default = "one_to_one")]
    allocation_ratio: f64,
}

const fn one() -> i64 {
    1
}

const fn max_int() -> i64 {
    MAX_INT
}

const fn one_to_one() -> f64 {
    1.0
}

impl InventoryRecord {
    /// The inventory of `resource_class` this record describes.
    pub(crate) fn of(self, resource_class: &str) -> Inventory {
        let InventoryRecord { total, reserved, min_unit, max_unit, step_size, allocation_ratio } = self;
        let resource_class = resource_class.to_owned();
        Inventory {
            resource_class,
            total,
            reserved,
            min_unit,
            max_unit,
            step_size,
            allocation_ratio,
            updated_at: store::now(),
        }
    }
}

/// `POST /resource_providers/{uuid}/inventories`: one record and its class.
#[derive(Deserialize)]
struct NewInventory {
    resource_class: String,
    #[serde(flatten)]
    record: InventoryRecord,
}

/// `PUT /resource_providers/{uuid}/inventories/{class}`: one record and
/// the generation it was read at.
#[derive(Deserialize)]
struct InventoryUpdate {
    #[serde(deserialize_with = "generation")]
    resource_provider_generation: Option<i64>,
    #[serde(flatten)]
    record: InventoryRecord,
}

/// `PUT /resource_providers/{uuid}/inventories` (and each provider of a
/// reshape): the generation, and every record by class in the order sent.
/// The schema checks the records of class-like keys only, so each is read
/// after the generation is compared, as Placement reads them.
#[derive(Deserialize)]
pub(crate) struct ProviderInventories {
    #[serde(deserialize_with = "generation")]
    pub(crate) resource_provider_generation: Option<i64>,
    inventories: IndexMap<String, Value>,
}

impl ProviderInventories {
    /// The inventories, in the order sent.
    pub(crate) fn inventories(&self) -> Result<Vec<Inventory>, ApiError> {
        let read = |(class, record): (&String, &Value)| {
            let record = InventoryRecord::deserialize(record)
                .map_err(|e| errors::unreadable(&format!("the inventory of {class}"), e))?;
            Ok(record.of(class))
        };
        self.inventories.iter().map(read).collect()
    }
}

fn inventory_view(inv: &Inventory) -> Map<String, Value> {
    let mut map = Map::new();
    map.insert("total".into(), json!(inv.total));
    map.insert("reserved".into(), json!(inv.reserved));
    map.insert("min_unit".into(), json!(inv.min_unit));
    map.insert("max_unit".into(), json!(inv.max_unit));
    map.insert("step_size".into(), json!(inv.step_size));
    map.insert("allocation_ratio".into(), json!(inv.allocation_ratio));
    map
}

/// The 400 of an inventory the capacity rule refuses.
fn invalid_inventory(provider: &Provider, inv: &Inventory, action: &str, why: &str) -> ApiError {
    errors::bad_request(format!(
        "Unable to {action} inventory for resource provider {}: Invalid inventory for '{}' on resource provider '{}'. {why}",
        provider.uuid, inv.resource_class, provider.uuid
    ))
}

fn inventories_response(version: ApiVersion, generation: i64, inventories: &[Inventory]) -> HttpResponse {
    let map: Map<String, Value> =
        inventories.iter().map(|i| (i.resource_class.clone(), Value::Object(inventory_view(i)))).collect();
    // `_serialize_inventories` finds no date in no inventory: no Last-Modified.
    let modified = inventories.iter().map(|i| i.updated_at).max();
    let mut res = HttpResponse::Ok();
    cache_headers(&mut res, version, modified);
    res.json(json!({"resource_provider_generation": generation, "inventories": map}))
}

fn inventory_response(
    version: ApiVersion,
    status: StatusCode,
    generation: i64,
    inv: &Inventory,
) -> HttpResponse {
    let mut view = inventory_view(inv);
    view.insert("resource_provider_generation".into(), json!(generation));
    let mut res = HttpResponse::build(status);
    cache_headers(&mut res, version, inv.updated_at);
    res.json(view)
}

fn in_use_message(provider: &Provider, class: &str) -> String {
    format!("Inventory for '{class}' on resource provider '{}' in use.", provider.uuid)
}

#[controller(api = PLACEMENT)]
impl Inventories {
    /// The capacity rule before 1.26: something must remain after the
    /// reserved amount.
    #[api_version("1.0", "1.25")]
    fn check_capacity(&self, provider: &Provider, inv: &Inventory, action: &str) -> Result<(), ApiError> {
        if inv.reserved >= inv.total || inv.capacity() <= 0 {
            return Err(invalid_inventory(
                provider,
                inv,
                action,
                "The reserved value is greater than or equal to total.",
            ));
        }
        Ok(())
    }

    /// From 1.26 the reserved amount may be the whole total.
    #[api_version("1.26")]
    fn check_capacity(&self, provider: &Provider, inv: &Inventory, action: &str) -> Result<(), ApiError> {
        if inv.reserved > inv.total {
            return Err(invalid_inventory(
                provider,
                inv,
                action,
                "The reserved value is greater than total.",
            ));
        }
        Ok(())
    }

    #[get("/resource_providers/{uuid}/inventories")]
    async fn list(&self, version: ApiVersion, uuid: web::Path<String>) -> Result<HttpResponse, ApiError> {
        let (generation, inventories) = self
            .store
            .read(async |tx| -> Result<_, ApiError> {
                store::inventories::of_provider(tx, &uuid).await?.ok_or_else(|| {
                    errors::not_found(format!(
                        "No resource provider with uuid {uuid} found : No resource provider with uuid {uuid} found"
                    ))
                })
            })
            .await?;
        Ok(inventories_response(version, generation, &inventories))
    }

    #[get("/resource_providers/{uuid}/inventories/{resource_class}")]
    async fn show(
        &self,
        version: ApiVersion,
        path: web::Path<(String, String)>,
    ) -> Result<HttpResponse, ApiError> {
        let (uuid, class) = path.into_inner();
        let (provider, inventories) = self
            .store
            .read(async |tx| -> Result<_, ApiError> {
                let provider = store::provider(tx, &uuid).await?.ok_or_else(|| {
                    errors::not_found(format!(
                        "No resource provider with uuid {uuid} found : No resource provider with uuid {uuid} found"
                    ))
                })?;
                Ok((provider.clone(), store::inventories(tx, provider.id).await?))
            })
            .await?;
        let inv = inventories
            .iter()
            .find(|i| i.resource_class == class)
            .ok_or_else(|| errors::not_found(format!("No inventory of class {class} for {uuid}")))?;
        Ok(inventory_response(version, StatusCode::OK, provider.generation, inv))
    }

    /// The provider is looked up before the body is read (`create_inventory`).
    #[post("/resource_providers/{uuid}/inventories")]
    async fn create(
        &self,
        version: ApiVersion,
        uuid: web::Path<String>,
        body: BodyAfterLookup,
    ) -> Result<HttpResponse, ApiError> {
        let (generation, inv) = self.store.tx(async |tx| -> Result<_, ApiError> {
            let provider = crate::resource_providers::provider_to_write(tx, &uuid).await?;
            let NewInventory { resource_class: class, record } = body.read(post_schema)?;
            let inv = record.of(&class);
            self.check_capacity(version, &provider, &inv, "create")?;
            if !store::classes::exists(tx, &class).await? {
                return Err(errors::bad_request(format!(
                    "Unable to create inventory for resource provider {uuid}: No such resource class {class}."
                )));
            }
            if store::inventories(tx, provider.id).await?.iter().any(|i| i.resource_class == class) {
                return Err(errors::concurrent_update(format!(
                    "Update conflict: Inventory for '{class}' on resource provider '{uuid}' already exists."
                )));
            }
            store::put_inventories(tx, provider.id, std::slice::from_ref(&inv)).await?;
            Ok((store::bump_provider(tx, provider.id, provider.generation).await?, inv))
        }).await?;
        let class = &inv.resource_class;
        let mut res = inventory_response(version, StatusCode::CREATED, generation, &inv);
        res.headers_mut().insert(
            actix_web::http::header::LOCATION,
            actix_web::http::header::HeaderValue::from_str(&format!(
                "/resource_providers/{uuid}/inventories/{class}"
            ))
            .map_err(errors::internal)?,
        );
        Ok(res)
    }

    /// The provider is looked up before the body is read (`set_inventories`).
    #[put("/resource_providers/{uuid}/inventories")]
    async fn replace(
        &self,
        version: ApiVersion,
        uuid: web::Path<String>,
        body: BodyAfterLookup,
    ) -> Result<HttpResponse, ApiError> {
        let (generation, wanted) = self
            .store
            .tx(async |tx| -> Result<_, ApiError> {
                let provider = crate::resource_providers::provider_to_write(tx, &uuid).await?;
                let body: ProviderInventories = body.read(put_all_schema)?;
                if body.resource_provider_generation != Some(provider.generation) {
                    return Err(errors::concurrent_update("resource provider generation conflict"));
                }
                let wanted = body.inventories()?;
                for inv in &wanted {
                    self.check_capacity(version, &provider, inv, "update")?;
                }
                Ok((set_inventories(tx, &provider, &wanted).await?, wanted))
            })
            .await?;
        Ok(inventories_response(version, generation, &wanted))
    }

    /// The provider is looked up before the body is read (`update_inventory`).
    #[put("/resource_providers/{uuid}/inventories/{resource_class}")]
    async fn update(
        &self,
        version: ApiVersion,
        path: web::Path<(String, String)>,
        body: BodyAfterLookup,
    ) -> Result<HttpResponse, ApiError> {
        let (uuid, class) = path.into_inner();
        let (generation, inv) = self.store.tx(async |tx| -> Result<_, ApiError> {
            let provider = crate::resource_providers::provider_to_write(tx, &uuid).await?;
            let update: InventoryUpdate = body.read(update_schema)?;
            if update.resource_provider_generation != Some(provider.generation) {
                return Err(errors::concurrent_update("resource provider generation conflict"));
            }
            let inv = update.record.of(&class);
            self.check_capacity(version, &provider, &inv, "update")?;
            // `update_inventory` looks the class up before the provider's
            // record of it (`ResourceClassNotFound`, a 404).
            if !store::classes::exists(tx, &class).await? {
                return Err(errors::not_found(format!("No such resource class {class}.")));
            }
            if !store::inventories(tx, provider.id).await?.iter().any(|i| i.resource_class == class) {
                return Err(errors::bad_request(format!(
                    "No inventory record with resource class for resource provider {uuid}: No inventory of class {class} found."
                )));
            }
            store::put_inventories(tx, provider.id, std::slice::from_ref(&inv)).await?;
            Ok((store::bump_provider(tx, provider.id, provider.generation).await?, inv))
        }).await?;
        Ok(inventory_response(version, StatusCode::OK, generation, &inv))
    }

    #[delete("/resource_providers/{uuid}/inventories/{resource_class}")]
    async fn delete(&self, path: web::Path<(String, String)>) -> Result<HttpResponse, ApiError> {
        let (uuid, class) = path.into_inner();
        self.store.tx(async |tx| -> Result<_, ApiError> {
            let provider = crate::resource_providers::provider_to_write(tx, &uuid).await?;
            // `delete_inventory` reads the class's id first.
            if !store::classes::exists(tx, &class).await? {
                return Err(errors::not_found(format!(
                    "No inventory of class {class} found for delete: No such resource class {class}."
                )));
            }
            if store::inventories::allocated(tx, provider.id, &class).await? {
                return Err(errors::concurrent_update(format!(
                    "Unable to delete inventory of class {class}: {}",
                    in_use_message(&provider, &class)
                )));
            }
            if !store::inventories::delete(tx, provider.id, &class).await? {
                return Err(errors::not_found(format!(
                    "No inventory of class {class} found for delete: No inventory of class {class} found for delete"
                )));
            }
            Ok(store::bump_provider(tx, provider.id, provider.generation).await?)
        }).await?;
        Ok(HttpResponse::NoContent().finish())
    }

    #[delete("/resource_providers/{uuid}/inventories")]
    #[api_version("1.5", missing = 405)]
    async fn delete_all(&self, uuid: web::Path<String>) -> Result<HttpResponse, ApiError> {
        self.store
            .tx(async |tx| -> Result<_, ApiError> {
                let provider = crate::resource_providers::provider_to_write(tx, &uuid).await?;
                // The in-use message bare (`delete_inventories`).
                set_inventories(tx, &provider, &[]).await.map_err(|error| {
                    match error.detail().strip_prefix("update conflict: ") {
                        Some(bare) => errors::coded(error.status(), "inventory.inuse", bare.to_owned()),
                        None => error,
                    }
                })
            })
            .await?;
        Ok(HttpResponse::NoContent().finish())
    }
}

/// Replaces every inventory of `provider`: unknown classes are 400, a
/// removed class still allocated is 409 `placement.inventory.inuse`.
pub(crate) async fn set_inventories(
    tx: &Tx,
    provider: &Provider,
    wanted: &[Inventory],
) -> Result<i64, ApiError> {
    add_inventories(tx, provider, wanted).await?;
    remove_other_inventories(tx, provider, wanted).await?;
    Ok(store::bump_provider(tx, provider.id, provider.generation).await?)
}

/// Adds or updates the `wanted` inventories of `provider`, removing none.
pub(crate) async fn add_inventories(
    tx: &Tx,
    provider: &Provider,
    wanted: &[Inventory],
) -> Result<(), ApiError> {
    // Every class (`_set_inventory`); capacities are the handler's
    // (`_validate_inventory_capacity`), which the reshaper does not check.
    let classes: Vec<&str> = wanted.iter().map(|inv| inv.resource_class.as_str()).collect();
    if let Some(class) = store::classes::first_unknown(tx, &classes).await? {
        return Err(errors::bad_request(format!(
            "Unknown resource class in inventory for resource provider {}: No such resource class {class}.",
            provider.uuid
        )));
    }
    store::put_inventories(tx, provider.id, wanted).await?;
    Ok(())
}

/// Removes the inventories of `provider` outside `wanted`: one still
/// allocated is 409 `placement.inventory.inuse`.
pub(crate) async fn remove_other_inventories(
    tx: &Tx,
    provider: &Provider,
    wanted: &[Inventory],
) -> Result<(), ApiError> {
    let removed: Vec<String> = store::inventories(tx, provider.id)
        .await?
        .into_iter()
        .map(|i| i.resource_class)
        .filter(|class| !wanted.iter().any(|w| &w.resource_class == class))
        .collect();
    if removed.is_empty() {
        return Ok(());
    }
    // The classes still allocated, in the order of their ids, as Placement
    // names them.
    let allocated = store::inventories::allocated_classes(tx, provider.id).await?;
    let in_use: Vec<&str> =
        allocated.iter().filter(|class| removed.contains(class)).map(String::as_str).collect();
    if !in_use.is_empty() {
        return Err(errors::coded(
            StatusCode::CONFLICT,
            "inventory.inuse",
            format!("update conflict: {}", in_use_message(provider, &in_use.join(", "))),
        ));
    }
    for class in &removed {
        store::inventories::delete(tx, provider.id, class).await?;
    }
    Ok(())
}
