//! The aggregates each provider is in.

use std::collections::HashSet;

use crate::db::{StoreError, Tx, params};

/// The aggregates of provider `id`, by uuid.
pub async fn of_provider(tx: &Tx, id: i64) -> Result<Vec<String>, StoreError> {
    tx.query_map(
        "SELECT aggregate FROM provider_aggregates WHERE provider_id = $1 ORDER BY aggregate",
        params![id],
        |r| r.get(0),
    )
    .await
}

/// Replaces the aggregates of provider `id`.
pub async fn set_for_provider(tx: &Tx, id: i64, aggregates: &[String]) -> Result<(), StoreError> {
    tx.execute("DELETE FROM provider_aggregates WHERE provider_id = $1", params![id]).await?;
    for aggregate in aggregates {
        tx.execute(
            "INSERT INTO provider_aggregates (provider_id, aggregate) VALUES ($1, $2) ON CONFLICT DO NOTHING",
            params![id, aggregate],
        )
        .await?;
    }
    Ok(())
}

/// Every provider's aggregates, by provider id.
pub async fn by_provider(tx: &Tx) -> Result<std::collections::HashMap<i64, HashSet<String>>, StoreError> {
    super::names_by_provider(tx, "SELECT provider_id, aggregate FROM provider_aggregates").await
}
