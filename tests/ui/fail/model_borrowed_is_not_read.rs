// mistakes: 1
// A model that borrows is rendered only: a request body cannot be read into it.
use microversion_actix::{Version, VersionedModel, model::VersionedStruct};

#[derive(VersionedModel)]
struct Summary<'a> {
    name: &'a str,
}

fn main() {
    let body = serde_json::json!({"name": "vm"});
    let _ = <Summary<'static> as VersionedStruct>::read_at(Version::new(2, 1), body, false);
}
