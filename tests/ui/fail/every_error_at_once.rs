// mistakes: 3
// Several mistakes: each is reported, and the controller's other items still
// exist (no follow-on "method not found" errors from `uses_helper`).
use microversion_actix::controller;
struct C;
#[controller(api = microversion_tests::API)]
impl C {
    #[get("/")]
    #[api_version("2.1", "2.5")]
    async fn list(&self) -> &'static str { "" }

    #[get("/")]
    #[api_version("2.4")]
    async fn list(&self) -> &'static str { "" }

    #[api_version("two")]
    fn helper(&self) -> u8 { 1 }

    fn uses_helper(&self) -> u8 {
        self.helper(microversion_actix::Version::lit("2.1")).unwrap_or(0)
    }
}
fn main() {
    let _ = actix_web::App::new().service(C);
}
