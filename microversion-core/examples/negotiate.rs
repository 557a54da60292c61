//! Negotiates one `OpenStack-API-Version` value against a small compute API
//! and prints the outcome: `cargo run -p microversion-core --example negotiate -- "compute 2.2"`.

use microversion_core::{Api, Microversion, header::ResponseHeaders};

const COMPUTE: Api = Api::new(
    "compute",
    &[
        Microversion::new("2.1", "Initial version."),
        Microversion::new("2.2", "Keypairs gain a type."),
        Microversion::new("2.3", "Servers show extended attributes."),
    ],
)
.with_legacy_headers(&["X-OpenStack-Nova-API-Version"]);

fn main() {
    let value = std::env::args().nth(1).unwrap_or_default();
    match COMPUTE.negotiate([("OpenStack-API-Version", value.as_str())]) {
        Ok(got) => {
            println!("200: served at {} ({:?})", got.version, got.source);
            let headers = ResponseHeaders::new(&COMPUTE);
            for (name, value) in headers.for_version(got.version).into_iter().flatten() {
                println!("{name}: {value}");
            }
            println!("Vary: {}", headers.vary());
        }
        Err(err) => println!("{}: {err}", err.status()),
    }
}
