//! Version discovery (docs/reference.md §7): the [`Discovery`] service of
//! `GET /` and `GET /v2.1/`, where the scheme and host of its links come
//! from ([`PublicUrl`]), and the documents it serves.

use std::sync::Arc;

use actix_web::dev::{AppService, HttpServiceFactory};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, guard, web};

pub use crate::public_url::{InvalidPublicUrl, PublicUrl, RequestLinks};
pub use microversion_core::portable::LinkRoot;

use crate::ApiError;
use crate::client_default::ClientDefault;
use crate::error::ErrorRenderer;

microversion_core::facade_discovery! {
    /// On actix it is registered with `App::service`, **before** the API's
    /// own scope (the scope `/v2.1` would otherwise also claim the exact path
    /// `/v2.1`), and outside the middleware's scope:
    ///
    /// ```
    /// use actix_web::{test, web, App, HttpResponse};
    /// use microversion_actix::{Api, Discovery, Microversion, VersionNegotiation};
    ///
    /// const API: Api = Api::new("compute", &[Microversion::new("2.1", "Initial version.")]);
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let app = test::init_service(
    ///     App::new()
    ///         .service(Discovery::new(&[API]).with_prefix("/compute"))
    ///         .service(web::scope("/v2.1").wrap(VersionNegotiation::new(API))
    ///             .route("/servers", web::get().to(HttpResponse::Ok))),
    /// ).await;
    /// let doc: serde_json::Value =
    ///     test::call_and_read_body_json(&app, test::TestRequest::get().uri("/v2.1").to_request()).await;
    /// assert_eq!(doc["version"]["links"][0]["href"], "http://localhost:8080/compute/v2.1/");
    /// # });
    /// ```
    pub struct Discovery;
    hook = ClientDefault;
    headers = actix_web::http::header::HeaderMap;
    status = StatusCode;
    response = HttpResponse;
    wire = crate::header::ActixHeaders;
}

impl Discovery {
    /// The service root as the client reaches it (public URL, prefix, the
    /// request path without `tail`) and the headers it was read from.
    fn root_url(&self, req: &HttpRequest, tail: &str) -> (String, Option<&'static str>) {
        let path = req.path().trim_end_matches('/');
        let mount = path.strip_suffix(tail).unwrap_or(path);
        let public = self.public_url.as_ref().unwrap_or_else(|| req.public_url());
        let base = crate::public_url::link_base_by(req, public);
        (public.service_root(&base, &self.prefix, mount), public.vary(req.peer_addr().map(|peer| peer.ip())))
    }

    async fn list(&self, req: &HttpRequest) -> HttpResponse {
        let (root, url_vary) = self.root_url(req, "");
        self.answer(self.list_document(req.headers(), &root).await, url_vary)
    }

    async fn single(&self, req: &HttpRequest, index: usize) -> HttpResponse {
        let (root, url_vary) = self.root_url(req, &self.listed.declared()[index].path());
        self.answer(self.single_document(index, req.headers(), &root).await, url_vary)
    }
}

impl HttpServiceFactory for Discovery {
    fn register(self, config: &mut AppService) {
        let this = Arc::new(self);
        let not_allowed = |this: &Arc<Discovery>| {
            let this = Arc::clone(this);
            web::to(move || {
                let this = Arc::clone(&this);
                async move { this.refuse_method() }
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
        for (index, api) in this.listed.declared().iter().enumerate() {
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
            .guard(guard::fn_guard(|ctx| microversion_core::discovery::is_version_like_path(ctx.head().uri.path())))
            .route(web::get().to(move |req: HttpRequest| {
                let unknown = Arc::clone(&unknown);
                async move { unknown.render(&unknown.unknown(req.match_info().get("id").unwrap_or_default())) }
            }))
            .default_service(not_allowed(&this))
            .register(config);
    }
}
