// Behaviours gathered by the version they begin at, read at a version.
use microversion_actix::version::version_gates;
use microversion_actix::{Api, Microversion, Version};

const PLACEMENT: Api = Api::new("placement", &[Microversion::new("1.0", "a"), Microversion::new("1.22", "b")]);

version_gates! {
    /// Documented, derived, public.
    #[derive(Clone, Copy, Debug)]
    pub struct Syntax for PLACEMENT {
        /// A field's doc.
        pub forbidden_traits: "1.22",
        any_traits: "1.0",
    }
}

fn main() {
    let syntax = Syntax::at(Version::lit("1.0"));
    assert!(!syntax.forbidden_traits && syntax.any_traits);
}
