// mistakes: 1
use microversion_actix::controller;
struct C;
#[controller(api = microversion_tests::API)]
impl C {
    #[get("/")]
    #[api_version("2.1", "2.99")]
    async fn list(&self) -> &'static str { "" }
}
fn main() {}
