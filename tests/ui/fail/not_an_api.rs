// mistakes: 1
use microversion_actix::controller;
const NOT_AN_API: &str = "compute";
struct C;
#[controller(api = NOT_AN_API)]
impl C {
    #[get("/")]
    #[api_version("2.1")]
    async fn list(&self) -> &'static str { "" }
}
fn main() {}
