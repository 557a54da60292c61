//! Usages: of a provider (`/resource_providers/{uuid}/usages`), and of a
//! project and user (`/usages`, from 1.9; by consumer type from 1.38).

use std::collections::BTreeMap;
use std::sync::Arc;

use actix_web::{HttpRequest, HttpResponse, web};
use microversion_actix::{ApiError, ApiVersion, controller};
use serde_json::{Map, Value, json};

use crate::api::PLACEMENT;
use crate::errors;
use crate::http::cache_headers;
use crate::query::Query;
use crate::store::{self, Store};

/// The allocations of the project (and user) `q` names, once those are
/// checked, by class id as Placement groups its rows.
async fn usage_rows(
    store: &Store,
    q: &Query,
    schema: &Value,
) -> Result<Vec<store::ProjectAllocation>, ApiError> {
    let project = q
        .get("project_id")
        .ok_or_else(|| q.refusal(schema, None, "required", "'project_id' is a required property"))?;
    for key in ["project_id", "user_id"] {
        if let Some(value) = q.get(key).filter(|v| v.is_empty() || v.chars().count() > 255) {
            let (what, keyword) =
                if value.is_empty() { ("short", "minLength") } else { ("long", "maxLength") };
            let message = format!("'{value}' is too {what}");
            return Err(q.refusal(schema, Some(key), keyword, &message));
        }
    }
    let user = q.get("user_id");
    Ok(store.read(async |tx| store::project_allocations(tx, project, user).await).await?)
}

/// Placement's query schema of `GET /usages` (`GET_USAGES_SCHEMA_1_9`),
/// with `consumer_type` from 1.38 (`GET_USAGES_SCHEMA_V1_38`).
fn query_schema(with_consumer_type: bool) -> Value {
    let name = json!({"type": "string", "minLength": 1, "maxLength": 255});
    let mut schema = json!({"type": "object",
                            "properties": {"project_id": name, "user_id": name},
                            "required": ["project_id"], "additionalProperties": false});
    if with_consumer_type {
        schema["properties"]["consumer_type"] = json!({"type": "string",
                                                       "pattern": "^[A-Z0-9_]+$|^all|^unknown$",
                                                       "minLength": 1, "maxLength": 255});
    }
    schema
}

fn usages_response(version: ApiVersion, body: Value) -> HttpResponse {
    let mut res = HttpResponse::Ok();
    cache_headers(&mut res, version, store::now());
    res.json(body)
}

/// The usage resources.
pub(crate) struct Usages {
    store: Arc<Store>,
}

impl Usages {
    pub(crate) fn new(store: Arc<Store>) -> Usages {
        Usages { store }
    }
}

/// One consumer type's usages at 1.38: the amounts per class in row
/// order, and its consumers.
type TypeUsage = (Vec<(String, i64)>, std::collections::BTreeSet<String>);

#[controller(api = PLACEMENT)]
impl Usages {
    #[get("/resource_providers/{uuid}/usages")]
    async fn provider(&self, version: ApiVersion, uuid: web::Path<String>) -> Result<HttpResponse, ApiError> {
        let (generation, usages) = self
            .store
            .read(async |tx| -> Result<_, ApiError> {
                let provider = store::provider(tx, &uuid).await?.ok_or_else(|| {
                    errors::not_found(format!(
                        "No resource provider with uuid {uuid} found: No resource provider with uuid {uuid} found"
                    ))
                })?;
                let mut usages: BTreeMap<String, i64> = store::inventories(tx, provider.id)
                    .await?
                    .into_iter()
                    .map(|i| (i.resource_class, 0))
                    .collect();
                for (class, used) in store::usages(tx, provider.id).await? {
                    usages.insert(class, used);
                }
                // By resource class id, as Placement groups its rows.
                let ids = store::classes::ids(tx).await?;
                let mut usages: Vec<(String, i64)> = usages.into_iter().collect();
                usages.sort_by_key(|(class, _)| ids.get(class).copied().unwrap_or(i64::MAX));
                let usages: Map<String, Value> = usages.into_iter().map(|(c, u)| (c, json!(u))).collect();
                Ok((provider.generation, usages))
            })
            .await?;
        let mut res = HttpResponse::Ok();
        cache_headers(&mut res, version, store::now());
        Ok(res.json(json!({"resource_provider_generation": generation, "usages": usages})))
    }

    /// Until 1.37: the totals per class.
    #[get("/usages")]
    #[api_version("1.9", "1.37")]
    async fn totals(&self, version: ApiVersion, req: HttpRequest) -> Result<HttpResponse, ApiError> {
        let q = Query::parse(req.query_string());
        let schema = query_schema(false);
        q.only(&schema)?;
        let rows = usage_rows(&self.store, &q, &schema).await?;
        let mut totals: Vec<(String, i64)> = Vec::new();
        for (_, _, class, used) in &rows {
            match totals.iter_mut().find(|(c, _)| c == class) {
                Some((_, total)) => *total += used,
                None => totals.push((class.clone(), *used)),
            }
        }
        let totals: Map<String, Value> = totals.into_iter().map(|(c, u)| (c, json!(u))).collect();
        let body = json!({"usages": totals});
        Ok(usages_response(version, body))
    }

    /// From 1.38: the totals per consumer type (`consumer_type` picks one,
    /// or `all`), each with its number of consumers.
    #[get("/usages")]
    #[api_version("1.38")]
    async fn totals(&self, version: ApiVersion, req: HttpRequest) -> Result<HttpResponse, ApiError> {
        let q = Query::parse(req.query_string());
        let schema = query_schema(true);
        q.only(&schema)?;
        let consumer_type = q.get("consumer_type");
        // `GET_USAGES_SCHEMA_V1_38`: a type as allocations name it, or `all`, or `unknown`,
        // by Python's `re.search` of `^[A-Z0-9_]+$|^all|^unknown$` (so any
        // value that begins with `all`), then its length.
        if let Some(wanted) = consumer_type {
            let a_type = !wanted.is_empty()
                && wanted.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_');
            if !(a_type || wanted.starts_with("all") || wanted == "unknown") {
                let message = format!("'{wanted}' does not match '^[A-Z0-9_]+$|^all|^unknown$'");
                return Err(q.refusal(&schema, Some("consumer_type"), "pattern", &message));
            }
            if wanted.chars().count() > 255 {
                let message = format!("'{wanted}' is too long");
                return Err(q.refusal(&schema, Some("consumer_type"), "maxLength", &message));
            }
        }
        let rows = usage_rows(&self.store, &q, &schema).await?;
        // Per consumer type (by name), the classes in row order.
        let mut groups: BTreeMap<String, TypeUsage> = BTreeMap::new();
        for (consumer, ctype, class, used) in &rows {
            let ctype = ctype.clone().unwrap_or_else(|| "unknown".to_owned());
            match consumer_type {
                Some("all") | None => {}
                Some(wanted) if wanted == ctype => {}
                Some(_) => continue,
            }
            let key = if consumer_type == Some("all") { "all".to_owned() } else { ctype };
            let entry = groups.entry(key).or_default();
            match entry.0.iter_mut().find(|(c, _)| c == class) {
                Some((_, total)) => *total += used,
                None => entry.0.push((class.clone(), *used)),
            }
            entry.1.insert(consumer.clone());
        }
        let usages: Map<String, Value> = groups
            .into_iter()
            .map(|(ctype, (classes, consumers))| {
                // Placement sets `consumer_count` with each class: a
                // Python dict keeps it where the first class put it.
                let mut group = Map::new();
                for (i, (class, used)) in classes.into_iter().enumerate() {
                    group.insert(class, json!(used));
                    if i == 0 {
                        group.insert("consumer_count".into(), json!(consumers.len()));
                    }
                }
                (ctype, Value::Object(group))
            })
            .collect();
        let body = json!({"usages": usages});
        Ok(usages_response(version, body))
    }
}
