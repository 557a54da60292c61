//! Version discovery (docs/reference.md §7) as an axum [`Router`]: the
//! documents of `GET /` and `GET /v2.1/`, generated from the declarations
//! by the core, as the actix layer serves them, and [`PublicUrl`], where
//! their links (and a service's own) point.

use std::future::Future;
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::{OriginalUri, Path, Request};
use axum::response::Response;
use axum::routing::{MethodRouter, any, get};
use http::header::{self, HeaderValue};
use http::{HeaderMap, Method, StatusCode};

use crate::ApiError;
use crate::error::ErrorRenderer;
use crate::middleware::ClientDefault;
use crate::public_url;
pub use crate::public_url::{InvalidPublicUrl, LinkRoot, PublicUrl, RequestLinks};

microversion_core::facade_discovery! {
    /// On axum it becomes a `Router` (`Router::from`). axum cannot route on
    /// a pattern, so the router also answers every other one-segment path
    /// (`/servers`) not routed elsewhere: 404, for any method, in the same
    /// format. A router of yours with a one-segment parameter route
    /// (`/{tenant}`) cannot be merged with it (axum refuses the overlap at
    /// start-up): nest one of the two. The links' public URL is else the one
    /// in the request's extensions, and the mount is the path the router is
    /// nested at (`Router::nest("/compute", ..)`).
    ///
    /// ```
    /// use axum::Router;
    /// use microversion_axum::{Api, Discovery, Microversion, discovery::PublicUrl};
    ///
    /// const COMPUTE: Api = Api::new("compute", &[Microversion::new("2.1", "Initial version.")]);
    /// let public = PublicUrl::fixed("https://cloud.example/compute").unwrap();
    /// let app: Router = Discovery::new(&[COMPUTE]).with_public_url(public).into();
    /// ```
    pub struct Discovery;
    hook = ClientDefault;
    headers = HeaderMap;
    status = StatusCode;
    response = Response;
    wire = crate::header::AxumHeaders;
}

impl Discovery {
    /// The service root as the client reaches it (public URL, prefix, the
    /// path the router is nested at), and the headers read for it.
    fn root(&self, req: &Request) -> Links {
        let public = self.public_url.as_ref().unwrap_or_else(|| req.public_url());
        let base = public_url::base(public, req.uri(), req.headers(), req.extensions());
        // `nest` hands the router the path without its mount: the mount is
        // what the original path has before it.
        let inner = req.uri().path().trim_end_matches('/');
        let original = req.extensions().get::<OriginalUri>().map_or(inner, |OriginalUri(uri)| uri.path());
        let mount = original.trim_end_matches('/').strip_suffix(inner).unwrap_or("");
        Links {
            root: public.service_root(&base, &self.prefix, mount),
            vary: public.vary(public_url::peer(req.extensions())),
        }
    }

    /// A document, with `Vary` naming the headers it was built from, or
    /// the error of a client default's hook.
    fn answer<T: serde::Serialize>(
        &self,
        built: Result<(T, Vec<&str>), ApiError>,
        url_vary: Option<&str>,
    ) -> Response {
        let (text, vary) = match Discovery::document_text(built, url_vary) {
            Ok(answer) => answer,
            Err(err) => return self.render(&err),
        };
        let mut res = Response::new(Body::from(text));
        res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
        if let Ok(value) = HeaderValue::try_from(vary)
            && !value.is_empty()
        {
            res.headers_mut().insert(header::VARY, value);
        }
        res
    }

    async fn list(&self, headers: &HeaderMap, Links { root, vary }: Links) -> Response {
        self.answer(self.list_document(headers, &root).await, vary)
    }

    async fn single(&self, index: usize, headers: &HeaderMap, Links { root, vary }: Links) -> Response {
        self.answer(self.single_document(index, headers, &root).await, vary)
    }

    /// A GET route answering `answer`, and 405 for any other method.
    fn route<F, Fut>(this: &Arc<Discovery>, answer: F) -> MethodRouter
    where
        F: Fn(Arc<Discovery>, HeaderMap, Links) -> Fut + Clone + Send + Sync + 'static,
        Fut: Future<Output = Response> + Send + 'static,
    {
        let (get_this, other_this) = (Arc::clone(this), Arc::clone(this));
        get(move |req: Request| {
            let links = get_this.root(&req);
            answer(Arc::clone(&get_this), req.headers().clone(), links)
        })
        .fallback(move || {
            let this = Arc::clone(&other_this);
            async move { this.refuse_method() }
        })
    }
}

/// Where a request's links point, and the headers that said so.
struct Links {
    root: String,
    vary: Option<&'static str>,
}

impl From<Discovery> for Router {
    fn from(discovery: Discovery) -> Router {
        let this = Arc::new(discovery);
        let list = Discovery::route(&this, |d, headers, links| async move { d.list(&headers, links).await });
        let mut router = Router::new().route("/", list);
        for index in 0..this.listed.declared().len() {
            let path = this.listed.declared()[index].path().into_owned();
            let single = Discovery::route(&this, move |d, headers, links| async move {
                d.single(index, &headers, links).await
            });
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
                    let version_like = id.strip_prefix('v').is_some_and(|rest| {
                        rest.starts_with(|c: char| c.is_ascii_digit())
                            && rest.chars().all(|c| c.is_ascii_digit() || c == '.')
                    });
                    match (version_like, method) {
                        (true, Method::GET) => this.render(&this.unknown(&id)),
                        (true, _) => this.refuse_method(),
                        (false, _) => {
                            this.render(&ApiError::not_found(microversion_core::PATH_REFUSED_DETAIL))
                        }
                    }
                }
            }),
        )
    }
}
