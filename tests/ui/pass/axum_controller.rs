// An axum controller: variants by version, a body, a path, the version.
use axum::extract::Path;
use microversion_axum::{Api, ApiError, ApiVersion, Microversion, VersionNegotiation, controller};

const VOLUME: Api = Api::new("volume", &[Microversion::new("3.0", "a"), Microversion::new("3.1", "b")]);

struct Volumes;

#[controller(api = VOLUME, scope = "/v3", axum)]
impl Volumes {
    #[get("/volumes/{id}")]
    #[api_version("3.0", "3.0")]
    async fn show(&self, id: Path<u32>) -> String {
        id.0.to_string()
    }

    #[get("/volumes/{id}")]
    #[api_version("3.1")]
    async fn show(&self, id: Path<u32>, version: ApiVersion) -> Result<String, ApiError> {
        Ok(format!("{} at {}", id.0, version.version()))
    }

    #[post("/volumes")]
    async fn create(body: axum::Json<serde_json::Value>) -> axum::Json<serde_json::Value> {
        body
    }
}

fn main() {
    let _: axum::Router = axum::Router::new().merge(Volumes).layer(VersionNegotiation::new(VOLUME));
}
