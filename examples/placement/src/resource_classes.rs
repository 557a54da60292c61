//! Resource classes (`/resource_classes`, from 1.2): the standard ones and
//! `CUSTOM_*`; renamed with `PUT` until 1.6, created by a bodiless `PUT`
//! from 1.7.

use std::sync::Arc;

use actix_web::{HttpResponse, web};
use microversion_actix::{ApiError, ApiVersion, Json, controller};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::api::PLACEMENT;
use crate::errors;
use crate::http::cache_headers;
use crate::standard;
use crate::store::{self, Store};

const CUSTOM_PATTERN: &str = "^CUSTOM_[A-Z0-9_]+$";

/// The resource class resource.
pub(crate) struct ResourceClasses {
    store: Arc<Store>,
}

impl ResourceClasses {
    pub(crate) fn new(store: Arc<Store>) -> ResourceClasses {
        ResourceClasses { store }
    }
}

fn class_schema() -> Value {
    json!({"type": "object",
           "properties": {"name": {"type": "string", "pattern": CUSTOM_PATTERN, "maxLength": 255}},
           "required": ["name"], "additionalProperties": false})
}

/// The body of a custom class's creation, and of its rename until 1.6.
#[derive(Deserialize)]
struct ClassName {
    name: String,
}

fn view(name: &str) -> Value {
    json!({"name": name, "links": [{"rel": "self", "href": format!("/resource_classes/{name}")}]})
}

fn is_standard(name: &str) -> bool {
    standard::RESOURCE_CLASSES.contains(&name)
}

fn no_such(name: &str) -> ApiError {
    errors::not_found(format!("No such resource class {name}."))
}

#[controller(api = PLACEMENT)]
impl ResourceClasses {
    #[get("/resource_classes")]
    #[api_version("1.2")]
    async fn list(&self, version: ApiVersion) -> Result<HttpResponse, ApiError> {
        let classes: Vec<(String, i64)> = self.store.read(async |tx| store::classes::all(tx).await).await?;
        let modified = classes.iter().map(|c| c.1).max().unwrap_or_else(store::now);
        let mut res = HttpResponse::Ok();
        cache_headers(&mut res, version, modified);
        Ok(res.json(json!({"resource_classes": classes.iter().map(|c| view(&c.0)).collect::<Vec<_>>()})))
    }

    #[get("/resource_classes/{name}")]
    #[api_version("1.2")]
    async fn show(&self, version: ApiVersion, name: web::Path<String>) -> Result<HttpResponse, ApiError> {
        let updated = self
            .store
            .read(async |tx| store::classes::updated_at(tx, &name).await)
            .await?
            .ok_or_else(|| no_such(&name))?;
        let mut res = HttpResponse::Ok();
        cache_headers(&mut res, version, updated);
        Ok(res.json(view(&name)))
    }

    #[post("/resource_classes")]
    #[api_version("1.2")]
    #[schema(class_schema, "1.2")]
    async fn create(&self, body: Json<ClassName>) -> Result<HttpResponse, ApiError> {
        let ClassName { name } = body.into_inner();
        self.store
            .tx(async |tx| -> Result<_, ApiError> {
                if store::classes::exists(tx, &name).await? {
                    return Err(errors::conflict(format!(
                        "Conflicting resource class already exists: {name}"
                    )));
                }
                Ok(store::classes::create(tx, &name).await?)
            })
            .await?;
        Ok(HttpResponse::Created().insert_header(("location", format!("/resource_classes/{name}"))).finish())
    }

    /// Until 1.6 `PUT` renames a custom class.
    #[put("/resource_classes/{name}")]
    #[api_version("1.2", "1.6")]
    #[schema(class_schema, "1.2", "1.6")]
    async fn update(&self, name: web::Path<String>, body: Json<ClassName>) -> Result<HttpResponse, ApiError> {
        let ClassName { name: new_name } = body.into_inner();
        self.store
            .tx(async |tx| -> Result<_, ApiError> {
                if !store::classes::exists(tx, &name).await? {
                    return Err(no_such(&name));
                }
                if is_standard(&name) {
                    return Err(errors::bad_request(format!("Cannot update standard resource class {name}")));
                }
                if store::classes::exists(tx, &new_name).await? {
                    return Err(errors::conflict(format!("Resource class already exists: {new_name}")));
                }
                store::classes::rename(tx, &name, &new_name).await?;
                Ok(())
            })
            .await?;
        Ok(HttpResponse::Ok().json(view(&new_name)))
    }

    /// From 1.7 `PUT` creates the class if needed: 201, or 204 when it exists.
    #[put("/resource_classes/{name}")]
    #[api_version("1.7")]
    async fn update(&self, name: web::Path<String>) -> Result<HttpResponse, ApiError> {
        let valid = name.len() <= 255
            && name.strip_prefix("CUSTOM_").is_some_and(|rest| {
                !rest.is_empty()
                    && rest.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
            });
        if !valid {
            let keyword = if name.len() > 255 { "maxLength" } else { "pattern" };
            return Err(errors::bad_request(format!(
                "JSON does not validate: '{name}' does not match '{CUSTOM_PATTERN}'\n\nFailed validating '{keyword}' in schema"
            )));
        }
        let created = self
            .store
            .tx(async |tx| -> Result<_, ApiError> {
                if store::classes::exists(tx, &name).await? {
                    return Ok(false);
                }
                store::classes::create(tx, &name).await?;
                Ok(true)
            })
            .await?;
        let mut res = if created { HttpResponse::Created() } else { HttpResponse::NoContent() };
        Ok(res.insert_header(("location", format!("/resource_classes/{name}"))).finish())
    }

    #[delete("/resource_classes/{name}")]
    #[api_version("1.2")]
    async fn delete(&self, name: web::Path<String>) -> Result<HttpResponse, ApiError> {
        self.store.tx(async |tx| -> Result<_, ApiError> {
            if !store::classes::exists(tx, &name).await? {
                return Err(no_such(&name));
            }
            if is_standard(&name) {
                return Err(errors::bad_request(format!(
                    "Error in delete resource class: Cannot delete standard resource class {name}."
                )));
            }
            if store::classes::in_inventory(tx, &name).await? {
                return Err(errors::conflict(format!(
                    "Error in delete resource class: Cannot delete resource class {name}. Class is in use in inventory."
                )));
            }
            store::classes::delete(tx, &name).await?;
            Ok(())
        }).await?;
        Ok(HttpResponse::NoContent().finish())
    }
}
