//! The loopback load server of `FACADE=axum scripts/instructions.sh`: the
//! API of `load_server` on axum ([`microversion_benches::axum_server`]),
//! plain (`/plain/servers/{id}`), through the framework
//! (`/v2.1/servers/{id}`), with its contract written by hand
//! (`/hand/servers/{id}`) and with the contract's least cost
//! (`/floor/servers/{id}`; the floor behind a layer that adds nothing at
//! `/layered/servers/{id}`, on the floor's port), each side a router of its own on its own port,
//! served by `microversion_axum::serve` on one thread. On 127.0.0.1 only,
//! on free ports it prints as `listening on 127.0.0.1:PORT for /plain`.
//!
//! `load_server_axum [--max-seconds S]`: the server exits by itself after
//! `S` seconds (600 by default) in case the script dies; SIGINT stops it
//! gracefully.

use std::io::Write as _;
use std::time::Duration;

use microversion_benches::axum_server::{floor, hand, plain, versioned};
use microversion_benches::server::COMPUTE;
use tokio::net::TcpListener;

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let max_seconds = match (args.next().as_deref(), args.next().map(|s| s.parse::<u64>())) {
        (None, _) => 600,
        (Some("--max-seconds"), Some(Ok(seconds))) => seconds,
        _ => {
            eprintln!("usage: load_server_axum [--max-seconds S]");
            std::process::exit(2);
        }
    };
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_secs(max_seconds));
        eprintln!("load_server_axum: {max_seconds}s elapsed, exiting");
        std::process::exit(0);
    });
    tokio::runtime::Builder::new_current_thread().enable_all().build()?.block_on(async {
        let plain_listener = TcpListener::bind("127.0.0.1:0").await?;
        let versioned_listener = TcpListener::bind("127.0.0.1:0").await?;
        println!("listening on {} for /plain", plain_listener.local_addr()?);
        let hand_listener = TcpListener::bind("127.0.0.1:0").await?;
        println!("listening on {} for /v2.1", versioned_listener.local_addr()?);
        println!("listening on {} for /hand", hand_listener.local_addr()?);
        let floor_listener = TcpListener::bind("127.0.0.1:0").await?;
        println!("listening on {} for /floor", floor_listener.local_addr()?);
        println!("listening on {} for /layered", floor_listener.local_addr()?);
        std::io::stdout().flush()?;
        // Each stops on SIGINT; main returns once all have.
        let (plain, versioned, hand, floor) = tokio::join!(
            microversion_axum::serve(plain_listener, plain()).into_future(),
            microversion_axum::serve(versioned_listener, versioned(COMPUTE)).into_future(),
            microversion_axum::serve(hand_listener, hand()).into_future(),
            microversion_axum::serve(floor_listener, floor()).into_future(),
        );
        plain.and(versioned).and(hand).and(floor)
    })
}
