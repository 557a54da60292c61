//! SQLite storage: one file, the schema made on first start, every change
//! in a transaction that checks the generations it relies on.

use std::path::Path;
use std::sync::Mutex;

use microversion_actix::ApiError;
use rusqlite::{Connection, OptionalExtension, Transaction, params};

use crate::errors;
use crate::standard;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS resource_providers (
    id INTEGER PRIMARY KEY,
    uuid TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL UNIQUE,
    generation INTEGER NOT NULL DEFAULT 0,
    parent_id INTEGER REFERENCES resource_providers(id),
    root_id INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS resource_classes (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS inventories (
    provider_id INTEGER NOT NULL,
    resource_class TEXT NOT NULL,
    total INTEGER NOT NULL,
    reserved INTEGER NOT NULL,
    min_unit INTEGER NOT NULL,
    max_unit INTEGER NOT NULL,
    step_size INTEGER NOT NULL,
    allocation_ratio REAL NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (provider_id, resource_class)
);
CREATE TABLE IF NOT EXISTS traits (
    name TEXT PRIMARY KEY,
    created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS provider_traits (
    provider_id INTEGER NOT NULL,
    trait TEXT NOT NULL,
    PRIMARY KEY (provider_id, trait)
);
CREATE TABLE IF NOT EXISTS provider_aggregates (
    provider_id INTEGER NOT NULL,
    aggregate TEXT NOT NULL,
    PRIMARY KEY (provider_id, aggregate)
);
CREATE TABLE IF NOT EXISTS consumers (
    uuid TEXT PRIMARY KEY,
    project_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    generation INTEGER NOT NULL DEFAULT 0,
    consumer_type TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS allocations (
    id INTEGER PRIMARY KEY,
    provider_id INTEGER NOT NULL,
    consumer_uuid TEXT NOT NULL,
    resource_class TEXT NOT NULL,
    used INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS allocations_consumer ON allocations (consumer_uuid);
CREATE INDEX IF NOT EXISTS allocations_provider ON allocations (provider_id);
";

/// The first id of a custom resource class (Placement's `CUSTOM_NAMESPACE`).
const FIRST_CUSTOM_CLASS_ID: i64 = 10000;

/// The database: one connection, one writer at a time.
pub struct Store {
    conn: Mutex<Connection>,
}

/// Seconds since the epoch, the timestamps of every row.
pub fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

impl Store {
    /// Opens (creating it if needed) the database at `path` and seeds the
    /// standard resource classes and traits.
    pub fn open(path: &Path) -> rusqlite::Result<Store> {
        let conn = Connection::open(path)?;
        conn.execute_batch("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")?;
        conn.execute_batch(SCHEMA)?;
        let store = Store { conn: Mutex::new(conn) };
        store.seed()?;
        Ok(store)
    }

    /// An in-memory database, for tests.
    pub fn in_memory() -> rusqlite::Result<Store> {
        let conn = Connection::open_in_memory()?;
        conn.execute_batch(SCHEMA)?;
        let store = Store { conn: Mutex::new(conn) };
        store.seed()?;
        Ok(store)
    }

    fn seed(&self) -> rusqlite::Result<()> {
        let mut conn = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        let tx = conn.transaction()?;
        let now = now();
        for (id, name) in standard::RESOURCE_CLASSES.iter().enumerate() {
            tx.execute(
                "INSERT OR IGNORE INTO resource_classes (id, name, created_at, updated_at) VALUES (?1, ?2, ?3, ?3)",
                params![id as i64, name, now],
            )?;
        }
        for name in standard::TRAITS {
            tx.execute(
                "INSERT OR IGNORE INTO traits (name, created_at) VALUES (?1, ?2)",
                params![name, now],
            )?;
        }
        tx.commit()
    }

    /// Runs `f` in a transaction, committed when it returns `Ok`.
    pub fn tx<T>(&self, f: impl FnOnce(&Transaction<'_>) -> Result<T, ApiError>) -> Result<T, ApiError> {
        let mut conn = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        let tx = conn.transaction().map_err(errors::internal)?;
        let value = f(&tx)?;
        tx.commit().map_err(errors::internal)?;
        Ok(value)
    }
}

/// Storage errors are the server's.
pub fn sql<T>(result: rusqlite::Result<T>) -> Result<T, ApiError> {
    result.map_err(errors::internal)
}

/// A resource provider row.
#[derive(Clone, Debug)]
pub struct Provider {
    /// Row id.
    pub id: i64,
    /// Its uuid.
    pub uuid: String,
    /// Its unique name.
    pub name: String,
    /// Bumped by every change of what it provides.
    pub generation: i64,
    /// The parent's uuid.
    pub parent_uuid: Option<String>,
    /// The root's uuid.
    pub root_uuid: String,
    /// Creation time.
    pub created_at: i64,
    /// Last change.
    pub updated_at: i64,
}

const PROVIDER_COLUMNS: &str = "p.id, p.uuid, p.name, p.generation, pp.uuid, r.uuid, p.created_at, p.updated_at \
     FROM resource_providers p LEFT JOIN resource_providers pp ON pp.id = p.parent_id \
     LEFT JOIN resource_providers r ON r.id = p.root_id";

fn provider_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Provider> {
    Ok(Provider {
        id: row.get(0)?,
        uuid: row.get(1)?,
        name: row.get(2)?,
        generation: row.get(3)?,
        parent_uuid: row.get(4)?,
        root_uuid: row.get(5)?,
        created_at: row.get(6)?,
        updated_at: row.get(7)?,
    })
}

/// The provider with `uuid`.
pub fn provider(tx: &Connection, uuid: &str) -> Result<Option<Provider>, ApiError> {
    sql(tx
        .query_row(&format!("SELECT {PROVIDER_COLUMNS} WHERE p.uuid = ?1"), [uuid], provider_row)
        .optional())
}

/// The provider with `uuid`, or 404.
pub fn provider_or_404(tx: &Connection, uuid: &str) -> Result<Provider, ApiError> {
    provider(tx, uuid)?.ok_or_else(|| errors::provider_not_found(uuid))
}

/// Providers matching a `WHERE` clause over `p`, ordered by id.
pub fn providers_where(
    tx: &Connection,
    clause: &str,
    args: &[&dyn rusqlite::ToSql],
) -> Result<Vec<Provider>, ApiError> {
    let mut stmt = sql(tx.prepare(&format!("SELECT {PROVIDER_COLUMNS} WHERE {clause} ORDER BY p.id")))?;
    let rows = sql(stmt.query_map(args, provider_row))?;
    sql(rows.collect())
}

/// Bumps the generation of provider `id` if it is still `expected`:
/// otherwise the change lost a race, 409 `placement.concurrent_update`.
pub fn bump_provider(tx: &Connection, id: i64, expected: i64) -> Result<i64, ApiError> {
    let changed = sql(tx.execute(
        "UPDATE resource_providers SET generation = generation + 1, updated_at = ?3 WHERE id = ?1 AND generation = ?2",
        params![id, expected, now()],
    ))?;
    if changed == 0 {
        return Err(errors::provider_generation_conflict());
    }
    Ok(expected + 1)
}

/// Whether a resource class exists.
pub fn class_exists(tx: &Connection, name: &str) -> Result<bool, ApiError> {
    sql(tx.query_row("SELECT 1 FROM resource_classes WHERE name = ?1", [name], |_| Ok(())).optional())
        .map(|r| r.is_some())
}

/// Creates a custom resource class.
pub fn create_class(tx: &Connection, name: &str) -> Result<(), ApiError> {
    let next: i64 = sql(tx.query_row(
        "SELECT MAX(?1, COALESCE(MAX(id) + 1, ?1)) FROM resource_classes",
        [FIRST_CUSTOM_CLASS_ID],
        |r| r.get(0),
    ))?;
    let now = now();
    sql(tx.execute(
        "INSERT INTO resource_classes (id, name, created_at, updated_at) VALUES (?1, ?2, ?3, ?3)",
        params![next, name, now],
    ))?;
    Ok(())
}

/// Whether a trait exists.
pub fn trait_exists(tx: &Connection, name: &str) -> Result<bool, ApiError> {
    sql(tx.query_row("SELECT 1 FROM traits WHERE name = ?1", [name], |_| Ok(())).optional())
        .map(|r| r.is_some())
}

/// One inventory record.
#[derive(Clone, Debug, PartialEq)]
pub struct Inventory {
    /// Its resource class.
    pub resource_class: String,
    /// The total amount.
    pub total: i64,
    /// Held back from allocation.
    pub reserved: i64,
    /// Smallest allocation.
    pub min_unit: i64,
    /// Largest allocation.
    pub max_unit: i64,
    /// Allocations are multiples of this.
    pub step_size: i64,
    /// Overcommit factor.
    pub allocation_ratio: f64,
    /// Last change.
    pub updated_at: i64,
}

impl Inventory {
    /// What can be allocated: `(total - reserved) * allocation_ratio`.
    pub fn capacity(&self) -> i64 {
        ((self.total - self.reserved) as f64 * self.allocation_ratio) as i64
    }
}

/// The inventories of provider `id`, by resource class name.
pub fn inventories(tx: &Connection, id: i64) -> Result<Vec<Inventory>, ApiError> {
    let mut stmt = sql(tx.prepare(
        "SELECT resource_class, total, reserved, min_unit, max_unit, step_size, allocation_ratio, updated_at \
         FROM inventories WHERE provider_id = ?1 ORDER BY resource_class",
    ))?;
    let rows = sql(stmt.query_map([id], |r| {
        Ok(Inventory {
            resource_class: r.get(0)?,
            total: r.get(1)?,
            reserved: r.get(2)?,
            min_unit: r.get(3)?,
            max_unit: r.get(4)?,
            step_size: r.get(5)?,
            allocation_ratio: r.get(6)?,
            updated_at: r.get(7)?,
        })
    }))?;
    sql(rows.collect())
}

/// What is used of each class on provider `id`.
pub fn usages(tx: &Connection, id: i64) -> Result<Vec<(String, i64)>, ApiError> {
    let mut stmt = sql(tx.prepare(
        "SELECT resource_class, SUM(used) FROM allocations WHERE provider_id = ?1 GROUP BY resource_class",
    ))?;
    let rows = sql(stmt.query_map([id], |r| Ok((r.get(0)?, r.get(1)?))))?;
    sql(rows.collect())
}

/// Replaces an inventory record (insert or update).
pub fn put_inventory(tx: &Connection, id: i64, inv: &Inventory) -> Result<(), ApiError> {
    let now = now();
    sql(tx.execute(
        "INSERT INTO inventories (provider_id, resource_class, total, reserved, min_unit, max_unit, step_size, \
         allocation_ratio, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9) \
         ON CONFLICT (provider_id, resource_class) DO UPDATE SET total = ?3, reserved = ?4, min_unit = ?5, \
         max_unit = ?6, step_size = ?7, allocation_ratio = ?8, updated_at = ?9",
        params![
            id,
            inv.resource_class,
            inv.total,
            inv.reserved,
            inv.min_unit,
            inv.max_unit,
            inv.step_size,
            inv.allocation_ratio,
            now
        ],
    ))?;
    Ok(())
}
