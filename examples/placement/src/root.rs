//! `GET /`: Placement's version document, inside the versioned scope.

use actix_web::HttpResponse;
use microversion_actix::{ApiVersion, controller};
use serde_json::json;

use crate::api::PLACEMENT;
use crate::http::cache_headers;

/// The root resource.
pub(crate) struct Root;

#[controller(api = PLACEMENT)]
impl Root {
    /// Placement's single-version document (`max_version`, `min_version`).
    #[get("/")]
    async fn home(version: ApiVersion) -> HttpResponse {
        let (min, max) = (PLACEMENT.min(), PLACEMENT.max());
        let mut res = HttpResponse::Ok();
        cache_headers(&mut res, version, crate::store::now());
        res.json(json!({"versions": [{
            "id": format!("v{min}"),
            "max_version": max.to_string(),
            "min_version": min.to_string(),
            "status": "CURRENT",
            "links": [{"rel": "self", "href": ""}],
        }]}))
    }
}
