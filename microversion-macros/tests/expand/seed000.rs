// Input of the expansion snapshot (see `src/lib.rs`, `expansion_snapshot`):
// seed 000's `update` with two schemas, and a versioned private helper.
#[controller(api = COMPUTE, scope = "/servers", crate = ::microversion_actix)]
impl Servers {
    #[put("/{id}")]
    #[api_version("2.1")]
    #[schema(dummy, "2.3", "2.8")]
    #[schema(dummy2, "2.9")]
    async fn update(&self, id: Path<String>, body: Json<Value>) -> Json<Value> {
        body
    }

    #[api_version("2.1", "2.4")]
    fn version_specific_func(&self, arg: &str) -> String {
        format!("old {arg}")
    }

    #[api_version("2.5")]
    fn version_specific_func(&self, arg: &str) -> String {
        format!("new {arg}")
    }
}
