// mistakes: 1
// An axum handler argument whose type is not an extractor.
use axum::extract::Path;
use microversion_axum::{Api, Microversion, controller};

const VOLUME: Api = Api::new("volume", &[Microversion::new("3.0", "a"), Microversion::new("3.1", "b")]);

struct Volumes;

#[controller(api = VOLUME, axum)]
impl Volumes {
    #[post("/volumes/{id}")]
    async fn create(&self, id: Path<u32>, body: serde_json::Value) -> String {
        format!("{} {body}", id.0)
    }
}

fn main() {
    let _: axum::Router = axum::Router::new().merge(Volumes);
}
