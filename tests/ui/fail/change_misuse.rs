// mistakes: 3
use microversion_actix::portable::{ApiError, Json};
use microversion_actix::{Upgrade, controller, version_change};

/// Servers have a description.
#[version_change(api = microversion_tests::API, "2.5")]
struct Described;

impl Upgrade<Json<String>> for Described {
    type Before = Json<String>;
    fn upgrade(before: Json<String>) -> Result<Json<String>, ApiError> {
        Ok(before)
    }
}

/// Servers have tags.
#[version_change(api = microversion_tests::API, "2.6")]
struct Tagged;

struct Servers;

#[controller(api = microversion_tests::API)]
impl Servers {
    #[post("/servers")]
    #[api_version("2.1")]
    #[change(Described, bdy)]
    #[change(Described, body)]
    #[change(Tagged)]
    async fn create(&self, body: Json<String>) -> Json<String> {
        body
    }
}

fn main() {}
