//! One API served twice: plain actix routes under `/plain`, and the same
//! handlers through the framework under `/v2.1` (middleware, `ApiVersion`
//! negotiation, a `#[controller]` with versioned variants and schemas).
//! The in-process request benchmarks and the load server both mount these.
//!
//! ```
//! use actix_web::{App, test};
//! use microversion_benches::server::{VERSION_HEADER, configure};
//!
//! # actix_web::rt::System::new().block_on(async {
//! let app = test::init_service(App::new().configure(configure)).await;
//! for path in ["/plain/servers/42", "/v2.1/servers/42", "/plain/servers/detail", "/v2.1/servers/detail"] {
//!     let req = test::TestRequest::get().uri(path).insert_header(VERSION_HEADER).to_request();
//!     let res = test::call_service(&app, req).await;
//!     assert!(res.status().is_success(), "{path}");
//! }
//! # });
//! ```

use std::sync::LazyLock;

use actix_web::{HttpResponse, web};
use microversion_actix::{Api, JsonBody, Microversion, Microversions, Version, controller};
use serde_json::{Value, json};

use crate::schema::{create_server_schema, create_server_schema_v2_1};

const fn nova_like_history() -> [Microversion; 96] {
    let mut history = [Microversion { version: Version::new(2, 1), change: "A change." }; 96];
    let mut i = 0;
    while i < history.len() {
        history[i].version = Version::new(2, i as u16 + 1);
        i += 1;
    }
    history
}

static HISTORY: [Microversion; 96] = nova_like_history();

/// A compute API with Nova's size of history: 2.1 to 2.96, legacy header included.
pub const COMPUTE: Api = Api::new("compute", &HISTORY).legacy_headers(&["X-OpenStack-Nova-API-Version"]);

/// The version header every benchmark request carries, plain ones included,
/// so both sides receive the same bytes.
pub const VERSION_HEADER: (&str, &str) = ("OpenStack-API-Version", "compute 2.27");

/// The work of `GET /servers/{id}`, shared by both sides.
pub fn show_server(id: u32) -> HttpResponse {
    HttpResponse::Ok().json(json!({
        "server": {"id": id, "name": "web-01", "status": "ACTIVE", "flavor": {"id": "1"}}
    }))
}

/// The work of `GET /servers/detail`, shared by both sides: ten servers of
/// about 700 bytes of JSON each, a small Nova server list, so that the
/// handler does some work of its own.
pub fn list_servers_detail() -> HttpResponse {
    let servers: Vec<Value> = (0..10u32)
        .map(|i| {
            json!({
                "id": format!("70a599e0-31e7-49b7-b260-868f441e86{i:02}"),
                "name": format!("web-{i:02}"),
                "status": "ACTIVE",
                "tenant_id": "6f70656e737461636b20342065766572",
                "user_id": "fake",
                "hostId": "2091634baaccdc4c5a1d57069c833e402921df696b7f970791b12ec6",
                "created": "2026-11-21T09:00:00Z",
                "updated": "2026-11-21T09:05:00Z",
                "addresses": {"private": [{"addr": format!("10.0.0.{i}"), "version": 4,
                                           "OS-EXT-IPS:type": "fixed"}]},
                "flavor": {"id": "1", "links": [{"rel": "bookmark", "href": "http://openstack.example.com/flavors/1"}]},
                "image": {"id": "70a599e0-31e7-49b7-b260-868f441e862b"},
                "metadata": {"role": "web"},
                "key_name": null,
                "accessIPv4": "",
                "accessIPv6": "",
                "OS-EXT-STS:power_state": 1,
                "OS-EXT-STS:vm_state": "active",
                "links": [{"rel": "self", "href": format!("http://openstack.example.com/v2.1/servers/{i}")}]
            })
        })
        .collect();
    HttpResponse::Ok().json(json!({"servers": servers}))
}

/// The work of `POST /servers` after validation, shared by both sides.
pub fn create_server(body: &Value) -> HttpResponse {
    HttpResponse::Accepted().json(json!({"server": {"id": 42, "name": body["server"]["name"]}}))
}

/// The framework side: `detail` has one variant, `show` two (Nova changed the server view
/// at 2.47), `create` validates its body against the schema of the version.
#[derive(Clone, Copy, Debug, Default)]
pub struct Servers;

#[controller(api = COMPUTE)]
impl Servers {
    // Registered before `/servers/{id}`, which would otherwise match it.
    #[get("/servers/detail")]
    #[api_version("2.1")]
    async fn detail(&self) -> HttpResponse {
        list_servers_detail()
    }

    #[get("/servers/{id}")]
    #[api_version("2.1", "2.46")]
    async fn show(&self, id: web::Path<u32>) -> HttpResponse {
        show_server(*id)
    }

    #[get("/servers/{id}")]
    #[api_version("2.47")]
    async fn show(&self, id: web::Path<u32>) -> HttpResponse {
        show_server(*id)
    }

    #[post("/servers")]
    #[api_version("2.1")]
    #[schema(create_server_schema_v2_1, "2.1", "2.26")]
    #[schema(create_server_schema, "2.27")]
    async fn create(&self, body: JsonBody) -> HttpResponse {
        create_server(body.value())
    }
}

static PLAIN_CREATE: LazyLock<jsonschema::Validator> = LazyLock::new(crate::schema::direct);

async fn plain_detail() -> HttpResponse {
    list_servers_detail()
}

async fn plain_show(id: web::Path<u32>) -> HttpResponse {
    show_server(*id)
}

/// What a plain actix service writes: actix's JSON extractor, then the
/// validator compiled once.
async fn plain_create(body: web::Json<Value>) -> HttpResponse {
    if !PLAIN_CREATE.is_valid(&body) {
        return HttpResponse::BadRequest().json(json!({"error": "invalid body"}));
    }
    create_server(&body)
}

/// Mounts the plain routes under `/plain`.
pub fn configure_plain(cfg: &mut web::ServiceConfig) {
    LazyLock::force(&PLAIN_CREATE);
    cfg.service(
        web::scope("/plain")
            .route("/servers/detail", web::get().to(plain_detail))
            .route("/servers/{id}", web::get().to(plain_show))
            .route("/servers", web::post().to(plain_create)),
    );
}

/// Mounts the framework routes under `/v2.1`, negotiated against `api`.
pub fn configure_versioned(api: Api) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        cfg.service(web::scope("/v2.1").wrap(Microversions::new(api)).service(Servers));
    }
}

/// Both sides, against [`COMPUTE`].
pub fn configure(cfg: &mut web::ServiceConfig) {
    configure_plain(cfg);
    configure_versioned(COMPUTE)(cfg);
}
