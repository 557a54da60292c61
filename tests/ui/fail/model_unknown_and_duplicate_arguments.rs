// mistakes: 3
use microversion_actix::VersionedModel;
#[derive(VersionedModel)]
#[versioned(colour = "red")]
struct View {
    #[versioned(since = "2.1", since = "2.2")]
    a: Option<String>,
    #[versioned(sinse = "2.1")]
    b: Option<String>,
}
fn main() {}
