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
//!
//! On PostgreSQL, a read of a whole table ([`Tx::query_table`], as the
//! candidates search reads a cloud it mostly reaches) runs as `COPY (query)
//! TO STDOUT`: its rows come as lines of text, which cost the process less
//! than typed rows (no message per row decoded into a row of its own, no
//! per-column type checks), and read as typed rows would. A short read
//! stays a prepared statement: a `COPY` is planned anew each time. A `COPY` can only
//! be stopped by closing its connection, so a transaction owns its pooled
//! connection and closes it when a `COPY` was not read to its end (a
//! request cancelled by its deadline or its client mid-read).

use std::time::{Duration, Instant};

use futures_util::TryStreamExt;
use futures_util::lock::Mutex;
use sqlx::pool::PoolConnection;
use sqlx::postgres::{PgConnection, PgRow, PgTransactionManager};
use sqlx::query::Query;
use sqlx::sqlite::SqliteRow;
use sqlx::{AssertSqlSafe, Database, Encode, Postgres, Row as _, SqlSafeStr as _, Sqlite, Type};
// The trait of `PgTransactionManager`'s `begin`, `commit` and
// `start_rollback`, which sqlx's `Transaction` calls and does not re-export.
use sqlx_core::transaction::TransactionManager as _;

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
    /// A line of PostgreSQL's `COPY` (the module says when).
    Copied(CopiedRow),
}

/// `$typed` with `$r` the row of whichever driver `$row` holds, or
/// `$text` with `$t` its [`CopiedRow`].
macro_rules! on_row {
    ($row:expr, $r:ident => $typed:expr, $t:ident => $text:expr) => {
        match &$row.0 {
            RowOf::Postgres($r) => $typed,
            RowOf::Sqlite($r) => $typed,
            RowOf::Copied($t) => $text,
        }
    };
}

/// A row of PostgreSQL's `COPY ... TO STDOUT` text format: one line, its
/// fields separated by tabs, `\N` for `NULL`, backslash escapes in text.
/// The server sends each row in one message.
#[derive(Default)]
struct CopiedRow {
    line: bytes::Bytes,
    /// Where each field is in `line`.
    fields: Vec<std::ops::Range<usize>>,
}

impl CopiedRow {
    /// Holds `line` instead of the line before (one row read after the
    /// other, its fields' places kept in the same vector).
    fn read(&mut self, line: bytes::Bytes) {
        let end = line.len() - usize::from(line.last() == Some(&b'\n'));
        self.fields.clear();
        let mut start = 0;
        for (at, &byte) in line[..end].iter().enumerate() {
            if byte == b'\t' {
                self.fields.push(start..at);
                start = at + 1;
            }
        }
        self.fields.push(start..end);
        self.line = line;
    }

    /// Field `i` as written (`None` for `NULL`); `Err` when there is none.
    fn field(&self, i: usize) -> Result<Option<&str>, ()> {
        let bytes = &self.line[self.fields.get(i).ok_or(())?.clone()];
        if bytes == b"\\N" {
            return Ok(None);
        }
        std::str::from_utf8(bytes).map(Some).map_err(drop)
    }

    /// Field `i` as a decimal integer, read from its bytes (no UTF-8
    /// check: a digit is ASCII); `None` for `NULL`, none or another text.
    fn integer(&self, i: usize) -> Option<i64> {
        let bytes = &self.line[self.fields.get(i)?.clone()];
        let (negative, digits) = match bytes {
            [b'-', rest @ ..] => (true, rest),
            _ => (false, bytes),
        };
        if digits.is_empty() {
            return None;
        }
        // Accumulated negative: i64::MIN has no positive counterpart.
        let mut value: i64 = 0;
        for &byte in digits {
            let digit = i64::from(byte.wrapping_sub(b'0'));
            if digit > 9 {
                return None;
            }
            value = value.checked_mul(10)?.checked_sub(digit)?;
        }
        if negative { Some(value) } else { value.checked_neg() }
    }

    /// Field `i` as text, its escapes undone.
    fn text(&self, i: usize) -> Option<String> {
        let field = self.field(i).ok()??;
        if !field.contains('\\') {
            return Some(field.to_owned());
        }
        let mut text = String::with_capacity(field.len());
        let mut chars = field.chars();
        while let Some(c) = chars.next() {
            text.push(match (c, c == '\\') {
                (_, false) => c,
                (_, true) => match chars.next()? {
                    'b' => '\u{8}',
                    'f' => '\u{c}',
                    'n' => '\n',
                    'r' => '\r',
                    't' => '\t',
                    'v' => '\u{b}',
                    other => other,
                },
            });
        }
        Some(text)
    }
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
            RowOf::Copied(t) => t.integer(i),
        }
    }
}
impl Column for f64 {
    /// SQLite gives an integer for a float expression with a whole value.
    fn read(row: &Row, i: usize) -> Option<f64> {
        on_row!(
            row,
            r => r.try_get(i).ok().or_else(|| r.try_get::<i64, _>(i).ok().map(|v| v as f64)),
            t => t.field(i).ok()??.parse().ok()
        )
    }
}
impl Column for String {
    fn read(row: &Row, i: usize) -> Option<String> {
        match &row.0 {
            RowOf::Postgres(r) => r.try_get_unchecked(i).ok(),
            RowOf::Sqlite(r) => r.try_get(i).ok(),
            RowOf::Copied(t) => t.text(i),
        }
    }
}
impl<T: Column> Column for Option<T> {
    fn read(row: &Row, i: usize) -> Option<Option<T>> {
        let null = on_row!(
            row,
            r => r.try_get_raw(i).map(|value| sqlx::ValueRef::is_null(&value)).map_err(drop),
            t => t.field(i).map(|field| field.is_none())
        );
        match null {
            Ok(true) => Some(None),
            Ok(false) => T::read(row, i).map(Some),
            Err(()) => None,
        }
    }
}

impl Row {
    /// Column `i` as a `T`; a missing column or another type is the server's error.
    pub fn get<T: Column>(&self, i: usize) -> Result<T, StoreError> {
        T::read(self, i).ok_or_else(|| {
            StoreError::Unavailable(format!(
                "column {i} of {} is not a {}",
                on_row!(self, r => r.len(), t => t.fields.len()),
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
    /// Opens `database`: a `postgres://` URL, whose pool connects only as
    /// it is used (nothing is waited for, nothing made yet: see
    /// [`Pool::make_schema`]), or a SQLite file or `:memory:`, opened and
    /// `sqlite_schema` made in it at once (the examples' shared
    /// `database.rs`).
    pub async fn open(database: &str, sqlite_schema: &'static str) -> Result<Pool, sqlx::Error> {
        Ok(if crate::database::is_postgres_url(database) {
            Pool::Postgres(crate::database::postgres_pool(database)?)
        } else {
            Pool::Sqlite(crate::database::open_sqlite(database, sqlite_schema).await?)
        })
    }

    /// Makes `postgres_schema` in the PostgreSQL database at `database`
    /// (a SQLite database's was made when it was opened).
    pub async fn make_schema(
        &self,
        database: &str,
        postgres_schema: &'static str,
    ) -> Result<(), sqlx::Error> {
        match self {
            Pool::Postgres(_) => {
                crate::database::make_postgres_schema::<Postgres>(database, postgres_schema).await
            }
            Pool::Sqlite(_) => Ok(()),
        }
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
    Postgres(PgTx),
    Sqlite(sqlx::Transaction<'static, Sqlite>),
}

/// A PostgreSQL transaction on a pooled connection it owns: rolled back
/// when dropped open, as sqlx's `Transaction` is, and its connection closed
/// instead of returned to the pool when a `COPY` was begun and not read to
/// its end (sqlx would hand the next statement the rest of its answer).
struct PgTx {
    conn: PoolConnection<Postgres>,
    /// A `COPY` is under way: set before it is sent, cleared at its end.
    copying: bool,
}

impl PgTx {
    /// Begins a transaction with `statement` on a connection of `pool`.
    async fn begin(pool: &sqlx::PgPool, statement: String) -> Result<PgTx, sqlx::Error> {
        let mut conn = pool.acquire().await?;
        PgTransactionManager::begin(&mut conn, Some(AssertSqlSafe(statement).into_sql_str())).await?;
        Ok(PgTx { conn, copying: false })
    }

    /// The rows of `COPY (sql) TO STDOUT`, each read by `f`.
    async fn copy<T>(
        &mut self,
        sql: impl sqlx::SqlSafeStr,
        f: impl Fn(&Row) -> Result<T, StoreError>,
    ) -> Result<Vec<T>, StoreError> {
        self.copying = true;
        let mut out = Vec::new();
        let copy = format!("COPY ({}) TO STDOUT", sql.into_sql_str().as_str());
        let mut lines = self.conn.copy_out_raw(&copy).await.map_err(db_error)?;
        let mut row = Row(RowOf::Copied(CopiedRow::default()));
        while let Some(line) = lines.try_next().await.map_err(db_error)? {
            if let RowOf::Copied(copied) = &mut row.0 {
                copied.read(line);
            }
            out.push(f(&row)?);
        }
        drop(lines);
        self.copying = false;
        Ok(out)
    }
}

impl std::ops::Deref for PgTx {
    type Target = PgConnection;
    fn deref(&self) -> &PgConnection {
        &self.conn
    }
}
impl std::ops::DerefMut for PgTx {
    fn deref_mut(&mut self) -> &mut PgConnection {
        &mut self.conn
    }
}

impl Drop for PgTx {
    fn drop(&mut self) {
        if self.copying {
            // The server aborts the transaction with the session.
            self.conn.close_on_drop();
        } else {
            PgTransactionManager::start_rollback(&mut self.conn);
        }
    }
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

/// Refuses a connection whose `COPY` was left unread (a row its reader
/// refused): its next answer would be the rest of that `COPY`.
fn usable(conn: &Conn) -> Result<(), StoreError> {
    match conn {
        Conn::Postgres(PgTx { copying: true, .. }) => {
            Err(StoreError::Unavailable("a COPY on this transaction was not read to its end".into()))
        }
        _ => Ok(()),
    }
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
                    PgTx::begin(pool, postgres_begin(access, left)).await.map(Conn::Postgres)
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
        usable(&conn)?;
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
                Conn::Postgres(mut tx) => PgTransactionManager::commit(&mut tx).await,
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
        let mut conn = self.lock().await?;
        let done = on_conn!(&mut *conn, c, _row => bound(sql, params).execute(&mut **c).await.map(|d| d.rows_affected()));
        done.map_err(db_error)
    }

    /// Every row of a query.
    pub async fn query(&self, sql: &'static str, params: &[Value]) -> Result<Vec<Row>, StoreError> {
        let mut conn = self.lock().await?;
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

    /// The rows of a read of a whole table (or of most of one), each read
    /// by `f`: on PostgreSQL, a statement without parameters is read
    /// through `COPY` (the module says why); otherwise as
    /// [`Tx::query_sql`].
    pub async fn query_table<T>(
        &self,
        sql: &Sql,
        f: impl Fn(&Row) -> Result<T, StoreError>,
    ) -> Result<Vec<T>, StoreError> {
        let mut conn = self.lock().await?;
        if let Conn::Postgres(tx) = &mut *conn
            && sql.values.is_empty()
        {
            return tx.copy(AssertSqlSafe(sql.text.clone()), f).await;
        }
        drop(conn);
        self.query_sql(sql, f).await
    }

    /// The rows of `sql`, each read by `f` as it arrives and dropped: a
    /// read of a whole table never holds all of its rows at once.
    async fn read_rows<T>(
        &self,
        sql: impl sqlx::SqlSafeStr,
        params: &[Value],
        f: impl Fn(&Row) -> Result<T, StoreError>,
    ) -> Result<Vec<T>, StoreError> {
        let mut conn = self.lock().await?;
        let mut out = Vec::new();
        on_conn!(&mut *conn, c, row => {
            let mut rows = bound(sql, params).fetch(&mut **c);
            while let Some(next) = rows.try_next().await.map_err(db_error)? {
                out.push(f(&row(next))?);
            }
        });
        Ok(out)
    }

    /// The connection, for the next statement.
    async fn lock(&self) -> Result<futures_util::lock::MutexGuard<'_, Conn>, StoreError> {
        let conn = self.conn.lock().await;
        usable(&conn)?;
        Ok(conn)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copied_line_reads_as_its_fields() {
        let mut row = CopiedRow::default();
        row.read(bytes::Bytes::from_static(b"7\ttab\\there\\nnew\\\\\t\\N\t\t1.5\n"));
        assert_eq!(row.fields.len(), 5);
        assert_eq!(row.field(0), Ok(Some("7")));
        assert_eq!(row.text(1).as_deref(), Some("tab\there\nnew\\"));
        assert_eq!(row.field(2), Ok(None), "\\N is NULL");
        assert_eq!(row.text(3).as_deref(), Some(""), "an empty text is no NULL");
        assert_eq!(row.field(4), Ok(Some("1.5")));
        assert_eq!(
            (row.integer(0), row.integer(1), row.integer(2), row.integer(4)),
            (Some(7), None, None, None)
        );
        for (line, integer) in [
            (&b"9223372036854775807"[..], Some(i64::MAX)),
            (b"-9223372036854775808", Some(i64::MIN)),
            (b"9223372036854775808", None),
            (b"-9223372036854775809", None),
            (b"-0", Some(0)),
            (b"-", None),
            (b"1a", None),
            (b"+1", None),
            (b"", None),
        ] {
            let mut row = CopiedRow::default();
            row.read(bytes::Bytes::copy_from_slice(line));
            assert_eq!(row.integer(0), integer, "{}", String::from_utf8_lossy(line));
        }
        assert_eq!(row.field(5), Err(()), "no sixth field");
        row.read(bytes::Bytes::from_static(b"8\n"));
        assert_eq!((row.field(0), row.field(1)), (Ok(Some("8")), Err(())), "the next line, alone");
    }

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime")
    }

    /// The values a `COPY` line gives are those of the typed rows of the
    /// same query, on a real PostgreSQL server: text with every escape,
    /// `NULL`s, integers at their bounds, floats that need every digit.
    #[test]
    fn copied_rows_read_as_typed_rows_on_postgres() {
        const VALUES: &str = concat!(
            r"SELECT E'tab\there', E'new\nline\r', E'back\\slash', '\N', 'café ☃', CAST(NULL AS TEXT), ",
            "CAST(NULL AS BIGINT), CAST(9223372036854775807 AS BIGINT), CAST(-9223372036854775808 AS BIGINT), ",
            "CAST(0.1 AS DOUBLE PRECISION), CAST(1e300 AS DOUBLE PRECISION) / 3, CAST(16 AS DOUBLE PRECISION)"
        );
        type Values = (Vec<Option<String>>, Vec<Option<i64>>, Vec<f64>);
        fn values(r: &Row) -> Result<Values, StoreError> {
            Ok((
                (0..6).map(|i| r.get(i)).collect::<Result<_, _>>()?,
                (6..9).map(|i| r.get(i)).collect::<Result<_, _>>()?,
                (9..12).map(|i| r.get(i)).collect::<Result<_, _>>()?,
            ))
        }
        let pg = microversion_testkit::postgres::PgServer::start();
        let url = pg.create_database("copied_rows");
        runtime().block_on(async {
            let store = crate::store::Store::connect(&url).await.expect("a store");
            let (copied, typed) = store
                .read(async |tx| -> Result<_, StoreError> {
                    let copied = tx.query_table(&Sql::new(VALUES), values).await?;
                    let typed = tx.query_map(VALUES, params![], values).await?;
                    Ok((copied, typed))
                })
                .await
                .expect("the reads");
            assert_eq!(copied, typed);
            let (texts, integers, floats) = &copied[0];
            let texts: Vec<Option<&str>> = texts.iter().map(Option::as_deref).collect();
            assert_eq!(
                texts,
                [
                    Some("tab\there"),
                    Some("new\nline\r"),
                    Some(r"back\slash"),
                    Some(r"\N"),
                    Some("café ☃"),
                    None
                ]
            );
            assert_eq!(integers, &[None, Some(i64::MAX), Some(i64::MIN)]);
            assert_eq!(floats, &[0.1, 1e300 / 3.0, 16.0]);
        });
    }

    /// A pool gives back the connections a burst opened once they idle
    /// ([`crate::database::POSTGRES_IDLE_TIMEOUT`], looked at as often),
    /// down to the minimum it keeps, so that a quiet node leaves a crowded
    /// server's slots to the others; and it answers from those it keeps.
    #[test]
    fn a_pool_gives_idle_connections_back_down_to_its_minimum() {
        use crate::database::{POSTGRES_IDLE_TIMEOUT, POSTGRES_MIN_CONNECTIONS, postgres_pool};
        const BURST: usize = 6;
        let pg = microversion_testkit::postgres::PgServer::start();
        let url = pg.create_database("idle_pool");
        runtime().block_on(async {
            let pool: sqlx::PgPool = postgres_pool(&url).expect("a pool");
            let burst: Vec<_> = futures_util::future::try_join_all((0..BURST).map(|_| pool.acquire()))
                .await
                .expect("a burst of connections");
            drop(burst);
            assert_eq!(pool.size() as usize, BURST);
            // Two rounds of the reaper, and a margin for a loaded machine.
            let given_back = Instant::now() + 2 * POSTGRES_IDLE_TIMEOUT + Duration::from_secs(3);
            while pool.size() > POSTGRES_MIN_CONNECTIONS {
                assert!(Instant::now() < given_back, "the pool still holds {} connections", pool.size());
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            // It keeps its minimum through the next rounds, which close the
            // idle ones and open others in their place: never none.
            let watched = Instant::now() + 2 * POSTGRES_IDLE_TIMEOUT;
            while Instant::now() < watched {
                assert!(pool.size() >= 1, "the pool keeps no connection");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            let kept = async || {
                let rows: Vec<(i64,)> = sqlx::query_as(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() \
                     AND pid <> pg_backend_pid()",
                )
                .fetch_all(&pool)
                .await
                .expect("the server's count");
                rows[0].0
            };
            // The server agrees (the statement's own connection aside).
            assert!(kept().await < BURST as i64 - 1, "the server still counts the burst's connections");
        });
    }

    /// A `COPY` left before its end, because its request was cancelled
    /// mid-read or a row was refused, leaves a connection that owes the
    /// rest of its answer: the transaction refuses every later statement,
    /// and the connection is closed, not handed to the next request (a pool
    /// of one connection here, so the next transaction would get it).
    #[test]
    fn a_copy_left_before_its_end_never_answers_another_statement() {
        let many = Sql::new("SELECT n FROM generate_series(1, 200000) AS n");
        let few = Sql::new("SELECT n FROM generate_series(1, 3) AS n");
        let pg = microversion_testkit::postgres::PgServer::start();
        let url = pg.create_database("copy_left");
        runtime().block_on(async {
            let pool = Pool::Postgres(
                sqlx::postgres::PgPoolOptions::new().max_connections(1).connect(&url).await.expect("a pool"),
            );
            let deadline = || Instant::now() + Duration::from_secs(10);
            let integer = |r: &Row| r.get::<i64>(0);
            let refused =
                |_: &Row| -> Result<i64, StoreError> { Err(StoreError::Unavailable("refused".into())) };

            // Cancelled: the read's future polled once (the `COPY` sent and
            // its first lines pending), then dropped.
            let tx = Tx::begin(&pool, Access::Read, deadline()).await.expect("a transaction");
            let once = futures_util::FutureExt::now_or_never(tx.query_table(&many, integer));
            assert!(once.is_none(), "200,000 rows are not read in one poll");
            assert!(tx.query_table(&few, integer).await.is_err());
            assert!(tx.exists("SELECT 1 WHERE 1 = $1", params![1_i64]).await.is_err());
            assert!(tx.commit(deadline()).await.is_err(), "no commit either");

            // Refused by its reader at the first row.
            let tx = Tx::begin(&pool, Access::Read, deadline()).await.expect("a second transaction");
            assert!(tx.query_table(&many, refused).await.is_err());
            assert!(tx.query_table(&few, integer).await.is_err());
            drop(tx);

            // The pool's one connection answers the next transaction's own
            // statements, typed and copied.
            let tx = Tx::begin(&pool, Access::Read, deadline()).await.expect("a third transaction");
            let typed = tx.query_row("SELECT CAST($1 AS BIGINT) + 1", params![41_i64], integer).await;
            assert_eq!(typed.expect("a typed row"), 42);
            assert_eq!(tx.query_table(&few, integer).await.expect("copied rows"), [1, 2, 3]);
            let all = tx.query_table(&many, integer).await.expect("every row");
            assert_eq!((all.len(), all.last()), (200_000, Some(&200_000)));
            tx.commit(deadline()).await.expect("the commit");
        });
    }
}
