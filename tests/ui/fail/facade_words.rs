// mistakes: 3
// A facade named twice, a word that names none, `crate =` beside words.
use microversion_actix::controller;
struct A;
#[controller(api = microversion_tests::API, actix, axum, actix)]
impl A {
    #[get("/a")]
    #[api_version("2.1")]
    async fn show(&self) -> &'static str { "" }
}
struct B;
#[controller(api = microversion_tests::API, actix, axm)]
impl B {
    #[get("/b")]
    #[api_version("2.1")]
    async fn show(&self) -> &'static str { "" }
}
struct C;
#[controller(api = microversion_tests::API, axum, crate = ::microversion_actix)]
impl C {
    #[get("/c")]
    #[api_version("2.1")]
    async fn show(&self) -> &'static str { "" }
}
fn main() {
    // The good words are kept: `A` and `B` serve actix, and `A` axum too.
    let _ = actix_web::App::new().service(A).service(B).service(C);
    let _: axum::Router = axum::Router::from(A);
}
