//! The settings of the API's documents as a service serves them
//! (docs/reference.md §14): [`OpenApiSettings`], and the
//! [`ServedDocuments`] a facade's `OpenApiService` answers from. Written
//! once for every facade; the facade only registers the routes.

use std::fmt;

use crate::ErrorFormat;
use crate::error::{ApiError, ErrorRenderer};
use crate::protocol::stamp::{AnswerWire, HeaderWire, plain_answer};

use super::{ApiDescription, DocumentRequest, Documents};

/// The API's documents as a service serves them, the same on every facade;
/// a facade's `OpenApiService` serves them, made with
/// `OpenApiService::new(settings)` (or from the [`ApiDescription`] alone,
/// these defaults):
///
/// - `GET /openapi.json`: the document of the newest served version (the cap
///   included);
/// - `GET /openapi.json?version=2.61`: the document of that version; a
///   malformed version answers 400 and one the API does not serve 406,
///   exactly as negotiation answers them;
/// - `GET /openapi-history.json`: the whole history in OpenStack's encoding;
/// - with [`OpenApiSettings::with_reference`], `GET /docs/` and
///   `GET /docs/2.61`: the API reference of the newest and of that version
///   as one self-contained HTML page, and `GET /docs/2.61/changes`: what
///   that version changed (docs/reference.md §14.8).
///
/// Every document is rendered once, on its first request, and kept: an API
/// of 1,000 versions does not pay for 1,000 documents at start-up. Each has
/// a strong `ETag` (a request with a matching `If-None-Match` gets 304) and
/// `Cache-Control: public, max-age=300`.
///
/// ```
/// use microversion_core::{Api, Microversion, error::NovaFaults, header::HttpWire};
/// use microversion_core::openapi::{ApiDescription, DocumentRequest, OpenApiSettings};
///
/// const API: Api = Api::new("compute", &[Microversion::new("2.1", "Initial."), Microversion::new("2.2", "More.")]);
/// let settings = OpenApiSettings::<HttpWire>::new(ApiDescription::new(API)).with_error_format(NovaFaults::default());
/// let served = settings.serve();
/// assert!(!served.serves_reference());
/// let answer = served.answer(DocumentRequest::Document, "version=2.9", None);
/// assert_eq!(answer.status(), 406);
/// ```
pub struct OpenApiSettings<W: HeaderWire> {
    description: ApiDescription,
    errors: ErrorRenderer<W>,
    reference: bool,
}

impl<W: HeaderWire> Clone for OpenApiSettings<W> {
    fn clone(&self) -> OpenApiSettings<W> {
        OpenApiSettings {
            description: self.description.clone(),
            errors: self.errors.clone(),
            reference: self.reference,
        }
    }
}

impl<W: HeaderWire> fmt::Debug for OpenApiSettings<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OpenApiSettings")
            .field("description", &self.description)
            .field("errors", &self.errors)
            .field("reference", &self.reference)
            .finish()
    }
}

/// The documents of a description with every default: what
/// `OpenApiService::new(description)` serves.
impl<W: HeaderWire> From<ApiDescription> for OpenApiSettings<W> {
    fn from(description: ApiDescription) -> OpenApiSettings<W> {
        OpenApiSettings::new(description)
    }
}

impl<W: HeaderWire> OpenApiSettings<W> {
    /// Serves the documents of `description`, errors as API-SIG errors.
    pub fn new(description: ApiDescription) -> OpenApiSettings<W> {
        let errors = ErrorRenderer::default().with_service(description.api().service_type());
        OpenApiSettings { description, errors, reference: false }
    }

    /// Serves the API reference too: `GET /docs/` (the newest served
    /// version, or `?version=`), `GET /docs/2.61`, and `/docs` sent on to
    /// `/docs/` (docs/reference.md §14.8).
    #[must_use]
    pub fn with_reference(mut self) -> OpenApiSettings<W> {
        self.reference = true;
        self
    }

    /// Renders its 400 and 406 in `format` (the API's own).
    #[must_use]
    pub fn with_error_format(mut self, format: impl ErrorFormat) -> OpenApiSettings<W> {
        let service = self.description.api().service_type();
        self.errors = ErrorRenderer::new(format).with_service(service);
        self
    }

    /// Renders its 400 and 406 with `errors` (the API's own renderer, a
    /// negotiation's [`error_renderer`](crate::exchange::Negotiation::error_renderer),
    /// whose version header names it keeps too).
    #[must_use]
    pub fn with_error_renderer(mut self, errors: ErrorRenderer<W>) -> OpenApiSettings<W> {
        self.errors = errors;
        self
    }

    /// The documents as the facade's routes share them, none rendered yet.
    pub fn serve(self) -> ServedDocuments<W> {
        ServedDocuments {
            documents: Documents::new(self.description),
            errors: self.errors,
            reference: self.reference,
        }
    }
}

/// The documents, each rendered once, and the renderer of their refusals:
/// what a facade's routes share ([`OpenApiSettings::serve`]).
pub struct ServedDocuments<W: HeaderWire> {
    documents: Documents,
    errors: ErrorRenderer<W>,
    reference: bool,
}

impl<W: HeaderWire> fmt::Debug for ServedDocuments<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServedDocuments").field("reference", &self.reference).finish_non_exhaustive()
    }
}

impl<W: AnswerWire> ServedDocuments<W> {
    /// Whether the reference pages are served (routes for `/docs`).
    pub fn serves_reference(&self) -> bool {
        self.reference
    }

    /// The answer to a `GET` for `request` with the query string `query`
    /// and `If-None-Match` (docs/reference.md §14): the document, a 304, or
    /// the refusal in the service's error format.
    pub fn answer(
        &self,
        request: DocumentRequest<'_>,
        query: &str,
        if_none_match: Option<&str>,
    ) -> W::Answer {
        match self.documents.answer(request, query, if_none_match) {
            Ok(answer) => {
                let body = answer.body().map(|body| body.as_bytes().to_vec());
                plain_answer::<W>(answer.status(), answer.headers(), body)
            }
            Err(refusal) => self.errors.render(&ApiError::from(refusal)),
        }
    }

    /// The answer to `GET /docs`: sent on to `/docs/`, where the page's
    /// relative links resolve.
    pub fn moved_to_docs() -> W::Answer {
        plain_answer::<W>(308, [("location", "docs/")], None)
    }
}
