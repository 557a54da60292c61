//! One code path over two databases: SQLite (rusqlite) and PostgreSQL (the
//! `postgres` crate). The handlers write one SQL dialect, the common ground
//! of both (`?1` parameters, `INSERT ... ON CONFLICT`, `RETURNING`,
//! `CAST(... AS BIGINT)`), run it through a [`Tx`], and read rows of
//! [`Value`]s: `?N` becomes `$N` for PostgreSQL, and values are converted to
//! and from the types the server inferred.

use std::cell::RefCell;

use microversion_actix::ApiError;
use postgres::types::{IsNull, ToSql, Type, to_sql_checked};

use crate::errors;

/// A parameter or a column value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// SQL `NULL`.
    Null,
    /// An integer.
    Int(i64),
    /// A float.
    Real(f64),
    /// Text.
    Text(String),
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
impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Null, Into::into)
    }
}

/// Parameters, each borrowed and converted with `Into<Value>`.
#[macro_export]
macro_rules! params {
    ($($value:expr),* $(,)?) => { &[$($crate::db::Value::from(&$value)),*][..] };
}
pub use params;

/// A column read back as a Rust type.
pub trait FromValue: Sized {
    /// The conversion, `None` when the value has another type.
    fn from_value(value: &Value) -> Option<Self>;
}
impl FromValue for i64 {
    fn from_value(value: &Value) -> Option<i64> {
        match value {
            Value::Int(v) => Some(*v),
            _ => None,
        }
    }
}
impl FromValue for f64 {
    fn from_value(value: &Value) -> Option<f64> {
        match value {
            Value::Real(v) => Some(*v),
            Value::Int(v) => Some(*v as f64),
            _ => None,
        }
    }
}
impl FromValue for String {
    fn from_value(value: &Value) -> Option<String> {
        match value {
            Value::Text(v) => Some(v.clone()),
            _ => None,
        }
    }
}
impl<T: FromValue> FromValue for Option<T> {
    fn from_value(value: &Value) -> Option<Option<T>> {
        match value {
            Value::Null => Some(None),
            other => T::from_value(other).map(Some),
        }
    }
}

/// A row: its columns in order.
pub struct Row(Vec<Value>);

impl Row {
    /// Column `i` as a `T`; a missing column or another type is the server's error.
    pub fn get<T: FromValue>(&self, i: usize) -> Result<T, ApiError> {
        self.0
            .get(i)
            .and_then(T::from_value)
            .ok_or_else(|| errors::internal(format!("column {i}: unexpected value {:?}", self.0.get(i))))
    }
}

/// A transaction on either database.
pub enum Tx<'a> {
    /// SQLite.
    Sqlite(&'a rusqlite::Transaction<'a>),
    /// PostgreSQL.
    Postgres(RefCell<postgres::Transaction<'a>>),
}

impl Tx<'_> {
    /// Runs a statement; the number of rows it changed.
    pub fn execute(&self, sql: &str, params: &[Value]) -> Result<usize, ApiError> {
        match self {
            Tx::Sqlite(tx) => {
                tx.execute(sql, rusqlite::params_from_iter(params.iter())).map_err(errors::internal)
            }
            Tx::Postgres(tx) => {
                let args: Vec<&(dyn ToSql + Sync)> =
                    params.iter().map(|p| p as &(dyn ToSql + Sync)).collect();
                let n = tx.borrow_mut().execute(postgres_sql(sql).as_str(), &args).map_err(pg_error)?;
                Ok(n as usize)
            }
        }
    }

    /// Every row of a query.
    pub fn query(&self, sql: &str, params: &[Value]) -> Result<Vec<Row>, ApiError> {
        match self {
            Tx::Sqlite(tx) => {
                let mut stmt = tx.prepare_cached(sql).map_err(errors::internal)?;
                let columns = stmt.column_count();
                let rows = stmt
                    .query_map(rusqlite::params_from_iter(params.iter()), |r| {
                        (0..columns)
                            .map(|i| {
                                Ok(match r.get_ref(i)? {
                                    rusqlite::types::ValueRef::Null => Value::Null,
                                    rusqlite::types::ValueRef::Integer(v) => Value::Int(v),
                                    rusqlite::types::ValueRef::Real(v) => Value::Real(v),
                                    rusqlite::types::ValueRef::Text(v)
                                    | rusqlite::types::ValueRef::Blob(v) => {
                                        Value::Text(String::from_utf8_lossy(v).into_owned())
                                    }
                                })
                            })
                            .collect::<rusqlite::Result<Vec<Value>>>()
                            .map(Row)
                    })
                    .map_err(errors::internal)?;
                rows.collect::<rusqlite::Result<Vec<Row>>>().map_err(errors::internal)
            }
            Tx::Postgres(tx) => {
                let args: Vec<&(dyn ToSql + Sync)> =
                    params.iter().map(|p| p as &(dyn ToSql + Sync)).collect();
                let rows = tx.borrow_mut().query(postgres_sql(sql).as_str(), &args).map_err(pg_error)?;
                rows.iter().map(pg_row).collect()
            }
        }
    }

    /// The rows of a query, each read by `f`.
    pub fn query_map<T>(
        &self,
        sql: &str,
        params: &[Value],
        f: impl Fn(&Row) -> Result<T, ApiError>,
    ) -> Result<Vec<T>, ApiError> {
        self.query(sql, params)?.iter().map(f).collect()
    }

    /// The first row of a query read by `f`, if there is one.
    pub fn query_opt<T>(
        &self,
        sql: &str,
        params: &[Value],
        f: impl Fn(&Row) -> Result<T, ApiError>,
    ) -> Result<Option<T>, ApiError> {
        self.query(sql, params)?.first().map(f).transpose()
    }

    /// The first row of a query read by `f`; no row is the server's error.
    pub fn query_row<T>(
        &self,
        sql: &str,
        params: &[Value],
        f: impl Fn(&Row) -> Result<T, ApiError>,
    ) -> Result<T, ApiError> {
        self.query_opt(sql, params, f)?.ok_or_else(|| errors::internal("no row"))
    }

    /// Whether a query has a row.
    pub fn exists(&self, sql: &str, params: &[Value]) -> Result<bool, ApiError> {
        Ok(!self.query(sql, params)?.is_empty())
    }
}

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(ToSqlOutput::Borrowed(match self {
            Value::Null => ValueRef::Null,
            Value::Int(v) => ValueRef::Integer(*v),
            Value::Real(v) => ValueRef::Real(*v),
            Value::Text(v) => ValueRef::Text(v.as_bytes()),
        }))
    }
}

impl ToSql for Value {
    /// Written as the type the server inferred for the parameter.
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut postgres::types::private::BytesMut,
    ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match self {
            Value::Null => Ok(IsNull::Yes),
            Value::Int(v) => match *ty {
                Type::INT2 => i16::try_from(*v)?.to_sql(ty, out),
                Type::INT4 => i32::try_from(*v)?.to_sql(ty, out),
                Type::FLOAT8 => (*v as f64).to_sql(ty, out),
                Type::FLOAT4 => (*v as f32).to_sql(ty, out),
                Type::TEXT | Type::VARCHAR => v.to_string().to_sql(ty, out),
                _ => v.to_sql(ty, out),
            },
            Value::Real(v) => match *ty {
                Type::FLOAT4 => (*v as f32).to_sql(ty, out),
                _ => v.to_sql(ty, out),
            },
            Value::Text(v) => v.as_str().to_sql(ty, out),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

fn pg_row(row: &postgres::Row) -> Result<Row, ApiError> {
    let mut values = Vec::with_capacity(row.len());
    for (i, column) in row.columns().iter().enumerate() {
        let value = match *column.type_() {
            Type::INT8 => row.try_get::<_, Option<i64>>(i).map(|v| v.map(Value::Int)),
            Type::INT4 => row.try_get::<_, Option<i32>>(i).map(|v| v.map(|v| Value::Int(v.into()))),
            Type::INT2 => row.try_get::<_, Option<i16>>(i).map(|v| v.map(|v| Value::Int(v.into()))),
            Type::BOOL => row.try_get::<_, Option<bool>>(i).map(|v| v.map(|v| Value::Int(v.into()))),
            Type::FLOAT8 => row.try_get::<_, Option<f64>>(i).map(|v| v.map(Value::Real)),
            Type::FLOAT4 => row.try_get::<_, Option<f32>>(i).map(|v| v.map(|v| Value::Real(v.into()))),
            _ => row.try_get::<_, Option<String>>(i).map(|v| v.map(Value::Text)),
        }
        .map_err(errors::internal)?;
        values.push(value.unwrap_or(Value::Null));
    }
    Ok(Row(values))
}

/// `?N` (and a bare `?`) as PostgreSQL's `$N`, outside string literals.
pub fn postgres_sql(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 8);
    let mut chars = sql.chars().peekable();
    let mut in_string = false;
    let mut next = 1;
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_string = !in_string;
                out.push(c);
            }
            '?' if !in_string => {
                let mut digits = String::new();
                while let Some(d) = chars.peek().copied().filter(char::is_ascii_digit) {
                    digits.push(d);
                    chars.next();
                }
                if digits.is_empty() {
                    digits = next.to_string();
                    next += 1;
                }
                out.push('$');
                out.push_str(&digits);
            }
            _ => out.push(c),
        }
    }
    out
}

/// A PostgreSQL error: a lost race (a unique key taken meanwhile, a
/// serialization failure, a deadlock) is a 409 `placement.concurrent_update`;
/// anything else is the server's.
pub fn pg_error(error: postgres::Error) -> ApiError {
    use postgres::error::SqlState;
    match error.code() {
        Some(code)
            if *code == SqlState::UNIQUE_VIOLATION
                || *code == SqlState::T_R_SERIALIZATION_FAILURE
                || *code == SqlState::T_R_DEADLOCK_DETECTED =>
        {
            errors::concurrent_update(
                "Another thread concurrently updated the data. Please retry your update",
            )
        }
        _ => match error.as_db_error() {
            Some(db) => errors::internal(format!("{}: {}", db.code().code(), db.message())),
            None => errors::internal(error),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::postgres_sql;

    #[test]
    fn parameters_become_dollars() {
        assert_eq!(
            postgres_sql("SELECT ?1, ?12 WHERE a = '?' AND b = ?"),
            "SELECT $1, $12 WHERE a = '?' AND b = $1"
        );
    }
}
