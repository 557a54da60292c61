//! Inventories: what each provider has of each resource class, and what
//! its allocations use of it.

use crate::db::{Row, Sql, StoreError, Tx, Value, params};

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
        |r| inventory_at(r, 0),
    )
    .await
}

/// The generation and the inventories (by resource class name) of the
/// provider `uuid`, in one statement; `None` when there is no such provider.
pub async fn of_provider(tx: &Tx, uuid: &str) -> Result<Option<(i64, Vec<Inventory>)>, StoreError> {
    let rows = tx
        .query_map(
            "SELECT p.generation, i.resource_class, i.total, i.reserved, i.min_unit, i.max_unit, i.step_size, \
             i.allocation_ratio, i.updated_at FROM resource_providers p \
             LEFT JOIN inventories i ON i.provider_id = p.id WHERE p.uuid = $1 ORDER BY i.resource_class",
            params![uuid],
            |r| {
                // A provider without inventories is one row of nulls.
                let inventory = r.get::<Option<String>>(1)?.map(|_| inventory_at(r, 1)).transpose()?;
                Ok((r.get::<i64>(0)?, inventory))
            },
        )
        .await?;
    let Some(&(generation, _)) = rows.first() else { return Ok(None) };
    Ok(Some((generation, rows.into_iter().filter_map(|(_, inventory)| inventory).collect())))
}

/// The inventory in the eight columns of `row` from `first` on.
fn inventory_at(row: &Row, first: usize) -> Result<Inventory, StoreError> {
    Ok(Inventory {
        resource_class: row.get(first)?,
        total: row.get(first + 1)?,
        reserved: row.get(first + 2)?,
        min_unit: row.get(first + 3)?,
        max_unit: row.get(first + 4)?,
        step_size: row.get(first + 5)?,
        allocation_ratio: row.get(first + 6)?,
        updated_at: row.get(first + 7)?,
    })
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
