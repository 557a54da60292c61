// `crate = "..."` re-routes the runtime path, for crates that re-export the facade.
mod reexport {
    pub use microversion_actix as mv;
}

struct Flavors;

#[microversion_actix::controller(api = microversion_tests::API, crate = "crate::reexport::mv")]
impl Flavors {
    #[get("/flavors")]
    #[api_version("2.1")]
    async fn list(&self) -> &'static str {
        "[]"
    }
}

fn main() {
    let _ = actix_web::App::new().service(Flavors);
}
