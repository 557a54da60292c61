// mistakes: 1
// A helper without gaps returns its value directly, so it must start at the
// API's minimum; this one starts at 2.5 while the API starts at 2.1.
use microversion_actix::controller;
struct C;
#[controller(api = microversion_tests::API)]
impl C {
    #[api_version("2.5", "2.8")]
    fn describe(&self) -> u8 { 1 }

    #[api_version("2.9")]
    fn describe(&self) -> u8 { 2 }
}
fn main() {}
