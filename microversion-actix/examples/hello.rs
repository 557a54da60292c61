//! A whole versioned API in one file: three versions, a model whose fields
//! carry their versions, a request schema, discovery, and a server.
//!
//! `cargo run -p microversion-actix --example hello`, then:
//!
//! ```text
//! curl localhost:8080/                                   # the versions
//! curl localhost:8080/v1/greetings/ada                   # 1.0: text only
//! curl -H 'OpenStack-API-Version: hello 1.1' localhost:8080/v1/greetings/ada
//! curl -X PUT -H 'OpenStack-API-Version: hello 1.2' -H 'Content-Type: application/json' \
//!      -d '{"text": "Hi"}' localhost:8080/v1/greetings/ada   # 1.2 adds PUT
//! curl -H 'OpenStack-API-Version: hello 1.9' localhost:8080/v1/greetings/ada   # 406
//! ```

use actix_web::{App, HttpServer, web};
use microversion_actix::{
    Api, ApiError, Discovery, Json, VersionNegotiation, Versioned, VersionedModel, controller, history,
};
use serde_json::{Value, json};

/// Every version the API ever had, with the change it made.
const HELLO: Api = Api::new(
    "hello",
    history![
        "1.0" => "Greetings by name.",
        "1.1" => "Greetings say which language they are in.",
        "1.2" => "Greetings can be changed.",
    ],
)
.with_path("/v1");

/// A greeting at every version: `language` exists from 1.1.
#[derive(VersionedModel)]
#[versioned(api = HELLO)]
struct Greeting {
    name: String,
    text: String,
    #[versioned(since = "1.1")]
    language: Option<String>,
}

/// What a 1.2 `PUT` may send.
fn change_schema() -> Value {
    json!({"type": "object", "required": ["text"], "additionalProperties": false,
           "properties": {"text": {"type": "string", "minLength": 1, "maxLength": 64}}})
}

struct Greetings;

#[controller(api = HELLO, scope = "/greetings")]
impl Greetings {
    /// One operation, rendered at the negotiated version by the model.
    #[get("/{name}")]
    async fn show(&self, name: web::Path<String>) -> Versioned<Greeting> {
        let text = format!("Hello, {name}!");
        Versioned::ok(Greeting { name: name.into_inner(), text, language: Some("en".into()) })
    }

    /// New in 1.2 (a 404 before, as in Nova); the body is checked first.
    #[put("/{name}")]
    #[api_version("1.2")]
    #[schema(change_schema, "1.2")]
    async fn change(
        &self,
        name: web::Path<String>,
        body: Json<Value>,
    ) -> Result<Versioned<Greeting>, ApiError> {
        if name.as_str() == "nobody" {
            return Err(ApiError::not_found("There is nobody to greet."));
        }
        let text = body["text"].as_str().unwrap_or_default().to_owned();
        Ok(Versioned::ok(Greeting { name: name.into_inner(), text, language: None }))
    }
}

/// Discovery at the root, the API under `/v1`, a JSON 404 elsewhere.
pub fn app(cfg: &mut web::ServiceConfig) {
    let versions = VersionNegotiation::new(HELLO);
    cfg.service(Discovery::new(&[HELLO]))
        .service(web::scope("/v1").wrap(versions.clone()).service(Greetings))
        .default_service(versions.default_service());
}

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    let address = std::env::args().nth(1).unwrap_or_else(|| "127.0.0.1:8080".to_owned());
    println!("hello API on http://{address}/");
    HttpServer::new(|| App::new().configure(app)).bind(address)?.run().await
}
