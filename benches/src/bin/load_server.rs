//! The loopback load server of `scripts/load.sh` and `scripts/instructions.sh`:
//! the same handlers mounted plain (`/plain/servers/{id}`), through the
//! framework (`/v2.1/servers/{id}`, middleware + negotiation +
//! `#[controller]`), with the framework's contract written by hand
//! (`/hand/servers/{id}`) and with the contract's least cost
//! (`/floor/servers/{id}`; the floor behind a layer that adds nothing at
//! `/layered/servers/{id}`, on the floor's port), each side an app of its own on its own port, so that
//! neither side's requests are first matched against the other's routes. On
//! 127.0.0.1 only, on free ports it prints as
//! `listening on 127.0.0.1:PORT for /plain` and `... for /v2.1`.
//!
//! `load_server [--workers N] [--max-seconds S]`: one worker per side by
//! default (the load generator needs the other core; sides are loaded one at
//! a time); the server exits by itself after `S` seconds (600 by default) in
//! case the script dies.

use std::io::Write as _;
use std::time::Duration;

use actix_web::{App, HttpServer};
use microversion_benches::server::{
    COMPUTE, configure_floor, configure_hand, configure_plain, configure_versioned,
};

struct Options {
    workers: usize,
    max_seconds: u64,
}

fn options() -> Result<Options, String> {
    let mut options = Options { workers: 1, max_seconds: 600 };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let bad = |e: std::num::ParseIntError| format!("{flag} {value}: {e}");
        match flag.as_str() {
            "--workers" => options.workers = value.parse().map_err(bad)?,
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
            eprintln!("load_server: {e}\nusage: load_server [--workers N] [--max-seconds S]");
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
        let plain = HttpServer::new(|| App::new().configure(configure_plain))
            .workers(options.workers)
            .bind(("127.0.0.1", 0))?;
        let versioned = HttpServer::new(|| App::new().configure(configure_versioned(COMPUTE)))
            .workers(options.workers)
            .bind(("127.0.0.1", 0))?;
        let hand = HttpServer::new(|| App::new().configure(configure_hand))
            .workers(options.workers)
            .bind(("127.0.0.1", 0))?;
        let floor = HttpServer::new(|| App::new().configure(configure_floor))
            .workers(options.workers)
            .bind(("127.0.0.1", 0))?;
        for (addrs, prefix) in [
            (plain.addrs(), "/plain"),
            (versioned.addrs(), "/v2.1"),
            (hand.addrs(), "/hand"),
            (floor.addrs(), "/floor"),
            (floor.addrs(), "/layered"),
        ] {
            for addr in addrs {
                println!("listening on {addr} for {prefix}");
            }
        }
        std::io::stdout().flush()?;
        // Each stops on SIGINT; main returns once all have.
        let plain = actix_web::rt::spawn(plain.run());
        let hand = actix_web::rt::spawn(hand.run());
        let floor = actix_web::rt::spawn(floor.run());
        versioned.run().await?;
        plain.await.map_err(std::io::Error::other)??;
        floor.await.map_err(std::io::Error::other)??;
        hand.await.map_err(std::io::Error::other)?
    })
}
