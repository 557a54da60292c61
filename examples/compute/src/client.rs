//! The compute API's typed client (docs/20-typed-clients.md): generated
//! from the same controllers the server serves (`#[controller(client)]`),
//! sent through [`HttpClient`], which settles on the highest version both
//! the server (its cap included) and this build serve.
//!
//! ```no_run
//! use compute::client::{Flavors, HttpClient};
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let compute = HttpClient::discover("http://127.0.0.1:8774/v2.1", &compute::COMPUTE).await?;
//! let flavor = Flavors::client(&compute).show("1".to_owned()).await?;
//! println!("{} at {}", flavor.json()["flavor"]["name"], compute.version());
//! # Ok(()) }
//! ```

pub use crate::flavor_access::{FlavorAccess, FlavorAccessClient};
pub use crate::flavors::{
    ExtraSpecs, FlavorCreate, FlavorDescription, FlavorDetails, FlavorExtraSpecs, FlavorExtraSpecsClient,
    FlavorList, FlavorSummary, FlavorUpdate, FlavorView, Flavors, FlavorsClient, NewFlavor, OneFlavor,
    Scalar,
};
pub use crate::keypairs::{CreateBody, Keypairs, KeypairsClient, NewKeypair};
pub use crate::store::KeyType;
pub use microversion_client::{ConnectError, HttpClient};
pub use microversion_core::client::typed_client::{AtVersion, CallError, Refusal, Rendered, Transport};
