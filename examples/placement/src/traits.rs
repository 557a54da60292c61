//! Traits (`/traits`, from 1.6): the standard ones and `CUSTOM_*`, and the
//! traits of a provider (`/resource_providers/{uuid}/traits`).

use std::sync::Arc;

use actix_web::{HttpRequest, HttpResponse, web};
use microversion_actix::{ApiError, ApiVersion, Json, controller};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::api::PLACEMENT;
use crate::errors;
use crate::http::{cache_headers, generation};
use crate::query::Query;
use crate::standard;
use crate::store::{self, Store};

/// The trait resources.
pub(crate) struct Traits {
    store: Arc<Store>,
}

impl Traits {
    pub(crate) fn new(store: Arc<Store>) -> Traits {
        Traits { store }
    }
}

fn set_schema() -> Value {
    json!({"type": "object",
           "properties": {"traits": {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 255}},
                          "resource_provider_generation": {"type": "integer"}},
           "required": ["traits", "resource_provider_generation"], "additionalProperties": false})
}

/// The body of `PUT /resource_providers/{uuid}/traits`.
#[derive(Deserialize)]
struct ProviderTraits {
    traits: Vec<String>,
    #[serde(deserialize_with = "generation")]
    resource_provider_generation: Option<i64>,
}

fn valid_custom(name: &str) -> bool {
    name.len() <= 255
        && name.strip_prefix("CUSTOM_").is_some_and(|rest| {
            !rest.is_empty()
                && rest.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        })
}

fn provider_traits_response(version: ApiVersion, traits: &[String], generation: i64) -> HttpResponse {
    let mut res = HttpResponse::Ok();
    cache_headers(&mut res, version, store::now());
    res.json(json!({"traits": traits, "resource_provider_generation": generation}))
}

#[controller(api = PLACEMENT)]
impl Traits {
    #[get("/traits")]
    #[api_version("1.6")]
    async fn list(&self, version: ApiVersion, req: HttpRequest) -> Result<HttpResponse, ApiError> {
        let q = Query::parse(req.query_string());
        // `LIST_TRAIT_SCHEMA`
        q.only(&json!({"type": "object",
                       "properties": {"name": {"type": "string"}, "associated": {"type": "string"}},
                       "additionalProperties": false}))?;
        // The filters, applied in Rust to the whole (small) table: one
        // statement, whatever the request asks.
        let mut names: Option<Vec<&str>> = None;
        let mut prefix: Option<&str> = None;
        if let Some(name) = q.get("name") {
            let Some((op, value)) = name.split_once(':') else {
                return Err(errors::bad_request(format!(
                    "Badly formatted name parameter. Expected name query string parameter in form: ?name=[in|startswith]:[name1,name2|prefix]. Got: \"{name}\""
                )));
            };
            match op {
                "in" => names = Some(value.split(',').collect()),
                "startswith" => prefix = Some(value),
                _ => {}
            }
        }
        let associated = match q.get("associated").map(str::to_ascii_lowercase).as_deref() {
            None => None,
            Some("true") => Some(true),
            Some("false") => Some(false),
            Some(_) => {
                return Err(errors::bad_request(
                    "The query parameter \"associated\" only accepts \"true\" or \"false\"",
                ));
            }
        };
        let rows = self.store.read(async |tx| store::traits::all(tx).await).await?;
        let traits: Vec<String> = rows
            .into_iter()
            .filter(|(name, _)| names.as_ref().is_none_or(|names| names.contains(&name.as_str())))
            .filter(|(name, _)| prefix.is_none_or(|prefix| name.starts_with(prefix)))
            .filter(|(_, used)| associated.is_none_or(|wanted| wanted == *used))
            .map(|(name, _)| name)
            .collect();
        let mut res = HttpResponse::Ok();
        cache_headers(&mut res, version, store::now());
        Ok(res.json(json!({"traits": traits})))
    }

    #[get("/traits/{name}")]
    #[api_version("1.6")]
    async fn show(&self, version: ApiVersion, name: web::Path<String>) -> Result<HttpResponse, ApiError> {
        let created = self
            .store
            .read(async |tx| store::traits::created_at(tx, &name).await)
            .await?
            .ok_or_else(|| errors::not_found(format!("No such trait(s): {name}.")))?;
        let mut res = HttpResponse::NoContent();
        cache_headers(&mut res, version, created);
        Ok(res.finish())
    }

    #[put("/traits/{name}")]
    #[api_version("1.6")]
    async fn create(&self, version: ApiVersion, name: web::Path<String>) -> Result<HttpResponse, ApiError> {
        if !valid_custom(&name) {
            return Err(errors::bad_request(
                "The trait is invalid. A valid trait must be no longer than 255 characters, start with the prefix \"CUSTOM_\" and use following characters: \"A\"-\"Z\", \"0\"-\"9\" and \"_\"",
            ));
        }
        let (created, at) = self
            .store
            .tx(async |tx| -> Result<_, ApiError> {
                if let Some(at) = store::traits::created_at(tx, &name).await? {
                    return Ok((false, at));
                }
                let now = store::now();
                store::traits::create(tx, &name, now).await?;
                Ok((true, now))
            })
            .await?;
        let mut res = if created { HttpResponse::Created() } else { HttpResponse::NoContent() };
        res.insert_header(("location", format!("/traits/{name}")));
        cache_headers(&mut res, version, at);
        Ok(res.finish())
    }

    #[delete("/traits/{name}")]
    #[api_version("1.6")]
    async fn delete(&self, name: web::Path<String>) -> Result<HttpResponse, ApiError> {
        self.store
            .tx(async |tx| -> Result<_, ApiError> {
                if store::traits::created_at(tx, &name).await?.is_none() {
                    return Err(errors::not_found(format!("No such trait(s): {name}.")));
                }
                if standard::TRAITS.contains(&name.as_str()) {
                    return Err(errors::bad_request(format!("Cannot delete standard trait {name}.")));
                }
                if store::traits::in_use(tx, &name).await? {
                    return Err(errors::conflict(format!(
                        "The trait {name} is in use by a resource provider."
                    )));
                }
                store::traits::delete(tx, &name).await?;
                Ok(())
            })
            .await?;
        Ok(HttpResponse::NoContent().finish())
    }

    #[get("/resource_providers/{uuid}/traits")]
    #[api_version("1.6")]
    async fn provider_list(
        &self,
        version: ApiVersion,
        uuid: web::Path<String>,
    ) -> Result<HttpResponse, ApiError> {
        let (traits, generation) = self
            .store
            .read(async |tx| -> Result<_, ApiError> {
                let provider = store::provider(tx, &uuid).await?.ok_or_else(|| {
                    errors::not_found(format!(
                        "No resource provider with uuid {uuid} found: No resource provider with uuid {uuid} found"
                    ))
                })?;
                Ok((store::traits::of_provider(tx, provider.id).await?, provider.generation))
            })
            .await?;
        Ok(provider_traits_response(version, &traits, generation))
    }

    #[put("/resource_providers/{uuid}/traits")]
    #[api_version("1.6")]
    #[schema(set_schema, "1.6")]
    async fn provider_set(
        &self,
        version: ApiVersion,
        uuid: web::Path<String>,
        body: Json<ProviderTraits>,
    ) -> Result<HttpResponse, ApiError> {
        let ProviderTraits { traits: wanted, resource_provider_generation } = body.into_inner();
        let (traits, generation) = self.store.tx(async |tx| -> Result<_, ApiError> {
            let provider = crate::resource_providers::provider_or_404(tx, &uuid).await?;
            if resource_provider_generation != Some(provider.generation) {
                return Err(errors::concurrent_update(
                    "Resource provider's generation already changed. Please update the generation and try again.",
                ));
            }
            // One read of every trait, however many the body names.
            let known = store::traits::names(tx).await?;
            let mut seen = std::collections::HashSet::new();
            let missing: Vec<&str> = wanted
                .iter()
                .map(String::as_str)
                .filter(|name| seen.insert(*name) && !known.contains(*name))
                .collect();
            if !missing.is_empty() {
                // Named up to a bound, counted past it.
                let mut list = missing.iter().take(MAX_NAMED).copied().collect::<Vec<_>>().join(", ");
                if missing.len() > MAX_NAMED {
                    list.push_str(&format!(" and {} more", missing.len() - MAX_NAMED));
                }
                return Err(errors::bad_request(format!("No such trait {list}")));
            }
            let generation = if store::traits::set_for_provider(tx, provider.id, &wanted).await? {
                store::bump_provider(tx, provider.id, provider.generation).await?
            } else {
                provider.generation
            };
            Ok((store::traits::of_provider(tx, provider.id).await?, generation))
        }).await?;
        Ok(provider_traits_response(version, &traits, generation))
    }

    #[delete("/resource_providers/{uuid}/traits")]
    #[api_version("1.6")]
    async fn provider_clear(&self, uuid: web::Path<String>) -> Result<HttpResponse, ApiError> {
        self.store
            .tx(async |tx| -> Result<_, ApiError> {
                let provider = crate::resource_providers::provider_or_404(tx, &uuid).await?;
                if store::traits::set_for_provider(tx, provider.id, &[]).await? {
                    store::bump_provider(tx, provider.id, provider.generation).await?;
                }
                Ok(())
            })
            .await?;
        Ok(HttpResponse::NoContent().finish())
    }
}

/// How many unknown traits an error names.
const MAX_NAMED: usize = 100;
