// mistakes: 2
use microversion_actix::controller;
struct C;
#[controller(api = microversion_tests::API)]
impl C {
    // The later-starting open range is declared first.
    #[api_version("2.10")]
    fn helper(&self) {}

    #[api_version("2.3")]
    fn helper(&self) {}
}
fn main() {}
