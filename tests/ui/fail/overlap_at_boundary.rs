// mistakes: 2
use microversion_actix::controller;
struct C;
#[controller(api = microversion_tests::API)]
impl C {
    #[get("/")]
    #[api_version("2.2", "2.5")]
    async fn list(&self) -> &'static str { "" }

    #[get("/")]
    #[api_version("2.5", "2.9")]
    async fn list(&self) -> &'static str { "" }
}
fn main() {}
