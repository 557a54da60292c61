//! The state, in SQLite: flavors, their extra specs and keypairs, as a Nova
//! database would hold them. One database file is shared by every process
//! of a fleet (WAL, a busy timeout), so a flavor created through one node
//! is read through the others and survives a restart.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

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

/// A database error in a handler is a bug or a broken disk: the 500 hides
/// it (docs/reference.md §5.4) and the log says what it was.
fn logged<T: Default>(result: rusqlite::Result<T>) -> T {
    result.unwrap_or_else(|e| {
        eprintln!("compute: database error: {e}");
        T::default()
    })
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
        extra_specs: serde_json::from_str(&specs).unwrap_or_default(),
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

    pub(crate) fn flavors(&self) -> Vec<Flavor> {
        let db = lock(&self.db);
        logged((|| {
            let mut statement =
                db.prepare_cached(&format!("SELECT {FLAVOR_COLUMNS} FROM flavors ORDER BY id"))?;
            statement.query_map([], flavor_of)?.collect()
        })())
    }

    pub(crate) fn flavor(&self, id: &str) -> Option<Flavor> {
        let db = lock(&self.db);
        logged(
            db.query_row(&format!("SELECT {FLAVOR_COLUMNS} FROM flavors WHERE id = ?1"), [id], flavor_of)
                .optional(),
        )
    }

    pub(crate) fn insert_flavor(&self, flavor: Flavor) -> Result<(), Conflict> {
        let mut db = lock(&self.db);
        let result = (|| {
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
        })();
        result.unwrap_or_else(|e: rusqlite::Error| {
            eprintln!("compute: database error: {e}");
            Err(Conflict::Id)
        })
    }

    /// Applies `change` to the flavor `id` and returns the result.
    pub(crate) fn update_flavor(&self, id: &str, change: impl FnOnce(&mut Flavor)) -> Option<Flavor> {
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

    pub(crate) fn remove_flavor(&self, id: &str) -> bool {
        logged(lock(&self.db).execute("DELETE FROM flavors WHERE id = ?1", [id])) > 0
    }

    /// The keypairs of `user_id`, ordered by name.
    pub(crate) fn keypairs(&self, user_id: &str) -> Vec<Keypair> {
        let db = lock(&self.db);
        logged((|| {
            let mut statement = db.prepare_cached(&format!(
                "SELECT {KEYPAIR_COLUMNS} FROM key_pairs WHERE user_id = ?1 ORDER BY name"
            ))?;
            statement.query_map([user_id], keypair_of)?.collect()
        })())
    }

    pub(crate) fn keypair(&self, user_id: &str, name: &str) -> Option<Keypair> {
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

    /// Stores a new keypair, giving it the next id.
    pub(crate) fn insert_keypair(&self, mut keypair: Keypair) -> Result<Keypair, Conflict> {
        let mut db = lock(&self.db);
        let result = (|| {
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
        })();
        result.unwrap_or_else(|e: rusqlite::Error| {
            eprintln!("compute: database error: {e}");
            Err(Conflict::Name)
        })
    }

    pub(crate) fn remove_keypair(&self, user_id: &str, name: &str) -> bool {
        logged(
            lock(&self.db).execute("DELETE FROM key_pairs WHERE user_id = ?1 AND name = ?2", [user_id, name]),
        ) > 0
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
        assert_eq!(a.flavors().len(), 5, "seeded once");
        let mut flavor = a.flavor("1").unwrap();
        flavor.id = "42".into();
        flavor.name = "shared".into();
        flavor.extra_specs.insert("hw:cpu_policy".into(), "dedicated".into());
        a.insert_flavor(flavor.clone()).unwrap();
        assert_eq!(b.flavor("42"), Some(flavor.clone()));
        assert_eq!(b.insert_flavor(flavor.clone()), Err(Conflict::Id));
        drop((a, b));
        let again = Store::open(&path).unwrap();
        assert_eq!(again.flavor("42"), Some(flavor));
        assert_eq!(again.flavors().len(), 6, "not seeded twice");
        assert!(again.remove_flavor("42") && !again.remove_flavor("42"));
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }
}
