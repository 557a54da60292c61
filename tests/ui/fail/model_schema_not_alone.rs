// mistakes: 1
use microversion_actix::{VersionedModel, controller};
use serde_json::{Value, json};
#[derive(VersionedModel)]
struct Body { name: String }
fn other() -> Value { json!({}) }
struct C;
#[controller(api = microversion_tests::API)]
impl C {
    #[post("/")]
    #[api_version("2.1")]
    #[schema(model = Body, "2.1", "2.4")]
    #[schema(other, "2.5")]
    async fn create(&self) -> &'static str { "" }
}
fn main() {}
