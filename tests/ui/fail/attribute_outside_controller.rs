// mistakes: 2
use microversion_actix::{api_version, schema};
struct C;
impl C {
    #[api_version("2.1")]
    fn list(&self) {}

    #[schema(create, "2.1")]
    fn create(&self) {}
}
fn main() {}
