//! The state, in SQLite: flavors, their extra specs and keypairs, as a Nova
//! database would hold them. One database file is shared by every process
//! of a fleet (WAL, a busy timeout), so a flavor created through one node
//! is read through the others and survives a restart.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use actix_web::http::StatusCode;
use microversion_actix::ApiError;
use rusqlite::{Connection, OptionalExtension, Row, TransactionBehavior, params};

/// The user every request acts as: this example has no authentication.
pub(crate) const DEFAULT_USER: &str = "demo";

/// How long a write waits for another process's write to finish.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// A flavor as stored (Nova's `flavors` table).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Flavor {
    pub id: String,
    pub name: String,
    pub ram: u64,
    pub vcpus: u64,
    pub disk: u64,
    pub ephemeral: u64,
    pub swap: u64,
    pub rxtx_factor: f64,
    pub is_public: bool,
    pub description: Option<String>,
    pub extra_specs: BTreeMap<String, String>,
}

/// The two kinds of keypair Nova knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum KeyType {
    Ssh,
    X509,
}

impl KeyType {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            KeyType::Ssh => "ssh",
            KeyType::X509 => "x509",
        }
    }

    fn from_str(text: &str) -> KeyType {
        if text == "x509" { KeyType::X509 } else { KeyType::Ssh }
    }
}

/// A keypair as stored (Nova's `key_pairs` table).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Keypair {
    pub id: u64,
    pub name: String,
    pub user_id: String,
    pub public_key: String,
    pub fingerprint: String,
    pub key_type: KeyType,
    pub created_at: String,
}

/// The whole state, shared by every worker of a process (one connection)
/// and by every process that opens the same file.
pub struct Store {
    db: Mutex<Connection>,
}

/// Why an insert was refused.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Conflict {
    Id,
    Name,
}

/// The store failed: the database could not be read or written (a full or
/// read-only disk, a corrupt file, a missing table, a lock held too long).
///
/// It is never an answer about the data: not an empty list, not a 404, not
/// a 409 "already exists". A handler returns it with `?` and the client gets
/// **503 Service Unavailable** in the API's format (Nova's
/// `serviceUnavailable` fault) with a generic message naming the request id;
/// the error itself is logged with that id, never shown. 503 rather than 500
/// because the fault is the service's state, not the request: nothing was
/// changed (a failed SQLite transaction is rolled back) and the same request
/// may succeed once the database is back, which is what 503 tells clients
/// (503 is among the status codes keystoneauth1 retries when asked to) and
/// load balancers (docs/08-errors.md).
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Unavailable {
    request_id: String,
}

impl Unavailable {
    /// Logs `error` with a new request id, which the answer repeats.
    fn logged(error: &rusqlite::Error) -> Unavailable {
        let request_id = format!("req-{}", uuid::Uuid::new_v4());
        eprintln!("compute: database error [{request_id}]: {error}");
        Unavailable { request_id }
    }
}

impl From<Unavailable> for ApiError {
    fn from(failure: Unavailable) -> ApiError {
        ApiError::from_status(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "The compute service cannot use its database at the moment; the request was not carried \
                 out. Try again later. (Request ID {})",
                failure.request_id
            ),
        )
        .with_request_id(failure.request_id)
    }
}

/// What a store call answers: its result, or [`Unavailable`] after logging.
pub(crate) type Stored<T> = Result<T, Unavailable>;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS flavors (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    ram INTEGER NOT NULL,
    vcpus INTEGER NOT NULL,
    disk INTEGER NOT NULL,
    ephemeral INTEGER NOT NULL,
    swap INTEGER NOT NULL,
    rxtx_factor REAL NOT NULL,
    is_public INTEGER NOT NULL,
    description TEXT,
    extra_specs TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS key_pairs (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    user_id TEXT NOT NULL,
    public_key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    key_type TEXT NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (user_id, name)
);
";

/// devstack's m1 flavors: what a fresh database starts with.
const DEFAULT_FLAVORS: [(&str, &str, u64, u64, u64); 5] = [
    ("1", "m1.tiny", 512, 1, 1),
    ("2", "m1.small", 2048, 1, 20),
    ("3", "m1.medium", 4096, 2, 40),
    ("4", "m1.large", 8192, 4, 80),
    ("5", "m1.xlarge", 16384, 8, 160),
];

fn lock(mutex: &Mutex<Connection>) -> MutexGuard<'_, Connection> {
    // Every change is one transaction: a panicking handler leaves none half-written.
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A database error is a broken store, never an answer about the data: it
/// is logged with a request id and becomes [`Unavailable`].
fn logged<T>(result: rusqlite::Result<T>) -> Stored<T> {
    result.map_err(|e| Unavailable::logged(&e))
}

fn flavor_of(row: &Row<'_>) -> rusqlite::Result<Flavor> {
    let specs: String = row.get(10)?;
    Ok(Flavor {
        id: row.get(0)?,
        name: row.get(1)?,
        ram: row.get::<_, i64>(2)? as u64,
        vcpus: row.get::<_, i64>(3)? as u64,
        disk: row.get::<_, i64>(4)? as u64,
        ephemeral: row.get::<_, i64>(5)? as u64,
        swap: row.get::<_, i64>(6)? as u64,
        rxtx_factor: row.get(7)?,
        is_public: row.get(8)?,
        description: row.get(9)?,
        // Unreadable extra specs are a corrupt row, not a flavor without any.
        extra_specs: serde_json::from_str(&specs).map_err(|e| {
            rusqlite::Error::FromSqlConversionFailure(10, rusqlite::types::Type::Text, e.into())
        })?,
    })
}

fn keypair_of(row: &Row<'_>) -> rusqlite::Result<Keypair> {
    Ok(Keypair {
        id: row.get::<_, i64>(0)? as u64,
        name: row.get(1)?,
        user_id: row.get(2)?,
        public_key: row.get(3)?,
        fingerprint: row.get(4)?,
        key_type: KeyType::from_str(&row.get::<_, String>(5)?),
        created_at: row.get(6)?,
    })
}

const FLAVOR_COLUMNS: &str =
    "id, name, ram, vcpus, disk, ephemeral, swap, rxtx_factor, is_public, description, extra_specs";
const KEYPAIR_COLUMNS: &str = "id, name, user_id, public_key, fingerprint, key_type, created_at";

fn write_flavor(db: &Connection, flavor: &Flavor, replace: bool) -> rusqlite::Result<usize> {
    let verb = if replace { "REPLACE" } else { "INSERT" };
    db.execute(
        &format!(
            "{verb} INTO flavors ({FLAVOR_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)"
        ),
        params![
            flavor.id,
            flavor.name,
            flavor.ram as i64,
            flavor.vcpus as i64,
            flavor.disk as i64,
            flavor.ephemeral as i64,
            flavor.swap as i64,
            flavor.rxtx_factor,
            flavor.is_public,
            flavor.description,
            serde_json::to_string(&flavor.extra_specs).unwrap_or_else(|_| "{}".into()),
        ],
    )
}

impl Store {
    /// Opens (creating it on first start) the database at `path`, in WAL
    /// mode with a busy timeout so that several processes share it; a new
    /// database gets devstack's m1 flavors.
    pub fn open(path: &Path) -> rusqlite::Result<Store> {
        let db = Connection::open(path)?;
        db.busy_timeout(BUSY_TIMEOUT)?;
        db.pragma_update(None, "journal_mode", "WAL")?;
        db.pragma_update(None, "synchronous", "NORMAL")?;
        Store::init(db)
    }

    /// A private database in memory, gone with the process: what tests get.
    pub fn in_memory() -> rusqlite::Result<Store> {
        Store::init(Connection::open_in_memory()?)
    }

    fn init(mut db: Connection) -> rusqlite::Result<Store> {
        let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute_batch(SCHEMA)?;
        let empty: bool = tx.query_row("SELECT NOT EXISTS (SELECT 1 FROM flavors)", [], |r| r.get(0))?;
        let fresh: bool = tx.query_row("SELECT NOT EXISTS (SELECT 1 FROM key_pairs)", [], |r| r.get(0))?;
        if empty && fresh {
            for (id, name, ram, vcpus, disk) in DEFAULT_FLAVORS {
                let flavor = Flavor {
                    id: id.into(),
                    name: name.into(),
                    ram,
                    vcpus,
                    disk,
                    ephemeral: 0,
                    swap: 0,
                    rxtx_factor: 1.0,
                    is_public: true,
                    description: None,
                    extra_specs: BTreeMap::new(),
                };
                write_flavor(&tx, &flavor, false)?;
            }
        }
        tx.commit()?;
        Ok(Store { db: Mutex::new(db) })
    }

    /// The state a fresh test server starts with: devstack's m1 flavors, no
    /// keypairs, in memory.
    pub fn with_default_flavors() -> Store {
        Store::in_memory().expect("an in-memory SQLite database opens")
    }

    pub(crate) fn flavors(&self) -> Stored<Vec<Flavor>> {
        let db = lock(&self.db);
        logged((|| {
            let mut statement =
                db.prepare_cached(&format!("SELECT {FLAVOR_COLUMNS} FROM flavors ORDER BY id"))?;
            statement.query_map([], flavor_of)?.collect()
        })())
    }

    pub(crate) fn flavor(&self, id: &str) -> Stored<Option<Flavor>> {
        let db = lock(&self.db);
        logged(
            db.query_row(&format!("SELECT {FLAVOR_COLUMNS} FROM flavors WHERE id = ?1"), [id], flavor_of)
                .optional(),
        )
    }

    /// Stores a new flavor, unless its id or name is taken.
    pub(crate) fn insert_flavor(&self, flavor: Flavor) -> Stored<Result<(), Conflict>> {
        let mut db = lock(&self.db);
        logged((|| {
            let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let id_taken: bool =
                tx.query_row("SELECT EXISTS (SELECT 1 FROM flavors WHERE id = ?1)", [&flavor.id], |r| {
                    r.get(0)
                })?;
            if id_taken {
                return Ok(Err(Conflict::Id));
            }
            let name_taken: bool =
                tx.query_row("SELECT EXISTS (SELECT 1 FROM flavors WHERE name = ?1)", [&flavor.name], |r| {
                    r.get(0)
                })?;
            if name_taken {
                return Ok(Err(Conflict::Name));
            }
            write_flavor(&tx, &flavor, false)?;
            tx.commit()?;
            Ok(Ok(()))
        })())
    }

    /// Applies `change` to the flavor `id` and returns the result (`None`:
    /// no such flavor).
    pub(crate) fn update_flavor(&self, id: &str, change: impl FnOnce(&mut Flavor)) -> Stored<Option<Flavor>> {
        let mut db = lock(&self.db);
        logged((|| {
            let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let Some(mut flavor) = tx
                .query_row(&format!("SELECT {FLAVOR_COLUMNS} FROM flavors WHERE id = ?1"), [id], flavor_of)
                .optional()?
            else {
                return Ok(None);
            };
            change(&mut flavor);
            write_flavor(&tx, &flavor, true)?;
            tx.commit()?;
            Ok(Some(flavor))
        })())
    }

    /// Deletes the flavor `id`; `false`: there was none.
    pub(crate) fn remove_flavor(&self, id: &str) -> Stored<bool> {
        logged(lock(&self.db).execute("DELETE FROM flavors WHERE id = ?1", [id])).map(|n| n > 0)
    }

    /// The keypairs of `user_id`, ordered by name.
    pub(crate) fn keypairs(&self, user_id: &str) -> Stored<Vec<Keypair>> {
        let db = lock(&self.db);
        logged((|| {
            let mut statement = db.prepare_cached(&format!(
                "SELECT {KEYPAIR_COLUMNS} FROM key_pairs WHERE user_id = ?1 ORDER BY name"
            ))?;
            statement.query_map([user_id], keypair_of)?.collect()
        })())
    }

    pub(crate) fn keypair(&self, user_id: &str, name: &str) -> Stored<Option<Keypair>> {
        let db = lock(&self.db);
        logged(
            db.query_row(
                &format!("SELECT {KEYPAIR_COLUMNS} FROM key_pairs WHERE user_id = ?1 AND name = ?2"),
                [user_id, name],
                keypair_of,
            )
            .optional(),
        )
    }

    /// Stores a new keypair, giving it the next id, unless its name is taken.
    pub(crate) fn insert_keypair(&self, mut keypair: Keypair) -> Stored<Result<Keypair, Conflict>> {
        let mut db = lock(&self.db);
        logged((|| {
            let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let taken: bool = tx.query_row(
                "SELECT EXISTS (SELECT 1 FROM key_pairs WHERE user_id = ?1 AND name = ?2)",
                [&keypair.user_id, &keypair.name],
                |r| r.get(0),
            )?;
            if taken {
                return Ok(Err(Conflict::Name));
            }
            let next: i64 =
                tx.query_row("SELECT COALESCE(MAX(id), 0) + 1 FROM key_pairs", [], |r| r.get(0))?;
            keypair.id = next as u64;
            tx.execute(
                &format!("INSERT INTO key_pairs ({KEYPAIR_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"),
                params![
                    next,
                    keypair.name,
                    keypair.user_id,
                    keypair.public_key,
                    keypair.fingerprint,
                    keypair.key_type.as_str(),
                    keypair.created_at,
                ],
            )?;
            tx.commit()?;
            Ok(Ok(keypair))
        })())
    }

    /// Deletes a keypair; `false`: there was none.
    pub(crate) fn remove_keypair(&self, user_id: &str, name: &str) -> Stored<bool> {
        logged(
            lock(&self.db).execute("DELETE FROM key_pairs WHERE user_id = ?1 AND name = ?2", [user_id, name]),
        )
        .map(|n| n > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_db(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("compute-store-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("compute.sqlite3")
    }

    #[test]
    fn two_processes_share_one_file_and_it_survives_a_restart() {
        let path = temp_db("share");
        let (a, b) = (Store::open(&path).unwrap(), Store::open(&path).unwrap());
        assert_eq!(a.flavors().unwrap().len(), 5, "seeded once");
        let mut flavor = a.flavor("1").unwrap().unwrap();
        flavor.id = "42".into();
        flavor.name = "shared".into();
        flavor.extra_specs.insert("hw:cpu_policy".into(), "dedicated".into());
        a.insert_flavor(flavor.clone()).unwrap().unwrap();
        assert_eq!(b.flavor("42"), Ok(Some(flavor.clone())));
        assert_eq!(b.insert_flavor(flavor.clone()), Ok(Err(Conflict::Id)));
        drop((a, b));
        let again = Store::open(&path).unwrap();
        assert_eq!(again.flavor("42"), Ok(Some(flavor)));
        assert_eq!(again.flavors().unwrap().len(), 6, "not seeded twice");
        assert!(again.remove_flavor("42").unwrap() && !again.remove_flavor("42").unwrap());
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn a_broken_store_is_unavailable_never_empty_absent_or_taken() {
        let path = temp_db("broken");
        let store = Store::open(&path).unwrap();
        let keypair = Keypair {
            id: 0,
            name: "k".into(),
            user_id: DEFAULT_USER.into(),
            public_key: "ssh-ed25519 AAAA".into(),
            fingerprint: "00".into(),
            key_type: KeyType::Ssh,
            created_at: "2026-01-01T00:00:00Z".into(),
        };
        let flavor = store.flavor("1").unwrap().unwrap();
        Connection::open(&path).unwrap().execute_batch("DROP TABLE flavors; DROP TABLE key_pairs;").unwrap();
        assert!(store.flavors().is_err() && store.flavor("1").is_err());
        assert!(store.insert_flavor(flavor).is_err() && store.update_flavor("1", |_| ()).is_err());
        assert!(store.remove_flavor("1").is_err() && store.keypairs(DEFAULT_USER).is_err());
        assert!(store.keypair(DEFAULT_USER, "k").is_err() && store.insert_keypair(keypair).is_err());
        let failure = store.remove_keypair(DEFAULT_USER, "k").unwrap_err();
        let error = ApiError::from(failure);
        assert_eq!(error.status(), StatusCode::SERVICE_UNAVAILABLE);
        let id = error.request_id().expect("a request id").to_owned();
        assert!(id.starts_with("req-") && error.detail().contains(&id), "{}", error.detail());
        assert!(!error.detail().contains("no such table"), "the cause is logged, not shown");
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }
}
