// mistakes: 1
// A handler argument whose type is not an extractor.
use actix_web::web;
use microversion_actix::{Api, Microversion, controller};

const VOLUME: Api = Api::new("volume", &[Microversion::new("3.0", "a"), Microversion::new("3.1", "b")]);

struct Volumes;

#[controller(api = VOLUME)]
impl Volumes {
    #[post("/volumes/{id}")]
    async fn create(&self, id: web::Path<u32>, body: serde_json::Value) -> String {
        format!("{id} {body}")
    }
}

fn main() {
    let _ = actix_web::App::new().service(Volumes);
}
