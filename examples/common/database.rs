//! The pool both examples open: a `postgres://` (`postgresql://`) URL, a
//! SQLite file (made on first start) or `:memory:`, with the schema of its
//! kind made, through any sqlx driver (the compute example's `Any`, the
//! placement example's own PostgreSQL and SQLite drivers). Shared by the
//! compute and placement examples (`#[path]`), as a team would keep it in
//! a crate of its own.

use std::time::Duration;

use sqlx::pool::PoolOptions;
use sqlx::{Database, Executor, IntoArguments, Pool};

/// How long a request waits for a connection (all busy, or the server
/// unreachable) before its store call fails (a 503): a client retries
/// sooner than a proxy's timeout.
pub(crate) const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);

/// Connections per process on PostgreSQL: two actix workers, each serving
/// many requests at once, and room for three nodes of each example on a
/// server's default 100 connections.
pub(crate) const POSTGRES_CONNECTIONS: u32 = 16;

/// How long a PostgreSQL connection may stay idle in a pool before it is
/// closed: on a server with fewer connections than every node's pool could
/// open, the slots a quiet node holds go back to the server, for a node
/// that has work (one restarted, say) to take.
pub(crate) const POSTGRES_IDLE_TIMEOUT: Duration = Duration::from_secs(10);

/// The longest wait between two tries of a PostgreSQL server that refuses
/// connections at start-up.
const START_RETRY_MAX: Duration = Duration::from_secs(5);

/// Whether `database` names a PostgreSQL server rather than a SQLite file.
pub(crate) fn is_postgres_url(database: &str) -> bool {
    database.starts_with("postgres://") || database.starts_with("postgresql://")
}

/// `database` fit for a log line: a URL's password (`user:secret@`, or a
/// `password=` parameter) replaced by `***`. Every place the examples
/// print a database (start-up, errors) prints it through this.
pub(crate) fn redacted(database: &str) -> String {
    let Some((scheme, rest)) = database.split_once("://") else { return database.to_owned() };
    let (authority, tail) = match rest.find(['/', '?']) {
        Some(at) => rest.split_at(at),
        None => (rest, ""),
    };
    let authority = match authority.rsplit_once('@') {
        Some((user_info, host)) => match user_info.split_once(':') {
            Some((user, _password)) => format!("{user}:***@{host}"),
            None => authority.to_owned(),
        },
        None => authority.to_owned(),
    };
    let tail = match tail.split_once('?') {
        Some((path, query)) => {
            let query: Vec<String> = query
                .split('&')
                .map(|pair| match pair.split_once('=') {
                    Some((key, _)) if key.eq_ignore_ascii_case("password") => format!("{key}=***"),
                    _ => pair.to_owned(),
                })
                .collect();
            format!("{path}?{}", query.join("&"))
        }
        None => tail.to_owned(),
    };
    format!("{scheme}://{authority}{tail}")
}

/// A first connection to the PostgreSQL server at `url`. A server that
/// refuses connections for now (it is starting or shutting down, or every
/// slot is taken: `too_many_connections`, a refused TCP connection) is
/// tried again, waiting longer each time up to [`START_RETRY_MAX`], with
/// a log line that says why; any other failure (a wrong password, a
/// missing database) is returned at once.
async fn first_connection<C: sqlx::Connection>(url: &str) -> Result<C, sqlx::Error> {
    let mut wait = Duration::from_millis(100);
    loop {
        match C::connect(url).await {
            Ok(conn) => return Ok(conn),
            Err(error) if refused_for_now(&error) => {
                eprintln!(
                    "PostgreSQL at {} refused a connection ({error}); trying again in {wait:?}",
                    redacted(url)
                );
                tokio::time::sleep(wait).await;
                wait = (wait * 2).min(START_RETRY_MAX);
            }
            Err(error) => return Err(error),
        }
    }
}

/// Whether a connection failed for a reason that passes: the server not
/// listening yet, starting up or shutting down (`57P03`), or full (`53300`).
fn refused_for_now(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::Io(e) => e.kind() == std::io::ErrorKind::ConnectionRefused,
        sqlx::Error::Database(db) => db.code().is_some_and(|code| code == "53300" || code == "57P03"),
        _ => false,
    }
}

/// Options both kinds of pool share: a failed connection is found by the
/// statement that uses it (a 503); no round trip checks each one before use.
fn pool_options<DB: Database>() -> PoolOptions<DB> {
    PoolOptions::new().test_before_acquire(false).acquire_timeout(ACQUIRE_TIMEOUT)
}

/// Opens the PostgreSQL server at `url` and makes `schema` in it.
///
/// The pool has [`POSTGRES_CONNECTIONS`], opened as requests need them
/// and closed after [`POSTGRES_IDLE_TIMEOUT`] unused; the first connection
/// is waited for while the server refuses connections
/// ([`first_connection`]), so that a node starts on a crowded server once a
/// slot frees. Nodes starting together make the schema one at a time
/// (`CREATE TABLE IF NOT EXISTS` is not safe to race), under an advisory
/// lock.
pub(crate) async fn open_postgres<DB: Database>(
    url: &str,
    schema: &'static str,
) -> Result<Pool<DB>, sqlx::Error>
where
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments: IntoArguments<DB>,
{
    let mut conn: DB::Connection = first_connection(url).await?;
    sqlx::query("SELECT pg_advisory_lock(7274)").execute(&mut conn).await?;
    let made = sqlx::raw_sql(schema).execute(&mut conn).await;
    sqlx::query("SELECT pg_advisory_unlock(7274)").execute(&mut conn).await?;
    made?;
    sqlx::Connection::close(conn).await?;
    pool_options().max_connections(POSTGRES_CONNECTIONS).idle_timeout(POSTGRES_IDLE_TIMEOUT).connect_lazy(url)
}

/// Opens the SQLite file `database` (made if missing; `:memory:` for a
/// private database in memory) and makes `schema` in it.
///
/// The pool has one connection: one writer at a time, as SQLite allows,
/// and an in-memory database lives as long as its connection. It is in WAL
/// mode, and processes sharing a file wait for each other (sqlx's busy
/// timeout, 5 s).
pub(crate) async fn open_sqlite<DB: Database>(
    database: &str,
    schema: &'static str,
) -> Result<Pool<DB>, sqlx::Error>
where
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments: IntoArguments<DB>,
{
    let url = if database == ":memory:" {
        "sqlite::memory:".to_owned()
    } else {
        format!("sqlite://{database}?mode=rwc")
    };
    let pool = pool_options()
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
    sqlx::raw_sql(schema).execute(&pool).await?;
    Ok(pool)
}

#[cfg(test)]
mod tests {
    use super::redacted;

    #[test]
    fn passwords_never_reach_a_log_line() {
        let cases = [
            (
                "postgres://nova:s3cr3t@db.example:5432/placement",
                "postgres://nova:***@db.example:5432/placement",
            ),
            ("postgresql://nova:p@ss@db/placement", "postgresql://nova:***@db/placement"),
            (
                "postgres://nova@db/placement?password=s3cr3t&sslmode=require",
                "postgres://nova@db/placement?password=***&sslmode=require",
            ),
            ("postgres://db/placement", "postgres://db/placement"),
            ("placement.sqlite", "placement.sqlite"),
            (":memory:", ":memory:"),
        ];
        for (url, shown) in cases {
            assert_eq!(redacted(url), shown);
            assert!(!redacted(url).contains("s3cr3t"), "{url}");
        }
    }
}
