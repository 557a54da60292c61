// mistakes: 1
use microversion_actix::controller;
struct C;
#[controller(api = microversion_tests::API)]
impl C {
    #[get("/")]
    #[api_version("2.01")]
    async fn list(&self) -> &'static str { "" }
}
fn main() {}
