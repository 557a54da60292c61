// mistakes: 1
// A typo in a hand-written history: one error, at the entry.
use microversion_actix::{Api, Microversion};

const VOLUME: Api = Api::new("volume", &[Microversion::new("3.0", "a"), Microversion::new("3.O", "b")]);

fn main() {
    let _ = VOLUME;
}
