//! Resource providers (`/resource_providers`): links by version, parents
//! and roots from 1.14, the provider in the create answer from 1.20,
//! re-parenting from 1.37, and the list filters of each version.

use std::sync::Arc;

use crate::db::Tx;
use actix_web::{HttpRequest, HttpResponse, HttpResponseBuilder, http::StatusCode, web};
use microversion_actix::{ApiError, ApiVersion, Json, Version, VersionedModel, controller};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::api::PLACEMENT;
use crate::errors;
use crate::http::{BodyAfterLookup, cache_headers};
use crate::query::{self, Query, UUID_PATTERN};
use crate::store::{self, Provider, Store};

const V1_0: Version = Version::lit("1.0");
const V1_1: Version = Version::lit("1.1");
const V1_3: Version = Version::lit("1.3");
const V1_4: Version = Version::lit("1.4");
const V1_6: Version = Version::lit("1.6");
const V1_11: Version = Version::lit("1.11");
const V1_14: Version = Version::lit("1.14");
const V1_18: Version = Version::lit("1.18");
const V1_37: Version = Version::lit("1.37");

/// The resource provider resource.
pub(crate) struct ResourceProviders {
    store: Arc<Store>,
}

impl ResourceProviders {
    pub(crate) fn new(store: Arc<Store>) -> ResourceProviders {
        ResourceProviders { store }
    }
}

fn create_v1_0() -> Value {
    json!({"type": "object",
           "properties": {"name": {"type": "string", "maxLength": 200},
                          "uuid": {"type": "string", "pattern": UUID_PATTERN}},
           "required": ["name"], "additionalProperties": false})
}

fn create_v1_14() -> Value {
    let mut schema = create_v1_0();
    schema["properties"]["parent_provider_uuid"] =
        json!({"anyOf": [{"type": "string", "pattern": UUID_PATTERN}, {"type": "null"}]});
    schema
}

fn update_v1_0() -> Value {
    json!({"type": "object",
           "properties": {"name": {"type": "string", "maxLength": 200}},
           "required": ["name"], "additionalProperties": false})
}

fn update_v1_14() -> Value {
    let mut schema = update_v1_0();
    schema["properties"]["parent_provider_uuid"] =
        json!({"anyOf": [{"type": "string", "pattern": UUID_PATTERN}, {"type": "null"}]});
    schema
}

/// A provider as Placement shows it (`GET`, `PUT`, and `POST` from 1.20):
/// its links grow with the versions that add the resources they point to,
/// and its parent and root appear with nested providers at 1.14.
#[derive(VersionedModel)]
#[versioned(api = PLACEMENT)]
pub(crate) struct ProviderView<'a> {
    uuid: &'a str,
    name: &'a str,
    generation: i64,
    /// Every link of 1.11 and later; earlier versions leave out the rels
    /// they do not have yet (see [`LINK_RELS`]).
    #[versioned(
        schema = links_schema,
        render(until = "1.0", with = links_1_0),
        render(since = "1.1", until = "1.5", with = links_1_1),
        render(since = "1.6", until = "1.10", with = links_1_6)
    )]
    links: Vec<Link>,
    /// `null` for a root provider.
    #[versioned(since = "1.14")]
    parent_provider_uuid: Option<&'a str>,
    #[versioned(since = "1.14", default)]
    root_provider_uuid: &'a str,
}

/// `GET /resource_providers`.
#[derive(VersionedModel)]
#[versioned(api = PLACEMENT)]
pub(crate) struct ProviderList<'a> {
    #[versioned(nested)]
    resource_providers: Vec<ProviderView<'a>>,
}

/// One link of a provider.
#[derive(Serialize)]
pub(crate) struct Link {
    rel: &'static str,
    href: String,
}

/// The rels of a provider's links, each with the version that added it.
const LINK_RELS: [(&str, Version); 6] = [
    ("self", V1_0),
    ("inventories", V1_0),
    ("usages", V1_0),
    ("aggregates", V1_1),
    ("traits", V1_6),
    ("allocations", V1_11),
];

fn links_schema() -> Value {
    json!({"type": "array", "items": {"type": "object",
           "properties": {"rel": {"type": "string"}, "href": {"type": "string"}}}})
}

/// The links that `version` has.
fn links_at(links: &[Link], version: Version) -> Vec<&Link> {
    links.iter().filter(|l| LINK_RELS.iter().any(|(rel, since)| *rel == l.rel && *since <= version)).collect()
}

fn links_1_0(links: &[Link]) -> Vec<&Link> {
    links_at(links, V1_0)
}

fn links_1_1(links: &[Link]) -> Vec<&Link> {
    links_at(links, V1_1)
}

fn links_1_6(links: &[Link]) -> Vec<&Link> {
    links_at(links, V1_6)
}

impl<'a> ProviderView<'a> {
    /// The view of a provider, borrowing from it, rendered at a version by `at`.
    pub(crate) fn new(p: &'a Provider) -> ProviderView<'a> {
        let url = format!("/resource_providers/{}", p.uuid);
        let links = LINK_RELS
            .iter()
            .map(|(rel, _)| Link {
                rel,
                href: if *rel == "self" { url.clone() } else { format!("{url}/{rel}") },
            })
            .collect();
        ProviderView {
            uuid: &p.uuid,
            name: &p.name,
            generation: p.generation,
            links,
            parent_provider_uuid: p.parent_uuid.as_deref(),
            root_provider_uuid: &p.root_uuid,
        }
    }
}

/// A 200 with the provider at `version` and its cache headers: its last
/// change, or its creation (`util.pick_last_modified`).
fn show_provider(version: ApiVersion, mut res: HttpResponseBuilder, p: &Provider) -> HttpResponse {
    cache_headers(&mut res, version, p.updated_at.unwrap_or(p.created_at));
    res.json(ProviderView::new(p).at(version.version()))
}

/// The query parameters of `GET /resource_providers`, each with the
/// version that added it.
const LIST_PARAMETERS: [(Version, &str); 6] = [
    (V1_0, "name"),
    (V1_0, "uuid"),
    (V1_3, "member_of"),
    (V1_4, "resources"),
    (V1_14, "in_tree"),
    (V1_18, "required"),
];

/// Placement's query schema of `GET /resource_providers` at `version`
/// (`GET_RPS_SCHEMA_1_*`): a string for each of [`LIST_PARAMETERS`] that
/// `version` has, the uuids in the `uuid` format.
fn list_query_schema(version: Version) -> Value {
    let properties: Map<String, Value> = LIST_PARAMETERS
        .iter()
        .filter(|(since, _)| version >= *since)
        .map(|(_, name)| {
            let property = match *name {
                "uuid" | "in_tree" => json!({"type": "string", "format": "uuid"}),
                _ => json!({"type": "string"}),
            };
            ((*name).to_owned(), property)
        })
        .collect();
    json!({"type": "object", "properties": properties, "additionalProperties": false})
}

/// Where a provider is read.
fn location_of(provider: &Provider) -> String {
    format!("/resource_providers/{}", provider.uuid)
}

/// The body of `POST /resource_providers` (a parent from 1.14, `null`
/// for none).
#[derive(Deserialize)]
struct NewProvider {
    name: String,
    uuid: Option<String>,
    #[serde(default)]
    parent_provider_uuid: Option<String>,
}

/// The body of `PUT /resource_providers/{uuid}`: the name, and from 1.14
/// the parent, where `null` (un-parent, from 1.37) differs from absent
/// (keep it).
#[derive(Deserialize)]
struct ProviderUpdate {
    name: String,
    #[serde(default, deserialize_with = "present")]
    parent_provider_uuid: Option<Option<String>>,
}

/// A field that is present, `null` or not.
fn present<'de, D: serde::Deserializer<'de>>(field: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(field).map(Some)
}

/// Creates the provider a body the schema accepted describes: 409
/// `placement.duplicate_name` when its uuid or name is taken, 400 for a
/// parent that is itself or does not exist.
async fn create_provider(store: &Store, body: NewProvider) -> Result<Provider, ApiError> {
    let name = body.name;
    let uuid = body.uuid.as_deref().map(normalize_uuid).unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
    let parent = body.parent_provider_uuid.as_deref().map(normalize_uuid);
    // The schema takes an empty name; `ResourceProvider.create` does not.
    if name.is_empty() {
        return Err(errors::bad_request(format!(
            "Unable to create resource provider \"\", {uuid}: Object action create failed because: name is required"
        )));
    }
    store.tx(async |tx| -> Result<_, ApiError> {
        // The parent first (`_create_in_db`), then the unique uuid and name
        // (the insert's duplicate entry).
        let parent = match &parent {
            Some(parent_uuid) if *parent_uuid == uuid => {
                return Err(errors::bad_request(format!(
                    "Unable to create resource provider \"{name}\", {uuid}: Object action create failed because: parent provider UUID cannot be same as UUID. Please set parent provider UUID to None if there is no parent."
                )));
            }
            Some(parent_uuid) => {
                let parent = store::provider(tx, parent_uuid).await?.ok_or_else(|| {
                    errors::bad_request(format!(
                        "Unable to create resource provider \"{name}\", {uuid}: Object action create failed because: parent provider UUID does not exist."
                    ))
                })?;
                Some((parent.id, store::providers::root_of(tx, parent.id).await?))
            }
            None => None,
        };
        // The database names the one unique key the insert broke first:
        // the uuid's, else the name's (`DBDuplicateEntry.columns`).
        let duplicate = if store::provider(tx, &uuid).await?.is_some() {
            Some(format!("uuid: {uuid}"))
        } else if store::providers::name_taken(tx, &name, None).await? {
            Some(format!("name: {name}"))
        } else {
            None
        };
        if let Some(duplicate) = duplicate {
            return Err(errors::coded(
                StatusCode::CONFLICT,
                "duplicate_name",
                format!("Conflicting resource provider {duplicate} already exists."),
            ));
        }
        store::providers::insert(tx, &uuid, &name, parent).await?;
        crate::resource_providers::provider_or_404(tx, &uuid).await
    }).await
}

fn normalize_uuid(text: &str) -> String {
    uuid::Uuid::try_parse(text).map(|u| u.hyphenated().to_string()).unwrap_or_else(|_| text.to_owned())
}

#[controller(api = PLACEMENT)]
impl ResourceProviders {
    #[get("/resource_providers")]
    async fn list(&self, version: ApiVersion, req: HttpRequest) -> Result<HttpResponse, ApiError> {
        let q = Query::parse(req.query_string());
        let schema = list_query_schema(version.version());
        q.only(&schema)?;
        let syntax = query::Syntax::at(version.version());
        for key in ["uuid", "in_tree"] {
            if let Some(value) = q.get(key)
                && !query::is_uuid(value)
            {
                return Err(q.refusal(&schema, Some(key), "format", &format!("'{value}' is not a 'uuid'")));
            }
        }
        let member_of = match q.all("member_of") {
            v if v.is_empty() => None,
            v => Some(query::member_of(&v, "", syntax)?),
        };
        let required = match q.all("required") {
            v if v.is_empty() => None,
            v => Some(query::required_traits_all(&v, syntax)?),
        };
        let resources = match q.get("resources") {
            Some(value) => Some(query::resources(value)?),
            None => None,
        };
        // The filters in `_get_all_by_filters_from_db`'s order: a tree, a
        // trait or an aggregate that no provider anywhere matches lists
        // nothing at once, before a later filter can refuse the request.
        let providers = self.store.read(async |tx| -> Result<_, ApiError> {
            let mut providers = store::all_providers(tx).await?;
            // An empty `name` filters nothing, as Placement's `if name:`.
            if let Some(name) = q.get("name").filter(|name| !name.is_empty()) {
                providers.retain(|p| p.name == name);
            }
            if let Some(uuid) = q.get("uuid") {
                let uuid = normalize_uuid(uuid);
                providers.retain(|p| p.uuid == uuid);
            }
            // The tree is that of the provider named, whatever the other
            // filters keep (`provider_ids_from_uuid`).
            if let Some(tree) = q.get("in_tree") {
                let Some(root) = store::provider(tx, &normalize_uuid(tree)).await?.map(|p| p.root_uuid) else {
                    return Ok(Vec::new());
                };
                providers.retain(|p| p.root_uuid == root);
            }
            if let Some((required, forbidden)) = &required {
                for name in required.iter().flatten() {
                    if !store::traits::exists(tx, name).await? {
                        return Err(unknown_trait(name));
                    }
                }
                let traits = store::traits::by_provider(tx).await?;
                let has = |id: i64, wanted: &String| traits.get(&id).is_some_and(|t| t.contains(wanted));
                let matching = |id: i64| required.iter().all(|any| any.iter().any(|t| has(id, t)));
                if !required.is_empty() && !traits.keys().any(|id| matching(*id)) {
                    return Ok(Vec::new());
                }
                for name in forbidden {
                    if !store::traits::exists(tx, name).await? {
                        return Err(unknown_trait(name));
                    }
                }
                providers.retain(|p| matching(p.id) && !forbidden.iter().any(|t| has(p.id, t)));
            }
            if let Some((required, forbidden)) = &member_of {
                let aggregates = store::aggregates::by_provider(tx).await?;
                let has = |id: i64, wanted: &String| aggregates.get(&id).is_some_and(|a| a.contains(wanted));
                let matching = |id: i64| required.iter().all(|any| any.iter().any(|a| has(id, a)));
                if !required.is_empty() && !aggregates.keys().any(|id| matching(*id)) {
                    return Ok(Vec::new());
                }
                providers.retain(|p| matching(p.id) && !forbidden.iter().any(|a| has(p.id, a)));
            }
            if let Some(resources) = &resources {
                for (name, _) in resources {
                    if !store::classes::exists(tx, name).await? {
                        return Err(errors::bad_request(format!(
                            "Invalid resource class in resources parameter: No such resource class {name}."
                        )));
                    }
                }
                let mut kept = Vec::new();
                for p in providers {
                    let inventories = store::inventories(tx, p.id).await?;
                    let usages = store::usages(tx, p.id).await?;
                    let fits = resources.iter().all(|(name, amount)| {
                        inventories.iter().find(|i| &i.resource_class == name).is_some_and(|inv| {
                            let used = usages.iter().find(|(c, _)| c == name).map_or(0, |(_, u)| *u);
                            inv.capacity() - used >= *amount
                                && *amount <= inv.max_unit
                                && *amount >= inv.min_unit
                                && *amount % inv.step_size == 0
                        })
                    });
                    if fits {
                        kept.push(p);
                    }
                }
                providers = kept;
            }
            Ok(providers)
        }).await?;
        let modified =
            providers.iter().map(|p| p.updated_at.unwrap_or(p.created_at)).max().unwrap_or_else(store::now);
        let list = ProviderList { resource_providers: providers.iter().map(ProviderView::new).collect() };
        let mut res = HttpResponse::Ok();
        cache_headers(&mut res, version, modified);
        Ok(res.json(list.at(version.version())))
    }

    #[get("/resource_providers/{uuid}")]
    async fn show(&self, version: ApiVersion, uuid: web::Path<String>) -> Result<HttpResponse, ApiError> {
        let provider =
            self.store.read(async |tx| crate::resource_providers::provider_or_404(tx, &uuid).await).await?;
        Ok(show_provider(version, HttpResponse::Ok(), &provider))
    }

    /// Until 1.19: 201 with the new provider's location, no body.
    #[post("/resource_providers")]
    #[api_version("1.0", "1.19")]
    #[schema(create_v1_0, "1.0", "1.13")]
    #[schema(create_v1_14, "1.14", "1.19")]
    async fn create(&self, body: Json<NewProvider>) -> Result<HttpResponse, ApiError> {
        let provider = create_provider(&self.store, body.into_inner()).await?;
        Ok(HttpResponse::Created().insert_header(("location", location_of(&provider))).finish())
    }

    /// From 1.20: 200 with the new provider, and its location.
    #[post("/resource_providers")]
    #[api_version("1.20")]
    #[schema(create_v1_14, "1.20")]
    async fn create(&self, version: ApiVersion, body: Json<NewProvider>) -> Result<HttpResponse, ApiError> {
        let provider = create_provider(&self.store, body.into_inner()).await?;
        let mut res = HttpResponse::Ok();
        res.insert_header(("location", location_of(&provider)));
        Ok(show_provider(version, res, &provider))
    }

    /// The provider is looked up before the body is read
    /// (`update_resource_provider`).
    #[put("/resource_providers/{uuid}")]
    async fn update(
        &self,
        version: ApiVersion,
        uuid: web::Path<String>,
        body: BodyAfterLookup,
    ) -> Result<HttpResponse, ApiError> {
        let (before, provider) = self
            .store
            .tx(async |tx| -> Result<_, ApiError> {
                let provider = crate::resource_providers::provider_or_404(tx, &uuid).await?;
                // The schema by version here, not in a `#[schema]`: the body
                // is judged after the lookup (`BodyAfterLookup`). Before
                // 1.14 it refuses a parent, so none is read.
                let ProviderUpdate { name, parent_provider_uuid } =
                    body.read(if version >= V1_14 { update_v1_14 } else { update_v1_0 })?;
                // The parent first, then the name (`_update_in_db` flushes last).
                if let Some(parent) = parent_provider_uuid {
                    let parent = parent.as_deref().map(normalize_uuid);
                    // Un-parenting came at 1.37, a behaviour of the
                    // reparenting rules rather than of the body's form.
                    reparent(tx, &provider, parent.as_deref(), version >= V1_37).await?;
                }
                if store::providers::name_taken(tx, &name, Some(provider.id)).await? {
                    return Err(errors::coded(
                        StatusCode::CONFLICT,
                        "duplicate_name",
                        format!("Conflicting resource provider {name} already exists."),
                    ));
                }
                store::providers::rename(tx, provider.id, &name).await?;
                let after = crate::resource_providers::provider_or_404(tx, &uuid).await?;
                Ok((provider, after))
            })
            .await?;
        // Placement's `update_resource_provider` sends the `updated_at` it
        // loaded before the update (none for a provider never changed), not
        // the pick of `GET`.
        let mut res = HttpResponse::Ok();
        cache_headers(&mut res, version, before.updated_at);
        Ok(res.json(ProviderView::new(&provider).at(version.version())))
    }

    #[delete("/resource_providers/{uuid}")]
    async fn delete(&self, uuid: web::Path<String>) -> Result<HttpResponse, ApiError> {
        self.store.tx(async |tx| -> Result<_, ApiError> {
            let provider = store::provider(tx, &uuid).await?.ok_or_else(|| {
                errors::not_found(format!("No resource provider with uuid {uuid} found for delete"))
            })?;
            // Its row first, then its inventories (`provider_to_write`).
            store::lock_provider(tx, provider.id).await?;
            // Placement's `ResourceProvider._delete`: children first, then allocations.
            if store::providers::has_children(tx, provider.id).await? {
                return Err(errors::coded(
                    StatusCode::CONFLICT,
                    "resource_provider.cannot_delete_parent",
                    format!(
                        "Unable to delete parent resource provider {uuid}: It has child resource providers."
                    ),
                ));
            }
            if store::providers::has_allocations(tx, provider.id).await? {
                return Err(errors::coded(
                    StatusCode::CONFLICT,
                    "resource_provider.inuse",
                    format!("Unable to delete resource provider {uuid}: Resource provider has allocations."),
                ));
            }
            Ok(store::providers::delete(tx, provider.id).await?)
        }).await?;
        Ok(HttpResponse::NoContent().finish())
    }
}

/// Moves `provider` under `parent` (or makes it a root), as far as the
/// version allows: before 1.37 a parent can only be set where none was.
async fn reparent(tx: &Tx, provider: &Provider, parent: Option<&str>, allowed: bool) -> Result<(), ApiError> {
    if parent == provider.parent_uuid.as_deref() {
        return Ok(());
    }
    let fail = |reason: &str| {
        errors::bad_request(format!(
            "Unable to save resource provider {}: Object action update failed because: {reason}",
            provider.uuid
        ))
    };
    match parent {
        None => {
            if !allowed {
                return Err(fail("un-parenting a provider is not currently allowed."));
            }
            store::providers::set_parent(tx, provider.id, None).await?;
        }
        Some(parent_uuid) => {
            // The parent is found first, then may it change (`_update_in_db`).
            let parent = store::provider(tx, parent_uuid)
                .await?
                // `_update_in_db` names the action `create` here.
                .ok_or_else(|| {
                    errors::bad_request(format!(
                        "Unable to save resource provider {}: Object action create failed because: parent provider UUID does not exist.",
                        provider.uuid
                    ))
                })?;
            if provider.parent_uuid.is_some() && !allowed {
                return Err(fail("re-parenting a provider is not currently allowed."));
            }
            // No loops: the new parent may not be the provider or below it.
            let mut cursor = Some(parent.clone());
            while let Some(node) = cursor {
                if node.id == provider.id {
                    return Err(fail("creating loop in the provider tree is not allowed."));
                }
                cursor = match node.parent_uuid {
                    Some(up) => store::provider(tx, &up).await?,
                    None => None,
                };
            }
            if !allowed && provider.root_uuid != provider.uuid {
                return Err(fail("re-parenting a provider is not currently allowed."));
            }
            store::providers::set_parent(tx, provider.id, Some(parent.id)).await?;
        }
    }
    Ok(())
}

/// `TraitNotFound` in a provider list's `required`.
fn unknown_trait(name: &str) -> ApiError {
    errors::bad_request(format!("Invalid trait(s) in \"required\" parameter: No such trait(s): {name}."))
}

/// The provider with `uuid`, or Placement's 404 for it.
pub(crate) async fn provider_or_404(tx: &Tx, uuid: &str) -> Result<store::Provider, ApiError> {
    store::provider(tx, uuid).await?.ok_or_else(|| errors::provider_not_found(uuid))
}

/// [`provider_or_404`], its row then locked for the transaction, before any
/// row of its own (an inventory) is written: a reshape locks the providers
/// it writes first (by id), then their inventories, and a writer of one
/// provider's inventories that took them the other way round could wait
/// for a reshape that waits for it (a deadlock on PostgreSQL). The
/// provider is as it was read, the generation to compare and bump from.
pub(crate) async fn provider_to_write(tx: &Tx, uuid: &str) -> Result<store::Provider, ApiError> {
    let provider = provider_or_404(tx, uuid).await?;
    store::lock_provider(tx, provider.id).await?;
    Ok(provider)
}
