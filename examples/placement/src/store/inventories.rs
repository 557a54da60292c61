//! Inventories: what each provider has of each resource class, and what
//! its allocations use of it.

use crate::db::{StoreError, Tx, params};

/// One inventory record.
#[derive(Clone, Debug, PartialEq)]
pub struct Inventory {
    /// Its resource class.
    pub resource_class: String,
    /// The total amount.
    pub total: i64,
    /// Held back from allocation.
    pub reserved: i64,
    /// Smallest allocation.
    pub min_unit: i64,
    /// Largest allocation.
    pub max_unit: i64,
    /// Allocations are multiples of this.
    pub step_size: i64,
    /// Overcommit factor.
    pub allocation_ratio: f64,
    /// Last change.
    pub updated_at: i64,
}

impl Inventory {
    /// What can be allocated: `(total - reserved) * allocation_ratio`.
    pub fn capacity(&self) -> i64 {
        ((self.total - self.reserved) as f64 * self.allocation_ratio) as i64
    }
}

/// The inventories of provider `id`, by resource class name.
pub async fn inventories(tx: &Tx, id: i64) -> Result<Vec<Inventory>, StoreError> {
    tx.query_map(
        "SELECT resource_class, total, reserved, min_unit, max_unit, step_size, allocation_ratio, updated_at \
         FROM inventories WHERE provider_id = $1 ORDER BY resource_class",
        params![id],
        |r| {
            Ok(Inventory {
                resource_class: r.get(0)?,
                total: r.get(1)?,
                reserved: r.get(2)?,
                min_unit: r.get(3)?,
                max_unit: r.get(4)?,
                step_size: r.get(5)?,
                allocation_ratio: r.get(6)?,
                updated_at: r.get(7)?,
            })
        },
    )
    .await
}

/// What is used of each class on provider `id`.
pub async fn usages(tx: &Tx, id: i64) -> Result<Vec<(String, i64)>, StoreError> {
    tx.query_map(
        "SELECT resource_class, CAST(SUM(used) AS BIGINT) FROM allocations WHERE provider_id = $1 \
         GROUP BY resource_class",
        params![id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .await
}

/// Replaces an inventory record (insert or update).
pub async fn put_inventory(tx: &Tx, id: i64, inv: &Inventory) -> Result<(), StoreError> {
    let now = super::now();
    tx.execute(
        "INSERT INTO inventories (provider_id, resource_class, total, reserved, min_unit, max_unit, step_size, \
         allocation_ratio, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) \
         ON CONFLICT (provider_id, resource_class) DO UPDATE SET total = $3, reserved = $4, min_unit = $5, \
         max_unit = $6, step_size = $7, allocation_ratio = $8, updated_at = $9",
        params![
            id,
            inv.resource_class.as_str(),
            inv.total,
            inv.reserved,
            inv.min_unit,
            inv.max_unit,
            inv.step_size,
            inv.allocation_ratio,
            now
        ],
    ).await?;
    Ok(())
}

/// Whether any allocation of provider `id` is of `class`.
pub async fn allocated(tx: &Tx, id: i64, class: &str) -> Result<bool, StoreError> {
    tx.exists(
        "SELECT 1 FROM allocations WHERE provider_id = $1 AND resource_class = $2 LIMIT 1",
        params![id, class],
    )
    .await
}

/// The classes of provider `id`'s allocations, by class id (the order in
/// which Placement names them).
pub async fn allocated_classes(tx: &Tx, id: i64) -> Result<Vec<String>, StoreError> {
    tx.query_map(
        "SELECT a.resource_class FROM allocations a JOIN resource_classes c ON c.name = a.resource_class \
         WHERE a.provider_id = $1 GROUP BY a.resource_class, c.id ORDER BY c.id",
        params![id],
        |r| r.get(0),
    )
    .await
}

/// Deletes provider `id`'s inventory of `class`; whether there was one.
pub async fn delete(tx: &Tx, id: i64, class: &str) -> Result<bool, StoreError> {
    let deleted = tx
        .execute("DELETE FROM inventories WHERE provider_id = $1 AND resource_class = $2", params![id, class])
        .await?;
    Ok(deleted > 0)
}
