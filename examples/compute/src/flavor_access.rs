//! Who may use a private flavor (`os-flavor-access`): Nova's
//! `FlavorAccessController` lists a flavor's projects, and its
//! `FlavorActionController` adds and removes them through the flavor's
//! action URL (`POST /flavors/{id}/action`), the body's only key naming
//! the action (`wsgi.action_peek`). From 2.7 a public flavor takes no
//! projects.
//!
//! Every caller is the administrator here (no policy), with no project of
//! its own: a project added to a flavor does not make the flavor appear in
//! the caller's default list, which shows public flavors only.

use std::sync::Arc;

use serde_json::{Value, json};

use crate::api::COMPUTE;
use crate::store::{Shared, Store};
use crate::web::{ApiError, Json, Path, Response, StatusCode, controller, json_response};

/// A flavor's projects.
pub struct FlavorAccess {
    store: Arc<Store>,
}

impl FlavorAccess {
    pub(crate) fn new(store: Arc<Store>) -> FlavorAccess {
        FlavorAccess { store }
    }
}

#[controller(api = COMPUTE, actix, axum, client)]
impl FlavorAccess {
    /// Lists the projects that can use a private flavor.
    ///
    /// A public flavor has no such list: 404.
    // `FlavorAccessController.index`.
    #[get("/flavors/{id}/os-flavor-access")]
    #[errors(404, 503)]
    #[response(200, access_response)]
    async fn list(&self, id: Path<String>) -> Result<Response, ApiError> {
        let flavor = self.store.flavor(&id).await?.ok_or_else(|| crate::flavors::not_found(&id))?;
        if flavor.is_public {
            return Err(ApiError::not_found("Access list not available for public flavors."));
        }
        let projects = self.store.flavor_projects(&id).await?;
        Ok(access(&id, &projects))
    }

    /// Adds a project to a private flavor's access list (`addTenantAccess`)
    /// or removes one (`removeTenantAccess`).
    ///
    /// Until 2.6 a public flavor takes projects too; they change nothing.
    #[post("/flavors/{id}/action")]
    #[errors(400, 404, 409, 503)]
    #[api_version("2.1", "2.6")]
    #[response(200, access_response)]
    #[schema(action_body, "2.1", "2.6")]
    async fn action(&self, id: Path<String>, body: Json<Value>) -> Result<Response, ApiError> {
        self.act(&id, &body, Public::Shared).await
    }

    /// Adds a project to a private flavor's access list (`addTenantAccess`)
    /// or removes one (`removeTenantAccess`).
    ///
    /// From 2.7 adding a project to a public flavor is a conflict (409).
    #[post("/flavors/{id}/action")]
    #[errors(400, 404, 409, 503)]
    #[api_version("2.7")]
    #[response(200, access_response)]
    #[schema(action_body, "2.7")]
    async fn action(&self, id: Path<String>, body: Json<Value>) -> Result<Response, ApiError> {
        self.act(&id, &body, Public::Refused).await
    }
}

/// Whether a public flavor takes projects.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Public {
    Shared,
    Refused,
}

impl FlavorAccess {
    /// `_add_tenant_access` and `_remove_tenant_access`, after
    /// `action_peek` picked one by the body's only key. The body is read as
    /// a value, not a type: a body of no key, two keys or an unknown one is
    /// refused here in Nova's words, which a type's refusal would not be.
    async fn act(&self, id: &str, body: &Value, public: Public) -> Result<Response, ApiError> {
        let object = body.as_object().filter(|o| o.len() == 1).ok_or_else(malformed)?;
        let (action, arguments) = object.iter().next().ok_or_else(malformed)?;
        let tenant = arguments["tenant"].as_str().unwrap_or_default();
        let adding = match action.as_str() {
            "addTenantAccess" => true,
            "removeTenantAccess" => false,
            other => return Err(ApiError::bad_request(format!("There is no such action: {other}"))),
        };
        let flavor = self.store.flavor(id).await?.ok_or_else(|| crate::flavors::not_found(id))?;
        if adding && public == Public::Refused && flavor.is_public {
            return Err(ApiError::conflict("Can not add access to a public flavor."));
        }
        let shared = if adding {
            self.store.share_flavor(id, tenant).await?
        } else {
            self.store.unshare_flavor(id, tenant).await?
        };
        match shared {
            Shared::Done(projects) => Ok(access(id, &projects)),
            Shared::NoFlavor => Err(crate::flavors::not_found(id)),
            Shared::Unchanged if adding => Err(ApiError::conflict(format!(
                "Flavor access already exists for flavor {id} and project {tenant} combination."
            ))),
            Shared::Unchanged => {
                Err(ApiError::not_found(format!("Flavor access not found for {id} / {tenant} combination.")))
            }
        }
    }
}

/// `wsgi.action_peek`'s refusal of a body without exactly one key.
fn malformed() -> ApiError {
    ApiError::bad_request("Malformed request body")
}

/// `_marshall_flavor_access`.
fn access(id: &str, projects: &[String]) -> Response {
    let entries: Vec<Value> = projects.iter().map(|p| json!({"flavor_id": id, "tenant_id": p})).collect();
    json_response(StatusCode::OK, &json!({"flavor_access": entries}))
}

/// Nova's `schemas/flavor_access.py`: each action's arguments; which action
/// (exactly one key, a known one) is the handler's check, as it is
/// `action_peek`'s in Nova.
fn action_body() -> Value {
    let tenant = json!({
        "type": "object",
        "properties": {"tenant": {"type": "string", "minLength": 1, "maxLength": 255}},
        "required": ["tenant"],
        "additionalProperties": false,
    });
    json!({
        "type": "object",
        "properties": {"addTenantAccess": tenant, "removeTenantAccess": tenant},
    })
}

/// `_common_response`: `{"flavor_access": [{"flavor_id", "tenant_id"}]}`.
fn access_response() -> Value {
    json!({
        "type": "object",
        "required": ["flavor_access"],
        "properties": {"flavor_access": {"type": "array", "items": {
            "type": "object",
            "required": ["flavor_id", "tenant_id"],
            "properties": {"flavor_id": {"type": "string"}, "tenant_id": {"type": "string"}},
        }}},
    })
}
