//! Version discovery (docs/reference.md §7): the [`Discovery`] service of
//! `GET /` and `GET /v2.1/`, where the scheme and host of its links come
//! from ([`PublicUrl`]), and the documents it serves.

use std::sync::Arc;

use actix_web::dev::{AppService, HttpServiceFactory};
use actix_web::{HttpRequest, HttpResponse, guard, web};

use crate::header::ActixHeaders;

pub use crate::public_url::{InvalidPublicUrl, PublicUrl, RequestLinks};
pub use microversion_core::client::ServerVersion;
pub use microversion_core::discovery::*;
pub use microversion_core::portable::LinkRoot;

/// The settings of the version discovery endpoints, the core's
/// [`DiscoverySettings`](microversion_core::discovery::DiscoverySettings)
/// over actix's headers: every endpoint, builder and default is documented
/// there.
pub type DiscoverySettings = microversion_core::discovery::DiscoverySettings<ActixHeaders>;

/// The version discovery endpoints serving a [`DiscoverySettings`] on
/// actix (docs/reference.md §7): `Discovery::new(settings)`, or
/// `Discovery::new(&[API])` for the defaults. It is registered with
/// `App::service`, **before** the API's own scope (the scope `/v2.1` would
/// otherwise also claim the exact path `/v2.1`), and outside the
/// negotiation's scope. A one-segment path that is not version-like goes
/// on to the app's routes.
///
/// ```
/// use actix_web::{test, web, App, HttpResponse};
/// use microversion_actix::{Api, Discovery, DiscoverySettings, Microversion, VersionNegotiation};
///
/// const API: Api = Api::new("compute", &[Microversion::new("2.1", "Initial version.")]);
///
/// # actix_web::rt::System::new().block_on(async {
/// let app = test::init_service(
///     App::new()
///         .service(Discovery::new(DiscoverySettings::new(&[API]).with_prefix("/compute")))
///         .service(web::scope("/v2.1").wrap(VersionNegotiation::new(API))
///             .route("/servers", web::get().to(HttpResponse::Ok))),
/// ).await;
/// let doc: serde_json::Value =
///     test::call_and_read_body_json(&app, test::TestRequest::get().uri("/v2.1").to_request()).await;
/// assert_eq!(doc["version"]["links"][0]["href"], "http://localhost:8080/compute/v2.1/");
/// # });
/// ```
#[derive(Clone, Debug)]
pub struct Discovery(DiscoverySettings);

impl Discovery {
    /// The endpoints serving `settings`, or the APIs (`&[API]`) with every
    /// default.
    pub fn new(settings: impl Into<DiscoverySettings>) -> Discovery {
        Discovery(settings.into())
    }

    /// The service root as the client reaches it (public URL, prefix, the
    /// request path without `tail`) and the headers it was read from.
    fn root_url(&self, req: &HttpRequest, tail: &str) -> (String, Option<&'static str>) {
        let path = req.path().trim_end_matches('/');
        let mount = path.strip_suffix(tail).unwrap_or(path);
        let public = self.0.public_url().unwrap_or_else(|| req.public_url());
        let base = crate::public_url::link_base_by(req, public);
        (
            public.service_root(&base, self.0.prefix(), mount),
            public.vary(req.peer_addr().map(|peer| peer.ip())),
        )
    }

    async fn list(&self, req: &HttpRequest) -> HttpResponse {
        let (root, url_vary) = self.root_url(req, "");
        self.0.list(req.headers(), &root, url_vary).await
    }

    async fn single(&self, req: &HttpRequest, index: usize) -> HttpResponse {
        let (root, url_vary) = self.root_url(req, &self.0.apis()[index].path());
        self.0.single(index, req.headers(), &root, url_vary).await
    }
}

impl HttpServiceFactory for Discovery {
    fn register(self, config: &mut AppService) {
        let this = Arc::new(self);
        let not_allowed = |this: &Arc<Discovery>| {
            let this = Arc::clone(this);
            web::to(move || {
                let this = Arc::clone(&this);
                async move { this.0.refuse_method() }
            })
        };
        let list = Arc::clone(&this);
        web::resource("/")
            .route(web::get().to(move |req: HttpRequest| {
                let list = Arc::clone(&list);
                async move { list.list(&req).await }
            }))
            .default_service(not_allowed(&this))
            .register(config);
        for (index, api) in this.0.apis().iter().enumerate() {
            let path = api.path();
            let single = Arc::clone(&this);
            web::resource([path.to_string(), format!("{path}/")])
                .route(web::get().to(move |req: HttpRequest| {
                    let single = Arc::clone(&single);
                    async move { single.single(&req, index).await }
                }))
                .default_service(not_allowed(&this))
                .register(config);
        }
        // Version-like ids no API declares (the core's rule); any other
        // one-segment path fails the guard and goes on to the app's routes.
        let unknown = Arc::clone(&this);
        web::resource(["/{id}", "/{id}/"])
            .guard(guard::fn_guard(|ctx| {
                microversion_core::discovery::is_version_like_path(ctx.head().uri.path())
            }))
            .route(web::get().to(move |req: HttpRequest| {
                let unknown = Arc::clone(&unknown);
                async move { unknown.0.unknown(req.match_info().get("id").unwrap_or_default()) }
            }))
            .default_service(not_allowed(&this))
            .register(config);
    }
}
