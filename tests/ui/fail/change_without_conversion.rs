// mistakes: 1
use microversion_actix::portable::Json;
use microversion_actix::{controller, version_change};

/// Servers have a description.
#[version_change(api = microversion_tests::API, "2.5")]
struct Described;

struct Servers;

#[controller(api = microversion_tests::API)]
impl Servers {
    #[post("/servers")]
    #[api_version("2.1")]
    #[change(Described, body)]
    async fn create(&self, body: Json<String>) -> Json<String> {
        body
    }
}

fn main() {}
