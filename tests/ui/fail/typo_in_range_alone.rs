// mistakes: 1
// A typo in a range literal, among other variants: one error, no overlaps
// that follow from it, and no unused-import warnings.
use actix_web::web::Path;
use microversion_actix::{Api, Microversion, controller};

const VOLUME: Api = Api::new("volume", &[
    Microversion::new("3.0", "a"), Microversion::new("3.3", "b"), Microversion::new("3.6", "c"),
]);

struct Volumes;

#[controller(api = VOLUME)]
impl Volumes {
    #[get("/volumes/{id}")]
    #[api_version("3.0", "3.2")]
    async fn show(&self, id: Path<u32>) -> String {
        id.to_string()
    }

    #[get("/volumes/{id}")]
    #[api_version("3.O")]
    async fn show(&self, id: Path<u32>) -> String {
        id.to_string()
    }
}

fn main() {
    let _ = actix_web::App::new().service(Volumes);
}
