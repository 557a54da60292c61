// mistakes: 1
use microversion_actix::{JsonQuery, controller};
use serde_json::{Value, json};
fn nova_query() -> Value { json!({"type": "object"}) }
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Typed { limit: Option<u32> }
struct C;
#[controller(api = microversion_tests::API)]
impl C {
    #[get("/")]
    #[api_version("2.1")]
    #[schema(query = nova_query, "2.1", "2.4")]
    #[schema(query_json_schema = Typed, "2.5")]
    async fn list(&self, _query: JsonQuery) -> &'static str { "" }
}
fn main() {}
