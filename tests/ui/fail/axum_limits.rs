// mistakes: 2
// An axum controller with a versioned schema (not on axum yet) and an
// actix-only path pattern.
use microversion_axum::{Api, Microversion, controller};
use serde_json::{Value, json};

const VOLUME: Api = Api::new("volume", &[Microversion::new("3.0", "a"), Microversion::new("3.1", "b")]);

fn create_schema() -> Value {
    json!({"type": "object"})
}

struct Volumes;

#[controller(api = VOLUME, axum)]
impl Volumes {
    #[post("/volumes")]
    #[api_version("3.0")]
    #[schema(create_schema, "3.0")]
    async fn create(&self) -> &'static str {
        "created"
    }

    #[get("/volumes/{id:\\d+}")]
    async fn show(&self) -> &'static str {
        "a volume"
    }
}

fn main() {
    let _: axum::Router = axum::Router::new().merge(Volumes);
}
