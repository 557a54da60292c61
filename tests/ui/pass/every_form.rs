// Every supported form in one controller.
use microversion_actix::{ApiVersion, Json, controller};
use microversion_tests::API;
use serde_json::{Value, json};

struct Servers;

fn update_v3() -> Value {
    json!({"type": "object"})
}
fn update_v9() -> Value {
    json!({"type": "object", "required": ["name"]})
}

#[controller(api = API, scope = "/servers")]
impl Servers {
    #[get("/{id}")]
    #[api_version("2.1", "2.3")]
    async fn show(&self, id: actix_web::web::Path<String>) -> String {
        self.common(&id)
    }

    #[get("/{id}")]
    #[api_version("2.4", missing = 405)]
    fn show(&self, v: ApiVersion) -> String {
        v.to_string()
    }

    #[put("/{id}")]
    #[api_version("2.1")]
    #[schema(update_v3, "2.3", "2.8")]
    #[schema(update_v9, "2.9")]
    async fn update(&self, body: Json<Value>) -> Json<Value> {
        body
    }

    #[api_version("2.1", "2.4")]
    fn detail(&self, name: &str) -> String {
        name.to_owned()
    }

    #[api_version("2.5")]
    fn detail(&self, other: &str) -> String {
        other.to_uppercase()
    }

    #[api_version("2.1", "2.1")]
    async fn fetch(seed: u8) -> u8 {
        seed
    }

    #[get("")]
    async fn index() -> &'static str {
        "unversioned"
    }

    // `detail` serves every version without a gap: its value comes back directly;
    // `fetch` serves 2.1 only: an error value elsewhere.
    fn common(&self, id: &str) -> String {
        self.detail(microversion_actix::Version::lit("2.5"), id)
    }
}

fn main() {
    use microversion_actix::operation::Controller;
    assert_eq!(Servers::OPERATIONS.len(), 5);
    let _ = actix_web::App::new().service(Servers);
    let _ = Servers::fetch(microversion_actix::Version::lit("2.1"), 1);
}
