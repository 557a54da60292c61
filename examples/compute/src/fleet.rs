//! Running as one node of a fleet (docs/18-a-versions-life.md): the cap
//! read from a file and reloaded on SIGHUP, each client token pinned to a
//! version in the shared store, and the per-version request counts served
//! in Prometheus text apart from the API.

use std::path::Path;
use std::sync::Arc;

use microversion_core::{Api, Version, VersionCap, lifecycle::Timestamp};

use crate::Store;
use crate::web::ApiError;

/// The header a client's token comes in (keystonemiddleware's).
pub const TOKEN_HEADER: &str = "X-Auth-Token";

/// A default version per client, as Stripe pins accounts: a token's first
/// request naming no version pins it to the served maximum of the moment
/// (in the store, so that every node of a fleet and a restart agree); its
/// later requests naming none keep that version when the maximum moves.
/// A request without a token gets the API's default (2.1), as ever; one
/// naming a version gets it. Each facade's `ClientDefault` calls it with
/// the token header's value (`on_actix::token_pins`, `on_axum::token_pins`).
pub(crate) fn pinned_version(
    store: &Arc<Store>,
    cap: &VersionCap,
    token: Option<&str>,
) -> impl Future<Output = Result<Option<Version>, ApiError>> + Send + use<> {
    let token = token.map(str::trim).filter(|t| !t.is_empty()).map(str::to_owned);
    let (store, max) = (Arc::clone(store), cap.get());
    async move {
        match token {
            Some(token) => Ok(Some(store.pinned_version(&token, max).await?)),
            None => Ok(None),
        }
    }
}

/// The Prometheus recorder of the `metrics` facade, installed once per
/// process: its text is what each facade serves at `GET /metrics`.
pub(crate) fn metrics_recorder() -> std::io::Result<metrics_exporter_prometheus::PrometheusHandle> {
    metrics_exporter_prometheus::PrometheusBuilder::new()
        .install_recorder()
        .map_err(|e| std::io::Error::other(format!("cannot install the metrics recorder: {e}")))
}

/// The media type of Prometheus text.
pub(crate) const METRICS_CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// What a cap file says: a version, from now or from an instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CapChange {
    /// The new served maximum.
    pub cap: Version,
    /// When it takes effect; at once when `None`.
    pub at: Option<Timestamp>,
}

/// Reads a cap file: `X.Y`, or `X.Y at <RFC 3339 timestamp>` so that every
/// node of a fleet switches at the same instant; `#` starts a comment. The
/// version must be one `api` can be capped at (declared, not below the
/// default).
///
/// ```
/// # let dir = std::env::temp_dir().join(format!("cap-file-doc-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir).unwrap();
/// let path = dir.join("cap");
/// std::fs::write(&path, "2.96 at 2026-12-01T12:00:00Z  # all nodes upgraded\n").unwrap();
/// let change = compute::read_cap_file(&path, &compute::COMPUTE).unwrap();
/// assert_eq!(change.cap.to_string(), "2.96");
/// std::fs::write(&path, "2.97\n").unwrap();
/// assert!(compute::read_cap_file(&path, &compute::COMPUTE).unwrap_err().contains("not a declared version"));
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn read_cap_file(path: &Path, api: &Api) -> Result<CapChange, String> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let line = text.lines().map(|l| l.split('#').next().unwrap_or_default().trim()).find(|l| !l.is_empty());
    let line = line.ok_or_else(|| format!("{shown} names no version"))?;
    let (version, at) = match line.split_once(" at ") {
        Some((version, at)) => (version.trim(), Some(at.trim())),
        None => (line, None),
    };
    let cap: Version = version.parse().map_err(|e| format!("{shown}: {version:?}: {e}"))?;
    api.capped_at(cap).map_err(|e| format!("{shown}: {e}"))?;
    let at = match at {
        Some(at) => Some(Timestamp::parse(at).map_err(|e| format!("{shown}: {at:?}: {e}"))?),
        None => None,
    };
    Ok(CapChange { cap, at })
}

/// Applies the cap file to `cap`; on any error, returns why and keeps the cap.
pub fn reload_cap(path: &Path, cap: &VersionCap) -> Result<CapChange, String> {
    let change = read_cap_file(path, cap.declaration())?;
    match change.at {
        Some(at) => cap.set_at(change.cap, at),
        None => cap.set(change.cap),
    }
    .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(change)
}

/// Reloads the cap file on every SIGHUP for as long as the server's runtime
/// runs. The handler is registered before this returns, so a SIGHUP never
/// kills a node that has started.
pub(crate) fn reload_on_hangup(path: std::path::PathBuf, cap: VersionCap) -> std::io::Result<()> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut hangups = signal(SignalKind::hangup())?;
    tokio::spawn(async move {
        while hangups.recv().await.is_some() {
            match reload_cap(&path, &cap) {
                Ok(CapChange { cap: version, at: None }) => {
                    eprintln!("compute: SIGHUP: serving at most {version}")
                }
                Ok(CapChange { cap: version, at: Some(at) }) => {
                    eprintln!("compute: SIGHUP: serving at most {version} from {at}")
                }
                Err(why) => eprintln!("compute: SIGHUP: keeping the cap at {}: {why}", cap.get()),
            }
        }
    });
    Ok(())
}
