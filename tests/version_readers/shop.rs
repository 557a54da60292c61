//! Two small APIs that read their version from wherever a request carries
//! it (docs/reference.md §2.6), served on actix-web and on axum by one
//! controller source each.
//!
//! - [`READ`]: the path's first segment (`/v1.2/...`), the `api-version`
//!   query parameter, a `Shop-Version` header, `Accept`'s `version`
//!   parameter and `OpenStack-API-Version` (with its legacy
//!   `X-Shop-Version`), in that precedence; every answer names the
//!   versions its operation exists in.
//! - [`REQUIRED`]: the query parameter and `OpenStack-API-Version`, and a
//!   request must name one.

#![allow(dead_code)]

use microversion_axum::portable::{ApiVersion, Json, JsonQuery};
use microversion_axum::version::VersionReader;
use microversion_axum::{Api, controller, history};
use serde_json::{Value, json};

/// The shop's history.
const HISTORY: &[microversion_axum::Microversion] = history![
    "1.0" => "Widgets.",
    "1.1" => "Gizmos are withdrawn.",
    "1.2" => "Gadgets; gizmos are back.",
    "1.3" => "Nothing an operation sees.",
];

/// An API that reads its version in five places.
pub(crate) const READ: Api = Api::new("shop", HISTORY)
    .with_legacy_headers(&["X-Shop-Version"])
    .with_readers(&[
        VersionReader::PathSegment("v"),
        VersionReader::Query("api-version"),
        VersionReader::Header("Shop-Version"),
        VersionReader::MediaType("version"),
        VersionReader::Standard,
    ])
    .with_operation_versions();

/// An API that requires a version, in the query or the standard header.
pub(crate) const REQUIRED: Api = Api::new("shop", HISTORY)
    .with_readers(&[VersionReader::Query("api-version"), VersionReader::Standard])
    .with_version_required();

/// What every operation answers: the version it was served at, the query
/// its handler sees, and which operation it is.
fn seen(operation: &str, version: ApiVersion, query: JsonQuery) -> Json<Value> {
    Json(json!({"operation": operation, "version": version.to_string(), "query": query.0}))
}

/// The shop of [`READ`].
#[derive(Clone, Default)]
pub(crate) struct Shop;

#[controller(api = READ, actix, axum)]
impl Shop {
    /// The widgets, at every version.
    #[get("/widgets")]
    #[api_version("1.0")]
    async fn widgets(&self, version: ApiVersion, query: JsonQuery) -> Json<Value> {
        seen("widgets", version, query)
    }

    /// The gadgets, from 1.2.
    #[get("/gadgets")]
    #[api_version("1.2")]
    async fn gadgets(&self, version: ApiVersion, query: JsonQuery) -> Json<Value> {
        seen("gadgets", version, query)
    }

    /// The gizmos, withdrawn at 1.1.
    #[get("/gizmos")]
    #[api_version("1.0", "1.0")]
    async fn gizmos(&self, version: ApiVersion, query: JsonQuery) -> Json<Value> {
        seen("gizmos", version, query)
    }

    /// The gizmos, back at 1.2.
    #[get("/gizmos")]
    #[api_version("1.2")]
    async fn gizmos(&self, version: ApiVersion, query: JsonQuery) -> Json<Value> {
        seen("gizmos", version, query)
    }
}

/// The shop of [`REQUIRED`].
#[derive(Clone, Default)]
pub(crate) struct StrictShop;

#[controller(api = REQUIRED, actix, axum)]
impl StrictShop {
    /// The widgets, at every version.
    #[get("/widgets")]
    #[api_version("1.0")]
    async fn widgets(&self, version: ApiVersion, query: JsonQuery) -> Json<Value> {
        seen("widgets", version, query)
    }
}
