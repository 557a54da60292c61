// mistakes: 2
use microversion_actix::controller;
use serde_json::{Value, json};
fn a() -> Value { json!({}) }
fn b() -> Value { json!({}) }
struct C;
#[controller(api = microversion_tests::API)]
impl C {
    #[put("/")]
    #[api_version("2.1")]
    #[schema(a, "2.3", "2.8")]
    #[schema(b, "2.8")]
    async fn update(&self) -> &'static str { "" }
}
fn main() {}
