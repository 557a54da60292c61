// mistakes: 1
// A variant without `&self` that uses `self`.
use microversion_actix::{Api, Microversion, controller};

const VOLUME: Api = Api::new("volume", &[Microversion::new("3.0", "a"), Microversion::new("3.1", "b")]);

struct Volumes {
    name: String,
}

#[controller(api = VOLUME)]
impl Volumes {
    #[get("/volumes")]
    #[api_version("3.0", "3.0")]
    async fn list(&self) -> String {
        self.name.clone()
    }

    #[get("/volumes")]
    #[api_version("3.1")]
    async fn list() -> String {
        self.name.clone()
    }
}

fn main() {
    let _ = actix_web::App::new().service(Volumes { name: String::new() });
}
