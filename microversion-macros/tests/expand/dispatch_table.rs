// Input of the expansion snapshot (see `src/lib.rs`, `expansion_snapshot`):
// a helper whose bounded variants are listed in a `match` (a jump table),
// with a gap, a range across major versions and an open end left to the tree;
// and a route whose variants take the same arguments, extracted once after
// the variant is chosen.
#[controller(api = COMPUTE, crate = ::microversion_actix)]
impl Servers {
    #[get("/servers/{id}")]
    #[api_version("2.1", "2.46")]
    async fn show(&self, id: Path<u32>) -> String {
        format!("server {id}")
    }

    #[get("/servers/{id}")]
    #[api_version("2.47")]
    async fn show(&self, id: Path<u32>) -> Json<Value> {
        Json(json!({"id": *id}))
    }

    #[api_version("2.1", "2.1")]
    fn view(&self) -> u8 {
        1
    }

    #[api_version("2.2", "2.3")]
    fn view(&self) -> u8 {
        2
    }

    #[api_version("2.5", "2.5")]
    fn view(&self) -> u8 {
        3
    }

    #[api_version("2.6", "3.1")]
    fn view(&self) -> u8 {
        4
    }

    #[api_version("3.2")]
    fn view(&self) -> u8 {
        5
    }
}
