//! The state: flavors, their extra specs and keypairs, as a Nova database
//! would hold them, in PostgreSQL (a `postgres://` URL: what a fleet
//! shares) or SQLite (a file, one node's; or in memory), through sqlx's
//! `Any` driver: one pool, no blocking call on an actix worker, one SQL
//! dialect of `&'static str` statements whose values are only bound. A
//! flavor created through one node is read through the others and
//! survives a restart.

use crate::web::{ApiError, StatusCode};
use microversion_core::Version;
use sqlx::any::AnyRow;
use sqlx::{AnyPool, Row};
use std::collections::BTreeMap;

/// The user every request acts as: this example has no authentication.
pub(crate) const DEFAULT_USER: &str = "demo";

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

/// The two kinds of keypair Nova knows; `ssh` unless a body names one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum KeyType {
    /// An OpenSSH public key.
    #[default]
    Ssh,
    /// An X.509 certificate.
    X509,
}

impl KeyType {
    /// Whether it is `ssh`, the default.
    pub fn is_ssh(&self) -> bool {
        *self == KeyType::Ssh
    }

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

/// The whole state, shared by every worker of a process (a pool) and by
/// every process that opens the same database.
pub struct Store {
    pool: AnyPool,
    /// The most keypairs a user holds; `None`: no limit.
    keypair_quota: Option<u64>,
}

/// A flavor's projects, by id.
const SELECT_PROJECTS: &str =
    "SELECT project_id FROM flavor_projects WHERE flavor_id = $1 ORDER BY project_id";

/// What sharing a flavor with a project, or ending it, did.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Shared {
    /// Done: the flavor's projects now, by id.
    Done(Vec<String>),
    /// Nothing to do: already shared, or not shared.
    Unchanged,
    /// No such flavor.
    NoFlavor,
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
/// changed (a failed transaction is rolled back) and the same request
/// may succeed once the database is back, which is what 503 tells clients
/// (503 is among the status codes keystoneauth1 retries when asked to) and
/// load balancers (docs/08-errors.md).
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Unavailable {
    request_id: String,
}

impl Unavailable {
    /// Logs `error` with a new request id, which the answer repeats.
    fn logged(error: impl std::fmt::Display) -> Unavailable {
        let request_id = crate::request_id::new();
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
    ram BIGINT NOT NULL,
    vcpus BIGINT NOT NULL,
    disk BIGINT NOT NULL,
    ephemeral BIGINT NOT NULL,
    swap BIGINT NOT NULL,
    rxtx_factor DOUBLE PRECISION NOT NULL,
    is_public BIGINT NOT NULL,
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
CREATE TABLE IF NOT EXISTS flavor_projects (
    flavor_id TEXT NOT NULL,
    project_id TEXT NOT NULL,
    PRIMARY KEY (flavor_id, project_id)
);
CREATE TABLE IF NOT EXISTS client_versions (
    token_digest TEXT PRIMARY KEY,
    version TEXT NOT NULL
);
";

/// The same tables in PostgreSQL: the keypairs' ids an identity column (as
/// SQLite's `INTEGER PRIMARY KEY` assigns them), text in byte order
/// (SQLite's).
const SCHEMA_POSTGRES: &str = r#"
CREATE TABLE IF NOT EXISTS flavors (
    id TEXT COLLATE "C" PRIMARY KEY,
    name TEXT COLLATE "C" NOT NULL UNIQUE,
    ram BIGINT NOT NULL,
    vcpus BIGINT NOT NULL,
    disk BIGINT NOT NULL,
    ephemeral BIGINT NOT NULL,
    swap BIGINT NOT NULL,
    rxtx_factor DOUBLE PRECISION NOT NULL,
    is_public BIGINT NOT NULL,
    description TEXT,
    extra_specs TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS key_pairs (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    name TEXT COLLATE "C" NOT NULL,
    user_id TEXT COLLATE "C" NOT NULL,
    public_key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    key_type TEXT NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (user_id, name)
);
CREATE TABLE IF NOT EXISTS flavor_projects (
    flavor_id TEXT COLLATE "C" NOT NULL,
    project_id TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (flavor_id, project_id)
);
CREATE TABLE IF NOT EXISTS client_versions (
    token_digest TEXT COLLATE "C" PRIMARY KEY,
    version TEXT NOT NULL
);
"#;

/// devstack's m1 flavors: what a fresh database starts with.
const DEFAULT_FLAVORS: [(&str, &str, u64, u64, u64); 5] = [
    ("1", "m1.tiny", 512, 1, 1),
    ("2", "m1.small", 2048, 1, 20),
    ("3", "m1.medium", 4096, 2, 40),
    ("4", "m1.large", 8192, 4, 80),
    ("5", "m1.xlarge", 16384, 8, 160),
];

/// A database error is a broken store, never an answer about the data: it
/// is logged with a request id and becomes [`Unavailable`].
fn logged<T>(result: Result<T, sqlx::Error>) -> Stored<T> {
    result.map_err(Unavailable::logged)
}

/// A statement selecting the columns [`flavor_of`] reads, then `$rest`.
macro_rules! select_flavors {
    ($rest:literal) => {
        concat!(
            "SELECT id, name, ram, vcpus, disk, ephemeral, swap, rxtx_factor, is_public, description, \
             extra_specs FROM flavors ",
            $rest
        )
    };
}

/// A statement selecting the columns [`keypair_of`] reads, then `$rest`.
macro_rules! select_keypairs {
    ($rest:literal) => {
        concat!(
            "SELECT id, name, user_id, public_key, fingerprint, key_type, created_at FROM key_pairs ",
            $rest
        )
    };
}

fn flavor_of(row: &AnyRow) -> Result<Flavor, sqlx::Error> {
    let specs: String = row.try_get(10)?;
    Ok(Flavor {
        id: row.try_get(0)?,
        name: row.try_get(1)?,
        ram: row.try_get::<i64, _>(2)? as u64,
        vcpus: row.try_get::<i64, _>(3)? as u64,
        disk: row.try_get::<i64, _>(4)? as u64,
        ephemeral: row.try_get::<i64, _>(5)? as u64,
        swap: row.try_get::<i64, _>(6)? as u64,
        rxtx_factor: row.try_get(7)?,
        is_public: row.try_get::<i64, _>(8)? != 0,
        description: row.try_get(9)?,
        // Unreadable extra specs are a corrupt row, not a flavor without any.
        extra_specs: serde_json::from_str(&specs)
            .map_err(|e| sqlx::Error::ColumnDecode { index: "extra_specs".into(), source: e.into() })?,
    })
}

fn keypair_of(row: &AnyRow) -> Result<Keypair, sqlx::Error> {
    Ok(Keypair {
        id: row.try_get::<i64, _>(0)? as u64,
        name: row.try_get(1)?,
        user_id: row.try_get(2)?,
        public_key: row.try_get(3)?,
        fingerprint: row.try_get(4)?,
        key_type: KeyType::from_str(&row.try_get::<String, _>(5)?),
        created_at: row.try_get(6)?,
    })
}

/// `flavor`'s columns bound, in [`select_flavors`]'s order, to `statement`
/// (`$1` to `$11`).
fn bind_flavor<'q>(
    statement: &'static str,
    flavor: &'q Flavor,
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments> {
    sqlx::query(statement)
        .bind(flavor.id.as_str())
        .bind(flavor.name.as_str())
        .bind(flavor.ram as i64)
        .bind(flavor.vcpus as i64)
        .bind(flavor.disk as i64)
        .bind(flavor.ephemeral as i64)
        .bind(flavor.swap as i64)
        .bind(flavor.rxtx_factor)
        .bind(i64::from(flavor.is_public))
        .bind(flavor.description.as_deref())
        .bind(serde_json::to_string(&flavor.extra_specs).unwrap_or_else(|_| "{}".into()))
}

const INSERT_FLAVOR: &str = "INSERT INTO flavors (id, name, ram, vcpus, disk, ephemeral, swap, rxtx_factor, \
     is_public, description, extra_specs) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) \
     ON CONFLICT DO NOTHING RETURNING id";

impl Store {
    /// Opens `database`: a `postgres://` (`postgresql://`) URL, or a SQLite
    /// file, made on first start. A new database gets devstack's m1
    /// flavors.
    pub async fn open(database: &str) -> Result<Store, sqlx::Error> {
        sqlx::any::install_default_drivers();
        let pool = if crate::database::is_postgres_url(database) {
            crate::database::open_postgres(database, SCHEMA_POSTGRES).await?
        } else {
            crate::database::open_sqlite(database, SCHEMA).await?
        };
        let store = Store { pool, keypair_quota: Some(crate::keypairs::KEYPAIR_QUOTA) };
        store.seed().await?;
        Ok(store)
    }

    /// The same store, each user holding at most `quota` keypairs (Nova's
    /// `[quota] key_pairs`; [`KEYPAIR_QUOTA`](crate::KEYPAIR_QUOTA) unless
    /// set), or any number with `None`.
    pub fn with_keypair_quota(self, quota: Option<u64>) -> Store {
        Store { keypair_quota: quota, ..self }
    }

    pub(crate) fn keypair_quota(&self) -> Option<u64> {
        self.keypair_quota
    }

    /// A private database in memory, gone with the process: what tests get.
    pub async fn in_memory() -> Result<Store, sqlx::Error> {
        Store::open(":memory:").await
    }

    /// devstack's flavors in a database without flavors or keypairs.
    async fn seed(&self) -> Result<(), sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        let used = sqlx::query("SELECT 1 FROM flavors UNION ALL SELECT 1 FROM key_pairs LIMIT 1")
            .fetch_optional(&mut *tx)
            .await?
            .is_some();
        if !used {
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
                bind_flavor(INSERT_FLAVOR, &flavor).execute(&mut *tx).await?;
            }
        }
        tx.commit().await
    }

    /// The state a fresh test server starts with: devstack's m1 flavors, no
    /// keypairs, in memory.
    pub async fn with_default_flavors() -> Store {
        Store::in_memory().await.expect("an in-memory SQLite database opens")
    }

    /// The version `token` is pinned to: `max` if this is the first time
    /// it is asked for (the served maximum now), what it was pinned to
    /// before otherwise. The token is kept as a SHA-1 digest, never as
    /// sent; two nodes pinning one token at once agree on the first write.
    pub(crate) async fn pinned_version(&self, token: &str, max: Version) -> Stored<Version> {
        use sha1::Digest as _;
        let digest: String =
            sha1::Sha1::digest(token.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
        logged(
            sqlx::query(
                "INSERT INTO client_versions (token_digest, version) VALUES ($1, $2) ON CONFLICT DO NOTHING",
            )
            .bind(digest.as_str())
            .bind(max.to_string())
            .execute(&self.pool)
            .await,
        )?;
        let row = sqlx::query("SELECT version FROM client_versions WHERE token_digest = $1")
            .bind(digest.as_str())
            .fetch_one(&self.pool)
            .await;
        let text: String = logged(logged(row)?.try_get(0))?;
        text.parse().map_err(|e| Unavailable::logged(format!("a stored version {text:?}: {e}")))
    }

    pub(crate) async fn flavors(&self) -> Stored<Vec<Flavor>> {
        let rows = logged(sqlx::query(select_flavors!("ORDER BY id")).fetch_all(&self.pool).await)?;
        logged(rows.iter().map(flavor_of).collect())
    }

    pub(crate) async fn flavor(&self, id: &str) -> Stored<Option<Flavor>> {
        let row = sqlx::query(select_flavors!("WHERE id = $1")).bind(id).fetch_optional(&self.pool).await;
        logged(logged(row)?.as_ref().map(flavor_of).transpose())
    }

    /// Stores a new flavor, unless its id or name is taken.
    pub(crate) async fn insert_flavor(&self, flavor: Flavor) -> Stored<Result<(), Conflict>> {
        let inserted = logged(bind_flavor(INSERT_FLAVOR, &flavor).fetch_optional(&self.pool).await)?;
        if inserted.is_some() {
            return Ok(Ok(()));
        }
        let id_taken = sqlx::query("SELECT 1 FROM flavors WHERE id = $1")
            .bind(flavor.id.as_str())
            .fetch_optional(&self.pool);
        Ok(Err(if logged(id_taken.await)?.is_some() { Conflict::Id } else { Conflict::Name }))
    }

    /// Applies `change` to the flavor `id` and returns the result (`None`:
    /// no such flavor).
    pub(crate) async fn update_flavor(
        &self,
        id: &str,
        change: impl FnOnce(&mut Flavor),
    ) -> Stored<Option<Flavor>> {
        logged(
            async {
                let mut tx = self.pool.begin().await?;
                // A write first: the row is this transaction's (PostgreSQL's
                // row lock, SQLite's write lock) until it commits, so that
                // two changes of one flavor never lose either.
                let claimed = sqlx::query("UPDATE flavors SET id = id WHERE id = $1").bind(id).execute(&mut *tx).await?;
                if claimed.rows_affected() == 0 {
                    return Ok(None);
                }
                let row = sqlx::query(select_flavors!("WHERE id = $1")).bind(id).fetch_one(&mut *tx).await?;
                let mut flavor = flavor_of(&row)?;
                change(&mut flavor);
                bind_flavor(
                    "UPDATE flavors SET name = $2, ram = $3, vcpus = $4, disk = $5, ephemeral = $6, swap = $7, \
                     rxtx_factor = $8, is_public = $9, description = $10, extra_specs = $11 WHERE id = $1",
                    &flavor,
                )
                .execute(&mut *tx)
                .await?;
                tx.commit().await?;
                Ok(Some(flavor))
            }
            .await,
        )
    }

    /// Deletes the flavor `id` and its projects (Nova's `_flavor_destroy`);
    /// `false`: there was none.
    pub(crate) async fn remove_flavor(&self, id: &str) -> Stored<bool> {
        logged(
            async {
                let mut tx = self.pool.begin().await?;
                let deleted =
                    sqlx::query("DELETE FROM flavors WHERE id = $1").bind(id).execute(&mut *tx).await?;
                sqlx::query("DELETE FROM flavor_projects WHERE flavor_id = $1")
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                Ok(deleted.rows_affected() > 0)
            }
            .await,
        )
    }

    /// The projects the flavor `id` is shared with, by id.
    pub(crate) async fn flavor_projects(&self, id: &str) -> Stored<Vec<String>> {
        let rows = sqlx::query(SELECT_PROJECTS).bind(id).fetch_all(&self.pool).await;
        logged(logged(rows)?.iter().map(|row| row.try_get(0)).collect())
    }

    /// Shares the flavor `id` with `project` (Nova's `Flavor.add_access`).
    pub(crate) async fn share_flavor(&self, id: &str, project: &str) -> Stored<Shared> {
        self.change_projects(
            id,
            "INSERT INTO flavor_projects (flavor_id, project_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
            project,
        )
        .await
    }

    /// Ends sharing the flavor `id` with `project` (`Flavor.remove_access`).
    pub(crate) async fn unshare_flavor(&self, id: &str, project: &str) -> Stored<Shared> {
        self.change_projects(
            id,
            "DELETE FROM flavor_projects WHERE flavor_id = $1 AND project_id = $2",
            project,
        )
        .await
    }

    /// Runs `statement` on the flavor's projects while its row is held, so
    /// that a flavor deleted meanwhile keeps no project.
    async fn change_projects(&self, id: &str, statement: &'static str, project: &str) -> Stored<Shared> {
        logged(
            async {
                let mut tx = self.pool.begin().await?;
                let claimed = sqlx::query("UPDATE flavors SET id = id WHERE id = $1")
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                if claimed.rows_affected() == 0 {
                    return Ok(Shared::NoFlavor);
                }
                let changed = sqlx::query(statement).bind(id).bind(project).execute(&mut *tx).await?;
                if changed.rows_affected() == 0 {
                    return Ok(Shared::Unchanged);
                }
                let rows = sqlx::query(SELECT_PROJECTS).bind(id).fetch_all(&mut *tx).await?;
                let projects = rows.iter().map(|row| row.try_get(0)).collect::<Result<_, _>>()?;
                tx.commit().await?;
                Ok(Shared::Done(projects))
            }
            .await,
        )
    }

    /// The keypairs of `user_id`, ordered by name.
    pub(crate) async fn keypairs(&self, user_id: &str) -> Stored<Vec<Keypair>> {
        let rows = sqlx::query(select_keypairs!("WHERE user_id = $1 ORDER BY name"))
            .bind(user_id)
            .fetch_all(&self.pool)
            .await;
        logged(logged(rows)?.iter().map(keypair_of).collect())
    }

    /// How many keypairs `user_id` holds (Nova's quota counts them).
    pub(crate) async fn keypair_count(&self, user_id: &str) -> Stored<u64> {
        let count = sqlx::query("SELECT COUNT(*) FROM key_pairs WHERE user_id = $1")
            .bind(user_id)
            .fetch_one(&self.pool)
            .await;
        logged(logged(count)?.try_get::<i64, _>(0)).map(|count| count as u64)
    }

    pub(crate) async fn keypair(&self, user_id: &str, name: &str) -> Stored<Option<Keypair>> {
        let row = sqlx::query(select_keypairs!("WHERE user_id = $1 AND name = $2"))
            .bind(user_id)
            .bind(name)
            .fetch_optional(&self.pool)
            .await;
        logged(logged(row)?.as_ref().map(keypair_of).transpose())
    }

    /// Stores a new keypair, giving it the next id, unless its name is taken.
    pub(crate) async fn insert_keypair(&self, mut keypair: Keypair) -> Stored<Result<Keypair, Conflict>> {
        let inserted = sqlx::query(
            "INSERT INTO key_pairs (name, user_id, public_key, fingerprint, key_type, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING id",
        )
        .bind(keypair.name.as_str())
        .bind(keypair.user_id.as_str())
        .bind(keypair.public_key.as_str())
        .bind(keypair.fingerprint.as_str())
        .bind(keypair.key_type.as_str())
        .bind(keypair.created_at.as_str())
        .fetch_optional(&self.pool)
        .await;
        let Some(row) = logged(inserted)? else { return Ok(Err(Conflict::Name)) };
        keypair.id = logged(row.try_get::<i64, _>(0))? as u64;
        Ok(Ok(keypair))
    }

    /// Deletes a keypair; `false`: there was none.
    pub(crate) async fn remove_keypair(&self, user_id: &str, name: &str) -> Stored<bool> {
        let deleted = sqlx::query("DELETE FROM key_pairs WHERE user_id = $1 AND name = $2")
            .bind(user_id)
            .bind(name)
            .execute(&self.pool)
            .await;
        logged(deleted).map(|done| done.rows_affected() > 0)
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

    #[actix_web::test]
    async fn two_stores_share_one_file_and_it_survives_a_restart() {
        let path = temp_db("share");
        let path = path.to_str().expect("a UTF-8 path");
        let (a, b) = (Store::open(path).await.unwrap(), Store::open(path).await.unwrap());
        assert_eq!(a.flavors().await.unwrap().len(), 5, "seeded once");
        let mut flavor = a.flavor("1").await.unwrap().unwrap();
        flavor.id = "42".into();
        flavor.name = "shared".into();
        flavor.extra_specs.insert("hw:cpu_policy".into(), "dedicated".into());
        a.insert_flavor(flavor.clone()).await.unwrap().unwrap();
        assert_eq!(b.flavor("42").await, Ok(Some(flavor.clone())));
        assert_eq!(b.insert_flavor(flavor.clone()).await, Ok(Err(Conflict::Id)));
        let mut renamed = flavor.clone();
        renamed.id = "43".into();
        assert_eq!(b.insert_flavor(renamed).await, Ok(Err(Conflict::Name)));
        let changed = b.update_flavor("42", |f| f.description = Some("d".into())).await.unwrap();
        assert_eq!(changed.and_then(|f| f.description).as_deref(), Some("d"));
        assert_eq!(b.update_flavor("404", |_| ()).await, Ok(None));
        drop((a, b));
        let again = Store::open(path).await.unwrap();
        assert_eq!(again.flavor("42").await.unwrap().and_then(|f| f.description).as_deref(), Some("d"));
        assert_eq!(again.flavors().await.unwrap().len(), 6, "not seeded twice");
        assert!(again.remove_flavor("42").await.unwrap() && !again.remove_flavor("42").await.unwrap());
        let _ = std::fs::remove_dir_all(std::path::Path::new(path).parent().unwrap());
    }

    #[actix_web::test]
    async fn keypairs_get_ids_and_names_stay_unique_per_user() {
        let store = Store::in_memory().await.unwrap();
        let keypair = |name: &str, user: &str| Keypair {
            id: 0,
            name: name.into(),
            user_id: user.into(),
            public_key: "ssh-ed25519 AAAA".into(),
            fingerprint: "00".into(),
            key_type: KeyType::Ssh,
            created_at: "2026-01-01T00:00:00Z".into(),
        };
        let first = store.insert_keypair(keypair("a", "u")).await.unwrap().unwrap();
        let second = store.insert_keypair(keypair("b", "u")).await.unwrap().unwrap();
        assert!(second.id > first.id, "ids grow: {} then {}", first.id, second.id);
        assert_eq!(store.insert_keypair(keypair("a", "u")).await, Ok(Err(Conflict::Name)));
        assert!(store.insert_keypair(keypair("a", "v")).await.unwrap().is_ok(), "another user's name");
        let names: Vec<String> = store.keypairs("u").await.unwrap().into_iter().map(|k| k.name).collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(store.keypair("u", "b").await, Ok(Some(second)));
        assert!(
            store.remove_keypair("u", "a").await.unwrap() && !store.remove_keypair("u", "a").await.unwrap()
        );
    }

    #[actix_web::test]
    async fn a_broken_store_is_unavailable_never_empty_absent_or_taken() {
        let path = temp_db("broken");
        let path = path.to_str().expect("a UTF-8 path");
        let store = Store::open(path).await.unwrap();
        let keypair = Keypair {
            id: 0,
            name: "k".into(),
            user_id: DEFAULT_USER.into(),
            public_key: "ssh-ed25519 AAAA".into(),
            fingerprint: "00".into(),
            key_type: KeyType::Ssh,
            created_at: "2026-01-01T00:00:00Z".into(),
        };
        let flavor = store.flavor("1").await.unwrap().unwrap();
        let other = Store::open(path).await.unwrap();
        sqlx::raw_sql("DROP TABLE flavors; DROP TABLE key_pairs;").execute(&other.pool).await.unwrap();
        assert!(store.flavors().await.is_err() && store.flavor("1").await.is_err());
        assert!(
            store.insert_flavor(flavor).await.is_err() && store.update_flavor("1", |_| ()).await.is_err()
        );
        assert!(store.remove_flavor("1").await.is_err() && store.keypairs(DEFAULT_USER).await.is_err());
        assert!(
            store.keypair(DEFAULT_USER, "k").await.is_err() && store.insert_keypair(keypair).await.is_err()
        );
        let failure = store.remove_keypair(DEFAULT_USER, "k").await.unwrap_err();
        let error = ApiError::from(failure);
        assert_eq!(error.status(), StatusCode::SERVICE_UNAVAILABLE);
        let id = error.request_id().expect("a request id").to_owned();
        assert!(id.starts_with("req-") && error.detail().contains(&id), "{}", error.detail());
        assert!(!error.detail().contains("no such table"), "the cause is logged, not shown");
        let _ = std::fs::remove_dir_all(std::path::Path::new(path).parent().unwrap());
    }
}
