//! One API served three times: plain actix routes under `/plain` (no
//! versions at all), the same handlers through the framework under `/v2.1`
//! (middleware, `ApiVersion` negotiation, a `#[controller]` with versioned
//! variants and schemas), and the framework's contract written by hand in
//! plain actix handlers under `/hand` (what a team writes without it); and
//! `GET /floor/servers/{id}`, the contract's least cost ([`FLOOR_HEADERS`]).
//! The in-process request benchmarks and the load server mount these.
//!
//! ```
//! use actix_web::{App, test};
//! use microversion_benches::server::{VERSION_HEADER, configure};
//!
//! # actix_web::rt::System::new().block_on(async {
//! let app = test::init_service(App::new().configure(configure)).await;
//! for path in ["/plain/servers/42", "/v2.1/servers/42", "/plain/servers/detail", "/v2.1/servers/detail",
//!              "/plain/servers/42/model", "/v2.1/servers/42/model"] {
//!     let req = test::TestRequest::get().uri(path).insert_header(VERSION_HEADER).to_request();
//!     let res = test::call_service(&app, req).await;
//!     assert!(res.status().is_success(), "{path}");
//! }
//! # });
//! ```

use std::sync::LazyLock;

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, web};
use microversion_actix::{
    Api, Json, Microversion, Version, VersionNegotiation, Versioned, VersionedModel, controller,
};
use serde::Serialize;
use serde_json::{Value, json};

use crate::hand::{
    FLOOR_HEADERS, HandVersion, NotText, REFUSAL_HEADERS, Refusal, VARY, hand_server, negotiate,
    show_variant, version_headers,
};

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
pub const COMPUTE: Api = Api::new("compute", &HISTORY).with_legacy_headers(&["X-OpenStack-Nova-API-Version"]);

/// The version header every benchmark request carries, plain ones included,
/// so both sides receive the same bytes.
pub const VERSION_HEADER: (&str, &str) = ("OpenStack-API-Version", "compute 2.27");

/// The work of `GET /servers/{id}`, shared by both sides.
pub fn show_server(id: u32) -> HttpResponse {
    HttpResponse::Ok().json(server_json(id))
}

/// The body of `GET /servers/{id}`, on every framework.
pub fn server_json(id: u32) -> Value {
    json!({"server": {"id": id, "name": "web-01", "status": "ACTIVE", "flavor": {"id": "1"}}})
}

/// The work of `GET /servers/detail`, shared by both sides: ten servers of
/// about 700 bytes of JSON each, a small Nova server list, so that the
/// handler does some work of its own.
pub fn list_servers_detail() -> HttpResponse {
    HttpResponse::Ok().json(servers_detail_json())
}

/// The body of `GET /servers/detail`, on every framework.
pub fn servers_detail_json() -> Value {
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
    json!({"servers": servers})
}

/// The work of `POST /servers` after validation, shared by both sides.
pub fn create_server(body: &Value) -> HttpResponse {
    HttpResponse::Accepted().json(json!({"server": {"id": 42, "name": body["server"]["name"]}}))
}

/// A server as the framework renders it: one struct for every version, its
/// fields added over Nova's history (`GET /servers/{id}/model`). At 2.27, the
/// version of the benchmarks, five of the seven versioned fields are shown.
#[derive(VersionedModel)]
#[versioned(api = COMPUTE)]
pub struct ServerModel {
    id: u32,
    name: String,
    status: String,
    tenant_id: String,
    flavor_id: String,
    #[versioned(since = "2.3")]
    host: Option<String>,
    #[versioned(since = "2.9")]
    locked: Option<bool>,
    #[versioned(since = "2.16")]
    host_status: Option<String>,
    #[versioned(since = "2.19")]
    description: Option<String>,
    #[versioned(since = "2.26")]
    tags: Option<Vec<String>>,
    #[versioned(since = "2.47")]
    flavor_ram: Option<u32>,
    #[versioned(since = "2.73")]
    locked_reason: Option<String>,
}

/// What a plain service renders for the same request: the fields of 2.27,
/// serde's derive.
#[derive(Serialize)]
pub struct PlainServer {
    id: u32,
    name: String,
    status: String,
    tenant_id: String,
    flavor_id: String,
    host: String,
    locked: bool,
    host_status: String,
    description: String,
    tags: Vec<String>,
}

/// The model of `GET /servers/{id}/model`, framework side.
pub fn server_model(id: u32) -> ServerModel {
    ServerModel {
        id,
        name: "web-01".into(),
        status: "ACTIVE".into(),
        tenant_id: "6f70656e737461636b20342065766572".into(),
        flavor_id: "1".into(),
        host: Some("compute-1".into()),
        locked: Some(false),
        host_status: Some("UP".into()),
        description: Some("a web server".into()),
        tags: Some(vec!["web".into(), "prod".into()]),
        flavor_ram: Some(2048),
        locked_reason: None,
    }
}

/// The same server, plain side.
pub fn plain_server(id: u32) -> PlainServer {
    PlainServer {
        id,
        name: "web-01".into(),
        status: "ACTIVE".into(),
        tenant_id: "6f70656e737461636b20342065766572".into(),
        flavor_id: "1".into(),
        host: "compute-1".into(),
        locked: false,
        host_status: "UP".into(),
        description: "a web server".into(),
        tags: vec!["web".into(), "prod".into()],
    }
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

    #[get("/servers/{id}/model")]
    #[api_version("2.1")]
    async fn model(&self, id: web::Path<u32>) -> Versioned<ServerModel> {
        Versioned::ok(server_model(*id))
    }

    #[post("/servers")]
    #[api_version("2.1")]
    #[schema(create_server_schema_v2_1, "2.1", "2.26")]
    #[schema(create_server_schema, "2.27")]
    async fn create(&self, body: Json<Value>) -> HttpResponse {
        create_server(&body)
    }
}

static PLAIN_CREATE: LazyLock<jsonschema::Validator> = LazyLock::new(crate::schema::direct);

async fn plain_detail() -> HttpResponse {
    list_servers_detail()
}

async fn plain_show(id: web::Path<u32>) -> HttpResponse {
    show_server(*id)
}

async fn plain_model(id: web::Path<u32>) -> HttpResponse {
    HttpResponse::Ok().json(plain_server(*id))
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
            .route("/servers/{id}/model", web::get().to(plain_model))
            .route("/servers", web::post().to(plain_create)),
    );
}

/// Mounts the framework routes under `/v2.1`, negotiated against `api`.
pub fn configure_versioned(api: Api) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        cfg.service(web::scope("/v2.1").wrap(VersionNegotiation::new(api)).service(Servers));
    }
}

/// The sides, against [`COMPUTE`].
pub fn configure(cfg: &mut web::ServiceConfig) {
    configure_plain(cfg);
    configure_floor(cfg);
    configure_versioned(COMPUTE)(cfg);
    configure_hand(cfg);
}

/// `GET /servers/{id}` with the contract's least cost: the version header
/// read, [`FLOOR_HEADERS`] written (`crate::hand::FLOOR_HEADERS`).
async fn floor_show(req: HttpRequest, id: web::Path<u32>) -> HttpResponse {
    const fn header(i: usize) -> (HeaderName, HeaderValue) {
        (HeaderName::from_static(FLOOR_HEADERS[i].0), HeaderValue::from_static(FLOOR_HEADERS[i].1))
    }
    const HEADERS: [(HeaderName, HeaderValue); 3] = [header(0), header(1), header(2)];
    const ASKED: HeaderName = HeaderName::from_static("openstack-api-version");
    let mut res = show_server(*id);
    if req.headers().contains_key(ASKED) {
        for (name, value) in HEADERS {
            res.headers_mut().insert(name, value);
        }
    }
    res
}

/// Mounts the floor's route under `/floor`, and under `/layered` behind a
/// middleware that adds nothing (`wrap_fn` of the identity), for what
/// actix's wrapping of a scope costs by itself.
pub fn configure_floor(cfg: &mut web::ServiceConfig) {
    cfg.service(web::scope("/floor").route("/servers/{id}", web::get().to(floor_show)));
    cfg.service(
        web::scope("/layered")
            .wrap_fn(|req, srv| actix_web::dev::Service::call(srv, req))
            .route("/servers/{id}", web::get().to(floor_show)),
    );
}

// The contract written by hand (`crate::hand`), read and written through
// actix's own headers.

/// The request's header `name`, as `hand::negotiate` reads it.
fn hand_header<'a>(req: &'a HttpRequest, name: &str) -> Option<Result<&'a str, NotText>> {
    req.headers().get(name).map(|value| value.to_str().map_err(|_| NotText))
}

fn hand_refusal(refusal: Refusal) -> HttpResponse {
    let (status, document) = refusal.answer();
    let mut res = HttpResponse::build(StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST));
    for header in REFUSAL_HEADERS {
        res.insert_header(header);
    }
    res.json(document)
}

/// The version headers and `Vary` of a negotiated response.
fn hand_headers(mut res: HttpResponse, version: HandVersion) -> HttpResponse {
    let headers = res.headers_mut();
    for (name, value) in version_headers(version) {
        if let Ok(value) = HeaderValue::try_from(value) {
            headers.insert(HeaderName::from_static(name), value);
        }
    }
    headers.append(header::VARY, HeaderValue::from_static(VARY));
    res
}

async fn hand_detail(req: HttpRequest) -> HttpResponse {
    match negotiate(|name| hand_header(&req, name)) {
        Ok(version) => hand_headers(list_servers_detail(), version),
        Err(refusal) => hand_refusal(refusal),
    }
}

async fn hand_show(req: HttpRequest, id: web::Path<u32>) -> HttpResponse {
    let version = match negotiate(|name| hand_header(&req, name)) {
        Ok(version) => version,
        Err(refusal) => return hand_refusal(refusal),
    };
    let res = match show_variant(version) {
        2 => show_server(*id),
        _ => show_server(*id),
    };
    hand_headers(res, version)
}

async fn hand_model(req: HttpRequest, id: web::Path<u32>) -> HttpResponse {
    match negotiate(|name| hand_header(&req, name)) {
        Ok(version) => hand_headers(HttpResponse::Ok().json(hand_server(*id, version)), version),
        Err(refusal) => hand_refusal(refusal),
    }
}

/// Mounts the hand-written routes under `/hand`.
pub fn configure_hand(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::scope("/hand")
            .route("/servers/detail", web::get().to(hand_detail))
            .route("/servers/{id}", web::get().to(hand_show))
            .route("/servers/{id}/model", web::get().to(hand_model)),
    );
}
