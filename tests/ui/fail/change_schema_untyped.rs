// mistakes: 1
use microversion_actix::portable::Json;
use microversion_actix::{Upgrade, controller, version_change};

/// Servers have a description.
#[version_change(api = microversion_tests::API, "2.5")]
struct Described;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct NewServer {
    name: String,
    description: String,
}

/// Before 2.5: no description, and no JSON Schema derived.
#[derive(serde::Deserialize)]
struct NewServerV2_4 {
    name: String,
}

impl Upgrade<Json<NewServer>> for Described {
    type Before = Json<NewServerV2_4>;
    fn upgrade(Json(s): Json<NewServerV2_4>) -> Result<Json<NewServer>, microversion_actix::portable::ApiError> {
        Ok(Json(NewServer { name: s.name, description: String::new() }))
    }
}

struct Servers;

#[controller(api = microversion_tests::API)]
impl Servers {
    #[post("/servers")]
    #[api_version("2.1")]
    #[schema(json_schema = NewServer)]
    #[change(Described, body)]
    async fn create(&self, body: Json<NewServer>) -> Json<String> {
        Json(body.0.name)
    }
}

fn main() {}
