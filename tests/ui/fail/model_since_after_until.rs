// mistakes: 1
use microversion_actix::VersionedModel;
#[derive(VersionedModel)]
struct View {
    #[versioned(since = "2.9", until = "2.4")]
    description: Option<String>,
}
fn main() {}
