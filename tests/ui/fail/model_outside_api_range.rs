// mistakes: 1
use microversion_actix::VersionedModel;
#[derive(VersionedModel)]
#[versioned(api = microversion_tests::API)]
struct View {
    #[versioned(since = "2.99")]
    description: Option<String>,
}
fn main() {}
