//! Traits: the standard ones (seeded) and `CUSTOM_*`, and the traits of
//! each provider.

use std::collections::{BTreeSet, HashSet};

use crate::db::{StoreError, Tx, params};

/// Every trait's name, by name, and whether a provider has it.
pub async fn all(tx: &Tx) -> Result<Vec<(String, bool)>, StoreError> {
    tx.query_map(
        "SELECT name, CAST(CASE WHEN name IN (SELECT trait FROM provider_traits) THEN 1 ELSE 0 END AS BIGINT) \
         FROM traits ORDER BY name",
        params![],
        |r| Ok((r.get(0)?, r.get::<i64>(1)? == 1)),
    )
    .await
}

/// The name of every trait.
pub async fn names(tx: &Tx) -> Result<HashSet<String>, StoreError> {
    Ok(tx.query_map("SELECT name FROM traits", params![], |r| r.get(0)).await?.into_iter().collect())
}

/// Whether a trait exists.
pub async fn exists(tx: &Tx, name: &str) -> Result<bool, StoreError> {
    tx.exists("SELECT 1 FROM traits WHERE name = $1", params![name]).await
}

/// When the trait `name` was made, if it exists.
pub async fn created_at(tx: &Tx, name: &str) -> Result<Option<i64>, StoreError> {
    tx.query_opt("SELECT created_at FROM traits WHERE name = $1", params![name], |r| r.get(0)).await
}

/// Makes the trait `name`, at `now`.
pub async fn create(tx: &Tx, name: &str, now: i64) -> Result<(), StoreError> {
    tx.execute("INSERT INTO traits (name, created_at) VALUES ($1, $2)", params![name, now]).await?;
    Ok(())
}

/// Whether a provider has the trait `name`.
pub async fn in_use(tx: &Tx, name: &str) -> Result<bool, StoreError> {
    tx.exists("SELECT 1 FROM provider_traits WHERE trait = $1 LIMIT 1", params![name]).await
}

/// Deletes the trait `name`.
pub async fn delete(tx: &Tx, name: &str) -> Result<(), StoreError> {
    tx.execute("DELETE FROM traits WHERE name = $1", params![name]).await?;
    Ok(())
}

/// The traits of provider `id`, by name.
pub async fn of_provider(tx: &Tx, id: i64) -> Result<Vec<String>, StoreError> {
    tx.query_map(
        "SELECT trait FROM provider_traits WHERE provider_id = $1 ORDER BY trait",
        params![id],
        |r| r.get(0),
    )
    .await
}

/// Replaces the traits of provider `id`; whether they changed. An
/// unchanged set writes nothing, so that the caller leaves the provider's
/// generation as it is (Placement's `_set_traits` returns early).
pub async fn set_for_provider(tx: &Tx, id: i64, traits: &[String]) -> Result<bool, StoreError> {
    let existing: BTreeSet<String> = of_provider(tx, id).await?.into_iter().collect();
    if existing == traits.iter().cloned().collect() {
        return Ok(false);
    }
    tx.execute("DELETE FROM provider_traits WHERE provider_id = $1", params![id]).await?;
    for name in traits {
        tx.execute(
            "INSERT INTO provider_traits (provider_id, trait) VALUES ($1, $2) ON CONFLICT DO NOTHING",
            params![id, name],
        )
        .await?;
    }
    Ok(true)
}

/// Every provider's traits, by provider id.
pub async fn by_provider(tx: &Tx) -> Result<std::collections::HashMap<i64, HashSet<String>>, StoreError> {
    super::names_by_provider(tx, "SELECT provider_id, trait FROM provider_traits").await
}
