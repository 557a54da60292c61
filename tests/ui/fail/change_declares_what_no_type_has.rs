// mistakes: 2
use microversion_actix::version_change;

struct Server {
    name: String,
}

enum Power {
    On,
}

/// Servers' `title` is their `name`; they can be suspended.
#[version_change(
    api = microversion_tests::API,
    "2.5",
    field(Server::title, renamed_from = "name"),
    member(Power::Suspended, didnt_exist)
)]
struct Renamed;

fn main() {
    let _ = (Server { name: String::new() }.name, Power::On);
}
