// mistakes: 1
use microversion_actix::controller;
use serde_json::{Value, json};
fn a() -> Value { json!({}) }
struct C;
#[controller(api = microversion_tests::API)]
impl C {
    #[put("/")]
    #[api_version("2.1", "2.4")]
    #[schema(a, "2.3", "2.8")]
    async fn update(&self) -> &'static str { "" }
}
fn main() {}
