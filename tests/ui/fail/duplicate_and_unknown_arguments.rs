// mistakes: 4
use microversion_actix::controller;
struct C;
#[controller(api = microversion_tests::API, scope = "/a", scope = "/b", colour = "red")]
impl C {
    #[get("/")]
    #[api_version("2.1", missing = 405, missing = 404)]
    async fn list(&self) -> &'static str { "" }

    #[get("/x")]
    #[api_version("2.1", colour = 1)]
    async fn show(&self) -> &'static str { "" }
}
fn main() {}
