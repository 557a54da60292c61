//! How a server is run, on either framework: the deployer's choices, and
//! the start-up they ask for (the store, the cap, retirement, the cap
//! file's SIGHUP reload, the metrics listener).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::{COMPUTE, Store, Version, fleet};
use microversion_core::schema::ResponseValidation;
use microversion_core::{VersionCap, discovery::PublicUrl};

/// How a server is run: the deployer's choices.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// The web framework that serves the controllers (`--framework`).
    pub framework: Framework,
    /// Serve at most this version (a rolling upgrade).
    pub cap: Option<Version>,
    /// Where links point: a fixed public URL, the request's `Host`
    /// (the default), or the forwarded headers of trusted proxies.
    pub public_url: PublicUrl,
    /// How long a request head may take to arrive ([`REQUEST_HEAD_TIMEOUT`]
    /// unless set).
    pub head_timeout: Option<Duration>,
    /// How long a request body may take to arrive (30 s unless set).
    pub body_timeout: Option<Duration>,
    /// The database: a `postgres://` URL (what the nodes of a fleet share)
    /// or a SQLite file (one node's); a private one in memory unless set.
    pub database: Option<String>,
    /// A file holding the cap (`2.60`, or `2.96 at 2026-12-01T12:00:00Z`),
    /// read at start-up, where it wins over `cap`, and again on SIGHUP.
    pub cap_file: Option<PathBuf>,
    /// Retire the versions below this one (their sunset must have passed).
    pub retire_below: Option<Version>,
    /// Where to serve `GET /metrics` in Prometheus text, if anywhere.
    pub metrics_listen: Option<SocketAddr>,
    /// Whether answers are checked against their declared schemas
    /// (Nova's `response_validation`); tests run with `Error`.
    pub response_validation: ResponseValidation,
    /// Pin each client token to a version (`token_pins`).
    pub pin_versions: bool,
    /// The most keypairs a user holds (Nova's `[quota] key_pairs`):
    /// [`KEYPAIR_QUOTA`](crate::KEYPAIR_QUOTA) unless set, `-1` for no limit.
    pub keypair_quota: Option<i64>,
}

impl Settings {
    /// A test's settings: the served maximum capped at `cap`, and every
    /// answer checked against its declared schema (a wrong one answers 500
    /// and fails the test).
    pub fn checked(framework: Framework, cap: Option<Version>) -> Settings {
        Settings { framework, cap, response_validation: ResponseValidation::Error, ..Settings::default() }
    }
}

/// The web framework a server is served by: the one controller source
/// registered with either facade.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Framework {
    /// actix-web ([`on_actix`](crate::on_actix)), the default.
    #[default]
    Actix,
    /// axum ([`on_axum`](crate::on_axum)).
    Axum,
}

impl Framework {
    /// Both, as the suites run on each.
    pub const ALL: [Framework; 2] = [Framework::Actix, Framework::Axum];

    /// Its name on the command line: `actix`, `axum`.
    pub const fn name(self) -> &'static str {
        match self {
            Framework::Actix => "actix",
            Framework::Axum => "axum",
        }
    }
}

impl std::str::FromStr for Framework {
    type Err = String;

    fn from_str(name: &str) -> Result<Framework, String> {
        Framework::ALL
            .into_iter()
            .find(|framework| framework.name() == name)
            .ok_or_else(|| format!("{name:?} is not a framework: actix or axum"))
    }
}

/// How long a connection may take to send a request head: its first, then
/// 408 and close, on both facades; on axum every later one too, which also
/// closes a connection kept alive and idle that long (hyper's header read
/// timeout).
pub const REQUEST_HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// How long an idle keep-alive connection is kept (actix).
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);
/// How long a closing connection may take to read the last response (actix).
pub const DISCONNECT_TIMEOUT: Duration = Duration::from_secs(2);
/// How long a server told to stop (SIGTERM, SIGINT) lets the requests in
/// flight finish before it exits; it takes no new connection meanwhile.
pub const SHUTDOWN_TIMEOUT: Duration = Duration::from_secs(30);
/// Connections served at once (per worker on actix, in all on axum); more
/// wait in the backlog.
pub const MAX_CONNECTIONS: usize = 10_000;

/// What `settings` ask for before serving: the store opened, the API capped
/// and retired as asked, the cap file read and reloaded on SIGHUP. Call it
/// inside the server's runtime; each facade's module serves the metrics.
pub(crate) async fn start(settings: &Settings) -> std::io::Result<(Arc<Store>, VersionCap)> {
    let database = settings.database.as_deref().unwrap_or(":memory:");
    let store = Store::open(database).await.map_err(|e| {
        std::io::Error::other(format!(
            "cannot open the database {}: {e}",
            crate::database::redacted(database)
        ))
    })?;
    let store = store.with_keypair_quota(match settings.keypair_quota {
        None => Some(crate::KEYPAIR_QUOTA),
        Some(quota) => u64::try_from(quota).ok(),
    });
    let mut api = match settings.cap {
        Some(cap) => COMPUTE.capped_at(cap).map_err(std::io::Error::other)?,
        None => COMPUTE,
    };
    if let Some(below) = settings.retire_below {
        api = api.retire_below(below).map_err(std::io::Error::other)?;
    }
    let version_cap = VersionCap::new(&api);
    if let Some(path) = &settings.cap_file {
        fleet::reload_cap(path, &version_cap).map_err(std::io::Error::other)?;
        fleet::reload_on_hangup(path.clone(), version_cap.clone())?;
    }
    Ok((Arc::new(store), version_cap))
}
