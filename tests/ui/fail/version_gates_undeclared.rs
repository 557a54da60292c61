// mistakes: 2
// A behaviour begins at a version the API does not declare, another at a
// malformed one: one error each, on its literal.
use microversion_actix::version::version_gates;
use microversion_actix::{Api, Microversion};

const PLACEMENT: Api = Api::new("placement", &[Microversion::new("1.0", "a"), Microversion::new("1.22", "b")]);

version_gates! {
    struct Syntax for PLACEMENT {
        forbidden_traits: "1.22",
        repeated_member_of: "1.24",
        any_trait: "1.2x",
    }
}

fn main() {
    let _ = Syntax::at(microversion_actix::Version::lit("1.22")).forbidden_traits;
}
