//! Aggregates of a provider (`/resource_providers/{uuid}/aggregates`, from
//! 1.1): a bare list until 1.18, with the provider generation and conflict
//! detection from 1.19.

use std::sync::Arc;

use actix_web::{HttpResponse, web};
use microversion_actix::{ApiError, ApiVersion, VersionedModel, controller};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::api::PLACEMENT;
use crate::errors;
use crate::http::{BodyAfterLookup, cache_headers, generation};
use crate::query::UUID_PATTERN;
use crate::store::{self, Store};

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

/// A provider's aggregates, with its generation from 1.19.
#[derive(VersionedModel)]
#[versioned(api = PLACEMENT)]
struct ProviderAggregates {
    #[versioned(schema = list_schema)]
    aggregates: Vec<String>,
    #[versioned(since = "1.19", skip_none)]
    resource_provider_generation: Option<i64>,
}

impl ProviderAggregates {
    fn respond(self, version: ApiVersion) -> HttpResponse {
        let mut res = HttpResponse::Ok();
        cache_headers(&mut res, version, store::now());
        res.json(self.at(version.version()))
    }
}

/// The body of `PUT /resource_providers/{uuid}/aggregates` from 1.19.
#[derive(Deserialize)]
struct AggregatesUpdate {
    aggregates: Vec<String>,
    #[serde(deserialize_with = "generation")]
    resource_provider_generation: Option<i64>,
}

#[controller(api = PLACEMENT)]
impl Aggregates {
    #[get("/resource_providers/{uuid}/aggregates")]
    #[api_version("1.1")]
    async fn list(&self, version: ApiVersion, uuid: web::Path<String>) -> Result<HttpResponse, ApiError> {
        let (provider, aggregates) = self
            .store
            .read(async |tx| -> Result<_, ApiError> {
                let provider = crate::resource_providers::provider_or_404(tx, &uuid).await?;
                let aggregates = store::aggregates::of_provider(tx, provider.id).await?;
                Ok((provider, aggregates))
            })
            .await?;
        Ok(ProviderAggregates { aggregates, resource_provider_generation: Some(provider.generation) }
            .respond(version))
    }

    /// Until 1.18: the body is the bare list, and the generation is
    /// neither checked nor moved.
    #[put("/resource_providers/{uuid}/aggregates")]
    #[api_version("1.1", "1.18")]
    async fn replace(
        &self,
        version: ApiVersion,
        uuid: web::Path<String>,
        body: BodyAfterLookup,
    ) -> Result<HttpResponse, ApiError> {
        let aggregates = self
            .store
            .tx(async |tx| -> Result<_, ApiError> {
                let provider = crate::resource_providers::provider_or_404(tx, &uuid).await?;
                let aggregates: Vec<String> = body.read(put_v1_1)?;
                store::aggregates::set_for_provider(tx, provider.id, &aggregates).await?;
                Ok(aggregates)
            })
            .await?;
        Ok(ProviderAggregates { aggregates, resource_provider_generation: None }.respond(version))
    }

    /// From 1.19: `{"aggregates": [...], "resource_provider_generation": N}`,
    /// refused (409) unless N is the provider's generation, which moves.
    #[put("/resource_providers/{uuid}/aggregates")]
    #[api_version("1.19")]
    async fn replace(
        &self,
        version: ApiVersion,
        uuid: web::Path<String>,
        body: BodyAfterLookup,
    ) -> Result<HttpResponse, ApiError> {
        let (generation, aggregates) = self
            .store
            .tx(async |tx| -> Result<_, ApiError> {
                let provider = crate::resource_providers::provider_or_404(tx, &uuid).await?;
                let AggregatesUpdate { aggregates, resource_provider_generation } = body.read(put_v1_19)?;
                if resource_provider_generation != Some(provider.generation) {
                    return Err(errors::concurrent_update(
                        "Resource provider's generation already changed. Please update the generation and try again.",
                    ));
                }
                let generation = store::bump_provider(tx, provider.id, provider.generation).await?;
                store::aggregates::set_for_provider(tx, provider.id, &aggregates).await?;
                Ok((generation, aggregates))
            })
            .await?;
        Ok(ProviderAggregates { aggregates, resource_provider_generation: Some(generation) }.respond(version))
    }
}
