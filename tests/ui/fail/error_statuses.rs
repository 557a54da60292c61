// mistakes: 4
// #[errors] lists error statuses (400 to 599), each once, on a route.
use microversion_actix::controller;
struct C;
#[controller(api = microversion_tests::API)]
impl C {
    #[get("/a")]
    #[errors(200, 404)]
    async fn show(&self) -> &'static str { "" }

    #[get("/b")]
    #[errors(404, 404)]
    async fn list(&self) -> &'static str { "" }

    #[delete("/c")]
    #[errors()]
    async fn delete(&self) -> &'static str { "" }

    #[api_version("2.1")]
    #[errors(404)]
    fn helper(&self) -> u32 { 1 }
}
fn main() {}
