//! The placement example server:
//! `cargo run --example placement -- --listen HOST:PORT --database PATH|URL`.

use std::net::TcpListener;

const USAGE: &str = "usage: placement [--listen HOST:PORT] [--database PATH|URL]
  --listen    address to serve on (default 127.0.0.1:8778)
  --database  a SQLite file, created on first start (default placement.sqlite),
              or a PostgreSQL URL, postgres://USER[:PASSWORD]@HOST[:PORT]/DBNAME";

pub(crate) fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let mut listen = "127.0.0.1:8778".to_owned();
    let mut database = "placement.sqlite".to_owned();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--listen" => listen = args.next().ok_or_else(|| usage("--listen needs HOST:PORT"))?,
            "--database" => {
                database = args.next().ok_or_else(|| usage("--database needs a path or a URL"))?
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
    println!("placement API listening on {url} (database {database})");
    println!("try:");
    println!("  curl -s {url}/");
    println!("  curl -s -H 'OpenStack-API-Version: placement 1.39' {url}/resource_providers");
    actix_web::rt::System::new()
        .block_on(async move { placement::server_at(listener, &database).await?.await })
}

fn usage(message: &str) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("{message}\n{USAGE}"))
}
