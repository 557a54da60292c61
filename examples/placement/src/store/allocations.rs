//! Allocations: what a consumer takes of a class on a provider.

use crate::db::{StoreError, Tx, params};

/// The providers of consumer `uuid`'s allocations, each with its
/// generation, and the class.
pub async fn providers_of_consumer(tx: &Tx, uuid: &str) -> Result<Vec<(i64, i64, String)>, StoreError> {
    tx.query_map(
        "SELECT a.provider_id, p.generation, a.resource_class FROM allocations a \
         JOIN resource_providers p ON p.id = a.provider_id WHERE a.consumer_uuid = $1",
        params![uuid],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )
    .await
}

/// What is used of `class` on provider `id`.
pub async fn used(tx: &Tx, id: i64, class: &str) -> Result<i64, StoreError> {
    tx.query_row(
        "SELECT CAST(COALESCE(SUM(used), 0) AS BIGINT) FROM allocations WHERE provider_id = $1 AND resource_class = $2",
        params![id, class],
        |r| r.get(0),
    )
    .await
}

/// Deletes consumer `uuid`'s allocations.
pub async fn delete_of_consumer(tx: &Tx, uuid: &str) -> Result<(), StoreError> {
    tx.execute("DELETE FROM allocations WHERE consumer_uuid = $1", params![uuid]).await?;
    Ok(())
}

/// Allocates `amount` of `class` on provider `id` to consumer `uuid`.
pub async fn insert(tx: &Tx, id: i64, uuid: &str, class: &str, amount: i64) -> Result<(), StoreError> {
    tx.execute(
        "INSERT INTO allocations (provider_id, consumer_uuid, resource_class, used, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $5)",
        params![id, uuid, class, amount, super::now()],
    )
    .await?;
    Ok(())
}

/// A consumer's allocation: the provider's uuid and generation, the
/// class, the amount and the last change.
pub type OfConsumer = (String, i64, String, i64, i64);

/// Consumer `uuid`'s allocations, by id.
pub async fn of_consumer(tx: &Tx, uuid: &str) -> Result<Vec<OfConsumer>, StoreError> {
    tx.query_map(
        "SELECT p.uuid, p.generation, a.resource_class, a.used, a.updated_at FROM allocations a \
         JOIN resource_providers p ON p.id = a.provider_id WHERE a.consumer_uuid = $1 ORDER BY a.id",
        params![uuid],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
    )
    .await
}

/// A provider's allocation: the consumer's uuid, the class, the amount and
/// the consumer's generation.
pub type OfProvider = (String, String, i64, Option<i64>);

/// Provider `id`'s allocations, by id.
pub async fn of_provider(tx: &Tx, id: i64) -> Result<Vec<OfProvider>, StoreError> {
    tx.query_map(
        "SELECT a.consumer_uuid, a.resource_class, a.used, c.generation FROM allocations a \
         LEFT JOIN consumers c ON c.uuid = a.consumer_uuid WHERE a.provider_id = $1 ORDER BY a.id",
        params![id],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
    )
    .await
}
