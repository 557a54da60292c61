//! The API described: OpenAPI 3.1 documents built from the same declarations
//! the dispatch is built from (docs/reference.md §14), the core's, served
//! here by [`OpenApiService`].
//!
//! - [`ApiDescription::document`]: one document per version, with exactly
//!   the operations, parameters, bodies and responses live at that version;
//! - [`ApiDescription::history_document`]: one document for the whole
//!   history in OpenStack's encoding, the one OpenStack's SDK and CLI
//!   generators read;
//! - [`OpenApiService`]: serves them, each rendered once;
//! - [`check_released`]: fails when the document of a released version
//!   changes, against committed copies.
//!
//! ```
//! use microversion_actix::openapi::ApiDescription;
//! use microversion_actix::{Api, Json, Version, controller, history, error::NovaFaults};
//! use serde_json::{Value, json};
//!
//! const API: Api = Api::new("compute", history!["2.1" => "Initial.", "2.2" => "Renames."]);
//!
//! fn rename() -> Value {
//!     json!({"type": "object", "required": ["name"]})
//! }
//!
//! struct Servers;
//!
//! #[controller(api = API)]
//! impl Servers {
//!     #[put("/servers/{id}")]
//!     #[api_version("2.2")]
//!     #[schema(rename, "2.2")]
//!     #[response(200)]
//!     #[errors(404, 409)]
//!     async fn rename(&self, body: Json<Value>) -> Json<Value> {
//!         body
//!     }
//! }
//!
//! let description = ApiDescription::new(API).with_prefix("/v2.1").controller::<Servers>().with_error_format(&NovaFaults::default());
//! let at_2_1 = description.document(Version::lit("2.1"));
//! assert_eq!(at_2_1["paths"], json!({}));
//! let at_2_2 = description.document(Version::lit("2.2"));
//! assert_eq!(at_2_2["info"]["version"], "2.2");
//! let rename = &at_2_2["paths"]["/v2.1/servers/{id}"]["put"];
//! assert!(rename["requestBody"].is_object());
//! // The success status, what the framework answers (the version header,
//! // the body, 404 at 2.1, which has no rename), and the declared errors.
//! let statuses: Vec<&str> = rename["responses"].as_object().unwrap().keys().map(String::as_str).collect();
//! assert_eq!(statuses, ["200", "400", "404", "406", "408", "409", "413", "415", "500"]);
//! assert_eq!(rename["responses"]["409"]["content"]["application/json"]["schema"]["$ref"], "#/components/schemas/Error");
//! ```

mod service;

pub use microversion_core::openapi::{
    ApiDescription, BLESS_VARIABLE, CONVERSION_NOTE, Change, DocumentRefusal, Documents, OPENAPI_3_0,
    OpenApiVersion, RenderedDocument, check_released, check_released_as, check_released_blessing,
    classify_changes, to_openapi_3_0,
};
pub use service::OpenApiService;
