//! Consumers: who owns a set of allocations (project, user, type), and
//! the generation a client names to change them.

use crate::db::{StoreError, Tx, params};

/// A consumer's row.
#[derive(Clone, Debug)]
pub struct Consumer {
    /// The owning project.
    pub project_id: String,
    /// The owning user.
    pub user_id: String,
    /// Bumped by every change of its allocations.
    pub generation: i64,
    /// Its type (`INSTANCE`, `MIGRATION`), from 1.38.
    pub consumer_type: Option<String>,
}

/// The consumer `uuid`, if it exists.
pub async fn get(tx: &Tx, uuid: &str) -> Result<Option<Consumer>, StoreError> {
    tx.query_opt(
        "SELECT project_id, user_id, generation, consumer_type FROM consumers WHERE uuid = $1",
        params![uuid],
        |r| {
            Ok(Consumer {
                project_id: r.get(0)?,
                user_id: r.get(1)?,
                generation: r.get(2)?,
                consumer_type: r.get(3)?,
            })
        },
    )
    .await
}

/// Makes the consumer `uuid`, at generation 0, unless it exists: whether
/// it made it.
pub async fn insert_if_new(
    tx: &Tx,
    uuid: &str,
    project: &str,
    user: &str,
    consumer_type: Option<&str>,
) -> Result<bool, StoreError> {
    let inserted = tx
        .execute(
            "INSERT INTO consumers (uuid, project_id, user_id, generation, consumer_type, created_at, updated_at) \
             VALUES ($1, $2, $3, 0, $4, $5, $5) ON CONFLICT (uuid) DO NOTHING",
            params![uuid, project, user, consumer_type, super::now()],
        )
        .await?;
    Ok(inserted == 1)
}

/// Gives the consumer `uuid` another owner and type.
pub async fn reown(
    tx: &Tx,
    uuid: &str,
    project: &str,
    user: &str,
    consumer_type: Option<&str>,
) -> Result<(), StoreError> {
    tx.execute(
        "UPDATE consumers SET project_id = $1, user_id = $2, consumer_type = $3, updated_at = $4 WHERE uuid = $5",
        params![project, user, consumer_type, super::now(), uuid],
    )
    .await?;
    Ok(())
}

/// Moves the consumer `uuid` on from generation `expected` to the next
/// ([`StoreError::LostRace`] when another writer moved it first, as
/// Placement's `_increment_consumer_generation` refuses).
pub async fn bump(tx: &Tx, uuid: &str, expected: i64) -> Result<(), StoreError> {
    let changed = tx
        .execute(
            "UPDATE consumers SET generation = generation + 1 WHERE uuid = $1 AND generation = $2",
            params![uuid, expected],
        )
        .await?;
    if changed == 0 {
        return Err(StoreError::LostRace);
    }
    Ok(())
}

/// Deletes the consumer `uuid` if it has no allocations.
pub async fn delete_if_empty(tx: &Tx, uuid: &str) -> Result<(), StoreError> {
    tx.execute(
        "DELETE FROM consumers WHERE uuid = $1 AND NOT EXISTS (SELECT 1 FROM allocations WHERE consumer_uuid = $1)",
        params![uuid],
    )
    .await?;
    Ok(())
}

/// Deletes the consumer `uuid` with its allocations; whether it had any
/// (when it had none, the caller rolls the transaction back: the consumer
/// stays).
///
/// The consumer's row goes first, then its allocations: the order in which
/// a claim locks them (it re-owns the consumer, then replaces its
/// allocations), so that a claim and a delete of the same consumer never
/// wait for each other in a cycle (a deadlock on PostgreSQL).
pub async fn delete_with_allocations(tx: &Tx, uuid: &str) -> Result<bool, StoreError> {
    tx.execute("DELETE FROM consumers WHERE uuid = $1", params![uuid]).await?;
    Ok(tx.execute("DELETE FROM allocations WHERE consumer_uuid = $1", params![uuid]).await? > 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    #[test]
    fn a_bump_from_a_generation_another_writer_moved_is_refused() {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
        runtime.block_on(async {
            let store = Store::in_memory().await.expect("a store");
            let uuid = "cccccccc-0000-4000-8000-000000000001";
            let generation = async || {
                store.read(async |tx| get(tx, uuid).await).await.expect("read").map(|c| c.generation)
            };
            store.tx(async |tx| insert_if_new(tx, uuid, "p", "u", None).await).await.expect("made");
            store.tx(async |tx| bump(tx, uuid, 0).await).await.expect("bumped from 0");
            assert_eq!(generation().await, Some(1));
            // A writer that read generation 0 before the bump above lost.
            let stale = store.tx(async |tx| bump(tx, uuid, 0).await).await;
            assert!(matches!(stale, Err(StoreError::LostRace)), "{stale:?}");
            assert_eq!(generation().await, Some(1));
            store.tx(async |tx| bump(tx, uuid, 1).await).await.expect("bumped from 1");
            assert_eq!(generation().await, Some(2));
        });
    }
}
