//! The settings of the version discovery endpoints and the answers they
//! give (docs/reference.md §7): [`DiscoverySettings`], written once for
//! every facade. A facade's `Discovery` registers the routes, reads where a
//! request's links point, and hands the rest here.

use std::fmt;
use std::sync::Arc;

use crate::error::{ApiError, ApiSigErrors, ErrorRenderer};
use crate::exchange::{ChoiceWire, ClientDefault};
use crate::protocol::stamp::{AnswerWire, plain_answer};
use crate::{Api, ErrorFormat, Version, VersionCap};

use super::documents::{ListedApis, SingleVersion, VersionList};
use super::public_url::{PublicUrl, path_prefix};

/// The version discovery endpoints of a service, generated from its API
/// declarations (cap and statuses included), the same on every facade
/// (docs/reference.md §7); a facade's `Discovery` serves them, made with
/// `Discovery::new(settings)` (or from the APIs alone, these defaults):
///
/// - `GET /`: the version list ([`VersionList`]) of every API;
/// - `GET /v2.1` and `GET /v2.1/`: the document of one API
///   ([`SingleVersion`]; python-novaclient reads it from its endpoint URL,
///   without the slash), at the API's [`Api::with_path`] (`/` + its id
///   unless set: Cinder's `v3.0` is served at `/v3`);
/// - `GET /v3` and other version-like ids no API declares: 404 with a JSON
///   body in the error format;
/// - any other method on these paths: 405 with `Allow: GET` and a JSON body.
///
/// Version headers are ignored. `self` links are built from the
/// [`PublicUrl`] given to [`DiscoverySettings::with_public_url`], else the
/// one configured for the request (by default the request's own `Host` and
/// the connection's scheme, forwarded headers ignored), the
/// [`DiscoverySettings::with_prefix`] of a proxy that strips a path (when
/// the links come from the request), the path the endpoints are mounted
/// at, and the API's path; the documents carry `Vary` naming the headers
/// read, so that a shared cache keeps one copy per host a client names.
/// Keep discovery out of the negotiation's scope, which would negotiate
/// its requests.
///
/// ```
/// use microversion_core::{Api, Microversion, discovery::DiscoverySettings, header::HttpWire};
///
/// const COMPUTE: Api = Api::new("compute", &[Microversion::new("2.1", "Initial version.")]);
/// let settings = DiscoverySettings::<HttpWire>::new(&[COMPUTE]).with_prefix("/compute");
/// assert_eq!(settings.prefix(), "/compute");
/// let answer = settings.unknown("v3");
/// assert_eq!(answer.status(), 404);
/// ```
pub struct DiscoverySettings<W: ChoiceWire> {
    /// The APIs, each with the cap handle it follows and its client default.
    listed: ListedApis<ClientDefault<W>>,
    public_url: Option<PublicUrl>,
    prefix: String,
    format: Arc<dyn ErrorFormat>,
}

impl<W: ChoiceWire> Clone for DiscoverySettings<W> {
    fn clone(&self) -> DiscoverySettings<W> {
        DiscoverySettings {
            listed: self.listed.clone(),
            public_url: self.public_url.clone(),
            prefix: self.prefix.clone(),
            format: Arc::clone(&self.format),
        }
    }
}

impl<W: ChoiceWire> fmt::Debug for DiscoverySettings<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DiscoverySettings")
            .field("apis", &self.listed.declared())
            .field("public_url", &self.public_url)
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

/// The endpoints of these APIs with every default: what
/// `Discovery::new(&[API])` serves.
impl<W: ChoiceWire, const N: usize> From<&[Api; N]> for DiscoverySettings<W> {
    fn from(apis: &[Api; N]) -> DiscoverySettings<W> {
        DiscoverySettings::new(apis)
    }
}

/// The endpoints of these APIs with every default.
impl<W: ChoiceWire> From<&[Api]> for DiscoverySettings<W> {
    fn from(apis: &[Api]) -> DiscoverySettings<W> {
        DiscoverySettings::new(apis)
    }
}

impl<W: ChoiceWire> DiscoverySettings<W> {
    /// The endpoints for `apis`, listed in this order in `GET /`.
    pub fn new(apis: &[Api]) -> DiscoverySettings<W> {
        DiscoverySettings {
            listed: ListedApis::new(apis),
            public_url: None,
            prefix: String::new(),
            format: Arc::new(ApiSigErrors),
        }
    }

    /// A path prefix added to `self` links, for a proxy that serves the
    /// service under `/compute` and strips it before forwarding. A fixed
    /// [`PublicUrl`] carries its own prefix: this one is then not added.
    #[must_use]
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> DiscoverySettings<W> {
        self.prefix = path_prefix(&prefix.into());
        self
    }

    /// Builds `self` links as `public_url` says, whatever the request
    /// carries: a fixed URL ([`PublicUrl::fixed`]), or the request read
    /// through trusted proxies.
    #[must_use]
    pub fn with_public_url(mut self, public_url: PublicUrl) -> DiscoverySettings<W> {
        self.public_url = Some(public_url);
        self
    }

    /// Shows the served maximum of `cap`'s API as it is when each document
    /// is asked for (docs/reference.md §13.4): share the handle given to
    /// [`Negotiation::with_version_cap`](crate::exchange::Negotiation::with_version_cap).
    /// The API is the one with the same path (and service type) among those
    /// given to [`DiscoverySettings::new`]; its declaration becomes the
    /// handle's, so a retirement shows too. A handle of an API not listed is
    /// added at the end.
    #[must_use]
    pub fn with_version_cap(mut self, cap: VersionCap) -> DiscoverySettings<W> {
        self.listed.follow_cap(cap);
        self
    }

    /// Shows each client the version its requests to `api` get when they
    /// name none (`client_version` in the API's documents), as
    /// `client_default` chooses it for the negotiation
    /// ([`Negotiation::with_client_default`](crate::exchange::Negotiation::with_client_default));
    /// the documents then name the headers it reads in `Vary`, and a hook
    /// that fails answers its error. `api` is matched as in
    /// [`DiscoverySettings::with_version_cap`]; one not listed is added at
    /// the end.
    #[must_use]
    pub fn with_client_default(
        mut self,
        api: &Api,
        client_default: ClientDefault<W>,
    ) -> DiscoverySettings<W> {
        self.listed.attach(api, client_default);
        self
    }

    /// Renders the refusals (an unknown version id, a method but GET) with
    /// `format` (API-SIG errors by default).
    #[must_use]
    pub fn with_error_format(mut self, format: impl ErrorFormat) -> DiscoverySettings<W> {
        self.format = Arc::new(format);
        self
    }

    /// The APIs listed, in order, as declared (the paths a facade routes).
    pub fn apis(&self) -> &[Api] {
        self.listed.declared()
    }

    /// The public URL of every link, when fixed here.
    pub fn public_url(&self) -> Option<&PublicUrl> {
        self.public_url.as_ref()
    }

    /// The path prefix of links read from the request.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// The `client_version` for a request with `headers` of each API of
    /// `indexes` (as served now), and the headers the hooks read.
    async fn client_versions(
        &self,
        headers: &W::Map,
        indexes: &[usize],
    ) -> Result<(Vec<Option<Version>>, Vec<&str>), ApiError> {
        let mut versions = Vec::with_capacity(indexes.len());
        let mut vary = Vec::new();
        for &index in indexes {
            let Some(client_default) = self.listed.hook(index) else {
                versions.push(None);
                continue;
            };
            vary.push(client_default.vary());
            let chosen = client_default.choose(headers).await?;
            versions.push(chosen.and_then(|pinned| self.listed.current(index).client_version(pinned)));
        }
        Ok((versions, vary))
    }
}

impl<W: ChoiceWire + AnswerWire> DiscoverySettings<W> {
    /// The answer to `GET /` for a request with `headers`, its links under
    /// `root` (the service root as the client reaches it) and `url_vary`
    /// the headers that root was read from.
    pub async fn list(&self, headers: &W::Map, root: &str, url_vary: Option<&str>) -> W::Answer {
        let indexes: Vec<usize> = (0..self.listed.declared().len()).collect();
        let built = self.client_versions(headers, &indexes).await.map(|(chosen, vary)| {
            let apis: Vec<Api> = indexes.iter().map(|&i| self.listed.current(i)).collect();
            let mut list = VersionList::new(&apis, root);
            for (document, version) in list.versions.iter_mut().zip(chosen) {
                document.client_version = version;
            }
            (list, vary)
        });
        self.answer(built, url_vary)
    }

    /// The answer to `GET /v2.1/` of the API at `index` (in
    /// [`DiscoverySettings::apis`]), as [`DiscoverySettings::list`].
    pub async fn single(
        &self,
        index: usize,
        headers: &W::Map,
        root: &str,
        url_vary: Option<&str>,
    ) -> W::Answer {
        let built = self.client_versions(headers, &[index]).await.map(|(chosen, vary)| {
            let mut single: SingleVersion = self.listed.current(index).single_version_document(root);
            single.version.client_version = chosen.into_iter().next().flatten();
            (single, vary)
        });
        self.answer(built, url_vary)
    }

    /// The 404 of a version-like id no API declares.
    pub fn unknown(&self, id: &str) -> W::Answer {
        let known: Vec<String> = self.listed.declared().iter().map(|a| a.id().into_owned()).collect();
        self.render(&ApiError::not_found(format!(
            "API version {id} does not exist; this service offers {}.",
            known.join(", ")
        )))
    }

    /// The 405 of any method but GET, with `Allow: GET` (the frameworks'
    /// own 405 has an empty body).
    pub fn refuse_method(&self) -> W::Answer {
        let error = ApiError::from_status(405_u16, "Version discovery documents are read with GET only.");
        let mut answer = self.render(&error);
        crate::protocol::stamp::set_header::<W>(W::headers(&mut answer), "allow", "GET");
        answer
    }

    /// `error` in the configured format, its code naming the first API's
    /// service.
    pub fn render(&self, error: &ApiError) -> W::Answer {
        let renderer = ErrorRenderer::<W>::shared(Arc::clone(&self.format));
        match self.listed.declared().first() {
            Some(api) => renderer.with_service(api.service_type()).render(error),
            None => renderer.render(error),
        }
    }

    /// A document as the answer, with `Vary` naming the headers it was
    /// built from (`url_vary` those of its links), or the error of a client
    /// default's hook.
    fn answer<T: serde::Serialize>(
        &self,
        built: Result<(T, Vec<&str>), ApiError>,
        url_vary: Option<&str>,
    ) -> W::Answer {
        let (body, mut vary) = match built {
            Ok(built) => built,
            Err(error) => return self.render(&error),
        };
        vary.extend(url_vary);
        let vary = vary.join(", ");
        let text = serde_json::to_vec(&body).unwrap_or_else(|_| b"{}".to_vec());
        let headers = [("content-type", "application/json"), ("vary", vary.as_str())];
        let headers = headers.into_iter().filter(|(_, value)| !value.is_empty());
        plain_answer::<W>(200, headers, Some(text))
    }
}
