// mistakes: 1
use microversion_actix::VersionedModel;
#[derive(VersionedModel)]
struct View {
    #[versioned(skip_none)]
    name: String,
}
fn main() {}
