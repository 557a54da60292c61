//! The pool both examples open: a `postgres://` (`postgresql://`) URL, a
//! SQLite file (made on first start) or `:memory:`, with the schema of its
//! kind made, through any sqlx driver (the compute example's `Any`, the
//! placement example's own PostgreSQL and SQLite drivers). Shared by the
//! compute and placement examples (`#[path]`), as a team would keep it in
//! a crate of its own.

use std::time::Duration;

use sqlx::pool::PoolOptions;
use sqlx::{AssertSqlSafe, Database, Executor, IntoArguments, Pool};

/// How long a request waits for a connection (all busy, or the server
/// unreachable or full) before its store call fails (a 503): a client
/// retries sooner than a proxy's timeout. A request's own deadline bounds
/// the wait too, whichever comes first.
pub(crate) const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);

/// Connections per process on PostgreSQL, at most: two actix workers, each
/// serving many requests at once. A fleet's pools may add up to more than
/// the server's `max_connections` (docs/12-deploying.md, "Sizing the
/// pools"): a pool opens connections only as requests need them, and gives
/// back those idle for [`POSTGRES_IDLE_TIMEOUT`].
pub(crate) const POSTGRES_CONNECTIONS: u32 = 16;

/// Connections a PostgreSQL pool keeps open however long they are idle, so
/// that a quiet node answers its next request without connecting first.
pub(crate) const POSTGRES_MIN_CONNECTIONS: u32 = 2;

/// How long a PostgreSQL connection may stay idle in a pool before it is
/// closed (sqlx looks at idle connections as often, so one is closed
/// within twice this):
/// on a server with fewer connections than every node's pool could open,
/// the slots a quiet node holds go back to the server within seconds, for
/// a node that has work (one restarted, say) to take.
pub(crate) const POSTGRES_IDLE_TIMEOUT: Duration = Duration::from_secs(3);

/// The longest wait between two tries of a start-up step that failed for a
/// reason that passes ([`passes`]): short, so that a node takes a slot
/// of a crowded server soon after it frees.
const START_RETRY_MAX: Duration = Duration::from_secs(1);

/// The waits between the tries of a start-up step: from 100 ms, twice as
/// long each time, up to [`START_RETRY_MAX`].
pub(crate) struct StartRetry(Duration);

impl StartRetry {
    /// The first wait to come.
    pub(crate) fn new() -> StartRetry {
        StartRetry(Duration::from_millis(100))
    }

    /// Logs that `what` failed because of `why` and is tried again, then
    /// waits before that try.
    pub(crate) async fn wait(&mut self, what: &str, why: impl std::fmt::Display) {
        eprintln!("{what} ({why}); trying again in {:?}", self.0);
        tokio::time::sleep(self.0).await;
        self.0 = (self.0 * 2).min(START_RETRY_MAX);
    }
}

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

/// Whether a database error passes, so that the same step may succeed if
/// tried again: no connection to be had yet (the server not listening,
/// starting up or shutting down, `57P03`, `57P01`, or full, `53300`; a
/// connection cut; the pool's wait timed out), or a lock or a statement
/// that timed out, a deadlock or a serialization failure (`55P03`,
/// `57014`, `40P01`, `40001`).
pub(crate) fn passes(error: &sqlx::Error) -> bool {
    use std::io::ErrorKind::{
        ConnectionAborted, ConnectionRefused, ConnectionReset, TimedOut, UnexpectedEof,
    };
    const PASSING: [&str; 7] = ["53300", "57P03", "57P01", "55P03", "57014", "40P01", "40001"];
    match error {
        sqlx::Error::Io(e) => {
            matches!(
                e.kind(),
                ConnectionRefused | ConnectionReset | ConnectionAborted | UnexpectedEof | TimedOut
            )
        }
        sqlx::Error::PoolTimedOut => true,
        sqlx::Error::Database(db) => db.code().is_some_and(|code| PASSING.contains(&code.as_ref())),
        _ => false,
    }
}

/// Options both kinds of pool share: a failed connection is found by the
/// statement that uses it (a 503); no round trip checks each one before use.
fn pool_options<DB: Database>() -> PoolOptions<DB> {
    PoolOptions::new().test_before_acquire(false).acquire_timeout(ACQUIRE_TIMEOUT)
}

/// A pool on the PostgreSQL server at `url`, which opens no connection
/// yet: up to [`POSTGRES_CONNECTIONS`], opened as requests need them, at
/// least [`POSTGRES_MIN_CONNECTIONS`] kept once opened, the others closed
/// after [`POSTGRES_IDLE_TIMEOUT`] unused. Only a malformed URL fails.
pub(crate) fn postgres_pool<DB: Database>(url: &str) -> Result<Pool<DB>, sqlx::Error> {
    pool_options()
        .max_connections(POSTGRES_CONNECTIONS)
        .min_connections(POSTGRES_MIN_CONNECTIONS)
        .idle_timeout(POSTGRES_IDLE_TIMEOUT)
        .connect_lazy(url)
}

/// Makes `schema` in the PostgreSQL database at `url`, on a connection of
/// its own, closed after: tried once, its error says why (the server full,
/// starting, not listening).
///
/// A schema made before (a node restarting) is found in `schemas_made`, by
/// a digest of its text, and left as it is: making it again would lock the
/// tables it alters or indexes, holding up every other node's writes
/// meanwhile. Nodes starting together make it one at a time (`CREATE TABLE
/// IF NOT EXISTS` is not safe to race), under an advisory lock held by the
/// schema's transaction: a node that dies or gives up halfway leaves
/// neither the lock nor half a schema. A lock (another node making the
/// schema, a table in use) is waited for 10 s at most, so that a node
/// frozen while it holds one holds up no start for longer.
pub(crate) async fn make_postgres_schema<DB: Database>(
    url: &str,
    schema: &'static str,
) -> Result<(), sqlx::Error>
where
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments: IntoArguments<DB>,
{
    // Hex digits only: safe in the statement's text. Another Rust release
    // may hash otherwise: the schema is then made once more, to no change.
    let digest = {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::hash::DefaultHasher::new();
        schema.hash(&mut hasher);
        format!("{:016x}", hasher.finish())
    };
    let made = format!("SELECT 1 FROM schemas_made WHERE digest = '{digest}'");
    let mut conn = <DB::Connection as sqlx::Connection>::connect(url).await?;
    let mut tx = sqlx::Connection::begin(&mut conn).await?;
    sqlx::raw_sql("SET LOCAL lock_timeout = '10s'").execute(&mut *tx).await?;
    let listed =
        sqlx::query("SELECT 1 WHERE to_regclass('schemas_made') IS NOT NULL").fetch_optional(&mut *tx);
    if listed.await?.is_none() || sqlx::query(AssertSqlSafe(made)).fetch_optional(&mut *tx).await?.is_none() {
        sqlx::query("SELECT pg_advisory_xact_lock(7274)").execute(&mut *tx).await?;
        sqlx::raw_sql(schema).execute(&mut *tx).await?;
        let record = format!(
            "CREATE TABLE IF NOT EXISTS schemas_made (digest TEXT PRIMARY KEY); \
             INSERT INTO schemas_made (digest) VALUES ('{digest}') ON CONFLICT DO NOTHING"
        );
        sqlx::raw_sql(AssertSqlSafe(record)).execute(&mut *tx).await?;
    }
    tx.commit().await?;
    sqlx::Connection::close(conn).await
}

/// Opens the PostgreSQL server at `url` and makes `schema` in it
/// ([`postgres_pool`], [`make_postgres_schema`]), trying again while the
/// server refuses connections or a step fails for a reason that passes
/// ([`passes`]: a node starts on a crowded server once a slot frees), with
/// a log line that says why; any other failure (a wrong password, a missing
/// database) is returned at once.
#[allow(dead_code, reason = "the placement example makes its schema as its store prepares")]
pub(crate) async fn open_postgres<DB: Database>(
    url: &str,
    schema: &'static str,
) -> Result<Pool<DB>, sqlx::Error>
where
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments: IntoArguments<DB>,
{
    let mut retry = StartRetry::new();
    loop {
        match make_postgres_schema::<DB>(url, schema).await {
            Err(error) if passes(&error) => {
                retry.wait(&format!("PostgreSQL at {} is not ready", redacted(url)), error).await;
            }
            made => return made.and_then(|()| postgres_pool(url)),
        }
    }
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
