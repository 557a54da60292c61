//! Flavors (`/flavors`) and their extra specs, following Nova's microversions:
//! `description` from 2.55 (accepted on create, changed by the new
//! `PUT /flavors/{id}`), `extra_specs` in views from 2.61, `swap` as 0
//! instead of "" from 2.75, unknown list query parameters refused from 2.75.
//!
//! The views are versioned models (one struct, fields with their versions);
//! the request bodies are checked by versioned schemas, as Nova's are.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::web::{
    ApiError, ApiVersion, Json, JsonQuery, Origin, Path, Response, StatusCode, Versioned, VersionedModel,
    controller, empty_response, json_response, version_gates,
};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::api::COMPUTE;
use crate::extra_specs;
use crate::listing;
use crate::store::{Conflict, Flavor, Store};

/// Nova's `db_const.SQL_SP_FLOAT_MAX`: the largest `rxtx_factor`.
const SQL_SP_FLOAT_MAX: f64 = 3.40282e38;

/// The flavor resource.
pub struct Flavors {
    store: Arc<Store>,
}

impl Flavors {
    pub(crate) fn new(store: Arc<Store>) -> Flavors {
        Flavors { store }
    }
}

/// A flavor as `GET /flavors/{id}` and `/flavors/detail` show it: one
/// struct for every version, each field with the versions that have it.
/// The typed client decodes it at any version (`Rendered::decode`): a field
/// a version lacks reads as its default.
#[derive(VersionedModel, Clone, Debug, Deserialize)]
#[versioned(api = COMPUTE)]
pub struct FlavorView {
    /// The flavor id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Memory, MiB.
    pub ram: u64,
    /// Virtual CPUs.
    pub vcpus: u64,
    /// Root disk, GiB.
    pub disk: u64,
    /// Ephemeral disk, GiB.
    #[versioned(rename = "OS-FLV-EXT-DATA:ephemeral")]
    #[serde(rename = "OS-FLV-EXT-DATA:ephemeral")]
    pub ephemeral: u64,
    /// Whether the flavor is disabled: always false here.
    #[versioned(rename = "OS-FLV-DISABLED:disabled")]
    #[serde(rename = "OS-FLV-DISABLED:disabled")]
    pub disabled: bool,
    /// Whether every project can use it; else only those of its access list.
    #[versioned(rename = "os-flavor-access:is_public")]
    #[serde(rename = "os-flavor-access:is_public")]
    pub is_public: bool,
    /// The network bandwidth factor.
    pub rxtx_factor: f64,
    /// Swap, MiB. No swap is `""` until 2.74, and 0 from 2.75.
    #[versioned(render(until = "2.74", with = swap_before_2_75))]
    #[serde(deserialize_with = "swap_of_any_version")]
    pub swap: u64,
    /// The `self` and `bookmark` links.
    pub links: Value,
    /// A free-form description of the flavor, or null (from 2.55).
    #[versioned(since = "2.55")]
    #[serde(default)]
    pub description: Option<String>,
    /// Its extra specs, each key with its value (from 2.61).
    #[versioned(since = "2.61", default)]
    #[serde(default)]
    pub extra_specs: BTreeMap<String, String>,
}

/// Swap as any version writes it: `""` for none until 2.74, a number.
fn swap_of_any_version<'de, D: serde::Deserializer<'de>>(swap: D) -> Result<u64, D::Error> {
    match Value::deserialize(swap)? {
        Value::String(none) if none.is_empty() => Ok(0),
        other => u64::deserialize(other).map_err(serde::de::Error::custom),
    }
}

fn swap_before_2_75(swap: &u64) -> Value {
    if *swap == 0 { json!("") } else { json!(swap) }
}

impl FlavorView {
    fn new(flavor: &Flavor, origin: &Origin) -> FlavorView {
        FlavorView {
            id: flavor.id.clone(),
            name: flavor.name.clone(),
            ram: flavor.ram,
            vcpus: flavor.vcpus,
            disk: flavor.disk,
            ephemeral: flavor.ephemeral,
            disabled: false,
            is_public: flavor.is_public,
            rxtx_factor: flavor.rxtx_factor,
            swap: flavor.swap,
            links: links(origin, &flavor.id),
            description: flavor.description.clone(),
            extra_specs: flavor.extra_specs.clone(),
        }
    }
}

/// A `GET /flavors` entry.
#[derive(VersionedModel, Clone, Debug, Deserialize)]
#[versioned(api = COMPUTE)]
pub struct FlavorSummary {
    /// The flavor id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// The `self` and `bookmark` links.
    pub links: Value,
    /// A free-form description of the flavor, or null (from 2.55).
    #[versioned(since = "2.55")]
    #[serde(default)]
    pub description: Option<String>,
}

impl FlavorSummary {
    fn new(flavor: &Flavor, origin: &Origin) -> FlavorSummary {
        FlavorSummary {
            id: flavor.id.clone(),
            name: flavor.name.clone(),
            links: links(origin, &flavor.id),
            description: flavor.description.clone(),
        }
    }
}

/// `{"flavor": {...}}`
#[derive(VersionedModel, Clone, Debug, Deserialize)]
pub struct OneFlavor {
    /// The flavor.
    #[versioned(nested)]
    pub flavor: FlavorView,
}

impl OneFlavor {
    fn new(flavor: &Flavor, origin: &Origin) -> OneFlavor {
        OneFlavor { flavor: FlavorView::new(flavor, origin) }
    }
}

/// `{"flavors": [...]}` of `GET /flavors`.
#[derive(VersionedModel, Clone, Debug, Deserialize)]
pub struct FlavorList {
    /// A page of flavors.
    #[versioned(nested)]
    pub flavors: Vec<FlavorSummary>,
    /// The link to the next page, when this page is full.
    // Nova's `_get_collection_links`.
    #[versioned(skip_none, schema = listing::links_schema)]
    #[serde(default)]
    pub flavors_links: Option<Value>,
}

/// `{"flavors": [...]}` of `GET /flavors/detail`.
#[derive(VersionedModel, Clone, Debug, Deserialize)]
pub struct FlavorDetails {
    /// A page of flavors.
    #[versioned(nested)]
    pub flavors: Vec<FlavorView>,
    /// The link to the next page, when this page is full.
    // Nova's `_get_collection_links`.
    #[versioned(skip_none, schema = listing::links_schema)]
    #[serde(default)]
    pub flavors_links: Option<Value>,
}

#[controller(api = COMPUTE, actix, axum, client)]
impl Flavors {
    /// Lists the flavors a project can use, by id and name, a page at a time.
    ///
    /// Reads the query keys `minRam` (the least memory, MiB) and `minDisk`
    /// (the least root disk, GiB), `is_public` (`true`, `false` or `none`
    /// for every flavor; public ones only when absent), `sort_key` and
    /// `sort_dir` (`flavorid`, ascending, when absent), `marker` (the id
    /// after which the page starts) and `limit` (the most flavors in a
    /// page). A full page links to the next. Other keys are ignored until
    /// 2.74 and refused from 2.75.
    #[get("/flavors")]
    #[errors(400, 503)]
    #[schema(query = list_query_v2_1, "2.1", "2.74")]
    #[response(200, model = FlavorList)]
    #[example("2.1", path = "/flavors?limit=2", response = "api_samples/flavors/flavors-list-resp.json")]
    #[example(
        "2.55",
        path = "/flavors?limit=2",
        response = "api_samples/flavors/v2.55/flavors-list-resp.json"
    )]
    #[schema(query = list_query_v2_75, "2.75")]
    async fn list(&self, origin: Origin, query: JsonQuery) -> Result<Versioned<FlavorList>, ApiError> {
        let (flavors, flavors_links) = self.page(&origin, "flavors", &query).await?;
        let flavors = flavors.iter().map(|f| FlavorSummary::new(f, &origin)).collect();
        Ok(Versioned::ok(FlavorList { flavors, flavors_links }))
    }

    /// Lists the flavors a project can use, with every field, a page at a time.
    ///
    /// Reads the same query keys as `GET /flavors`: `minRam`, `minDisk`,
    /// `is_public`, `sort_key`, `sort_dir`, `marker` and `limit`.
    #[get("/flavors/detail")]
    #[errors(400, 503)]
    #[schema(query = list_query_v2_1, "2.1", "2.74")]
    #[response(200, model = FlavorDetails)]
    #[schema(query = list_query_v2_75, "2.75")]
    async fn list_detail(
        &self,
        origin: Origin,
        query: JsonQuery,
    ) -> Result<Versioned<FlavorDetails>, ApiError> {
        let (flavors, flavors_links) = self.page(&origin, "flavors/detail", &query).await?;
        let flavors = flavors.iter().map(|f| FlavorView::new(f, &origin)).collect();
        Ok(Versioned::ok(FlavorDetails { flavors, flavors_links }))
    }

    /// Shows one flavor, with every field.
    #[get("/flavors/{id}")]
    #[errors(404, 503)]
    #[response(200, model = OneFlavor)]
    #[example("2.1", path = "/flavors/1", response = "api_samples/flavors/flavor-get-resp.json")]
    #[example("2.55", path = "/flavors/1", response = "api_samples/flavors/v2.55/flavor-get-resp.json")]
    #[example("2.61", path = "/flavors/1", response = "api_samples/flavors/v2.61/flavor-get-resp.json")]
    #[example("2.75", path = "/flavors/1", response = "api_samples/flavors/v2.75/flavor-get-resp.json")]
    async fn show(&self, origin: Origin, id: Path<String>) -> Result<Versioned<OneFlavor>, ApiError> {
        let flavor = self.store.flavor(&id).await?.ok_or_else(|| not_found(&id))?;
        Ok(Versioned::ok(OneFlavor::new(&flavor, &origin)))
    }

    /// Creates a flavor.
    ///
    /// Without an `id` the flavor gets a UUID. From 2.55
    /// the body may carry a `description`.
    // One method for every version: only the schema changes, at 2.55.
    #[post("/flavors")]
    #[errors(400, 409, 503)]
    #[api_version("2.1")]
    #[response(200, model = OneFlavor)]
    #[schema(create_v2_1, "2.1", "2.54")]
    #[schema(create_v2_55, "2.55")]
    #[example(
        "2.1",
        path = "/flavors",
        request = "api_samples/flavors/flavor-create-post-req.json",
        response = "api_samples/flavors/flavor-create-post-resp.json"
    )]
    #[example(
        "2.55",
        path = "/flavors",
        request = "api_samples/flavors/v2.55/flavor-create-post-req.json",
        response = "api_samples/flavors/v2.55/flavor-create-post-resp.json"
    )]
    #[example(
        "2.61",
        path = "/flavors",
        request = "api_samples/flavors/v2.55/flavor-create-post-req.json",
        response = "api_samples/flavors/v2.61/flavor-create-post-resp.json"
    )]
    #[example(
        "2.75",
        path = "/flavors",
        request = "api_samples/flavors/v2.55/flavor-create-post-req.json",
        response = "api_samples/flavors/v2.75/flavor-create-post-resp.json"
    )]
    async fn create(
        &self,
        origin: Origin,
        body: Json<FlavorCreate>,
    ) -> Result<Versioned<OneFlavor>, ApiError> {
        let flavor = new_flavor(&body.flavor)?;
        match self.store.insert_flavor(flavor.clone()).await? {
            Ok(()) => Ok(Versioned::ok(OneFlavor::new(&flavor, &origin))),
            Err(Conflict::Id) => {
                Err(ApiError::conflict(format!("Flavor with ID {} already exists.", flavor.id)))
            }
            Err(Conflict::Name) => {
                Err(ApiError::conflict(format!("Flavor with name {} already exists.", flavor.name)))
            }
        }
    }

    /// Changes a flavor's description, the one field that can change.
    // A method that exists only from 2.55: earlier versions answer 404.
    #[put("/flavors/{id}")]
    #[errors(404, 503)]
    #[api_version("2.55")]
    #[response(200, model = OneFlavor)]
    #[schema(update_v2_55, "2.55")]
    #[example(
        "2.55",
        path = "/flavors/1",
        request = "api_samples/flavors/v2.55/flavor-update-req.json",
        response = "api_samples/flavors/v2.55/flavor-update-resp.json"
    )]
    #[example(
        "2.61",
        path = "/flavors/1",
        request = "api_samples/flavors/v2.55/flavor-update-req.json",
        response = "api_samples/flavors/v2.61/flavor-update-resp.json"
    )]
    #[example(
        "2.75",
        path = "/flavors/1",
        request = "api_samples/flavors/v2.55/flavor-update-req.json",
        response = "api_samples/flavors/v2.75/flavor-update-resp.json"
    )]
    async fn update(
        &self,
        origin: Origin,
        id: Path<String>,
        body: Json<FlavorUpdate>,
    ) -> Result<Versioned<OneFlavor>, ApiError> {
        let description = body.flavor.description.as_deref().map(checked_description).transpose()?;
        let flavor = self
            .store
            .update_flavor(&id, |f| f.description = description)
            .await?
            .ok_or_else(|| not_found(&id))?;
        Ok(Versioned::ok(OneFlavor::new(&flavor, &origin)))
    }

    /// Deletes a flavor; servers built from it keep running.
    // 202 Accepted, as Nova answers (`flavor_manage.py` `_delete`:
    // `@wsgi.response(202)`; tempest.lib's `delete_flavor`: `[202]`).
    #[delete("/flavors/{id}")]
    #[errors(404, 503)]
    #[response(202)]
    async fn delete(&self, id: Path<String>) -> Result<Response, ApiError> {
        if self.store.remove_flavor(&id).await? {
            Ok(empty_response(StatusCode::ACCEPTED))
        } else {
            Err(not_found(&id))
        }
    }

    /// A list's page and, when it is full, the link to the next one
    /// (`views/flavors.py` `_list_view`).
    async fn page(
        &self,
        origin: &Origin,
        collection: &str,
        query: &JsonQuery,
    ) -> Result<(Vec<Flavor>, Option<Value>), ApiError> {
        let size = listing::page_size(query);
        let flavors = self.select(query, size).await?;
        let last_id = flavors.last().map(|f| f.id.as_str());
        let links = listing::next_link(origin, collection, query, size, last_id, flavors.len());
        Ok((flavors, links))
    }

    /// The flavors a list request selects: filters, sort and marker from
    /// the query the version's schema accepted, at most `limit` of them.
    async fn select(&self, query: &JsonQuery, limit: usize) -> Result<Vec<Flavor>, ApiError> {
        let last = |key: &str| query.last(key);
        // `int(req.params['minRam'])`, refused in `_get_flavors`'s words.
        let minimum = |key: &str| -> Result<Option<i128>, ApiError> {
            last(key)
                .map(|v| {
                    python_int(v).ok_or_else(|| ApiError::bad_request(format!("Invalid {key} filter [{v}]")))
                })
                .transpose()
        };
        let (min_ram, min_disk) = (minimum("minRam")?, minimum("minDisk")?);
        // `_parse_is_public`: public only unless asked, `none` for every
        // flavor, else `bool_from_string(strict=True)`.
        let public = match last("is_public") {
            None => Some(true),
            Some(text) if text.to_lowercase() == "none" => None,
            Some(text) => match text.trim().to_lowercase().as_str() {
                "true" | "t" | "1" | "yes" | "y" | "on" => Some(true),
                "false" | "f" | "0" | "no" | "n" | "off" => Some(false),
                _ => return Err(ApiError::bad_request(format!("Invalid is_public filter [{text}]"))),
            },
        };
        let all = self.store.flavors().await?;
        // Nova's `_flavor_get_all_from_db` looks the marker up among every
        // flavor, not the filtered ones, and pages from its place in the
        // sort (`paginate_query`): a marker the filters leave out still pages.
        let marker = match last("marker") {
            Some(marker) => Some(
                all.iter()
                    .find(|f| f.id == marker)
                    .cloned()
                    .ok_or_else(|| ApiError::bad_request(format!("marker [{marker}] not found")))?,
            ),
            None => None,
        };
        let (key, descending) = (last("sort_key").unwrap_or("flavorid"), last("sort_dir") == Some("desc"));
        let in_order = |a: &Flavor, b: &Flavor| {
            let order = order(a, b, key);
            if descending { order.reverse() } else { order }
        };
        let mut flavors: Vec<Flavor> = all
            .into_iter()
            .filter(|f| min_ram.is_none_or(|min| i128::from(f.ram) >= min))
            .filter(|f| min_disk.is_none_or(|min| i128::from(f.disk) >= min))
            .filter(|f| public.is_none_or(|p| f.is_public == p))
            .filter(|f| marker.as_ref().is_none_or(|m| in_order(f, m).is_gt()))
            .collect();
        flavors.sort_by(in_order);
        flavors.truncate(limit);
        Ok(flavors)
    }
}

/// Extra specs of a flavor (`/flavors/{id}/os-extra_specs`), the same at every version.
pub struct FlavorExtraSpecs {
    store: Arc<Store>,
}

impl FlavorExtraSpecs {
    pub(crate) fn new(store: Arc<Store>) -> FlavorExtraSpecs {
        FlavorExtraSpecs { store }
    }
}

#[controller(api = COMPUTE, actix, axum, client)]
impl FlavorExtraSpecs {
    /// Lists a flavor's extra specs, a map of keys to string values.
    #[get("/flavors/{id}/os-extra_specs")]
    #[errors(404, 503)]
    #[response(200, extra_specs_response)]
    async fn list(&self, id: Path<String>) -> Result<Response, ApiError> {
        let flavor = self.store.flavor(&id).await?.ok_or_else(|| not_found(&id))?;
        Ok(json_response(StatusCode::OK, &json!({"extra_specs": flavor.extra_specs})))
    }

    /// Sets extra specs of a flavor, keeping the others.
    ///
    /// From 2.86 a key the service knows is checked by its validator, a key
    /// in a namespace it knows must be one it knows, and the first extra
    /// spec refused answers 400 naming it.
    #[post("/flavors/{id}/os-extra_specs")]
    #[errors(404, 503)]
    #[api_version("2.1")]
    #[response(200, extra_specs_create)]
    #[schema(extra_specs_create, "2.1")]
    async fn create(
        &self,
        version: ApiVersion,
        id: Path<String>,
        body: Json<ExtraSpecs>,
    ) -> Result<Response, ApiError> {
        check_specs(version, &body.extra_specs)?;
        let specs = spec_strings(&body.extra_specs);
        self.store
            .update_flavor(&id, |f| f.extra_specs.extend(specs.clone()))
            .await?
            .ok_or_else(|| not_found(&id))?;
        // `return body`: the values as sent, a number still a number.
        let sent = json!({ "extra_specs": body.into_inner().extra_specs });
        Ok(json_response(StatusCode::OK, &extra_specs::PythonJson(&sent)))
    }

    /// Shows one extra spec of a flavor.
    #[get("/flavors/{id}/os-extra_specs/{key}")]
    #[errors(404, 503)]
    #[response(200, extra_spec_response)]
    async fn show(&self, path: Path<(String, String)>) -> Result<Response, ApiError> {
        let (id, key) = (*path).clone();
        let flavor = self.store.flavor(&id).await?.ok_or_else(|| not_found(&id))?;
        let value = flavor.extra_specs.get(&key).ok_or_else(|| no_spec(&id, &key))?;
        Ok(json_response(StatusCode::OK, &json!({ key: value })))
    }

    /// Sets one extra spec of a flavor; the body names the same key.
    ///
    /// From 2.86 a key the service knows is checked by its validator, and a
    /// key in a namespace it knows must be one it knows.
    #[put("/flavors/{id}/os-extra_specs/{key}")]
    #[errors(400, 404, 503)]
    #[api_version("2.1")]
    #[response(200, extra_spec_update)]
    #[schema(extra_spec_update, "2.1")]
    async fn update(
        &self,
        version: ApiVersion,
        path: Path<(String, String)>,
        body: Json<Map<String, Value>>,
    ) -> Result<Response, ApiError> {
        let (id, key) = (*path).clone();
        check_specs(version, &body)?;
        let specs = spec_strings(&body);
        if !specs.contains_key(&key) {
            return Err(ApiError::bad_request("Request body and URI mismatch"));
        }
        self.store
            .update_flavor(&id, |f| f.extra_specs.extend(specs.clone()))
            .await?
            .ok_or_else(|| not_found(&id))?;
        Ok(json_response(StatusCode::OK, &extra_specs::PythonJson(&Value::Object(body.into_inner()))))
    }

    /// Removes one extra spec of a flavor; answers 200 with no body.
    // 200 OK with no body, as Nova answers (`flavors_extraspecs.py` `delete`
    // has no `@wsgi.response`, so webob's default 200; tempest.lib's
    // `unset_flavor_extra_specs` schema: `'status_code': [200]`). Unlike
    // `DELETE /flavors/{id}`, which is 202.
    #[delete("/flavors/{id}/os-extra_specs/{key}")]
    #[errors(404, 503)]
    #[response(200)]
    async fn delete(&self, path: Path<(String, String)>) -> Result<Response, ApiError> {
        let (id, key) = (*path).clone();
        let mut found = false;
        self.store
            .update_flavor(&id, |f| found = f.extra_specs.remove(&key).is_some())
            .await?
            .ok_or_else(|| not_found(&id))?;
        if found { Ok(empty_response(StatusCode::OK)) } else { Err(no_spec(&id, &key)) }
    }
}

/// Nova's `FlavorNotFound`.
pub(crate) fn not_found(id: &str) -> ApiError {
    ApiError::not_found(format!("Flavor {id} could not be found."))
}

fn no_spec(id: &str, key: &str) -> ApiError {
    ApiError::not_found(format!("Flavor {id} has no extra specs with key {key}."))
}

/// Nova's self and bookmark links for a flavor, under the configured
/// public URL (the request's own `Host` unless the deployer says otherwise).
fn links(origin: &Origin, id: &str) -> Value {
    let root = origin.as_str();
    json!([
        {"rel": "self", "href": format!("{root}/v2.1/flavors/{id}")},
        {"rel": "bookmark", "href": format!("{root}/flavors/{id}")},
    ])
}

/// Extra spec values as Nova stores them: strings, a number as Python's
/// `str()` writes it (its `DictOfStringsField`).
fn spec_strings(specs: &Map<String, Value>) -> BTreeMap<String, String> {
    specs.iter().map(|(k, v)| (k.clone(), extra_specs::python_str(v))).collect()
}

version_gates! {
    /// What a write of extra specs checks at a version.
    #[derive(Clone, Copy, Debug)]
    struct SpecWrites for COMPUTE {
        /// Each extra spec Nova knows is checked by its validator
        /// (`FlavorExtraSpecsController._check_extra_specs_value`).
        validated: "2.86",
    }
}

/// From 2.86 each extra spec Nova knows is checked by its validator, before
/// the flavor is looked up: 400 with the validator's words.
/// In the body's order, as Nova iterates it: the first refused one is named.
fn check_specs(version: ApiVersion, specs: &Map<String, Value>) -> Result<(), ApiError> {
    if !SpecWrites::at(version.version()).validated {
        return Ok(());
    }
    specs.iter().try_for_each(|(name, value)| {
        extra_specs::validate(name, &extra_specs::python_str(value)).map_err(ApiError::bad_request)
    })
}

/// Python's `int(text)`: surrounding whitespace, a sign, ASCII digits with
/// single underscores between them. Beyond `i128` it saturates, which no
/// flavor's size reaches either way.
fn python_int(text: &str) -> Option<i128> {
    let text = text.trim();
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let well_formed = !digits.is_empty()
        && !digits.starts_with('_')
        && !digits.ends_with('_')
        && !digits.contains("__")
        && digits.chars().all(|c| c.is_ascii_digit() || c == '_');
    if !well_formed {
        return None;
    }
    let magnitude = digits
        .bytes()
        .filter(u8::is_ascii_digit)
        .fold(0i128, |n, d| n.saturating_mul(10).saturating_add(i128::from(d - b'0')));
    Some(if negative { -magnitude } else { magnitude })
}

/// Two flavors in the ascending order of a list's `sort_key`, ties broken by
/// flavor id (Nova breaks them by its table's row id, creation order).
fn order(a: &Flavor, b: &Flavor, key: &str) -> std::cmp::Ordering {
    let order = match key {
        "name" => a.name.cmp(&b.name),
        "memory_mb" => a.ram.cmp(&b.ram),
        "vcpus" => a.vcpus.cmp(&b.vcpus),
        "root_gb" => a.disk.cmp(&b.disk),
        "ephemeral_gb" => a.ephemeral.cmp(&b.ephemeral),
        "swap" => a.swap.cmp(&b.swap),
        "rxtx_factor" => a.rxtx_factor.total_cmp(&b.rxtx_factor),
        "is_public" => a.is_public.cmp(&b.is_public),
        "description" => a.description.cmp(&b.description),
        _ => std::cmp::Ordering::Equal,
    };
    order.then_with(|| a.id.cmp(&b.id))
}

/// `POST /flavors`'s body, once the schema of its version has admitted it.
#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct FlavorCreate {
    /// The new flavor.
    pub flavor: NewFlavor,
}

/// A new flavor's fields in the forms Nova's schema admits: a number may
/// arrive as a string (`"512"`) and a flag as a word (`"yes"`), so
/// the server reads them as `flavors.create` does. A field left out
/// (or `null`) is `None`.
#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct NewFlavor {
    /// Its name, unique.
    pub name: String,
    /// Its id, unique: a UUID is made for one left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<Scalar>,
    /// Memory, MiB (at least 1).
    pub ram: Scalar,
    /// Virtual CPUs (at least 1).
    pub vcpus: Scalar,
    /// Root disk, GiB.
    pub disk: Scalar,
    /// Ephemeral disk, GiB (0 when left out).
    #[serde(rename = "OS-FLV-EXT-DATA:ephemeral", default, skip_serializing_if = "Option::is_none")]
    pub ephemeral: Option<Scalar>,
    /// Swap, MiB (0 when left out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub swap: Option<Scalar>,
    /// The network bandwidth factor (1.0 when left out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rxtx_factor: Option<Scalar>,
    /// Whether every project may use it (true when left out).
    #[serde(rename = "os-flavor-access:is_public", default, skip_serializing_if = "Option::is_none")]
    pub is_public: Option<Scalar>,
    /// A description, from 2.55 (the schema refuses one before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// A field the schema lets be a number, a string or a flag.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(untagged)]
pub enum Scalar {
    /// `true` or `false`.
    Flag(bool),
    /// A JSON number, as sent.
    Number(serde_json::Number),
    /// A string: a number or a flag in words.
    Text(String),
}

/// `PUT /flavors/{id}`'s body (2.55).
#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct FlavorUpdate {
    /// The change.
    pub flavor: FlavorDescription,
}

/// The one field of a flavor that can change: its description, `None`
/// (`null`) to clear it.
#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct FlavorDescription {
    /// The new description.
    pub description: Option<String>,
}

/// `POST /flavors/{id}/os-extra_specs`'s body: the extra specs to set,
/// in the body's order, each a string or a number as sent.
#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct ExtraSpecs {
    /// Each key to its value.
    pub extra_specs: Map<String, Value>,
}

/// A flavor from a create body the schema accepted, its numbers' bounds
/// checked here.
fn new_flavor(body: &NewFlavor) -> Result<Flavor, ApiError> {
    // oslo's `validate_integer`: `int(str(value))`, then the bounds; a
    // field left out is 0.
    let int = |field: Option<&Scalar>, name: &str, min: u64| -> Result<u64, ApiError> {
        let value = match field {
            None => return Ok(0),
            Some(Scalar::Number(n)) => n.as_i64().map(i128::from),
            Some(Scalar::Text(s)) => python_int(s),
            Some(Scalar::Flag(_)) => None,
        };
        match value {
            Some(v) if v < i128::from(min) => {
                Err(ApiError::bad_request(format!("Invalid input received: {name} must be >= {min}")))
            }
            Some(v) => u64::try_from(v).ok().filter(|v| *v <= i32::MAX as u64).ok_or_else(|| {
                ApiError::bad_request(format!("Invalid input received: {name} must be <= {}", i32::MAX))
            }),
            None => Err(ApiError::bad_request(format!("Invalid input received: {name} must be an integer"))),
        }
    };
    // In `flavors.create`'s order: the integers, then the factor.
    let (ram, vcpus) = (int(Some(&body.ram), "ram", 1)?, int(Some(&body.vcpus), "vcpus", 1)?);
    let disk = int(Some(&body.disk), "disk", 0)?;
    let ephemeral = int(body.ephemeral.as_ref(), "ephemeral", 0)?;
    let swap = int(body.swap.as_ref(), "swap", 0)?;
    let rxtx_factor = match &body.rxtx_factor {
        None => Some(1.0),
        Some(Scalar::Number(n)) => n.as_f64(),
        Some(Scalar::Text(s)) => s.parse().ok(),
        Some(Scalar::Flag(_)) => None,
    }
    .filter(|f: &f64| *f > 0.0 && *f <= SQL_SP_FLOAT_MAX)
    .ok_or_else(|| {
        ApiError::bad_request(
            "Invalid input received: 'rxtx_factor' argument must be a float between 0 and 3.40282e+38",
        )
    })?;
    // Nova's `flavors.create`: `if not flavorid: flavorid = generate_uuid()`,
    // so an id of 0 (Python's falsy number) gets a UUID too.
    let id = match &body.id {
        Some(Scalar::Text(s)) => s.clone(),
        Some(Scalar::Number(n)) if n.as_f64() != Some(0.0) => n.to_string(),
        _ => crate::keypairs::uuid4(),
    };
    let is_public = match &body.is_public {
        Some(Scalar::Flag(b)) => *b,
        Some(Scalar::Text(s)) => matches!(s.to_ascii_lowercase().as_str(), "true" | "1" | "on" | "yes"),
        _ => true,
    };
    if !body.name.chars().all(printable) {
        return Err(ApiError::bad_request(crate::keypairs::INVALID_NAME));
    }
    let description = body.description.as_deref().map(checked_description).transpose()?;
    Ok(Flavor {
        id,
        name: body.name.clone(),
        ram,
        vcpus,
        disk,
        ephemeral,
        swap,
        rxtx_factor,
        is_public,
        description,
        extra_specs: BTreeMap::new(),
    })
}

/// Whether Nova's validators take `c` in a name or a description
/// (`parameter_types._is_printable` over `_get_all_chars`): a character of
/// the Basic Multilingual Plane that is no control, format, surrogate,
/// private or unassigned one (categories `C*`) and no separator but a
/// space (`Zs`). So a newline or a tab is refused, and so is an emoji.
fn printable(c: char) -> bool {
    use unicode_general_category::{GeneralCategory as G, get_general_category};
    let refused = matches!(
        get_general_category(c),
        G::Control
            | G::Format
            | G::Surrogate
            | G::PrivateUse
            | G::Unassigned
            | G::LineSeparator
            | G::ParagraphSeparator
    );
    u32::from(c) < 0xFFFF && !refused
}

/// A description as Nova's `parameter_types.description` pattern takes it:
/// printable characters only. Nova's message quotes its pattern of every
/// printable range; this one names the rule instead.
fn checked_description(description: &str) -> Result<String, ApiError> {
    match description.chars().find(|c| !printable(*c)) {
        None => Ok(description.to_owned()),
        Some(c) => Err(ApiError::bad_request(format!(
            "Invalid input for field/attribute description. Value: {description}. \
             The description must be printable characters: {c:?} is not."
        ))),
    }
}

// ---- Schemas, as Nova's `schemas/flavor_manage.py` and `flavors_extraspecs.py` have them,
// with the bounds the handlers check said in the schema too.

/// An integer, or a string of its digits, from `min` to 2147483647: Nova's
/// Nova's `flavor_param_positive`/`_non_negative` (`volume_size`): a
/// number is bounded by the schema, a digit string only by the handler
/// (`flavors.create`'s `validate_integer`), in its own words.
fn int_param(min: u64) -> Value {
    json!({"type": ["integer", "string"], "pattern": "^[0-9]+$", "minimum": min, "maximum": i32::MAX})
}

fn create_properties() -> Map<String, Value> {
    let boolean = json!({"type": ["boolean", "string"], "enum": [
        true, "True", "TRUE", "true", "1", "ON", "On", "on", "YES", "Yes", "yes",
        false, "False", "FALSE", "false", "0", "OFF", "Off", "off", "NO", "No", "no"]});
    let properties = json!({
        "name": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^\\S(.*\\S)?$"},
        "id": {"type": ["string", "number", "null"], "minLength": 1, "maxLength": 255,
               "pattern": "^[a-zA-Z0-9._-]([a-zA-Z0-9. _-]*[a-zA-Z0-9._-])?$"},
        "ram": int_param(1),
        "vcpus": int_param(1),
        "disk": int_param(0),
        "OS-FLV-EXT-DATA:ephemeral": int_param(0),
        "swap": int_param(0),
        // Nova's draft 4 `exclusiveMinimum: 0` is a false flag, not a
        // bound: the handler refuses 0.
        "rxtx_factor": {"type": ["number", "string"], "pattern": "^[0-9]+(\\.[0-9]+)?$",
                        "maximum": SQL_SP_FLOAT_MAX},
        "os-flavor-access:is_public": boolean,
    });
    properties.as_object().cloned().unwrap_or_default()
}

fn create_body(properties: Map<String, Value>) -> Value {
    json!({
        "type": "object",
        "properties": {"flavor": {
            "type": "object",
            "properties": properties,
            "required": ["name", "ram", "vcpus", "disk"],
            "additionalProperties": false,
        }},
        "required": ["flavor"],
        "additionalProperties": false,
    })
}

fn description() -> Value {
    json!({"type": ["string", "null"], "minLength": 0, "maxLength": 65535})
}

fn create_v2_1() -> Value {
    create_body(create_properties())
}

fn create_v2_55() -> Value {
    let mut properties = create_properties();
    properties.insert("description".into(), description());
    create_body(properties)
}

fn update_v2_55() -> Value {
    json!({
        "type": "object",
        "properties": {"flavor": {
            "type": "object",
            "properties": {"description": description()},
            "required": ["description"],
            "additionalProperties": false,
        }},
        "required": ["flavor"],
        "additionalProperties": false,
    })
}

/// Nova's `flavors_extraspecs._metadata` value: a string or a number (not
/// a boolean: Python's jsonschema does not count one as a number).
fn spec_value() -> Value {
    json!({"type": ["string", "number"], "maxLength": 255})
}

fn extra_specs_create() -> Value {
    json!({
        "type": "object",
        "properties": {"extra_specs": {
            "type": "object",
            "patternProperties": {"^[a-zA-Z0-9-_:. ]{1,255}$": spec_value()},
            "additionalProperties": false,
        }},
        "required": ["extra_specs"],
        "additionalProperties": false,
    })
}

/// `{"extra_specs": {"key": "value", ...}}`, as the extra specs answers carry them.
fn extra_specs_response() -> Value {
    json!({
        "type": "object",
        "required": ["extra_specs"],
        "properties": {"extra_specs": {"type": "object", "additionalProperties": {"type": "string"}}},
        "additionalProperties": false,
    })
}

/// `{"key": "value"}`: one extra spec.
fn extra_spec_response() -> Value {
    json!({"type": "object", "minProperties": 1, "maxProperties": 1, "additionalProperties": {"type": "string"}})
}

fn extra_spec_update() -> Value {
    json!({
        "type": "object",
        "patternProperties": {"^[a-zA-Z0-9-_:. ]{1,255}$": spec_value()},
        "minProperties": 1,
        "maxProperties": 1,
        "additionalProperties": false,
    })
}

/// The list query (`GET /flavors` and `/flavors/detail`), as Nova's
/// `schemas/flavors.py` has it; `strict` from 2.75.
fn list_query(strict: bool) -> Value {
    // Nova's schema checks only `limit`'s digits; the handler reads the
    // filters as `_get_flavors` does, with its own refusals: `minRam` and
    // `minDisk` are integers to it, carried as text (any text passes here).
    let key = |value: Value, description: &str| json!({"type": "array", "items": value, "description": description});
    let text = json!({"type": "string"});
    let integer = json!({"type": ["integer", "string"]});
    let sort_keys = [
        "created_at",
        "description",
        "disabled",
        "ephemeral_gb",
        "flavorid",
        "id",
        "is_public",
        "memory_mb",
        "name",
        "root_gb",
        "rxtx_factor",
        "swap",
        "updated_at",
        "vcpu_weight",
        "vcpus",
    ];
    json!({
        "type": "object",
        "properties": {
            "limit": key(listing::non_negative_integer(), "The most flavors in a page."),
            "marker": key(text.clone(), "The id of the flavor after which the page starts."),
            "is_public": key(text, "`true` or `false`, or `none` for every flavor; public ones only when absent."),
            "minRam": key(integer.clone(), "The least memory, MiB."),
            "minDisk": key(integer, "The least root disk, GiB."),
            "sort_key": key(json!({"type": "string", "enum": sort_keys}), "The field to sort by (`flavorid` when absent)."),
            "sort_dir": key(json!({"type": "string", "enum": ["asc", "desc"]}), "The order (`asc` when absent)."),
        },
        "additionalProperties": !strict,
    })
}

fn list_query_v2_1() -> Value {
    list_query(false)
}

fn list_query_v2_75() -> Value {
    list_query(true)
}

#[cfg(test)]
mod tests {
    use super::python_int;

    /// What Python's `int()` reads of a query value, and what it refuses.
    #[test]
    fn python_int_reads_what_pythons_int_reads() {
        for (text, read) in [
            ("7", Some(7)),
            ("007", Some(7)),
            (" -12 ", Some(-12)),
            ("+3", Some(3)),
            ("1_000", Some(1000)),
            ("", None),
            ("-", None),
            ("1__0", None),
            ("_1", None),
            ("1_", None),
            ("1.5", None),
            ("1e3", None),
            ("0x10", None),
        ] {
            assert_eq!(python_int(text), read, "{text:?}");
        }
        assert_eq!(python_int(&"9".repeat(60)), Some(i128::MAX), "saturates");
    }
}
