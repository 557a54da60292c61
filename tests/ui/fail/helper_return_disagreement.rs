// mistakes: 1
// Helper variants that return different types: one error, at the type.
use microversion_actix::controller;
struct C;
#[controller(api = microversion_tests::API)]
impl C {
    #[api_version("2.1", "2.4")]
    fn view(&self, id: u32) -> String { id.to_string() }

    #[api_version("2.5")]
    fn view(&self, id: u32) -> Vec<u8> { id.to_be_bytes().to_vec() }
}
fn main() {}
