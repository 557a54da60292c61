// mistakes: 3
// Mistakes in the version history itself: a typo, a version out of order,
// a version declared twice. Each is one error on its literal.
use microversion_actix::{Api, history};

const VOLUME: Api = Api::new("volume", history![
    "3.0" => "Initial version.",
    "3.O" => "Volumes show their type.",
    "3.2" => "Volumes can be extended.",
    "3.1" => "Snapshots can be listed.",
    "3.2" => "Volumes can be retyped.",
]);

fn main() {
    let _ = VOLUME;
}
