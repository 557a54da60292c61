//! OpenStack-style API microversions for actix-web.

mod api_version;
mod body;
mod discovery;
mod error;
mod format;
mod middleware;
mod schema;
pub mod test;

pub use microversion_core::*;

pub use api_version::ApiVersion;
pub use body::{BodyLimit, Json, JsonBody, ParsedJson, read_json_body};
pub use discovery::Discovery;
pub use error::{ApiError, Violation};
pub use format::{ApiSigErrors, ErrorFormat, NovaFaults};
pub use middleware::{Microversions, MicroversionsService};
pub use schema::{MAX_LISTED_VIOLATIONS, Schema, SchemaError, SchemaSource, VersionedSchemas, query_to_json};
