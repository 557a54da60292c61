//! Version discovery (docs/reference.md §7): the [`Discovery`] service of
//! `GET /` and `GET /v2.1/`, where the scheme and host of its links come
//! from ([`PublicUrl`]), and the documents it serves.

use std::sync::Arc;

use actix_web::dev::{AppService, HttpServiceFactory};
use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, web};

pub use crate::public_url::{InvalidPublicUrl, LinkRoot, PublicUrl, RequestLinks};
use microversion_core::ListedApis;
pub use microversion_core::{Link, MediaType, ServerVersion, SingleVersion, VersionDocument, VersionList};

use crate::client_default::ClientDefault;
use crate::format::{ApiSigErrors, ErrorFormat, ErrorRenderer};
use crate::{Api, ApiError, Version, version::VersionCap};

/// The version discovery endpoints of a service, generated from its API
/// declarations (cap and statuses included) and registered with
/// `App::service`:
///
/// - `GET /`: the [`VersionList`] of every API;
/// - `GET /v2.1` and `GET /v2.1/`: the [`SingleVersion`]
///   document of one API (python-novaclient reads it from its endpoint URL,
///   without the slash), at the API's [`Api::with_path`] (`/` + its id unless
///   set: Cinder's `v3.0` is served at `/v3`);
/// - `GET /v3` and other version-like ids no API declares: 404 with a JSON body;
/// - any other method on these paths: 405 with `Allow: GET` and a JSON body.
///
/// Version headers are ignored. `self` links are built from the
/// [`PublicUrl`] given to [`Discovery::with_public_url`], else the one in
/// app data (by default the request's own `Host` and the
/// connection's scheme, forwarded headers ignored), the configured
/// [`Discovery::with_prefix`] for a proxy that strips a path (when the links come
/// from the request), the path the endpoints are mounted at, and the API's
/// path; the documents carry `Vary` naming the headers read
/// ([`PublicUrl::vary`]), so a shared cache keeps one copy per host a
/// client names.
///
/// Register it **before** the API's own scope: the scope `/v2.1` would
/// otherwise also claim the exact path `/v2.1`. And keep it out of the
/// [`VersionNegotiation`](crate::VersionNegotiation) middleware, whose scope it is not:
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
#[derive(Clone, Debug)]
pub struct Discovery {
    /// The APIs, each with the cap handle it follows and its client default.
    listed: ListedApis<ClientDefault>,
    prefix: String,
    public_url: Option<PublicUrl>,
    errors: ErrorRenderer,
}

impl Discovery {
    /// The endpoints for `apis`, listed in this order in `GET /`.
    pub fn new(apis: &[Api]) -> Discovery {
        Discovery {
            listed: ListedApis::new(apis),
            prefix: String::new(),
            public_url: None,
            errors: Discovery::renderer(apis, ApiSigErrors),
        }
    }

    /// A path prefix added to `self` links, for a proxy that serves the
    /// service under `/compute` and strips it before forwarding. A fixed
    /// [`PublicUrl`] carries its own prefix: this one is then not added.
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Discovery {
        self.prefix = microversion_core::path_prefix(&prefix.into());
        self
    }

    /// Builds `self` links as `public_url` says, whatever the app data
    /// holds: a fixed URL ([`PublicUrl::fixed`]), or the request read
    /// through trusted proxies.
    pub fn with_public_url(mut self, public_url: PublicUrl) -> Discovery {
        self.public_url = Some(public_url);
        self
    }

    /// Shows the served maximum of `cap`'s API as it is when each document
    /// is asked for (docs/reference.md §13.4): share the handle given to
    /// [`VersionNegotiation::with_version_cap`](crate::VersionNegotiation::with_version_cap).
    /// The API is the one with the same path (and service type) among those
    /// given to [`Discovery::new`]; its declaration becomes the handle's, so
    /// a retirement shows too. A handle of an API not listed is added at the end.
    pub fn with_version_cap(mut self, cap: VersionCap) -> Discovery {
        self.listed.follow_cap(cap);
        self
    }

    /// Shows each client the version its requests to `api` get when they
    /// name none (`client_version` in the API's documents), as
    /// `client_default` chooses it for the middleware
    /// ([`VersionNegotiation::with_client_default`](crate::VersionNegotiation::with_client_default));
    /// the documents then name the headers it reads in `Vary`. `api` is
    /// matched as in [`Discovery::with_version_cap`]; one not listed is
    /// added at the end.
    pub fn with_client_default(mut self, api: &Api, client_default: ClientDefault) -> Discovery {
        self.listed.attach(api, client_default);
        self
    }

    /// The `client_version` for `req` of each of `apis` (its index among
    /// the listed APIs, its declaration as served now), and the names the
    /// hooks read, for `Vary`.
    async fn client_versions(
        &self,
        req: &HttpRequest,
        apis: &[(usize, Api)],
    ) -> Result<(Vec<Option<Version>>, Vec<&str>), ApiError> {
        let mut versions = Vec::with_capacity(apis.len());
        let mut vary = Vec::new();
        for (index, api) in apis {
            let Some(client_default) = self.listed.hook(*index) else {
                versions.push(None);
                continue;
            };
            vary.push(client_default.vary());
            versions.push(
                client_default.choose(req.headers()).await?.and_then(|pinned| api.client_version(pinned)),
            );
        }
        Ok((versions, vary))
    }

    /// The APIs as served now: each with the value of its cap handle.
    fn current(&self) -> Vec<Api> {
        (0..self.listed.declared().len()).map(|i| self.listed.current(i)).collect()
    }

    /// Renders the 404 of an unknown id with `format` (API-SIG errors by default).
    pub fn with_error_format(mut self, format: impl ErrorFormat) -> Discovery {
        self.errors = Discovery::renderer(self.listed.declared(), format);
        self
    }

    /// Errors name the first API's service in their code.
    fn renderer(apis: &[Api], format: impl ErrorFormat) -> ErrorRenderer {
        let renderer = ErrorRenderer::new(format);
        match apis.first() {
            Some(api) => renderer.with_service(api.service_type()),
            None => renderer,
        }
    }

    /// The service root as the client reaches it (public URL, prefix, the
    /// request path without `tail`) and the headers it was read from.
    fn root_url(&self, req: &HttpRequest, tail: &str) -> (String, Option<&'static str>) {
        let path = req.path().trim_end_matches('/');
        let mount = path.strip_suffix(tail).unwrap_or(path);
        let public = self.public_url.as_ref().unwrap_or_else(|| req.public_url());
        let base = crate::public_url::link_base_by(req, public);
        (public.service_root(&base, &self.prefix, mount), public.vary(req.peer_addr().map(|peer| peer.ip())))
    }

    /// A document, with `Vary` naming the headers it was built from.
    fn document(vary: Vec<&str>, body: impl serde::Serialize) -> HttpResponse {
        let mut res = HttpResponse::Ok();
        if !vary.is_empty() {
            res.insert_header((header::VARY, vary.join(", ")));
        }
        res.json(body)
    }

    async fn list(&self, req: &HttpRequest) -> HttpResponse {
        let (root, url_vary) = self.root_url(req, "");
        let current: Vec<(usize, Api)> = self.current().into_iter().enumerate().collect();
        let apis: Vec<Api> = current.iter().map(|(_, api)| *api).collect();
        let mut list = VersionList::new(&apis, &root);
        let (chosen, mut vary) = match self.client_versions(req, &current).await {
            Ok(found) => found,
            Err(err) => return self.errors.render(&err),
        };
        for (document, version) in list.versions.iter_mut().zip(chosen) {
            document.client_version = version;
        }
        vary.extend(url_vary);
        Discovery::document(vary, list)
    }

    async fn single(&self, req: &HttpRequest, index: usize) -> HttpResponse {
        let api = self.listed.current(index);
        let (root, url_vary) = self.root_url(req, &api.path());
        let mut single = api.single_version_document(&root);
        let (chosen, mut vary) = match self.client_versions(req, &[(index, api)]).await {
            Ok(found) => found,
            Err(err) => return self.errors.render(&err),
        };
        single.version.client_version = chosen.into_iter().next().flatten();
        vary.extend(url_vary);
        Discovery::document(vary, single)
    }

    fn unknown(&self, req: &HttpRequest) -> HttpResponse {
        let id = req.match_info().get("id").unwrap_or_default();
        let known: Vec<String> = self.listed.declared().iter().map(|a| a.id().into_owned()).collect();
        self.errors.render(&ApiError::not_found(format!(
            "API version {id} does not exist; this service offers {}.",
            known.join(", ")
        )))
    }

    /// The answer to any method but GET: actix's own 405 has an empty body.
    fn not_allowed(&self) -> HttpResponse {
        let error = ApiError::from_status(
            StatusCode::METHOD_NOT_ALLOWED,
            "Version discovery documents are read with GET only.",
        );
        let mut res = self.errors.render(&error);
        res.headers_mut().insert(header::ALLOW, HeaderValue::from_static("GET"));
        res
    }
}

impl HttpServiceFactory for Discovery {
    fn register(self, config: &mut AppService) {
        let this = Arc::new(self);
        let not_allowed = |this: &Arc<Discovery>| {
            let this = Arc::clone(this);
            web::to(move || {
                let this = Arc::clone(&this);
                async move { this.not_allowed() }
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
        let unknown = Arc::clone(&this);
        web::resource(["/{id:v[0-9][0-9.]*}", "/{id:v[0-9][0-9.]*}/"])
            .route(web::get().to(move |req: HttpRequest| {
                let unknown = Arc::clone(&unknown);
                async move { unknown.unknown(&req) }
            }))
            .default_service(not_allowed(&this))
            .register(config);
    }
}
