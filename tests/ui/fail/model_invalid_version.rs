// mistakes: 1
use microversion_actix::VersionedModel;
#[derive(VersionedModel)]
struct View {
    #[versioned(since = "2.01")]
    description: Option<String>,
}
fn main() {}
