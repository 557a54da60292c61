// Input of the expansion snapshot (see `src/lib.rs`, `expansion_snapshot`):
// a model that borrows (rendered only: no `VersionedStruct`, reading
// refused) and a model over a type (its bounds inferred from its fields,
// its schemas kept per type).
#[derive(VersionedModel)]
#[versioned(crate = ::microversion_actix)]
struct Summary<'a> {
    name: &'a str,
    #[versioned(since = "2.5")]
    description: Option<&'a str>,
}

#[derive(VersionedModel)]
#[versioned(crate = ::microversion_actix)]
struct Page<T: Clone> {
    #[versioned(nested)]
    items: Vec<T>,
    #[versioned(since = "2.3", default)]
    previous: Vec<T>,
    count: u32,
}
