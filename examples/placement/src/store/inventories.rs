//! Inventories: what each provider has of each resource class, and what
//! its allocations use of it.

use crate::db::{Sql, StoreError, Tx, Value, params};

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

/// Replaces inventory records of provider `id` (each inserted or updated),
/// in one statement.
pub async fn put_inventories(tx: &Tx, id: i64, inventories: &[Inventory]) -> Result<(), StoreError> {
    if inventories.is_empty() {
        return Ok(());
    }
    let now = super::now();
    let mut sql = Sql::new(
        "INSERT INTO inventories (provider_id, resource_class, total, reserved, min_unit, max_unit, step_size, \
         allocation_ratio, created_at, updated_at) VALUES ",
    );
    for (i, inv) in inventories.iter().enumerate() {
        if i > 0 {
            sql.push(", ");
        }
        sql.list([
            Value::from(id),
            Value::from(inv.resource_class.as_str()),
            Value::from(inv.total),
            Value::from(inv.reserved),
            Value::from(inv.min_unit),
            Value::from(inv.max_unit),
            Value::from(inv.step_size),
            Value::from(inv.allocation_ratio),
            Value::from(now),
            Value::from(now),
        ]);
    }
    sql.push(
        " ON CONFLICT (provider_id, resource_class) DO UPDATE SET total = excluded.total, \
         reserved = excluded.reserved, min_unit = excluded.min_unit, max_unit = excluded.max_unit, \
         step_size = excluded.step_size, allocation_ratio = excluded.allocation_ratio, \
         updated_at = excluded.updated_at",
    );
    tx.execute_sql(&sql).await?;
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
