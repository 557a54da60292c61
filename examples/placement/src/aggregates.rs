//! Aggregates of a provider (`/resource_providers/{uuid}/aggregates`, from
//! 1.1): a bare list until 1.18, with the provider generation and conflict
//! detection from 1.19.

use std::sync::Arc;

use crate::db::params;
use actix_web::{HttpResponse, web};
use microversion_actix::{ApiError, ApiVersion, Json, Version, controller};
use serde_json::{Value, json};

use crate::api::PLACEMENT;
use crate::errors;
use crate::http::{cache_headers, validate};
use crate::query::UUID_PATTERN;
use crate::resource_providers::aggregates_of;
use crate::store::{self, Store};

const V1_19: Version = Version::lit("1.19");

/// The aggregates resource.
pub(crate) struct Aggregates {
    store: Arc<Store>,
}

impl Aggregates {
    pub(crate) fn new(store: Arc<Store>) -> Aggregates {
        Aggregates { store }
    }
}

fn list_schema() -> Value {
    json!({"type": "array", "items": {"type": "string", "pattern": UUID_PATTERN}, "uniqueItems": true})
}

fn put_v1_1() -> Value {
    list_schema()
}

fn put_v1_19() -> Value {
    json!({"type": "object",
           "properties": {"aggregates": list_schema(), "resource_provider_generation": {"type": "integer"}},
           "required": ["aggregates", "resource_provider_generation"], "additionalProperties": false})
}

fn respond(version: ApiVersion, aggregates: &[String], generation: i64, modified: i64) -> HttpResponse {
    let mut body = json!({"aggregates": aggregates});
    if version >= V1_19 {
        body["resource_provider_generation"] = json!(generation);
    }
    let mut res = HttpResponse::Ok();
    cache_headers(&mut res, version, modified);
    res.json(body)
}

#[controller(api = PLACEMENT)]
impl Aggregates {
    #[get("/resource_providers/{uuid}/aggregates")]
    #[api_version("1.1")]
    async fn list(&self, version: ApiVersion, uuid: web::Path<String>) -> Result<HttpResponse, ApiError> {
        let (provider, aggregates) = self
            .store
            .read(async |tx| {
                let provider = store::provider_or_404(tx, &uuid).await?;
                let aggregates = aggregates_of(tx, provider.id).await?;
                Ok((provider, aggregates))
            })
            .await?;
        Ok(respond(version, &aggregates, provider.generation, store::now()))
    }

    #[put("/resource_providers/{uuid}/aggregates")]
    #[api_version("1.1")]
    async fn replace(
        &self,
        version: ApiVersion,
        uuid: web::Path<String>,
        body: Json<Value>,
    ) -> Result<HttpResponse, ApiError> {
        let (generation, aggregates) = self.store.tx(async |tx| {
            let provider = store::provider_or_404(tx, &uuid).await?;
            validate(if version >= V1_19 { put_v1_19 } else { put_v1_1 }, &body)?;
            let list = if version >= V1_19 { &body["aggregates"] } else { &*body };
            let aggregates: Vec<String> = list
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_str).map(str::to_owned).collect())
                .unwrap_or_default();
            let mut generation = provider.generation;
            if version >= V1_19 {
                let expected = body["resource_provider_generation"].as_i64().unwrap_or(-1);
                if expected != provider.generation {
                    return Err(errors::concurrent_update(
                        "Resource provider's generation already changed. Please update the generation and try again.",
                    ));
                }
                generation = store::bump_provider(tx, provider.id, provider.generation).await?;
            }
            tx.execute("DELETE FROM provider_aggregates WHERE provider_id = $1", params![provider.id]).await?;
            for aggregate in &aggregates {
                tx.execute(
                    "INSERT INTO provider_aggregates (provider_id, aggregate) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                    params![provider.id, aggregate],
                ).await?;
            }
            Ok((generation, aggregates))
        }).await?;
        Ok(respond(version, &aggregates, generation, store::now()))
    }
}
