//! The pool both examples open, through sqlx's `Any` driver: a
//! `postgres://` (`postgresql://`) URL, a SQLite file (made on first
//! start) or `:memory:`, with the schema of its kind made. Shared by the
//! compute and placement examples (`#[path]`), as a team would keep it in
//! a crate of its own.

use std::time::Duration;

use sqlx::AnyPool;
use sqlx::any::AnyPoolOptions;

/// How long a request waits for a connection (all busy, or the server
/// unreachable) before its store call fails (a 503): a client retries
/// sooner than a proxy's timeout.
pub(crate) const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);

/// Connections per process on PostgreSQL: two actix workers, each serving
/// many requests at once, and room for three nodes of each example on a
/// server's default 100 connections.
pub(crate) const POSTGRES_CONNECTIONS: u32 = 16;

/// Whether `database` names a PostgreSQL server rather than a SQLite file.
fn is_postgres_url(database: &str) -> bool {
    database.starts_with("postgres://") || database.starts_with("postgresql://")
}

/// Opens `database` and makes `sqlite_schema` or `postgres_schema` in it.
///
/// PostgreSQL gets [`POSTGRES_CONNECTIONS`]; nodes starting together make
/// the schema one at a time (`CREATE TABLE IF NOT EXISTS` is not safe to
/// race), under an advisory lock. SQLite gets one connection: one writer
/// at a time, as SQLite allows, and an in-memory database lives as long as
/// its connection; it is in WAL mode, and processes sharing a file wait
/// for each other (sqlx's busy timeout, 5 s). Either way a failed
/// connection is found by the statement that uses it (a 503); no round
/// trip checks each one before use.
pub(crate) async fn open(
    database: &str,
    sqlite_schema: &'static str,
    postgres_schema: &'static str,
) -> Result<AnyPool, sqlx::Error> {
    sqlx::any::install_default_drivers();
    let options = AnyPoolOptions::new().test_before_acquire(false).acquire_timeout(ACQUIRE_TIMEOUT);
    if is_postgres_url(database) {
        let pool = options.max_connections(POSTGRES_CONNECTIONS).connect(database).await?;
        let mut conn = pool.acquire().await?;
        sqlx::query("SELECT pg_advisory_lock(7274)").execute(&mut *conn).await?;
        let made = sqlx::raw_sql(postgres_schema).execute(&mut *conn).await;
        sqlx::query("SELECT pg_advisory_unlock(7274)").execute(&mut *conn).await?;
        made?;
        return Ok(pool);
    }
    let url = if database == ":memory:" {
        "sqlite::memory:".to_owned()
    } else {
        format!("sqlite://{database}?mode=rwc")
    };
    let pool = options
        .max_connections(1)
        .min_connections(1)
        .idle_timeout(None)
        .max_lifetime(None)
        .after_connect(|conn, _| {
            Box::pin(async move {
                sqlx::raw_sql("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")
                    .execute(conn)
                    .await
                    .map(drop)
            })
        })
        .connect(&url)
        .await?;
    sqlx::raw_sql(sqlite_schema).execute(&pool).await?;
    Ok(pool)
}
