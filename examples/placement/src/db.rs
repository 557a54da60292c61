//! One code path over two databases, SQLite and PostgreSQL, each through
//! its own sqlx driver: a real pool, statements prepared once per
//! connection and cached, and no blocking call on an actix worker
//! (PostgreSQL is spoken asynchronously; each SQLite connection runs on a
//! thread of its own). Rows are read as their driver decodes them: sqlx's
//! `Any` driver would copy each into a row of its own first, which cost a
//! fifth of a search over a thousand providers.
//!
//! The handlers write one SQL dialect, the common ground of both (`$1`
//! parameters, `INSERT ... ON CONFLICT`, `RETURNING`, `CAST(... AS BIGINT)`),
//! as `&'static str`: a statement is never built from request data, only
//! its values are bound. They run it through a [`Tx`] and read [`Row`]s.
//! A statement whose shape depends on the request (how many values an
//! `IN` list holds, how many trait conditions it has) is an [`Sql`], put
//! together from `&'static str` pieces and numbered parameters only.

use std::time::{Duration, Instant};

use futures_util::TryStreamExt;
use futures_util::lock::Mutex;
use sqlx::postgres::PgRow;
use sqlx::query::Query;
use sqlx::sqlite::SqliteRow;
use sqlx::{AssertSqlSafe, Database, Encode, Postgres, Row as _, Sqlite, Type};

/// A parameter: a value, or a `NULL` of a type (PostgreSQL is told each
/// parameter's type).
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// An integer.
    Int(i64),
    /// A float.
    Real(f64),
    /// Text.
    Text(String),
    /// An integer `NULL`.
    NullInt,
    /// A text `NULL`.
    NullText,
}

impl From<i64> for Value {
    fn from(v: i64) -> Value {
        Value::Int(v)
    }
}
impl From<f64> for Value {
    fn from(v: f64) -> Value {
        Value::Real(v)
    }
}
impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::Text(v.to_owned())
    }
}
impl From<String> for Value {
    fn from(v: String) -> Value {
        Value::Text(v)
    }
}
impl<T: Clone + Into<Value>> From<&T> for Value {
    fn from(v: &T) -> Value {
        v.clone().into()
    }
}
impl<T: Nullable> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map_or(T::NULL, Into::into)
    }
}

/// A type whose `None` is bound as a `NULL` of that type.
pub trait Nullable: Into<Value> {
    /// Its `NULL`.
    const NULL: Value;
}
impl Nullable for i64 {
    const NULL: Value = Value::NullInt;
}
impl Nullable for &str {
    const NULL: Value = Value::NullText;
}
impl Nullable for String {
    const NULL: Value = Value::NullText;
}

/// Parameters, each borrowed and converted with `Into<Value>`.
#[macro_export]
macro_rules! params {
    ($($value:expr),* $(,)?) => { &[$($crate::db::Value::from(&$value)),*][..] };
}
pub use params;

/// A row of either database, its columns in order.
pub struct Row(RowOf);

enum RowOf {
    Postgres(PgRow),
    Sqlite(SqliteRow),
}

/// `$body` with `$r` the row of whichever driver `$row` holds.
macro_rules! on_row {
    ($row:expr, $r:ident => $body:expr) => {
        match &$row.0 {
            RowOf::Postgres($r) => $body,
            RowOf::Sqlite($r) => $body,
        }
    };
}

/// A column read back as a Rust type.
pub trait Column: Sized {
    /// Column `i` of `row`, `None` when it holds another type.
    fn read(row: &Row, i: usize) -> Option<Self>;
}
// On PostgreSQL, integers and text are read without sqlx's check of the
// column's type against the Rust one (a tenth of the instructions of a
// candidates search that reads every provider): the schema makes every
// integer a BIGINT and every string TEXT, and a decode that meets another
// type is still an error (an integer of another width is read as it is).
impl Column for i64 {
    fn read(row: &Row, i: usize) -> Option<i64> {
        match &row.0 {
            RowOf::Postgres(r) => r.try_get_unchecked(i).ok(),
            RowOf::Sqlite(r) => r.try_get(i).ok(),
        }
    }
}
impl Column for f64 {
    /// SQLite gives an integer for a float expression with a whole value.
    fn read(row: &Row, i: usize) -> Option<f64> {
        on_row!(row, r => r.try_get(i).ok().or_else(|| r.try_get::<i64, _>(i).ok().map(|v| v as f64)))
    }
}
impl Column for String {
    fn read(row: &Row, i: usize) -> Option<String> {
        match &row.0 {
            RowOf::Postgres(r) => r.try_get_unchecked(i).ok(),
            RowOf::Sqlite(r) => r.try_get(i).ok(),
        }
    }
}
impl<T: Column> Column for Option<T> {
    fn read(row: &Row, i: usize) -> Option<Option<T>> {
        match on_row!(row, r => r.try_get_raw(i).map(|value| sqlx::ValueRef::is_null(&value))) {
            Ok(true) => Some(None),
            Ok(false) => T::read(row, i).map(Some),
            Err(_) => None,
        }
    }
}

impl Row {
    /// Column `i` as a `T`; a missing column or another type is the server's error.
    pub fn get<T: Column>(&self, i: usize) -> Result<T, StoreError> {
        T::read(self, i).ok_or_else(|| {
            StoreError::Unavailable(format!(
                "column {i} of {} is not a {}",
                on_row!(self, r => r.len()),
                std::any::type_name::<T>()
            ))
        })
    }
}

/// The pool of either database.
#[derive(Clone, Debug)]
pub enum Pool {
    /// A PostgreSQL server's.
    Postgres(sqlx::PgPool),
    /// A SQLite file's (or memory's).
    Sqlite(sqlx::SqlitePool),
}

impl Pool {
    /// Opens `database` (a `postgres://` URL, a SQLite file or `:memory:`)
    /// and makes `sqlite_schema` or `postgres_schema` in it
    /// (the examples' shared `database.rs`).
    pub async fn open(
        database: &str,
        sqlite_schema: &'static str,
        postgres_schema: &'static str,
    ) -> Result<Pool, sqlx::Error> {
        Ok(if crate::database::is_postgres_url(database) {
            Pool::Postgres(crate::database::open_postgres(database, postgres_schema).await?)
        } else {
            Pool::Sqlite(crate::database::open_sqlite(database, sqlite_schema).await?)
        })
    }
}

/// How long past its deadline a `COMMIT` already sent is waited for before
/// its outcome is called unknown.
const COMMIT_GRACE: Duration = Duration::from_secs(1);

/// A transaction, rolled back when dropped uncommitted: a write's, or a
/// read's, whose statements all see one snapshot of the data (on
/// PostgreSQL `REPEATABLE READ READ ONLY`; on SQLite any transaction's),
/// so that an answer built of several reads is consistent, on one pooled
/// connection.
///
/// Each is bounded by its request's deadline ([`crate::deadline`]): on
/// PostgreSQL its statements, its waits for locks and its idle time between
/// statements are limited to what is left, so that the server ends the
/// session of a process frozen mid-transaction; [`Tx::commit`] commits only
/// before the deadline.
///
/// Its statements run one at a time (the lock), which lets the helpers
/// share it as `&Tx` while each awaits its statement.
pub struct Tx {
    conn: Mutex<Conn>,
    access: Access,
}

/// A transaction's connection, of either database.
enum Conn {
    Postgres(sqlx::Transaction<'static, Postgres>),
    Sqlite(sqlx::Transaction<'static, Sqlite>),
}

/// `$body` with `$c` the transaction of whichever driver `$conn` holds and
/// `$row` the constructor of that driver's [`Row`]s.
macro_rules! on_conn {
    ($conn:expr, $c:ident, $row:ident => $body:expr) => {
        match $conn {
            Conn::Postgres($c) => {
                let $row = |row| Row(RowOf::Postgres(row));
                $body
            }
            Conn::Sqlite($c) => {
                let $row = |row| Row(RowOf::Sqlite(row));
                $body
            }
        }
    };
}

/// What a transaction is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Reads, from one snapshot.
    Read,
    /// Reads and writes.
    Write,
}

/// The statement that begins a PostgreSQL transaction with `left` of its
/// request's time: the isolation and the three limits in one round trip.
fn postgres_begin(access: Access, left: Duration) -> String {
    let mode = match access {
        Access::Read => "ISOLATION LEVEL REPEATABLE READ READ ONLY",
        Access::Write => "ISOLATION LEVEL READ COMMITTED",
    };
    let ms = left.as_millis().max(1);
    format!(
        "BEGIN {mode}; SET LOCAL statement_timeout = {ms}; SET LOCAL lock_timeout = {ms}; \
         SET LOCAL idle_in_transaction_session_timeout = {ms}"
    )
}

/// A statement put together from `&'static str` pieces and parameters,
/// with the values of those parameters: its text never holds request data.
#[derive(Clone, Debug, Default)]
pub struct Sql {
    text: String,
    values: Vec<Value>,
}

impl Sql {
    /// A statement beginning with `text`.
    pub fn new(text: &'static str) -> Sql {
        Sql { text: text.to_owned(), values: Vec::new() }
    }

    /// Appends `text`.
    pub fn push(&mut self, text: &'static str) -> &mut Sql {
        self.text.push_str(text);
        self
    }

    /// Appends a parameter (`$n`) bound to `value`.
    pub fn bind(&mut self, value: impl Into<Value>) -> &mut Sql {
        self.values.push(value.into());
        self.text.push('$');
        self.text.push_str(&self.values.len().to_string());
        self
    }

    /// Appends `(` the parameters bound to `values`, comma-separated, `)`.
    pub fn list<V: Into<Value>>(&mut self, values: impl IntoIterator<Item = V>) -> &mut Sql {
        self.text.push('(');
        for (i, value) in values.into_iter().enumerate() {
            if i > 0 {
                self.text.push_str(", ");
            }
            self.bind(value);
        }
        self.text.push(')');
        self
    }
}

/// `sql` with `params` bound, for either driver.
fn bound<'q, DB: Database>(sql: impl sqlx::SqlSafeStr, params: &'q [Value]) -> Query<'q, DB, DB::Arguments>
where
    i64: Encode<'q, DB> + Type<DB>,
    f64: Encode<'q, DB> + Type<DB>,
    &'q str: Encode<'q, DB> + Type<DB>,
    Option<i64>: Encode<'q, DB> + Type<DB>,
    Option<String>: Encode<'q, DB> + Type<DB>,
{
    params.iter().fold(sqlx::query(sql), |query, value| match value {
        Value::Int(v) => query.bind(*v),
        Value::Real(v) => query.bind(*v),
        Value::Text(v) => query.bind(v.as_str()),
        Value::NullInt => query.bind(None::<i64>),
        Value::NullText => query.bind(None::<String>),
    })
}

impl Tx {
    /// Begins a transaction for `access` on a connection of `pool`, which
    /// must be over by `deadline` (an answer of 503 when it is already past).
    pub async fn begin(pool: &Pool, access: Access, deadline: Instant) -> Result<Tx, StoreError> {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(StoreError::DeadlinePassed);
        }
        let begin = async {
            match pool {
                Pool::Postgres(pool) => {
                    pool.begin_with(AssertSqlSafe(postgres_begin(access, left))).await.map(Conn::Postgres)
                }
                Pool::Sqlite(pool) => pool.begin().await.map(Conn::Sqlite),
            }
        };
        // No connection before the deadline: the database is unreachable or
        // every connection is busy, which is the store's failure.
        let conn = tokio::time::timeout_at(deadline.into(), begin)
            .await
            .map_err(|_| {
                StoreError::NoConnection("no database connection before the request's deadline".into())
            })?
            .map_err(db_error)?;
        Ok(Tx { conn: Mutex::new(conn), access })
    }

    /// Commits, if the deadline has not passed: once it has, the
    /// transaction is rolled back (503, not carried out). On PostgreSQL the
    /// idle limit of a write is first set to what is left, so that a
    /// process frozen from here on cannot commit after the deadline: the
    /// server ends its session first (a read changes nothing whenever it
    /// ends, and saves the round trip). A connection lost during `COMMIT`
    /// leaves the outcome unknown ([`StoreError::OutcomeUnknown`]).
    pub async fn commit(self, deadline: Instant) -> Result<(), StoreError> {
        let mut conn = self.conn.into_inner();
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(StoreError::DeadlinePassed);
        }
        if let (Conn::Postgres(conn), Access::Write) = (&mut conn, self.access) {
            let ms = left.as_millis().max(1).to_string();
            sqlx::query("SELECT set_config('idle_in_transaction_session_timeout', $1, true)")
                .bind(ms)
                .execute(&mut **conn)
                .await
                .map_err(db_error)?;
        }
        let commit = async {
            match conn {
                Conn::Postgres(conn) => conn.commit().await,
                Conn::Sqlite(conn) => conn.commit().await,
            }
        };
        match tokio::time::timeout(left + COMMIT_GRACE, commit).await {
            Ok(Ok(())) => Ok(()),
            // The server answered: it refused the commit, nothing changed.
            Ok(Err(error @ sqlx::Error::Database(_))) => Err(db_error(error)),
            Ok(Err(error)) => Err(StoreError::OutcomeUnknown(error.to_string())),
            Err(_) => Err(StoreError::OutcomeUnknown("no answer to COMMIT before the deadline".into())),
        }
    }

    /// Runs a statement; the number of rows it changed.
    pub async fn execute(&self, sql: &'static str, params: &[Value]) -> Result<u64, StoreError> {
        self.run(sql, params).await
    }

    /// Runs a statement put together as an [`Sql`]; the number of rows it
    /// changed.
    pub async fn execute_sql(&self, sql: &Sql) -> Result<u64, StoreError> {
        self.run(AssertSqlSafe(sql.text.clone()), &sql.values).await
    }

    async fn run(&self, sql: impl sqlx::SqlSafeStr, params: &[Value]) -> Result<u64, StoreError> {
        let mut conn = self.conn.lock().await;
        let done = on_conn!(&mut *conn, c, _row => bound(sql, params).execute(&mut **c).await.map(|d| d.rows_affected()));
        done.map_err(db_error)
    }

    /// Every row of a query.
    pub async fn query(&self, sql: &'static str, params: &[Value]) -> Result<Vec<Row>, StoreError> {
        let mut conn = self.conn.lock().await;
        let rows = on_conn!(&mut *conn, c, row => {
            bound(sql, params).fetch_all(&mut **c).await.map(|rows| rows.into_iter().map(row).collect())
        });
        rows.map_err(db_error)
    }

    /// The rows of a statement put together as an [`Sql`], each read by `f`.
    pub async fn query_sql<T>(
        &self,
        sql: &Sql,
        f: impl Fn(&Row) -> Result<T, StoreError>,
    ) -> Result<Vec<T>, StoreError> {
        self.read_rows(AssertSqlSafe(sql.text.clone()), &sql.values, f).await
    }

    /// The rows of a query, each read by `f`.
    pub async fn query_map<T>(
        &self,
        sql: &'static str,
        params: &[Value],
        f: impl Fn(&Row) -> Result<T, StoreError>,
    ) -> Result<Vec<T>, StoreError> {
        self.read_rows(sql, params, f).await
    }

    /// The rows of `sql`, each read by `f` as it arrives and dropped: a
    /// read of a whole table never holds all of its rows at once.
    async fn read_rows<T>(
        &self,
        sql: impl sqlx::SqlSafeStr,
        params: &[Value],
        f: impl Fn(&Row) -> Result<T, StoreError>,
    ) -> Result<Vec<T>, StoreError> {
        let mut conn = self.conn.lock().await;
        let mut out = Vec::new();
        on_conn!(&mut *conn, c, row => {
            let mut rows = bound(sql, params).fetch(&mut **c);
            while let Some(next) = rows.try_next().await.map_err(db_error)? {
                out.push(f(&row(next))?);
            }
        });
        Ok(out)
    }

    /// The first row of a query read by `f`, if there is one.
    pub async fn query_opt<T>(
        &self,
        sql: &'static str,
        params: &[Value],
        f: impl Fn(&Row) -> Result<T, StoreError>,
    ) -> Result<Option<T>, StoreError> {
        self.query(sql, params).await?.first().map(f).transpose()
    }

    /// The first row of a query read by `f`; no row is the server's error.
    pub async fn query_row<T>(
        &self,
        sql: &'static str,
        params: &[Value],
        f: impl Fn(&Row) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        self.query_opt(sql, params, f).await?.ok_or_else(|| StoreError::Unavailable("no row".into()))
    }

    /// Whether a query has a row.
    pub async fn exists(&self, sql: &'static str, params: &[Value]) -> Result<bool, StoreError> {
        Ok(!self.query(sql, params).await?.is_empty())
    }
}

/// What a store operation failed at, in the store's terms; the HTTP side
/// ([`crate::errors`]) words each as an answer.
#[derive(Debug)]
pub enum StoreError {
    /// Another transaction changed the same rows first (a unique key taken
    /// meanwhile, a serialization failure, a deadlock on PostgreSQL; a busy
    /// database on SQLite): nothing was carried out, and a retry may succeed.
    LostRace,
    /// A provider's generation is not the one the change was made against.
    GenerationChanged,
    /// No connection could be had: the server refuses them for now (it is
    /// full, starting or stopping), or every one was busy until the
    /// deadline. Nothing was carried out; it passes. What happened, for the
    /// log.
    NoConnection(String),
    /// The database cannot be used (unreachable, a broken file, a row that
    /// cannot be read): nothing was carried out. What went wrong, for the log.
    Unavailable(String),
    /// The request's deadline passed before it was done: nothing was kept.
    DeadlinePassed,
    /// The connection was lost during `COMMIT`: the change may or may not
    /// have been kept. What went wrong, for the log.
    OutcomeUnknown(String),
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::LostRace => f.write_str("another transaction changed the same rows first"),
            StoreError::GenerationChanged => f.write_str("the provider's generation changed"),
            StoreError::NoConnection(why) => write!(f, "no database connection: {why}"),
            StoreError::Unavailable(why) => write!(f, "the database cannot be used: {why}"),
            StoreError::DeadlinePassed => f.write_str("the request's deadline passed"),
            StoreError::OutcomeUnknown(why) => write!(f, "the connection was lost during COMMIT: {why}"),
        }
    }
}

/// A database error: a lost race is [`StoreError::LostRace`] (SQLSTATE
/// 23505, 40001, 40P01; SQLite's busy code 5); a connection not had,
/// [`StoreError::NoConnection`] (the pool's wait timed out, the server
/// refused the connection or is full, 53300, or starting or stopping,
/// 57P03); anything else leaves the database unusable for this request.
pub fn db_error(error: sqlx::Error) -> StoreError {
    const LOST_RACE: [&str; 4] = ["23505", "40001", "40P01", "5"];
    const REFUSED: [&str; 2] = ["53300", "57P03"];
    let code = match &error {
        sqlx::Error::Database(db) => db.code().map(|code| code.into_owned()),
        _ => None,
    };
    match (&error, code.as_deref()) {
        (_, Some(code)) if LOST_RACE.contains(&code) => StoreError::LostRace,
        (_, Some(code)) if REFUSED.contains(&code) => StoreError::NoConnection(error.to_string()),
        (sqlx::Error::PoolTimedOut, _) => StoreError::NoConnection(error.to_string()),
        (sqlx::Error::Io(io), _) if io.kind() == std::io::ErrorKind::ConnectionRefused => {
            StoreError::NoConnection(error.to_string())
        }
        _ => StoreError::Unavailable(error.to_string()),
    }
}
