//! The two databases behind [`super::Store`], and the little they need to share one
//! query text.
//!
//! Every query of the store is written once, in the SQL both SQLite and PostgreSQL
//! accept: parameters are `$1, $2, ...` (PostgreSQL's form; SQLite reads `$1` as a named
//! parameter, so for SQLite each `$N` becomes `?N`, which binds to index N exactly),
//! upserts are `INSERT ... ON CONFLICT ... DO UPDATE`, new ids come from `RETURNING id`,
//! and counts of a condition are `sum(CASE WHEN ... THEN 1 ELSE 0 END)`. Values travel as
//! [`Value`] (integer, real, text or null; a boolean is an integer 0 or 1) and come back
//! as [`Row`]s, so the store's code never sees which database it talks to. Values are
//! always bound as parameters, never spliced into SQL.
//!
//! A transaction is `BEGIN` (SQLite: `BEGIN IMMEDIATE`, which takes the write lock at
//! once, so two writers wait for each other instead of failing on upgrade) ... `COMMIT`,
//! or `ROLLBACK` when anything in it failed.

use std::time::Duration;

use anyhow::{Context, Result, bail};
use postgres::types::{IsNull, ToSql, Type, to_sql_checked};

use super::migrations;

/// How long SQLite waits for another writer's lock before giving up.
pub const SQLITE_BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// A value bound to a query or read from a row.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// SQL NULL.
    Null,
    /// An integer (also a boolean: 0 or 1).
    Int(i64),
    /// A floating-point number.
    Real(f64),
    /// Text.
    Text(String),
}

impl From<i64> for Value {
    fn from(v: i64) -> Self {
        Value::Int(v)
    }
}
impl From<bool> for Value {
    fn from(v: bool) -> Self {
        Value::Int(v as i64)
    }
}
impl From<f64> for Value {
    fn from(v: f64) -> Self {
        Value::Real(v)
    }
}
impl From<&str> for Value {
    fn from(v: &str) -> Self {
        Value::Text(v.to_string())
    }
}
impl From<&String> for Value {
    fn from(v: &String) -> Self {
        Value::Text(v.clone())
    }
}
impl<T: Clone + Into<Value>> From<&Option<T>> for Value {
    fn from(v: &Option<T>) -> Self {
        v.clone().map_or(Value::Null, Into::into)
    }
}
impl From<String> for Value {
    fn from(v: String) -> Self {
        Value::Text(v)
    }
}

/// One result row.
#[derive(Debug, Clone)]
pub struct Row(pub Vec<Value>);

impl Row {
    fn at(&self, i: usize) -> Result<&Value> {
        self.0
            .get(i)
            .with_context(|| format!("column {i} missing from a result row"))
    }

    /// An integer column (NULL is an error).
    pub fn int(&self, i: usize) -> Result<i64> {
        self.opt_int(i)?
            .with_context(|| format!("column {i} is NULL where a number belongs"))
    }

    /// An integer column that may be NULL.
    pub fn opt_int(&self, i: usize) -> Result<Option<i64>> {
        match self.at(i)? {
            Value::Null => Ok(None),
            Value::Int(v) => Ok(Some(*v)),
            other => bail!("column {i}: expected an integer, found {other:?}"),
        }
    }

    /// A boolean stored as an integer.
    pub fn bool(&self, i: usize) -> Result<bool> {
        Ok(self.int(i)? != 0)
    }

    /// A real column (an integer is widened; NULL is an error).
    pub fn real(&self, i: usize) -> Result<f64> {
        self.opt_real(i)?
            .with_context(|| format!("column {i} is NULL where a number belongs"))
    }

    /// A real column that may be NULL.
    pub fn opt_real(&self, i: usize) -> Result<Option<f64>> {
        match self.at(i)? {
            Value::Null => Ok(None),
            Value::Real(v) => Ok(Some(*v)),
            Value::Int(v) => Ok(Some(*v as f64)),
            other => bail!("column {i}: expected a number, found {other:?}"),
        }
    }

    /// A text column (NULL is an error).
    pub fn text(&self, i: usize) -> Result<String> {
        self.opt_text(i)?
            .with_context(|| format!("column {i} is NULL where text belongs"))
    }

    /// A text column that may be NULL.
    pub fn opt_text(&self, i: usize) -> Result<Option<String>> {
        match self.at(i)? {
            Value::Null => Ok(None),
            Value::Text(v) => Ok(Some(v.clone())),
            other => bail!("column {i}: expected text, found {other:?}"),
        }
    }
}

/// An open connection to one of the two databases.
pub enum Db {
    /// An SQLite file.
    Sqlite(rusqlite::Connection),
    /// A PostgreSQL server.
    Postgres(Box<postgres::Client>),
}

/// SQLite's form of a portable query: `$N` becomes `?N`.
fn sqlite_sql(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '$' && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push('?');
        } else {
            out.push(c);
        }
    }
    out
}

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(match self {
            Value::Null => ToSqlOutput::Borrowed(ValueRef::Null),
            Value::Int(v) => ToSqlOutput::Borrowed(ValueRef::Integer(*v)),
            Value::Real(v) => ToSqlOutput::Borrowed(ValueRef::Real(*v)),
            Value::Text(v) => ToSqlOutput::Borrowed(ValueRef::Text(v.as_bytes())),
        })
    }
}

impl ToSql for Value {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut postgres::types::private::BytesMut,
    ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match self {
            Value::Null => Ok(IsNull::Yes),
            Value::Int(v) if *ty == Type::INT8 => v.to_sql(ty, out),
            Value::Int(v) if *ty == Type::INT4 => i32::try_from(*v)?.to_sql(ty, out),
            Value::Int(v) if *ty == Type::INT2 => i16::try_from(*v)?.to_sql(ty, out),
            Value::Int(v) if *ty == Type::FLOAT8 => (*v as f64).to_sql(ty, out),
            Value::Int(v) if *ty == Type::BOOL => (*v != 0).to_sql(ty, out),
            Value::Real(v) if *ty == Type::FLOAT8 => v.to_sql(ty, out),
            Value::Real(v) if *ty == Type::FLOAT4 => (*v as f32).to_sql(ty, out),
            Value::Text(v) => v.as_str().to_sql(ty, out),
            other => Err(format!("cannot store {other:?} in a column of type {ty}").into()),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

fn pg_value(row: &postgres::Row, i: usize) -> Result<Value> {
    let ty = row.columns()[i].type_().clone();
    let v = if ty == Type::INT8 {
        row.try_get::<_, Option<i64>>(i)?.map(Value::Int)
    } else if ty == Type::INT4 {
        row.try_get::<_, Option<i32>>(i)?
            .map(|v| Value::Int(v.into()))
    } else if ty == Type::INT2 {
        row.try_get::<_, Option<i16>>(i)?
            .map(|v| Value::Int(v.into()))
    } else if ty == Type::BOOL {
        row.try_get::<_, Option<bool>>(i)?
            .map(|v| Value::Int(v.into()))
    } else if ty == Type::FLOAT8 {
        row.try_get::<_, Option<f64>>(i)?.map(Value::Real)
    } else if ty == Type::FLOAT4 {
        row.try_get::<_, Option<f32>>(i)?
            .map(|v| Value::Real(v.into()))
    } else if ty == Type::TEXT || ty == Type::VARCHAR || ty == Type::NAME || ty == Type::BPCHAR {
        row.try_get::<_, Option<String>>(i)?.map(Value::Text)
    } else {
        bail!(
            "column {} has type {ty}, which the store does not read (cast it in the query)",
            row.columns()[i].name()
        )
    };
    Ok(v.unwrap_or(Value::Null))
}

impl Db {
    /// Runs a statement; returns the number of rows it changed.
    pub fn execute(&mut self, sql: &str, params: &[Value]) -> Result<u64> {
        match self {
            Db::Sqlite(c) => {
                let mut st = c.prepare_cached(&sqlite_sql(sql))?;
                Ok(st.execute(rusqlite::params_from_iter(params.iter()))? as u64)
            }
            Db::Postgres(c) => {
                let refs: Vec<&(dyn ToSql + Sync)> =
                    params.iter().map(|p| p as &(dyn ToSql + Sync)).collect();
                Ok(c.execute(sql, &refs)?)
            }
        }
    }

    /// Runs a query; returns every row.
    pub fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>> {
        match self {
            Db::Sqlite(c) => {
                let mut st = c.prepare_cached(&sqlite_sql(sql))?;
                let n = st.column_count();
                let rows = st
                    .query_map(rusqlite::params_from_iter(params.iter()), |r| {
                        (0..n)
                            .map(|i| {
                                use rusqlite::types::ValueRef;
                                Ok(match r.get_ref(i)? {
                                    ValueRef::Null => Value::Null,
                                    ValueRef::Integer(v) => Value::Int(v),
                                    ValueRef::Real(v) => Value::Real(v),
                                    ValueRef::Text(t) | ValueRef::Blob(t) => {
                                        Value::Text(String::from_utf8_lossy(t).into_owned())
                                    }
                                })
                            })
                            .collect::<rusqlite::Result<Vec<_>>>()
                            .map(Row)
                    })?
                    .collect::<rusqlite::Result<Vec<_>>>()?;
                Ok(rows)
            }
            Db::Postgres(c) => {
                let refs: Vec<&(dyn ToSql + Sync)> =
                    params.iter().map(|p| p as &(dyn ToSql + Sync)).collect();
                c.query(sql, &refs)?
                    .iter()
                    .map(|r| (0..r.len()).map(|i| pg_value(r, i)).collect())
                    .map(|v: Result<Vec<Value>>| v.map(Row))
                    .collect()
            }
        }
    }

    /// Runs several statements with no parameters (a migration).
    pub fn batch(&mut self, sql: &str) -> Result<()> {
        match self {
            Db::Sqlite(c) => c.execute_batch(sql)?,
            Db::Postgres(c) => c.batch_execute(sql)?,
        }
        Ok(())
    }

    /// Starts a transaction that takes the write lock at once.
    pub fn begin(&mut self) -> Result<()> {
        match self {
            Db::Sqlite(_) => self.batch("BEGIN IMMEDIATE"),
            Db::Postgres(_) => self.batch("BEGIN"),
        }
    }

    /// Whether this is PostgreSQL.
    pub fn is_postgres(&self) -> bool {
        matches!(self, Db::Postgres(_))
    }

    /// The migrations in this database's dialect.
    pub fn migrations(&self) -> &'static [&'static str] {
        match self {
            Db::Sqlite(_) => migrations::SQLITE,
            Db::Postgres(_) => migrations::POSTGRES,
        }
    }

    /// The schema version of the database (0: not an actorbench store, or empty).
    pub fn version(&mut self) -> Result<i64> {
        let has_table = match self {
            Db::Sqlite(_) => self.query(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'",
                &[],
            )?,
            Db::Postgres(_) => self.query(
                "SELECT count(*) FROM information_schema.tables
                 WHERE table_schema = current_schema() AND table_name = 'schema_version'",
                &[],
            )?,
        };
        if has_table.first().map(|r| r.int(0)).transpose()? != Some(1) {
            return Ok(0);
        }
        let rows = self.query(
            "SELECT CAST(coalesce(max(version), 0) AS BIGINT) FROM schema_version",
            &[],
        )?;
        rows.first().map_or(Ok(0), |r| r.int(0))
    }

    /// Brings the schema up to date: each missing migration in its own transaction with
    /// its `schema_version` row. The version is read again inside each transaction under
    /// the write lock (SQLite: `BEGIN IMMEDIATE`; PostgreSQL: an advisory lock), so two
    /// harnesses opening a new store at once apply each migration exactly once.
    pub fn migrate(&mut self) -> Result<()> {
        let migrations = self.migrations();
        let latest = migrations.len() as i64;
        loop {
            self.begin()?;
            let step = (|| -> Result<bool> {
                if self.is_postgres() {
                    // Any constant works: it only has to be the same for every harness.
                    self.batch("SELECT pg_advisory_xact_lock(7236385463)")?;
                }
                self.batch("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")?;
                let current = self.version()?;
                if current > latest {
                    bail!("schema version {current} is newer than this actorbench ({latest})");
                }
                let Some(sql) = migrations.get(current as usize) else {
                    return Ok(false);
                };
                self.batch(sql)
                    .with_context(|| format!("migration {}", current + 1))?;
                self.execute(
                    "INSERT INTO schema_version (version) VALUES ($1)",
                    &[Value::Int(current + 1)],
                )?;
                Ok(true)
            })();
            match step {
                Ok(more) => {
                    self.batch("COMMIT")?;
                    if !more {
                        return Ok(());
                    }
                }
                Err(e) => {
                    let _ = self.batch("ROLLBACK");
                    return Err(e);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_become_sqlites_numbered_form() {
        assert_eq!(
            sqlite_sql("UPDATE t SET a = $2 WHERE id = $1 AND b = '$x'"),
            "UPDATE t SET a = ?2 WHERE id = ?1 AND b = '$x'"
        );
    }

    #[test]
    fn both_dialects_have_every_migration() {
        assert_eq!(migrations::SQLITE.len(), migrations::POSTGRES.len());
    }
}
