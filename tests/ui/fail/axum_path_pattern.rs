// mistakes: 1
// An axum controller with an actix-only path pattern.
use microversion_axum::{Api, Microversion, controller};

const VOLUME: Api = Api::new("volume", &[Microversion::new("3.0", "a"), Microversion::new("3.1", "b")]);

struct Volumes;

#[controller(api = VOLUME, axum)]
impl Volumes {
    #[get("/volumes/{id:\\d+}")]
    async fn show(&self) -> &'static str {
        "a volume"
    }
}

fn main() {
    let _: axum::Router = axum::Router::new().merge(Volumes);
}
