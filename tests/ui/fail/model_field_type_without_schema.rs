// mistakes: 1
use microversion_actix::VersionedModel;
#[derive(serde::Serialize, serde::Deserialize)]
struct Colour(u8);
#[derive(VersionedModel)]
struct View {
    colour: Colour,
}
fn main() {}
