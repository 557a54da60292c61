//! The compute example server:
//! `cargo run --example compute [-- --listen HOST:PORT] [--cap X.Y]`.

use std::net::TcpListener;

use microversion_actix::Version;

const DEFAULT_LISTEN: &str = "127.0.0.1:8774";
const USAGE: &str = "usage: compute [--listen HOST:PORT] [--cap X.Y]
  --listen  address to serve on (default 127.0.0.1:8774)
  --cap     serve at most this version, below the compiled maximum (rolling upgrades)";

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let mut listen = DEFAULT_LISTEN.to_owned();
    let mut cap = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--listen" => listen = args.next().ok_or_else(|| usage("--listen needs HOST:PORT"))?,
            "--cap" => {
                let text = args.next().ok_or_else(|| usage("--cap needs a version such as 2.60"))?;
                let version: Version = text.parse().map_err(|e| usage(&format!("--cap {text:?}: {e}")))?;
                compute::COMPUTE.capped_at(version).map_err(|e| usage(&e.to_string()))?;
                cap = Some(version);
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            other => return Err(usage(&format!("unknown argument {other:?}"))),
        }
    }
    let listener = TcpListener::bind(&listen)?;
    let url = format!("http://{}", listener.local_addr()?);
    println!("compute API listening on {url}");
    println!("try:");
    println!("  curl -s {url}/");
    println!("  curl -s -H 'OpenStack-API-Version: compute 2.61' {url}/v2.1/flavors/detail");
    println!("  curl -s -i -H 'OpenStack-API-Version: compute 3.0' {url}/v2.1/flavors");
    if let Some(cap) = cap {
        println!("serving at most version {cap} (compiled maximum {})", compute::COMPUTE.compiled_max());
    }
    actix_web::rt::System::new().block_on(async move { compute::server(listener, cap)?.await })
}

fn usage(message: &str) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("{message}\n{USAGE}"))
}
