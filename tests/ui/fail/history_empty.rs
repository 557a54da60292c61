// mistakes: 1
// An empty version history.
use microversion_actix::{Api, history};

const VOLUME: Api = Api::new("volume", history![]);

fn main() {
    let _ = VOLUME;
}
