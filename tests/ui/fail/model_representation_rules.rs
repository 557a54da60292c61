// mistakes: 2
use microversion_actix::VersionedModel;
fn old(v: &u64) -> String { v.to_string() }
#[derive(VersionedModel)]
struct View {
    #[versioned(until = "2.10", default, render(until = "2.12", with = old))]
    swap: u64,
    #[versioned(render(until = "2.5", with = old), render(since = "2.5", until = "2.6", with = old))]
    disk: u64,
}
fn main() {}
