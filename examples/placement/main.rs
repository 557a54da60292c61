//! The placement example server:
//! `cargo run --example placement -- --listen HOST:PORT --database PATH|URL`.

use std::net::TcpListener;

/// The candidates search builds and drops tens of thousands of small
/// values per request (rows, names, sets): glibc's `malloc` and `free`
/// were a third of its instructions, mimalloc's are a seventh of fewer
/// (docs/16-placement.md, "What the perfload query costs").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const USAGE: &str = "usage: placement [--listen HOST:PORT] [--database PATH|URL] [--request-deadline SECONDS]
                 [--cloud-copy-providers N]
  --listen            address to serve on (default 127.0.0.1:8778)
  --database          a SQLite file, created on first start (default placement.sqlite),
                      or a PostgreSQL URL, postgres://USER[:PASSWORD]@HOST[:PORT]/DBNAME
  --request-deadline  how long a request may take, counted from the proxy's X-Request-Start
                      when it sends one (default 5); keep it below the proxy's read timeout
  --cloud-copy-providers
                      the most providers of which a node keeps the candidates search's copy of
                      the whole cloud (default: no limit; about 550 bytes a provider); past it,
                      a search that reaches most of the cloud reads the tables (the same answers)";

pub(crate) fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let mut listen = "127.0.0.1:8778".to_owned();
    let mut database = "placement.sqlite".to_owned();
    let mut deadline = placement::deadline::DEFAULT;
    let mut cloud_cap = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--listen" => listen = args.next().ok_or_else(|| usage("--listen needs HOST:PORT"))?,
            "--database" => {
                database = args.next().ok_or_else(|| usage("--database needs a path or a URL"))?
            }
            "--request-deadline" => {
                let seconds = args.next().ok_or_else(|| usage("--request-deadline needs SECONDS"))?;
                deadline = seconds
                    .parse::<f64>()
                    .ok()
                    .filter(|s| *s > 0.0)
                    .and_then(|s| std::time::Duration::try_from_secs_f64(s).ok())
                    .ok_or_else(|| usage("--request-deadline needs a positive number of SECONDS"))?;
            }
            "--cloud-copy-providers" => {
                let providers = args.next().ok_or_else(|| usage("--cloud-copy-providers needs N"))?;
                cloud_cap = Some(
                    providers
                        .parse::<usize>()
                        .map_err(|_| usage("--cloud-copy-providers needs a number of providers"))?,
                );
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
    println!("placement API listening on {url} (database {})", placement::redacted(&database));
    println!("try:");
    println!("  curl -s {url}/");
    println!("  curl -s -H 'OpenStack-API-Version: placement 1.39' {url}/resource_providers");
    actix_web::rt::System::new().block_on(async move {
        let store = placement::Store::open(&database).await.map_err(std::io::Error::other)?;
        let store = store.with_deadline(deadline);
        let store = match cloud_cap {
            Some(providers) => store.with_cloud_cap(providers),
            None => store,
        };
        let store = std::sync::Arc::new(store);
        // It serves at once, even while no database connection can be had
        // (a crowded server): a request that needs one waits for the store
        // within its deadline, and `GET /` needs none. A failure that does
        // not pass (a wrong password) ends the process.
        let server = placement::serve(listener, store.clone())?;
        tokio::select! {
            served = server => served,
            Err(error) = store.prepare() => Err(std::io::Error::other(error)),
        }
    })
}

fn usage(message: &str) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("{message}\n{USAGE}"))
}
