// mistakes: 1
use microversion_actix::portable::{ApiError, Json};
use microversion_actix::{Upgrade, controller, version_change};

/// Servers have a description.
#[version_change(api = microversion_tests::API, "2.5")]
struct Described;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct NewServer {
    name: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Unrelated {
    id: u32,
}

impl Upgrade<Json<NewServer>> for Described {
    type Before = Json<NewServer>;
    fn upgrade(before: Json<NewServer>) -> Result<Json<NewServer>, ApiError> {
        Ok(before)
    }
}

struct Servers;

#[controller(api = microversion_tests::API)]
impl Servers {
    #[post("/servers")]
    #[api_version("2.1")]
    #[schema(json_schema = Unrelated)]
    #[change(Described, body)]
    async fn create(&self, body: Json<NewServer>) -> Json<String> {
        Json(body.0.name)
    }
}

fn main() {}
