// mistakes: 1
use microversion_actix::controller;
use serde_json::{Value, json};
fn create() -> Value { json!({}) }
struct C;
#[controller(api = microversion_tests::API)]
impl C {
    #[post("/")]
    #[api_version("2.1")]
    #[schema(create, "2.1")]
    async fn create(&self, body: actix_web::web::Json<Value>) -> String { body.to_string() }
}
fn main() {}
