// mistakes: 5
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
    // A path that is not one.
    #[example("2.6", path = "flavors/1")]
    // Two at one version.
    #[example("2.7", path = "/flavors/1")]
    #[example("2.7", path = "/flavors/2")]
    async fn show(&self) -> Json<String> {
        Json(String::new())
    }

    // A helper answers no request to show.
    #[api_version("2.1")]
    #[example("2.1", path = "/flavors/1")]
    fn ram(&self) -> u32 {
        512
    }
}

fn main() {}
