//! Resource classes: the standard ones (seeded with their ids) and custom
//! ones, numbered from Placement's `CUSTOM_NAMESPACE`.

use std::collections::HashMap;

use crate::db::{Sql, StoreError, Tx, params};

/// The first id of a custom resource class (Placement's `CUSTOM_NAMESPACE`).
const FIRST_CUSTOM_ID: i64 = 10000;

/// Every class's name and last change, by id.
pub async fn all(tx: &Tx) -> Result<Vec<(String, i64)>, StoreError> {
    tx.query_map("SELECT name, updated_at FROM resource_classes ORDER BY id", params![], |r| {
        Ok((r.get(0)?, r.get(1)?))
    })
    .await
}

/// When the class `name` last changed, if it exists.
pub async fn updated_at(tx: &Tx, name: &str) -> Result<Option<i64>, StoreError> {
    tx.query_opt("SELECT updated_at FROM resource_classes WHERE name = $1", params![name], |r| r.get(0)).await
}

/// Whether a resource class exists.
pub async fn exists(tx: &Tx, name: &str) -> Result<bool, StoreError> {
    tx.exists("SELECT 1 FROM resource_classes WHERE name = $1", params![name]).await
}

/// The first of `names` that is no resource class, if any: one statement
/// for them all.
pub async fn first_unknown<'n>(tx: &Tx, names: &[&'n str]) -> Result<Option<&'n str>, StoreError> {
    if names.is_empty() {
        return Ok(None);
    }
    let mut sql = Sql::new("SELECT name FROM resource_classes WHERE name IN ");
    sql.list(names.iter().copied());
    let known: Vec<String> = tx.query_sql(&sql, |r| r.get(0)).await?;
    Ok(names.iter().copied().find(|name| !known.iter().any(|k| k == name)))
}

/// The id of every resource class, by name: Placement's order of
/// resource-class-keyed answers (its rows grouped by class id).
pub async fn ids(tx: &Tx) -> Result<HashMap<String, i64>, StoreError> {
    Ok(tx
        .query_map("SELECT name, id FROM resource_classes", params![], |r| Ok((r.get(0)?, r.get(1)?)))
        .await?
        .into_iter()
        .collect())
}

/// Creates a custom resource class.
pub async fn create(tx: &Tx, name: &str) -> Result<(), StoreError> {
    let next: i64 = tx
        .query_row(
            "SELECT CAST(COALESCE(MAX(id) + 1, $1) AS BIGINT) FROM resource_classes WHERE id >= $1",
            params![FIRST_CUSTOM_ID],
            |r| r.get(0),
        )
        .await?;
    let now = super::now();
    tx.execute(
        "INSERT INTO resource_classes (id, name, created_at, updated_at) VALUES ($1, $2, $3, $3)",
        params![next, name, now],
    )
    .await?;
    Ok(())
}

/// Renames the class `from` to `to`, in the inventories and allocations
/// that name it too.
pub async fn rename(tx: &Tx, from: &str, to: &str) -> Result<(), StoreError> {
    tx.execute(
        "UPDATE resource_classes SET name = $1, updated_at = $2 WHERE name = $3",
        params![to, super::now(), from],
    )
    .await?;
    for statement in [
        "UPDATE inventories SET resource_class = $1 WHERE resource_class = $2",
        "UPDATE allocations SET resource_class = $1 WHERE resource_class = $2",
    ] {
        tx.execute(statement, params![to, from]).await?;
    }
    Ok(())
}

/// Whether an inventory is of the class `name`.
pub async fn in_inventory(tx: &Tx, name: &str) -> Result<bool, StoreError> {
    tx.exists("SELECT 1 FROM inventories WHERE resource_class = $1 LIMIT 1", params![name]).await
}

/// Deletes the class `name`.
pub async fn delete(tx: &Tx, name: &str) -> Result<(), StoreError> {
    tx.execute("DELETE FROM resource_classes WHERE name = $1", params![name]).await?;
    Ok(())
}
