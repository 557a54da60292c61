// Input of the expansion snapshot (see `src/lib.rs`, `expansion_snapshot`):
// a versioned model with a field of a range, a renamed field, a default,
// another representation before a version, a nested model, and a field's
// doc comment as its schema's description.
#[derive(VersionedModel)]
#[versioned(api = COMPUTE, crate = ::microversion_actix)]
struct Flavor {
    id: String,
    #[versioned(rename = "OS-FLV-EXT-DATA:ephemeral")]
    ephemeral: u64,
    /// A free-form description of the flavor.
    #[versioned(since = "2.55")]
    description: Option<String>,
    #[versioned(since = "2.61", default)]
    extra_specs: BTreeMap<String, String>,
    #[versioned(render(until = "2.74", with = swap_before_2_75))]
    swap: u64,
    #[versioned(nested)]
    links: Vec<Link>,
}
