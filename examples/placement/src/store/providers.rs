//! Resource providers' rows: their trees (parent and root), names and
//! generations.

use crate::db::{Row, StoreError, Tx, params};

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
    /// Last change of its row: `None` for a provider made under a parent
    /// and not changed since, whose row Placement leaves without one (a
    /// root's is set as it is made, when its row is written again to be
    /// its own root). Stored as 0.
    pub updated_at: Option<i64>,
}

/// A query of providers, `SELECT`ing the columns [`provider_row`] reads,
/// followed by `$rest` (a literal: the statement stays `&'static str`).
macro_rules! select_providers {
    ($rest:literal) => {
        concat!(
            "SELECT p.id, p.uuid, p.name, p.generation, pp.uuid, r.uuid, p.created_at, NULLIF(p.updated_at, 0) \
             FROM resource_providers p LEFT JOIN resource_providers pp ON pp.id = p.parent_id \
             LEFT JOIN resource_providers r ON r.id = p.root_id ",
            $rest
        )
    };
}

fn provider_row(row: &Row) -> Result<Provider, StoreError> {
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
pub async fn provider(tx: &Tx, uuid: &str) -> Result<Option<Provider>, StoreError> {
    tx.query_opt(select_providers!("WHERE p.uuid = $1"), params![uuid], provider_row).await
}

/// Every provider, by id.
pub async fn all_providers(tx: &Tx) -> Result<Vec<Provider>, StoreError> {
    tx.query_map(select_providers!("ORDER BY p.id"), params![], provider_row).await
}

/// Bumps the generation of provider `id` if it is still `expected`:
/// otherwise the change lost a race ([`StoreError::GenerationChanged`]).
/// (On PostgreSQL a concurrent writer of the row makes this wait for its
/// end, then see its generation: the same 409, never a lost update.)
pub async fn bump_provider(tx: &Tx, id: i64, expected: i64) -> Result<i64, StoreError> {
    let changed = tx.execute(
        "UPDATE resource_providers SET generation = generation + 1, updated_at = $3 WHERE id = $1 AND generation = $2",
        params![id, expected, super::now()],
    ).await?;
    if changed == 0 {
        return Err(StoreError::GenerationChanged);
    }
    Ok(expected + 1)
}

/// Locks the row of provider `id` for this transaction, changing nothing:
/// its generation, or `None` when it is gone. (On PostgreSQL a writer of
/// the row makes this wait for its end, then see its generation.) Writers
/// of several providers lock them by id, so that two of them never wait
/// for each other in a cycle.
pub async fn lock_provider(tx: &Tx, id: i64) -> Result<Option<i64>, StoreError> {
    tx.query_opt(
        "UPDATE resource_providers SET generation = generation WHERE id = $1 RETURNING generation",
        params![id],
        |r| r.get(0),
    )
    .await
}

/// The root of provider `id`.
pub async fn root_of(tx: &Tx, id: i64) -> Result<i64, StoreError> {
    tx.query_row("SELECT root_id FROM resource_providers WHERE id = $1", params![id], |r| r.get(0)).await
}

/// Whether a provider other than `except` is named `name`.
pub async fn name_taken(tx: &Tx, name: &str, except: Option<i64>) -> Result<bool, StoreError> {
    tx.exists(
        "SELECT 1 FROM resource_providers WHERE name = $1 AND id != $2 LIMIT 1",
        params![name, except.unwrap_or(-1)],
    )
    .await
}

/// Makes a provider, under `parent` (its id and its root's) or as a root
/// of its own tree; its id. A root's row is changed as it is made (see
/// [`Provider::updated_at`]), a child's not.
pub async fn insert(tx: &Tx, uuid: &str, name: &str, parent: Option<(i64, i64)>) -> Result<i64, StoreError> {
    let (parent_id, root_id) = (parent.map(|p| p.0), parent.map(|p| p.1));
    let now = super::now();
    let updated = if parent.is_some() { 0 } else { now };
    let id: i64 = tx
        .query_row(
            "INSERT INTO resource_providers (uuid, name, generation, parent_id, root_id, created_at, updated_at) \
             VALUES ($1, $2, 0, $3, $4, $5, $6) RETURNING id",
            params![uuid, name, parent_id, root_id, now, updated],
            |r| r.get(0),
        )
        .await?;
    if root_id.is_none() {
        tx.execute("UPDATE resource_providers SET root_id = id WHERE id = $1", params![id]).await?;
    }
    Ok(id)
}

/// Renames provider `id`; its row changes only if its name does (an ORM
/// flush writes no row whose values are as they were).
pub async fn rename(tx: &Tx, id: i64, name: &str) -> Result<(), StoreError> {
    tx.execute(
        "UPDATE resource_providers SET name = $1, updated_at = $2 WHERE id = $3 AND name <> $1",
        params![name, super::now(), id],
    )
    .await?;
    Ok(())
}

/// Whether provider `id` has children.
pub async fn has_children(tx: &Tx, id: i64) -> Result<bool, StoreError> {
    tx.exists("SELECT 1 FROM resource_providers WHERE parent_id = $1 LIMIT 1", params![id]).await
}

/// Whether provider `id` has allocations.
pub async fn has_allocations(tx: &Tx, id: i64) -> Result<bool, StoreError> {
    tx.exists("SELECT 1 FROM allocations WHERE provider_id = $1 LIMIT 1", params![id]).await
}

/// Deletes provider `id` with its inventories, traits and aggregates.
pub async fn delete(tx: &Tx, id: i64) -> Result<(), StoreError> {
    for statement in [
        "DELETE FROM inventories WHERE provider_id = $1",
        "DELETE FROM provider_traits WHERE provider_id = $1",
        "DELETE FROM provider_aggregates WHERE provider_id = $1",
        "DELETE FROM resource_providers WHERE id = $1",
    ] {
        tx.execute(statement, params![id]).await?;
    }
    Ok(())
}

/// Moves provider `id` under `parent` (a root when `None`): its parent,
/// then its tree's root (the parent's root, or itself) on it and every
/// provider below it, level by level. Each row whose parent or root
/// changes is changed (`updated_at`), as Placement's `_update_in_db`
/// writes them.
pub async fn set_parent(tx: &Tx, id: i64, parent: Option<i64>) -> Result<(), StoreError> {
    let root = match parent {
        Some(parent) => root_of(tx, parent).await?,
        None => id,
    };
    let now = super::now();
    tx.execute(
        "UPDATE resource_providers SET parent_id = $1, updated_at = $3 WHERE id = $2 \
         AND parent_id IS DISTINCT FROM $1",
        params![parent, id, now],
    )
    .await?;
    let mut level = vec![id];
    while !level.is_empty() {
        let mut next = Vec::new();
        for id in level {
            tx.execute(
                "UPDATE resource_providers SET root_id = $1, updated_at = $3 WHERE id = $2 AND root_id <> $1",
                params![root, id, now],
            )
            .await?;
            let children: Vec<i64> = tx
                .query_map("SELECT id FROM resource_providers WHERE parent_id = $1", params![id], |r| {
                    r.get(0)
                })
                .await?;
            next.extend(children);
        }
        level = next;
    }
    Ok(())
}
