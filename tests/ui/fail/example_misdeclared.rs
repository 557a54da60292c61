// mistakes: 2
use microversion_actix::controller;
use microversion_actix::portable::Json;

struct Flavors;

#[controller(api = microversion_tests::API)]
impl Flavors {
    #[get("/flavors/{id}")]
    #[api_version("2.3")]
    // Before the variant's first version.
    #[example("2.1", path = "/flavors/1", response = "api_samples/show.json")]
    // No path to send it to.
    #[example("2.5", response = "api_samples/show.json")]
    async fn show(&self) -> Json<String> {
        Json(String::new())
    }
}

fn main() {}
