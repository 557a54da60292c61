//! Every request's deadline (docs/16-placement.md, "Deadlines"): a write
//! commits before it or not at all, so that a request a proxy gave up on
//! and retried elsewhere cannot land late, after its client has moved on.
//!
//! The deadline counts from when the request reached the fleet: the
//! proxy's `X-Request-Start` (nginx: `proxy_set_header X-Request-Start
//! "t=${msec}";`) when it has one, else its arrival here. A node that was
//! frozen with a request in its socket finds it past its deadline when it
//! wakes and refuses it (503) without touching the database. Inside, every
//! transaction is bounded by what is left ([`crate::db::Tx`]), PostgreSQL
//! enforcing it too: a node frozen mid-transaction has its session ended by
//! the server, so it cannot commit when it wakes up. The deadline covers
//! the wait for a database connection too: a request that gets none in
//! time (a crowded server, a node still starting) answers 503.
//!
//! Every 503 says when to try again (`Retry-After`): what it met (no
//! connection, a deadline, a database away) passes, and a retry through
//! the proxy may well reach a node that has a connection.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;

use crate::departure::Peer;
use crate::errors;

/// What the log says of a request dropped because its client went away.
pub const CLIENT_GONE: &str = "cancelled: its client closed the connection";

/// How long a request may take, unless `--request-deadline` says otherwise:
/// below the read timeout of the usual proxies (nginx's and HAProxy's
/// defaults are 60 s), so that a request is over here before the proxy
/// retries it on another node.
pub const DEFAULT: Duration = Duration::from_secs(5);

/// The seconds a 503 tells its client to wait before it tries again.
pub const RETRY_AFTER_SECONDS: u64 = 1;

/// The header a proxy stamps requests with: `t=` and the time it received
/// the request, in seconds since the epoch (with a fraction), milliseconds
/// or microseconds.
pub const REQUEST_START: &str = "x-request-start";

tokio::task_local! {
    /// The deadline of the request this task serves.
    static DEADLINE: Instant;
}

/// The deadline of the request being served, or `budget` from now outside
/// a request (start-up, tests calling the store directly).
pub fn current(budget: Duration) -> Instant {
    DEADLINE.try_with(|deadline| *deadline).unwrap_or_else(|_| Instant::now() + budget)
}

/// Whether the request being served is past its deadline, which
/// `http::placement_rules` answers with a 503 before any handler runs.
pub fn passed() -> bool {
    DEADLINE.try_with(|deadline| *deadline <= Instant::now()).unwrap_or(false)
}

/// The middleware: the request's deadline set for everything it runs
/// (`budget` from its start); one already past is refused with a 503
/// before anything reads the database ([`passed`]).
pub async fn within(
    budget: Duration,
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let started = req.headers().get(REQUEST_START).and_then(|v| v.to_str().ok()).and_then(proxy_start);
    let deadline = deadline(budget, started, SystemTime::now(), Instant::now());
    if deadline <= Instant::now() {
        // Refused inside the version middleware (`passed`, read by
        // `http::placement_rules`), so that the 503 is an answer of the API
        // like any other: its format, version headers and request id.
        eprintln!(
            "placement: {} {} refused: it reached the fleet more than {budget:?} ago",
            req.method(),
            req.path()
        );
    }
    // The request is dropped, its transaction with it, if its client goes.
    let Some(peer) = req.conn_data::<Peer>().cloned() else {
        return Ok(retry_after(DEADLINE.scope(deadline, next.call(req)).await?));
    };
    let (method, path) = (req.method().clone(), req.path().to_owned());
    tokio::select! {
        res = DEADLINE.scope(deadline, next.call(req)) => Ok(retry_after(res?)),
        () = peer.gone() => {
            eprintln!("placement: {method} {path} {CLIENT_GONE}");
            Err(microversion_actix::Error(errors::client_gone()).into())
        }
    }
}

/// `res`, with `Retry-After` when it is a 503.
fn retry_after<B>(mut res: ServiceResponse<B>) -> ServiceResponse<B> {
    if res.status() == actix_web::http::StatusCode::SERVICE_UNAVAILABLE {
        res.headers_mut().insert(actix_web::http::header::RETRY_AFTER, RETRY_AFTER_SECONDS.into());
    }
    res
}

/// The deadline of a request that started at `started` (the proxy's clock)
/// and arrives now (`now` on the wall clock, `arrived` on the monotonic
/// one): `budget` from the earlier of the two, a start in the future (a
/// clock ahead of ours) counting as now.
fn deadline(budget: Duration, started: Option<SystemTime>, now: SystemTime, arrived: Instant) -> Instant {
    let waited = started.and_then(|start| now.duration_since(start).ok()).unwrap_or_default();
    (arrived + budget).checked_sub(waited).unwrap_or(arrived)
}

/// The time in an `X-Request-Start` value: `t=1700000000.123` (seconds,
/// nginx's `${msec}`), or whole milliseconds or microseconds.
fn proxy_start(value: &str) -> Option<SystemTime> {
    let value = value.trim().strip_prefix("t=").unwrap_or(value.trim());
    let since_epoch = if value.contains('.') {
        Duration::try_from_secs_f64(value.parse::<f64>().ok()?).ok()?
    } else {
        let number: u64 = value.parse().ok()?;
        match value.len() {
            ..=11 => Duration::from_secs(number),
            12..=14 => Duration::from_millis(number),
            _ => Duration::from_micros(number),
        }
    };
    UNIX_EPOCH.checked_add(since_epoch)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proxy_starts_in_every_unit() {
        let at = UNIX_EPOCH + Duration::from_millis(1_700_000_000_123);
        assert_eq!(
            proxy_start("t=1700000000.123").map(|t| t.duration_since(at).unwrap_or_default().as_millis()),
            Some(0)
        );
        assert_eq!(proxy_start("t=1700000000123"), Some(at));
        assert_eq!(proxy_start("1700000000123000"), Some(at));
        assert_eq!(proxy_start("t=1700000000"), Some(UNIX_EPOCH + Duration::from_secs(1_700_000_000)));
        for bad in ["", "t=", "t=soon", "t=-1", "t=1e400", "t=NaN"] {
            assert_eq!(proxy_start(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_deadline_counts_from_the_proxy_unless_its_clock_is_ahead() {
        let (now, arrived, budget) = (SystemTime::now(), Instant::now(), Duration::from_secs(5));
        assert_eq!(deadline(budget, None, now, arrived), arrived + budget);
        let two_ago = now - Duration::from_secs(2);
        assert_eq!(deadline(budget, Some(two_ago), now, arrived), arrived + Duration::from_secs(3));
        let ahead = now + Duration::from_secs(60);
        assert_eq!(deadline(budget, Some(ahead), now, arrived), arrived + budget);
        let long_ago = now - Duration::from_secs(60);
        assert!(deadline(budget, Some(long_ago), now, arrived) <= arrived);
    }
}
