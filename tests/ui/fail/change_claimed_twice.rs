// mistakes: 1
use microversion_actix::portable::Json;
use microversion_actix::{Downgrade, controller, version_change};

#[derive(serde::Serialize)]
struct Server {
    name: String,
    description: String,
}

/// Servers have a description.
#[version_change(api = microversion_tests::API, "2.5", field(Server::description, didnt_exist))]
struct Described;

/// Servers have a description, said a second time.
#[version_change(api = microversion_tests::API, "2.7", field(Server::description, didnt_exist))]
struct DescribedAgain;

impl Downgrade<Json<Server>> for Described {
    type Before = Json<Server>;
    fn downgrade(after: Json<Server>) -> Json<Server> {
        after
    }
}

impl Downgrade<Json<Server>> for DescribedAgain {
    type Before = Json<Server>;
    fn downgrade(after: Json<Server>) -> Json<Server> {
        after
    }
}

struct Servers;

#[controller(api = microversion_tests::API)]
impl Servers {
    #[get("/servers/{id}")]
    #[api_version("2.1")]
    #[change(Described, answer)]
    async fn show(&self) -> Json<Server> {
        Json(Server { name: "a".into(), description: String::new() })
    }

    #[get("/servers")]
    #[api_version("2.1")]
    #[change(DescribedAgain, answer)]
    async fn list(&self) -> Json<Server> {
        Json(Server { name: "a".into(), description: String::new() })
    }
}

fn main() {}
