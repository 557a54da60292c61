// mistakes: 1
// A route variant whose return type is not a Responder.
use microversion_actix::{Api, Microversion, controller};

const VOLUME: Api = Api::new("volume", &[Microversion::new("3.0", "a")]);

struct Volume {
    size: u32,
}

struct Volumes;

#[controller(api = VOLUME)]
impl Volumes {
    #[get("/volumes/{id}")]
    async fn show(&self) -> Volume {
        Volume { size: 1 }
    }
}

fn main() {
    let _ = actix_web::App::new().service(Volumes);
}
