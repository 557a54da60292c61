// mistakes: 5
use microversion_actix::controller;
struct C;
#[controller(api = microversion_tests::API)]
impl C {
    #[get("/a")]
    #[api_version("2.1", "2.4")]
    #[deprecated_from("2.5", since = "2026-01-01")]
    async fn outside(&self) -> &'static str { "" }

    #[get("/b")]
    #[api_version("2.1")]
    #[deprecated_from("2.3", since = "2026-02-30", colour = "red")]
    async fn bad_date(&self) -> &'static str { "" }

    #[get("/c")]
    #[api_version("2.1")]
    #[deprecated_from("2.3", since = "2026-07-01", sunset = "2026-01-01")]
    async fn sunset_first(&self) -> &'static str { "" }

    #[api_version("2.1")]
    #[deprecated_from("2.2", since = "2026-01-01")]
    fn helper(&self) -> u8 { 1 }
}
fn main() {}
