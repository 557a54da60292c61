#[controller(api = API, scope = "/v2.1", crate = ::microversion_axum)]
impl Servers {
    #[get("/servers/{id}")]
    #[api_version("2.1", "2.2")]
    async fn show(&self, id: Path<String>) -> String {
        id.0
    }

    #[get("/servers/{id}")]
    #[api_version("2.3")]
    async fn show(&self, id: Path<String>, version: ApiVersion) -> String {
        format!("{} {}", id.0, version.version())
    }

    #[put("/servers/{id}")]
    #[api_version("2.4", missing = 405)]
    async fn lock(&self, body: Json<Value>) -> Json<Value> {
        body
    }
}
