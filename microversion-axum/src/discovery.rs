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
use crate::middleware::ClientDefault;
use crate::public_url;
pub use crate::public_url::{InvalidPublicUrl, LinkRoot, PublicUrl, RequestLinks};

microversion_core::facade_discovery! {
    /// The version discovery endpoints of a service: `GET /` (every API) and
    /// `GET /v2.1` and `GET /v2.1/` (one API, at its [`Api::path`](crate::Api::path)); a
    /// version-like id no API declares (`/v3`) answers 404 and any method but
    /// GET 405 with `Allow: GET`, both with a JSON body in the error format.
    /// axum cannot route on a pattern, so the router also answers every other
    /// one-segment path (`/servers`) not routed elsewhere: 404, for any method,
    /// in the same format. A router of yours with a one-segment parameter
    /// route (`/{tenant}`) cannot be merged with it (axum refuses the overlap
    /// at start-up): nest one of the two.
    /// Version headers are ignored. `self` links are built, as on actix, from
    /// the [`PublicUrl`] given to [`Discovery::with_public_url`] (else the one
    /// in the request's extensions, else the request's own `Host`), the
    /// [`Discovery::with_prefix`] of a proxy that strips a path (when the links
    /// come from the request), the path the router is nested at
    /// (`Router::nest("/compute", ..)`), and the API's path; `Vary` names the
    /// headers read.
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

    /// `error` in the configured format, its code naming the first API's service.
    fn render(&self, error: &ApiError) -> Response {
        error.render(&*self.format, self.service())
    }

    /// The answer to any method but GET.
    fn refuse_method(&self) -> Response {
        let mut res = self.render(&Discovery::not_allowed());
        res.headers_mut().insert(header::ALLOW, HeaderValue::from_static("GET"));
        res
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

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt as _;
    use microversion_core::{Api, Microversion};
    use tower::ServiceExt as _;

    const API: Api = Api::new("compute", &[Microversion::new("2.1", "Initial version.")]);

    /// The `self` link of `GET /v2.1/` and the answer's `Vary`, the request
    /// carrying `in_request` in its extensions and forged forwarding headers.
    async fn link(discovery: Discovery, in_request: Option<PublicUrl>) -> (String, String) {
        let mut req = Request::get("/v2.1/")
            .header("Host", "api.internal:8774")
            .header("X-Forwarded-Host", "cloud.example")
            .header("X-Forwarded-Proto", "https")
            .body(Body::empty())
            .unwrap();
        if let Some(public) = in_request {
            req.extensions_mut().insert(public);
        }
        let res = Router::from(discovery).oneshot(req).await.unwrap();
        let vary =
            res.headers().get(header::VARY).map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();
        let body = res.into_body().collect().await.unwrap().to_bytes();
        let doc: serde_json::Value = serde_json::from_slice(&body).unwrap();
        (doc["version"]["links"][0]["href"].as_str().unwrap().to_owned(), vary)
    }

    #[tokio::test]
    async fn links_follow_the_discovery_s_public_url_then_the_request_s() {
        // None configured: the request's own `Host`, forged headers ignored.
        assert_eq!(
            link(Discovery::new(&[API]), None).await,
            ("http://api.internal:8774/v2.1/".into(), "Host".into())
        );
        // One in the request's extensions (a handler's `Extension`): it counts.
        let trusting = Some(PublicUrl::trust_all_proxies());
        let (href, vary) = link(Discovery::new(&[API]), trusting.clone()).await;
        assert_eq!(href, "https://cloud.example/v2.1/");
        assert_eq!(vary, microversion_core::FORWARDED_AND_HOST);
        // The discovery's own wins over the request's, and varies on nothing.
        let fixed = PublicUrl::fixed("https://public.example/compute").unwrap();
        let (href, vary) = link(Discovery::new(&[API]).with_public_url(fixed), trusting).await;
        assert_eq!((href.as_str(), vary.as_str()), ("https://public.example/compute/v2.1/", ""));
    }

    #[tokio::test]
    async fn other_one_segment_paths_are_json_404s_for_every_method() {
        let answer = |method: &'static str, path: &'static str| async move {
            let req = Request::builder().method(method).uri(path).body(Body::empty()).unwrap();
            let res = Router::from(Discovery::new(&[API])).oneshot(req).await.unwrap();
            let (status, allow) = (res.status(), res.headers().get(header::ALLOW).cloned());
            let body = res.into_body().collect().await.unwrap().to_bytes();
            let doc: serde_json::Value = serde_json::from_slice(&body).expect("a JSON body");
            (status, allow, doc["errors"][0]["detail"].as_str().unwrap_or_default().to_owned())
        };
        let (status, allow, detail) = answer("GET", "/v3").await;
        assert_eq!((status, allow), (StatusCode::NOT_FOUND, None));
        assert_eq!(detail, "API version v3 does not exist; this service offers v2.1.");
        let (status, allow, _) = answer("DELETE", "/v3").await;
        assert_eq!((status, allow), (StatusCode::METHOD_NOT_ALLOWED, Some(HeaderValue::from_static("GET"))));
        for method in ["GET", "POST", "DELETE"] {
            let (status, allow, detail) = answer(method, "/servers").await;
            assert_eq!((status, allow), (StatusCode::NOT_FOUND, None), "{method} /servers");
            assert_eq!(detail, "The resource could not be found.");
        }
    }

    /// The `self` links of `GET {path}` through `app`, from the request's `Host`.
    async fn hrefs(app: Router, path: &str) -> Vec<String> {
        let req = Request::get(path).header("Host", "api.internal:8774").body(Body::empty()).unwrap();
        let res = app.oneshot(req).await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        let body = res.into_body().collect().await.unwrap().to_bytes();
        let doc: serde_json::Value = serde_json::from_slice(&body).unwrap();
        let entries = doc
            .get("versions")
            .and_then(|v| v.as_array().cloned())
            .unwrap_or_else(|| vec![doc["version"].clone()]);
        entries.iter().map(|entry| entry["links"][0]["href"].as_str().unwrap().to_owned()).collect()
    }

    #[tokio::test]
    async fn links_name_the_nesting_path_and_the_proxy_s_prefix() {
        // Nested: the mount is in every link, whichever document is asked for.
        let nested = || Router::new().nest("/compute", Router::from(Discovery::new(&[API])));
        assert_eq!(hrefs(nested(), "/compute").await, ["http://api.internal:8774/compute/v2.1/"]);
        assert_eq!(hrefs(nested(), "/compute/v2.1").await, ["http://api.internal:8774/compute/v2.1/"]);
        assert_eq!(hrefs(nested(), "/compute/v2.1/").await, ["http://api.internal:8774/compute/v2.1/"]);
        // A proxy's prefix comes before the mount, trimmed of its slashes.
        let proxied = Router::new().nest("/compute", Discovery::new(&[API]).with_prefix("/edge/").into());
        assert_eq!(hrefs(proxied, "/compute/v2.1/").await, ["http://api.internal:8774/edge/compute/v2.1/"]);
        let proxied: Router = Discovery::new(&[API]).with_prefix("edge").into();
        assert_eq!(hrefs(proxied, "/").await, ["http://api.internal:8774/edge/v2.1/"]);
        // A fixed URL carries its own prefix: the configured one is not added.
        let fixed = PublicUrl::fixed("https://cloud.example/c").unwrap();
        let app: Router = Discovery::new(&[API]).with_prefix("/edge").with_public_url(fixed).into();
        assert_eq!(hrefs(app, "/v2.1").await, ["https://cloud.example/c/v2.1/"]);
    }
}
