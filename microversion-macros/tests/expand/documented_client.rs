// Input of the expansion snapshot (see `src/lib.rs`, `expansion_snapshot`):
// a handler's doc comment reaches its operation's description (`doc`) and
// its typed client method's docs.
#[controller(api = COMPUTE, crate = ::microversion_actix, client)]
impl Flavors {
    /// Shows one flavor.
    ///
    /// By its id.
    #[get("/flavors/{id}")]
    async fn show(&self, id: Path<String>) -> Json<Value> {
        Json(Value::String(id.into_inner()))
    }
}
