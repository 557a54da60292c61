// `#[deprecated_from]` on a route's variant, with every field.
use actix_web::web;
use microversion_actix::controller;
struct Servers;
#[controller(api = microversion_tests::API)]
impl Servers {
    #[get("/servers/{id}")]
    #[api_version("2.1", "2.4")]
    async fn show(&self, id: web::Path<u32>) -> String {
        id.to_string()
    }

    #[get("/servers/{id}")]
    #[api_version("2.5")]
    #[deprecated_from(
        "2.8",
        since = "2026-01-01",
        sunset = "2027-01-01T00:00:00Z",
        link = "https://docs.example/servers",
        sunset_link = "https://docs.example/sunset"
    )]
    async fn show(&self, id: web::Path<u32>) -> String {
        format!("server {id}")
    }
}
fn main() {}
