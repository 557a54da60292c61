//! Version discovery (docs/reference.md §7) as an axum [`Router`]: the
//! documents of `GET /` and `GET /v2.1/`, generated from the declarations
//! by the core, as the actix layer serves them, and [`PublicUrl`], where
//! their links (and a service's own) point.

use std::sync::Arc;

use axum::Router;
use axum::extract::{OriginalUri, Path};
use axum::routing::{MethodRouter, any, get};
use http::Method;
use http::request::Parts;

use crate::ApiError;
use crate::header::AxumHeaders;
use crate::public_url;
pub use crate::public_url::{InvalidPublicUrl, PublicUrl, RequestLinks};
pub use microversion_core::client::ServerVersion;
pub use microversion_core::discovery::*;
pub use microversion_core::portable::LinkRoot;

/// The settings of the version discovery endpoints, the core's
/// [`DiscoverySettings`](microversion_core::discovery::DiscoverySettings)
/// over axum's headers: every endpoint, builder and default is documented
/// there.
pub type DiscoverySettings = microversion_core::discovery::DiscoverySettings<AxumHeaders>;

/// The version discovery endpoints serving a [`DiscoverySettings`] as an
/// axum `Router` (`Router::from(Discovery::new(settings))`, or
/// `Discovery::new(&[API])` for the defaults; docs/reference.md §7). axum
/// cannot route on a pattern, so the router also answers every other
/// one-segment path (`/servers`) not routed elsewhere: 404, for any
/// method, in the same format. A router of yours with a one-segment
/// parameter route (`/{tenant}`) cannot be merged with it (axum refuses
/// the overlap at start-up): nest one of the two. The links' public URL is
/// else the one in the request's extensions, and the mount is the path the
/// router is nested at (`Router::nest("/compute", ..)`).
///
/// ```
/// use axum::Router;
/// use microversion_axum::{Api, Discovery, DiscoverySettings, Microversion, discovery::PublicUrl};
///
/// const COMPUTE: Api = Api::new("compute", &[Microversion::new("2.1", "Initial version.")]);
/// let public = PublicUrl::fixed("https://cloud.example/compute").unwrap();
/// let app: Router = Discovery::new(DiscoverySettings::new(&[COMPUTE]).with_public_url(public)).into();
/// let plain: Router = Discovery::new(&[COMPUTE]).into();
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
    /// path the router is nested at), and the headers read for it.
    fn root(&self, req: &Parts) -> (String, Option<&'static str>) {
        let public = self.0.public_url().unwrap_or_else(|| req.public_url());
        let base = public_url::base(public, &req.uri, &req.headers, &req.extensions);
        // `nest` hands the router the path without its mount: the mount is
        // what the original path has before it.
        let inner = req.uri.path().trim_end_matches('/');
        let original = req.extensions.get::<OriginalUri>().map_or(inner, |OriginalUri(uri)| uri.path());
        let mount = original.trim_end_matches('/').strip_suffix(inner).unwrap_or("");
        (public.service_root(&base, self.0.prefix(), mount), public.vary(public_url::peer(&req.extensions)))
    }

    /// A GET route answering the document of the API at `index` (the list
    /// for `None`), and 405 for any other method.
    fn route(this: &Arc<Discovery>, index: Option<usize>) -> MethodRouter {
        let (get_this, other_this) = (Arc::clone(this), Arc::clone(this));
        get(move |req: Parts| {
            let this = Arc::clone(&get_this);
            async move {
                let (root, vary) = this.root(&req);
                match index {
                    None => this.0.list(&req.headers, &root, vary).await,
                    Some(index) => this.0.single(index, &req.headers, &root, vary).await,
                }
            }
        })
        .fallback(move || {
            let this = Arc::clone(&other_this);
            async move { this.0.refuse_method() }
        })
    }
}

impl From<Discovery> for Router {
    fn from(discovery: Discovery) -> Router {
        let this = Arc::new(discovery);
        let mut router = Router::new().route("/", Discovery::route(&this, None));
        for (index, api) in this.0.apis().iter().enumerate() {
            let (path, single) = (api.path(), Discovery::route(&this, Some(index)));
            router = router.route(&path, single.clone()).route(&format!("{path}/"), single);
        }
        // Version-like ids no API declares: 404 to GET, 405 to the rest, in
        // the API's format. axum routes cannot match on a pattern, so this
        // route takes every other one-segment path too, for every method:
        // those are a 404 in the same format (actix lets them through).
        let unknown = Arc::clone(&this);
        router.route(
            "/{id}",
            any(move |method: Method, Path(id): Path<String>| {
                let this = Arc::clone(&unknown);
                async move {
                    match (microversion_core::discovery::is_version_like_path(&id), method) {
                        (true, Method::GET) => this.0.unknown(&id),
                        (true, _) => this.0.refuse_method(),
                        (false, _) => {
                            this.0.render(&ApiError::not_found(microversion_core::error::PATH_REFUSED_DETAIL))
                        }
                    }
                }
            }),
        )
    }
}
