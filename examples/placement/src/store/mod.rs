//! Storage: SQLite (one file) or PostgreSQL (a `postgres://` URL), one code
//! path over both ([`crate::db`], sqlx); the schema made on first start, every
//! change in a transaction that checks the generations it relies on.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use crate::database::redacted;
use crate::db::{Access, Pool, StoreError, Tx, params};
use crate::standard;

pub mod aggregates;
pub mod allocations;
pub mod classes;
pub mod consumers;
pub mod inventories;
pub mod providers;
pub mod traits;

pub use inventories::{Inventory, inventories, put_inventories, usages};
pub use providers::{Provider, all_providers, bump_provider, lock_provider, provider};

/// A provider's new revision, on SQLite: the next of one counter, whose row
/// its single writer holds anyway.
macro_rules! revise {
    ($id:literal) => {
        concat!(
            "UPDATE revisions SET last = last + 1; \
             UPDATE resource_providers SET revision = (SELECT last FROM revisions) WHERE id = ",
            $id,
            ";"
        )
    };
}

/// The condition, for a trigger's `WHEN`, that one of a row's `$column`s
/// changed: a write that rewrites a row as it was (an inventory `PUT` again
/// with the same values, as a compute node's periodic report is) revises
/// nothing.
macro_rules! changed {
    ($($column:literal),+) => {
        concat!("(", $("OLD.", $column, " IS DISTINCT FROM NEW.", $column, " OR ",)+ "FALSE)")
    };
}

/// SQLite's triggers giving a provider a new revision when a row of its in
/// `$table` is made or removed, or one of its `$column`s changes.
macro_rules! revised_by {
    ($table:literal, [$($column:literal),+]) => {
        concat!(
            "CREATE TRIGGER IF NOT EXISTS ", $table, "_made AFTER INSERT ON ", $table, " BEGIN ",
            revise!("NEW.provider_id"),
            " END;\nCREATE TRIGGER IF NOT EXISTS ", $table, "_changed AFTER UPDATE ON ", $table,
            " WHEN ", changed!($($column),+), " BEGIN ",
            revise!("NEW.provider_id"),
            " END;\nCREATE TRIGGER IF NOT EXISTS ", $table, "_removed AFTER DELETE ON ", $table, " BEGIN ",
            revise!("OLD.provider_id"),
            " END;\n"
        )
    };
}

/// PostgreSQL's triggers giving a provider a new revision when a row of its
/// in `$table` is made or removed, or one of its `$column`s changes (made
/// once: nodes starting together make the schema one at a time).
macro_rules! revised_by_postgres {
    ($table:literal, [$($column:literal),+]) => {
        concat!(
            "    IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = '", $table, "_made_or_removed') THEN\n",
            "        CREATE TRIGGER ", $table, "_made_or_removed AFTER INSERT OR DELETE ON ", $table, "\n",
            "            FOR EACH ROW EXECUTE FUNCTION revise_provider();\n",
            "        CREATE TRIGGER ", $table, "_changed AFTER UPDATE ON ", $table, " FOR EACH ROW\n",
            "            WHEN ", changed!($($column),+), " EXECUTE FUNCTION revise_provider();\n",
            "    END IF;\n"
        )
    };
}

const SCHEMA: &str = concat!(
    "
CREATE TABLE IF NOT EXISTS resource_providers (
    id INTEGER PRIMARY KEY,
    uuid TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL UNIQUE,
    generation INTEGER NOT NULL DEFAULT 0,
    parent_id INTEGER REFERENCES resource_providers(id),
    root_id INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    revision INTEGER NOT NULL DEFAULT 0
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
CREATE INDEX IF NOT EXISTS resource_providers_root ON resource_providers (root_id);
CREATE INDEX IF NOT EXISTS resource_providers_parent ON resource_providers (parent_id);
CREATE INDEX IF NOT EXISTS inventories_class ON inventories (resource_class, provider_id);
CREATE INDEX IF NOT EXISTS provider_traits_trait ON provider_traits (trait, provider_id);
CREATE INDEX IF NOT EXISTS provider_aggregates_aggregate ON provider_aggregates (aggregate, provider_id);
CREATE TABLE IF NOT EXISTS revisions (last INTEGER NOT NULL);
INSERT INTO revisions (last) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM revisions);
CREATE TRIGGER IF NOT EXISTS provider_made AFTER INSERT ON resource_providers BEGIN ",
    revise!("NEW.id"),
    " END;
CREATE TRIGGER IF NOT EXISTS provider_moved AFTER UPDATE OF uuid, parent_id, root_id ON resource_providers BEGIN ",
    revise!("NEW.id"),
    " END;
",
    revised_by!(
        "inventories",
        ["provider_id", "resource_class", "total", "reserved", "min_unit", "max_unit", "step_size", "allocation_ratio"]
    ),
    revised_by!("provider_traits", ["provider_id", "trait"]),
    revised_by!("provider_aggregates", ["provider_id", "aggregate"]),
);

// The indexes after the allocations' serve the candidates search
// (`candidates::select`): a tree by its root, whether any provider has a
// parent, the inventories of a class, the providers with a trait or in an
// aggregate.
//
// A provider's revision is drawn anew whenever its row's place (uuid,
// parent, root) or a row of its inventories, traits or aggregates is made,
// changed or removed, by triggers, so that no write can forget it; never
// twice the same (SQLite's counter, PostgreSQL's sequence), so that a
// provider made again under an id that was used keeps none of its
// predecessor's. A node keeps the candidates search's copy of the whole
// cloud as long as the revisions in the search's own snapshot are those it
// was read at (`candidates::select`); allocations revise nothing, what is
// used being read with every search.

/// The same tables in PostgreSQL: 64-bit integers, identity columns for the
/// ids SQLite assigns (`rowid` for the traits, named as SQLite names its
/// implicit one), doubles, and byte order for text (SQLite's ordering).
const SCHEMA_POSTGRES: &str = concat!(
    r#"
CREATE TABLE IF NOT EXISTS resource_providers (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    uuid TEXT COLLATE "C" NOT NULL UNIQUE,
    name TEXT COLLATE "C" NOT NULL UNIQUE,
    generation BIGINT NOT NULL DEFAULT 0,
    parent_id BIGINT REFERENCES resource_providers(id),
    root_id BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS resource_classes (
    id BIGINT PRIMARY KEY,
    name TEXT COLLATE "C" NOT NULL UNIQUE,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS inventories (
    provider_id BIGINT NOT NULL,
    resource_class TEXT COLLATE "C" NOT NULL,
    total BIGINT NOT NULL,
    reserved BIGINT NOT NULL,
    min_unit BIGINT NOT NULL,
    max_unit BIGINT NOT NULL,
    step_size BIGINT NOT NULL,
    allocation_ratio DOUBLE PRECISION NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (provider_id, resource_class)
);
CREATE TABLE IF NOT EXISTS traits (
    rowid BIGINT GENERATED BY DEFAULT AS IDENTITY UNIQUE,
    name TEXT COLLATE "C" PRIMARY KEY,
    created_at BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS provider_traits (
    provider_id BIGINT NOT NULL,
    trait TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (provider_id, trait)
);
CREATE TABLE IF NOT EXISTS provider_aggregates (
    provider_id BIGINT NOT NULL,
    aggregate TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (provider_id, aggregate)
);
CREATE TABLE IF NOT EXISTS consumers (
    uuid TEXT COLLATE "C" PRIMARY KEY,
    project_id TEXT COLLATE "C" NOT NULL,
    user_id TEXT COLLATE "C" NOT NULL,
    generation BIGINT NOT NULL DEFAULT 0,
    consumer_type TEXT COLLATE "C",
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS allocations (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    provider_id BIGINT NOT NULL,
    consumer_uuid TEXT COLLATE "C" NOT NULL,
    resource_class TEXT COLLATE "C" NOT NULL,
    used BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS allocations_consumer ON allocations (consumer_uuid);
CREATE INDEX IF NOT EXISTS allocations_provider ON allocations (provider_id);
CREATE INDEX IF NOT EXISTS resource_providers_root ON resource_providers (root_id);
CREATE INDEX IF NOT EXISTS resource_providers_parent ON resource_providers (parent_id);
CREATE INDEX IF NOT EXISTS inventories_class ON inventories (resource_class, provider_id);
CREATE INDEX IF NOT EXISTS provider_traits_trait ON provider_traits (trait, provider_id);
CREATE INDEX IF NOT EXISTS provider_aggregates_aggregate ON provider_aggregates (aggregate, provider_id);
CREATE SEQUENCE IF NOT EXISTS provider_revisions;
ALTER TABLE resource_providers
    ADD COLUMN IF NOT EXISTS revision BIGINT NOT NULL DEFAULT nextval('provider_revisions');
CREATE OR REPLACE FUNCTION revise_provider() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        UPDATE resource_providers SET revision = nextval('provider_revisions') WHERE id = OLD.provider_id;
    ELSE
        UPDATE resource_providers SET revision = nextval('provider_revisions') WHERE id = NEW.provider_id;
    END IF;
    RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION revise_moved_provider() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.revision := nextval('provider_revisions');
    RETURN NEW;
END $$;
DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'provider_moved') THEN
        CREATE TRIGGER provider_moved BEFORE UPDATE OF uuid, parent_id, root_id ON resource_providers
            FOR EACH ROW EXECUTE FUNCTION revise_moved_provider();
    END IF;
"#,
    revised_by_postgres!(
        "inventories",
        [
            "provider_id",
            "resource_class",
            "total",
            "reserved",
            "min_unit",
            "max_unit",
            "step_size",
            "allocation_ratio"
        ]
    ),
    revised_by_postgres!("provider_traits", ["provider_id", "trait"]),
    revised_by_postgres!("provider_aggregates", ["provider_id", "aggregate"]),
    "END $$;\n",
);

/// How long each try of the start-up's schema and seeding may take.
const PREPARE_DEADLINE: Duration = Duration::from_secs(60);

/// The database: a pool of connections, how long a request may take
/// ([`crate::deadline`]), and whether the schema is made.
///
/// SQLite has one connection (one writer at a time, as SQLite allows; an
/// in-memory database lives as long as its connection); requests wait
/// for it without blocking their worker. PostgreSQL has a pool
/// (`database::postgres_pool`), and the server orders concurrent writers.
pub struct Store {
    pool: Pool,
    /// The database as it was given (a URL, a file).
    database: String,
    deadline: Duration,
    cloud: crate::candidates::CloudCache,
    /// Set once the schema is made and the standard classes and traits
    /// are seeded ([`Store::prepare`]); until then a request waits for it
    /// within its deadline.
    prepared: tokio::sync::watch::Sender<bool>,
}

/// Gives a SQLite file made before providers had revisions their column
/// (PostgreSQL's schema adds it itself); its providers start at 0, which
/// the counter never draws.
async fn add_revisions(pool: &Pool) -> Result<(), sqlx::Error> {
    if let Pool::Sqlite(pool) = pool {
        let has: bool = sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM pragma_table_info('resource_providers') WHERE name = 'revision')",
        )
        .fetch_one(pool)
        .await?;
        if !has {
            sqlx::raw_sql("ALTER TABLE resource_providers ADD COLUMN revision INTEGER NOT NULL DEFAULT 0")
                .execute(pool)
                .await?;
        }
    }
    Ok(())
}

/// Seconds since the epoch, the timestamps of every row.
pub fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

impl Store {
    /// Opens `database`, a `postgres://` URL, a SQLite file (created if
    /// needed) or `:memory:`, makes the schema and seeds the standard
    /// resource classes and traits ([`Store::prepare`]). A request may take
    /// [`deadline::DEFAULT`](crate::deadline::DEFAULT).
    pub async fn connect(database: &str) -> Result<Store, String> {
        let store = Store::open(database).await?;
        store.prepare().await?;
        Ok(store)
    }

    /// Opens `database` as [`Store::connect`] does, without waiting for a
    /// PostgreSQL server: a node serves at once (`GET /` needs no
    /// database), and [`Store::prepare`] makes the store ready meanwhile.
    /// Fails only for a database that cannot be opened at all (a malformed
    /// URL, a SQLite file that cannot be made).
    pub async fn open(database: &str) -> Result<Store, String> {
        let pool = Pool::open(database, SCHEMA).await.map_err(|e| format!("{}: {e}", redacted(database)))?;
        let (prepared, _) = tokio::sync::watch::channel(false);
        let database = database.to_owned();
        Ok(Store { pool, database, deadline: crate::deadline::DEFAULT, cloud: Default::default(), prepared })
    }

    /// Makes the schema and seeds the standard classes and traits, then
    /// lets requests in. On a crowded PostgreSQL server (every slot taken
    /// by the other nodes while they are busy), or one starting, each step
    /// is tried again as long as it fails for a reason that passes
    /// (`database::passes`, [`StoreError::NoConnection`]), waiting a little
    /// longer each time, with a log line that says why; any other failure
    /// (a wrong password, a missing database) is returned.
    pub async fn prepare(&self) -> Result<(), String> {
        let mut retry = crate::database::StartRetry::new();
        loop {
            match self.prepare_once().await {
                Ok(()) => {
                    self.prepared.send_replace(true);
                    return Ok(());
                }
                Err(
                    error @ (StoreError::NoConnection(_) | StoreError::LostRace | StoreError::DeadlinePassed),
                ) => {
                    let what = format!("placement: the database {} is not ready", redacted(&self.database));
                    retry.wait(&what, error).await;
                }
                Err(error) => return Err(format!("{}: {error}", redacted(&self.database))),
            }
        }
    }

    async fn prepare_once(&self) -> Result<(), StoreError> {
        let passing = |error: sqlx::Error| {
            if crate::database::passes(&error) {
                StoreError::NoConnection(error.to_string())
            } else {
                crate::db::db_error(error)
            }
        };
        self.pool.make_schema(&self.database, SCHEMA_POSTGRES).await.map_err(passing)?;
        add_revisions(&self.pool).await.map_err(passing)?;
        self.seed_until(std::time::Instant::now() + PREPARE_DEADLINE).await
    }

    /// Waits for [`Store::prepare`] until `deadline`, and no longer than a
    /// request waits for a connection (`database::ACQUIRE_TIMEOUT`).
    async fn prepared(&self, deadline: std::time::Instant) -> Result<(), StoreError> {
        if *self.prepared.borrow() {
            return Ok(());
        }
        let until = deadline.min(std::time::Instant::now() + crate::database::ACQUIRE_TIMEOUT);
        let mut prepared = self.prepared.subscribe();
        match tokio::time::timeout_at(until.into(), prepared.wait_for(|ready| *ready)).await {
            Ok(Ok(_)) => Ok(()),
            _ => Err(StoreError::NoConnection("the schema is not made yet: no connection so far".into())),
        }
    }

    /// The same store, a request taking at most `deadline`.
    pub fn with_deadline(self, deadline: Duration) -> Store {
        Store { deadline, ..self }
    }

    /// The same store, keeping the candidates search's copy of the whole
    /// cloud only while the cloud has at most `providers` providers (by
    /// default, any number): past that, a search that reaches most of the
    /// cloud reads every tree from the tables, for itself only. The answers
    /// are the same; a node holds no copy (about 550 bytes a provider) and
    /// each such search reads the four tables (docs/performance.md).
    pub fn with_cloud_cap(self, providers: usize) -> Store {
        Store { cloud: crate::candidates::CloudCache::capped(providers), ..self }
    }

    /// How long a request may take.
    pub fn deadline(&self) -> Duration {
        self.deadline
    }

    /// The candidates search's copy of the whole cloud, kept for this
    /// database.
    pub(crate) fn cloud(&self) -> &crate::candidates::CloudCache {
        &self.cloud
    }

    /// An in-memory SQLite database, for tests.
    pub async fn in_memory() -> Result<Store, String> {
        Store::connect(":memory:").await
    }

    /// Seeds the standard classes and traits, within `deadline`.
    async fn seed_until(&self, deadline: std::time::Instant) -> Result<(), StoreError> {
        self.run_until(Access::Write, deadline, async |tx| {
            let now = now();
            for (id, name) in standard::RESOURCE_CLASSES.iter().enumerate() {
                tx.execute(
                    "INSERT INTO resource_classes (id, name, created_at, updated_at) VALUES ($1, $2, $3, $3) \
                     ON CONFLICT DO NOTHING",
                    params![id as i64, *name, now],
                )
                .await?;
            }
            for name in standard::TRAITS {
                tx.execute(
                    "INSERT INTO traits (name, created_at) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                    params![*name, now],
                )
                .await?;
            }
            Ok(())
        })
        .await
    }

    /// Runs `f`, which only reads, in a read-only transaction: one
    /// connection, one snapshot of the data (see [`Tx`]), within the
    /// request's deadline. `f` fails with its own errors or the store's.
    pub async fn read<T, E: From<StoreError>>(
        &self,
        f: impl AsyncFnOnce(&Tx) -> Result<T, E>,
    ) -> Result<T, E> {
        self.run(Access::Read, f).await
    }

    /// Runs `f` in a transaction, committed when it returns `Ok` before the
    /// request's deadline (and rolled back when it fails or the deadline
    /// passes: [`StoreError::DeadlinePassed`], not carried out).
    pub async fn tx<T, E: From<StoreError>>(&self, f: impl AsyncFnOnce(&Tx) -> Result<T, E>) -> Result<T, E> {
        self.run(Access::Write, f).await
    }

    async fn run<T, E: From<StoreError>>(
        &self,
        access: Access,
        f: impl AsyncFnOnce(&Tx) -> Result<T, E>,
    ) -> Result<T, E> {
        let deadline = crate::deadline::current(self.deadline);
        self.prepared(deadline).await?;
        self.run_until(access, deadline, f).await
    }

    async fn run_until<T, E: From<StoreError>>(
        &self,
        access: Access,
        deadline: std::time::Instant,
        f: impl AsyncFnOnce(&Tx) -> Result<T, E>,
    ) -> Result<T, E> {
        let tx = Tx::begin(&self.pool, access, deadline).await?;
        let value = tokio::time::timeout_at(deadline.into(), f(&tx))
            .await
            .map_err(|_| StoreError::DeadlinePassed)??;
        tx.commit(deadline).await?;
        Ok(value)
    }
}

/// Every provider's names of one kind (its traits, its aggregates), by
/// provider id: `query` selects the id and the name.
async fn names_by_provider(
    tx: &Tx,
    query: &'static str,
) -> Result<HashMap<i64, HashSet<String>>, StoreError> {
    let pairs: Vec<(i64, String)> = tx.query_map(query, params![], |r| Ok((r.get(0)?, r.get(1)?))).await?;
    let mut by_provider: HashMap<i64, HashSet<String>> = HashMap::new();
    for (id, name) in pairs {
        by_provider.entry(id).or_default().insert(name);
    }
    Ok(by_provider)
}

/// An allocation as `GET /usages` counts it: its consumer, the consumer's
/// type, the class and the amount.
pub type ProjectAllocation = (String, Option<String>, String, i64);

/// The allocations of the consumers of `project` (and `user`, if given),
/// by class id, as Placement groups its rows.
pub async fn project_allocations(
    tx: &Tx,
    project: &str,
    user: Option<&str>,
) -> Result<Vec<ProjectAllocation>, StoreError> {
    tx.query_map(
        "SELECT c.uuid, c.consumer_type, a.resource_class, a.used FROM allocations a \
         JOIN consumers c ON c.uuid = a.consumer_uuid \
         LEFT JOIN resource_classes rc ON rc.name = a.resource_class \
         WHERE c.project_id = $1 AND (CAST($2 AS TEXT) IS NULL OR c.user_id = $2) \
         ORDER BY rc.id, a.id",
        params![project, user],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
    )
    .await
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use sqlx::{Connection, PgConnection};

    use super::SCHEMA_POSTGRES;
    use crate::database::make_postgres_schema;

    /// A node restarting finds its schema made and leaves it alone: it
    /// locks no table, so a writer in the middle of its transaction (which
    /// `ALTER TABLE` or `CREATE INDEX` would wait for, holding up every
    /// writer after it) holds up no start.
    #[test]
    fn a_schema_made_before_locks_no_table_when_a_node_starts_again() {
        let pg = microversion_testkit::postgres::PgServer::start();
        let url = pg.create_database("schema_made");
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
        runtime.block_on(async {
            make_postgres_schema::<sqlx::Postgres>(&url, SCHEMA_POSTGRES).await.expect("the schema");
            let mut writer = PgConnection::connect(&url).await.expect("a writer");
            let mut write = writer.begin().await.expect("its transaction");
            for table in ["resource_providers", "allocations", "inventories"] {
                let lock = format!("LOCK TABLE {table} IN ROW EXCLUSIVE MODE");
                sqlx::raw_sql(sqlx::AssertSqlSafe(lock)).execute(&mut *write).await.expect("a writer's lock");
            }
            let again = make_postgres_schema::<sqlx::Postgres>(&url, SCHEMA_POSTGRES);
            tokio::time::timeout(Duration::from_secs(5), again)
                .await
                .expect("the start waits for no writer")
                .expect("the schema found made");
            write.rollback().await.expect("the writer's rollback");
        });
    }
}
