//! The loopback load server of `scripts/load.sh`: the same handlers mounted
//! plain (`/plain/servers/{id}`) and through the framework
//! (`/v2.1/servers/{id}`, middleware + negotiation + `#[controller]`), on
//! 127.0.0.1 only, on a free port it prints as `listening on 127.0.0.1:PORT`.
//!
//! `load_server [--workers N] [--port P] [--max-seconds S]`: one worker by
//! default (the load generator needs the other core); the server exits by
//! itself after `S` seconds (600 by default) in case the script dies.

use std::io::Write as _;
use std::time::Duration;

use actix_web::{App, HttpServer};
use microversion_benches::server::configure;

struct Options {
    workers: usize,
    port: u16,
    max_seconds: u64,
}

fn options() -> Result<Options, String> {
    let mut options = Options { workers: 1, port: 0, max_seconds: 600 };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let bad = |e: std::num::ParseIntError| format!("{flag} {value}: {e}");
        match flag.as_str() {
            "--workers" => options.workers = value.parse().map_err(bad)?,
            "--port" => options.port = value.parse().map_err(bad)?,
            "--max-seconds" => options.max_seconds = value.parse().map_err(bad)?,
            other => return Err(format!("unknown option {other}")),
        }
    }
    Ok(options)
}

fn main() -> std::io::Result<()> {
    let options = match options() {
        Ok(options) => options,
        Err(e) => {
            eprintln!("load_server: {e}\nusage: load_server [--workers N] [--port P] [--max-seconds S]");
            std::process::exit(2);
        }
    };
    let lifetime = Duration::from_secs(options.max_seconds);
    std::thread::spawn(move || {
        std::thread::sleep(lifetime);
        eprintln!("load_server: {}s elapsed, exiting", lifetime.as_secs());
        std::process::exit(0);
    });
    actix_web::rt::System::new().block_on(async move {
        let server = HttpServer::new(|| App::new().configure(configure))
            .workers(options.workers)
            .bind(("127.0.0.1", options.port))?;
        for addr in server.addrs() {
            println!("listening on {addr}");
        }
        std::io::stdout().flush()?;
        server.run().await
    })
}
