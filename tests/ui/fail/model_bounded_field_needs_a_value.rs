// mistakes: 1
use microversion_actix::VersionedModel;
#[derive(VersionedModel)]
struct View {
    #[versioned(since = "2.55")]
    description: String,
}
fn main() {}
