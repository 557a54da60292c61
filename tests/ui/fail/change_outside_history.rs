// mistakes: 1
use microversion_actix::version_change;

/// Servers have tags.
#[version_change(api = microversion_tests::API, "2.99")]
struct ServerTags;

fn main() {}
