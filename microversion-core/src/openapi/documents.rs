//! [`Documents`]: the documents of one description, each rendered once on
//! first use and kept, with its entity tag; and the document a request's
//! `?version=` asks for, refused as negotiation refuses a version. Each
//! facade's service answers with these.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use super::ApiDescription;
use super::reference::{self, Spans};
use crate::protocol::negotiate::NegotiationError;
use crate::{Version, version::MAX_ECHOED_BYTES};

/// How long a client or cache may keep a document: `public, max-age=300`.
pub const DOCUMENT_CACHE_CONTROL: &str = "public, max-age=300";

/// One document as served: its JSON text and a strong entity tag.
#[derive(Debug)]
pub struct RenderedDocument {
    body: String,
    etag: String,
}

impl RenderedDocument {
    fn new(document: &serde_json::Value) -> RenderedDocument {
        RenderedDocument::of_text(document.to_string())
    }

    /// A document already written (a reference page's HTML).
    fn of_text(body: String) -> RenderedDocument {
        // FNV-1a: stable across runs and builds, unlike the std hasher.
        let hash = body
            .bytes()
            .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
        RenderedDocument { body, etag: format!("\"{hash:016x}\"") }
    }

    /// The document, as JSON text.
    pub fn body(&self) -> &str {
        &self.body
    }

    /// Its strong entity tag, quoted.
    pub fn etag(&self) -> &str {
        &self.etag
    }

    /// Whether an `If-None-Match` value names this document (or is `*`):
    /// then the answer is 304 without a body.
    pub fn matches(&self, if_none_match: Option<&str>) -> bool {
        if_none_match.is_some_and(|tags| tags.split(',').any(|t| t.trim() == self.etag || t.trim() == "*"))
    }
}

/// The version a query string asks a document or page for: its last
/// `version` (percent-decoded), as [`Documents::at`] and
/// [`Documents::reference_page`] take it; every facade's service reads it so.
///
/// ```
/// use microversion_core::openapi::requested_version;
///
/// assert_eq!(requested_version("version=2.1&version=2.61").as_deref(), Some("2.61"));
/// assert_eq!(requested_version("v=2.1"), None);
/// ```
pub fn requested_version(query: &str) -> Option<String> {
    form_urlencoded::parse(query.as_bytes())
        .filter(|(key, _)| key == "version")
        .last()
        .map(|(_, v)| v.into_owned())
}

/// Which of the documents a `GET` asks for, by its path; the version comes
/// from the path or the query string ([`Documents::answer`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DocumentRequest<'a> {
    /// `/openapi.json`: the document of the version `?version=` asks for,
    /// else of the newest served one.
    Document,
    /// `/openapi-history.json`: the whole history.
    History,
    /// `/docs/` or `/docs/{version}`: the reference page of the version the
    /// path names, else of the one `?version=` asks for, else of the newest.
    Reference(Option<&'a str>),
    /// `/docs/{version}/changes`: what that version changed against the
    /// one before it.
    Changes(&'a str),
}

/// A document as answered to a `GET` (docs/reference.md §14): 200 with
/// its body, or 304 without one when the request's `If-None-Match` names
/// it; a strong `ETag` and `Cache-Control` either way. Each facade writes
/// these parts into its own response.
#[derive(Clone, Copy, Debug)]
pub struct DocumentAnswer<'d> {
    document: &'d RenderedDocument,
    content_type: &'static str,
    not_modified: bool,
}

impl<'d> DocumentAnswer<'d> {
    /// 200, or 304 when `If-None-Match` named the document.
    pub fn status(&self) -> u16 {
        if self.not_modified { 304 } else { 200 }
    }

    /// The response headers: `ETag`, `Cache-Control`, and the body's
    /// `Content-Type` unless the answer is a 304.
    pub fn headers(&self) -> impl Iterator<Item = (&'static str, &'d str)> + use<'d> {
        let content_type = (!self.not_modified).then_some(("content-type", self.content_type));
        [("etag", self.document.etag()), ("cache-control", DOCUMENT_CACHE_CONTROL)]
            .into_iter()
            .chain(content_type)
    }

    /// The body, unless the answer is a 304.
    pub fn body(&self) -> Option<&'d str> {
        (!self.not_modified).then(|| self.document.body())
    }
}

/// Why no document answers a `?version=`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DocumentRefusal {
    /// A malformed version (400) or one the API does not serve (406), as
    /// negotiation refuses them.
    Version(NegotiationError),
    /// A served version without a document (404); not reached while the
    /// description serves the API's versions.
    Missing(Version),
}

impl DocumentRefusal {
    /// The status it is answered with: 400, 406 or 404.
    pub fn status(&self) -> u16 {
        match self {
            DocumentRefusal::Version(refusal) => refusal.status(),
            DocumentRefusal::Missing(_) => 404,
        }
    }
}

/// The documents of one description, rendered on first use: an API of
/// 1,000 versions does not pay for 1,000 documents at start-up.
///
/// ```
/// use microversion_core::openapi::{ApiDescription, DocumentRefusal, Documents};
/// use microversion_core::{Api, Microversion};
///
/// const API: Api = Api::new("compute", &[Microversion::new("2.1", "Initial."), Microversion::new("2.2", "More.")]);
/// let documents = Documents::new(ApiDescription::new(API));
/// let latest = documents.at(None).unwrap();
/// assert!(latest.body().contains("\"version\":\"2.2\""));
/// assert!(latest.matches(Some(latest.etag())));
/// assert!(documents.at(Some("2.1")).is_ok());
/// assert!(matches!(documents.at(Some("2.9")), Err(DocumentRefusal::Version(e)) if e.status() == 406));
/// assert!(matches!(documents.at(Some("two")), Err(DocumentRefusal::Version(e)) if e.status() == 400));
/// ```
#[derive(Debug)]
pub struct Documents {
    by_version: BTreeMap<Version, OnceLock<RenderedDocument>>,
    history: OnceLock<RenderedDocument>,
    pages: BTreeMap<Version, OnceLock<RenderedDocument>>,
    changes: BTreeMap<Version, OnceLock<RenderedDocument>>,
    spans: OnceLock<Spans>,
    description: ApiDescription,
}

impl Documents {
    /// The documents of `description`, none rendered yet.
    pub fn new(description: ApiDescription) -> Documents {
        let by_version = description.versions().map(|v| (v, OnceLock::new())).collect();
        let pages = description.versions().map(|v| (v, OnceLock::new())).collect();
        let changes = description.versions().map(|v| (v, OnceLock::new())).collect();
        Documents {
            by_version,
            history: OnceLock::new(),
            pages,
            changes,
            spans: OnceLock::new(),
            description,
        }
    }

    /// The description they are built from.
    pub fn description(&self) -> &ApiDescription {
        &self.description
    }

    /// The document of the requested version (the last `version` of the
    /// query string): the newest served one when none or `latest` is asked.
    pub fn at(&self, requested: Option<&str>) -> Result<&RenderedDocument, DocumentRefusal> {
        let version = self.version_of(requested)?;
        let cell = self.by_version.get(&version).ok_or(DocumentRefusal::Missing(version))?;
        Ok(cell.get_or_init(|| RenderedDocument::new(&self.description.document(version))))
    }

    /// The reference page of the requested version, as HTML (the newest
    /// served one when none or `latest` is asked), refused as [`Documents::at`]
    /// refuses a version (docs/reference.md §14.8). The first page computes
    /// every operation's and field's versions from every document.
    pub fn reference_page(&self, requested: Option<&str>) -> Result<&RenderedDocument, DocumentRefusal> {
        let version = self.version_of(requested)?;
        let cell = self.pages.get(&version).ok_or(DocumentRefusal::Missing(version))?;
        let spans = self.spans.get_or_init(|| Spans::of(&self.description));
        Ok(cell.get_or_init(|| RenderedDocument::of_text(reference::page(&self.description, spans, version))))
    }

    /// The page of what the requested version changed against the one
    /// served before it, as HTML: each difference of their documents,
    /// classified for clients as the frozen documents are
    /// ([`classify_changes`](super::classify_changes)), by operation;
    /// refused as [`Documents::at`] refuses a version.
    ///
    /// ```
    /// use microversion_core::openapi::{ApiDescription, Documents};
    /// use microversion_core::{Api, Microversion};
    ///
    /// const API: Api = Api::new("compute", &[Microversion::new("2.1", "Initial."), Microversion::new("2.2", "More.")]);
    /// let documents = Documents::new(ApiDescription::new(API));
    /// let page = documents.changes_page(Some("2.2")).unwrap().body();
    /// assert!(page.contains("<h1>What 2.2 changed</h1>") && page.contains("The declared change: More."));
    /// assert_eq!(documents.changes_page(Some("2.9")).unwrap_err().status(), 406);
    /// ```
    pub fn changes_page(&self, requested: Option<&str>) -> Result<&RenderedDocument, DocumentRefusal> {
        let version = self.version_of(requested)?;
        let cell = self.changes.get(&version).ok_or(DocumentRefusal::Missing(version))?;
        Ok(cell
            .get_or_init(|| RenderedDocument::of_text(super::changes_page::page(&self.description, version))))
    }

    /// The version a request asks for, or why none.
    fn version_of(&self, requested: Option<&str>) -> Result<Version, DocumentRefusal> {
        let api = self.description.api();
        let version = match requested {
            None | Some("latest") => api.max(),
            Some(text) => match text.parse::<Version>() {
                Ok(version) if api.serves(version) => version,
                Ok(version) => {
                    return Err(DocumentRefusal::Version(NegotiationError::NotAcceptable {
                        requested: version,
                        min: api.min(),
                        max: api.max(),
                    }));
                }
                Err(_) => {
                    let shown: String = text.chars().take(MAX_ECHOED_BYTES).collect();
                    return Err(DocumentRefusal::Version(NegotiationError::Malformed {
                        requested: shown,
                        min: api.min(),
                        max: api.max(),
                    }));
                }
            },
        };
        Ok(version)
    }

    /// The whole history in OpenStack's encoding.
    pub fn history(&self) -> &RenderedDocument {
        self.history.get_or_init(|| RenderedDocument::new(&self.description.history_document()))
    }

    /// The answer to a `GET` of one of the documents' paths, given the
    /// request's query string and `If-None-Match`: what every facade's
    /// service answers, refusals included.
    ///
    /// ```
    /// use microversion_core::openapi::{ApiDescription, DocumentRequest, Documents};
    /// use microversion_core::{Api, Microversion};
    ///
    /// const API: Api = Api::new("compute", &[Microversion::new("2.1", "Initial."), Microversion::new("2.2", "More.")]);
    /// let documents = Documents::new(ApiDescription::new(API));
    /// let answer = documents.answer(DocumentRequest::Document, "version=2.1", None).unwrap();
    /// assert_eq!(answer.status(), 200);
    /// assert!(answer.body().unwrap().contains("\"version\":\"2.1\""));
    /// let etag = answer.headers().find(|(name, _)| *name == "etag").unwrap().1;
    /// let again = documents.answer(DocumentRequest::Document, "version=2.1", Some(etag)).unwrap();
    /// assert_eq!((again.status(), again.body()), (304, None));
    /// let page = documents.answer(DocumentRequest::Reference(Some("2.2")), "", None).unwrap();
    /// assert!(page.headers().any(|header| header == ("content-type", "text/html; charset=utf-8")));
    /// assert_eq!(documents.answer(DocumentRequest::Document, "version=2.9", None).unwrap_err().status(), 406);
    /// ```
    pub fn answer(
        &self,
        request: DocumentRequest<'_>,
        query: &str,
        if_none_match: Option<&str>,
    ) -> Result<DocumentAnswer<'_>, DocumentRefusal> {
        let (document, content_type) = match request {
            DocumentRequest::Document => (self.at(requested_version(query).as_deref())?, "application/json"),
            DocumentRequest::History => (self.history(), "application/json"),
            DocumentRequest::Reference(named) => {
                let requested =
                    named.filter(|v| !v.is_empty()).map(str::to_owned).or_else(|| requested_version(query));
                (self.reference_page(requested.as_deref())?, "text/html; charset=utf-8")
            }
            DocumentRequest::Changes(named) => (self.changes_page(Some(named))?, "text/html; charset=utf-8"),
        };
        Ok(DocumentAnswer { document, content_type, not_modified: document.matches(if_none_match) })
    }
}
