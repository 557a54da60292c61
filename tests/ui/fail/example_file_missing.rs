// mistakes: 1
use microversion_actix::controller;
use microversion_actix::portable::Json;

struct Flavors;

#[controller(api = microversion_tests::API)]
impl Flavors {
    #[get("/flavors/{id}")]
    #[api_version("2.3")]
    #[example("2.3", path = "/flavors/1", response = "api_samples/no-such-example.json")]
    async fn show(&self) -> Json<String> {
        Json(String::new())
    }
}

fn main() {}
