//! [`ErrorRenderer`]: how one API renders its errors, in any framework's
//! header types.

use std::fmt;
use std::sync::{Arc, LazyLock};

use super::{ApiError, ApiSigErrors, ErrorFormat, ErrorRequest};
use crate::Version;
use crate::header::{AnswerWire, HeaderWire, answer_request_id, error_headers, min_max_names};

/// How one API renders its errors: the body [`ErrorFormat`], the service
/// type that prefixes error codes, and the names of the headers that carry
/// the served minimum and maximum versions (on 400 and 406)
/// (docs/reference.md §5).
///
/// `W` is a facade's [`HeaderWire`], so that the header names are the
/// framework's own; each facade names it once (`microversion_actix::error::ErrorRenderer`,
/// `microversion_axum::error::ErrorRenderer`). A facade's version
/// negotiation and discovery render every error through one
/// (`Negotiation::error_renderer`); use one for errors of your own
/// outside them, so that clients see a single shape.
///
/// ```
/// use microversion_core::error::{ApiError, ErrorRenderer, NovaFaults};
/// use microversion_core::header::HttpWire;
///
/// let renderer = ErrorRenderer::<HttpWire>::new(NovaFaults::default()).with_service("compute");
/// let answer = renderer.render(&ApiError::not_found("No such flavor."));
/// assert_eq!(answer.status(), 404);
/// assert_eq!(answer.headers()["content-type"], "application/json");
/// let body: serde_json::Value = serde_json::from_slice(answer.body()).unwrap();
/// assert_eq!(body["itemNotFound"]["message"], "No such flavor.");
/// ```
pub struct ErrorRenderer<W: HeaderWire> {
    format: Arc<dyn ErrorFormat>,
    // The format's `reads_request`, asked once: every request reads it.
    reads_request: bool,
    service: Option<&'static str>,
    min_header: W::Name,
    max_header: W::Name,
}

impl<W: HeaderWire> Clone for ErrorRenderer<W> {
    fn clone(&self) -> ErrorRenderer<W> {
        ErrorRenderer {
            format: Arc::clone(&self.format),
            reads_request: self.reads_request,
            service: self.service,
            min_header: self.min_header.clone(),
            max_header: self.max_header.clone(),
        }
    }
}

impl<W: HeaderWire> fmt::Debug for ErrorRenderer<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |name: &W::Name| String::from_utf8_lossy(name.as_ref()).into_owned();
        f.debug_struct("ErrorRenderer")
            .field("service", &self.service)
            .field("min_header", &name(&self.min_header))
            .field("max_header", &name(&self.max_header))
            .finish_non_exhaustive()
    }
}

/// API-SIG errors, no service prefix, the standard header names: what
/// every standalone error answer is rendered with.
impl<W: HeaderWire> Default for ErrorRenderer<W> {
    fn default() -> ErrorRenderer<W> {
        // One format shared by every default renderer, of every facade.
        static API_SIG: LazyLock<Arc<dyn ErrorFormat>> = LazyLock::new(|| Arc::new(ApiSigErrors));
        ErrorRenderer::shared(Arc::clone(&API_SIG))
    }
}

impl<W: HeaderWire> ErrorRenderer<W> {
    /// Renders bodies with `format`, without a service prefix, with the
    /// standard minimum/maximum header names.
    pub fn new(format: impl ErrorFormat) -> ErrorRenderer<W> {
        ErrorRenderer::shared(Arc::new(format))
    }

    /// [`ErrorRenderer::new`] with a format shared with other renderers.
    pub fn shared(format: Arc<dyn ErrorFormat>) -> ErrorRenderer<W> {
        let (min_header, max_header) = min_max_names::<W>();
        ErrorRenderer { reads_request: format.reads_request(), format, service: None, min_header, max_header }
    }

    /// Prefixes error codes with `service` (`compute.not-found`).
    pub fn with_service(mut self, service: &'static str) -> ErrorRenderer<W> {
        self.service = Some(service);
        self
    }

    /// Names the headers that carry the served minimum and maximum (Ironic
    /// uses `X-OpenStack-Ironic-API-Minimum-Version`, ...).
    pub fn with_min_max_headers(mut self, min: W::Name, max: W::Name) -> ErrorRenderer<W> {
        (self.min_header, self.max_header) = (min, max);
        self
    }

    /// The body format.
    pub fn format(&self) -> &dyn ErrorFormat {
        &*self.format
    }

    /// The names of the minimum and maximum version headers.
    pub fn min_max_headers(&self) -> (&W::Name, &W::Name) {
        (&self.min_header, &self.max_header)
    }

    /// The service type that prefixes codes, if set.
    pub fn service_type(&self) -> Option<&'static str> {
        self.service
    }

    /// Makes `headers` those of `error`'s answer (a handler's own kept:
    /// see [`error_headers`]) and returns its body in this format, with the
    /// request id the headers carry when the error has none
    /// ([`answer_request_id`]).
    pub fn write(&self, error: &ApiError, headers: &mut W::Map) -> String {
        self.write_for(error, None, None, headers)
    }

    /// [`ErrorRenderer::write`] for a request served at `version`, which
    /// the format reads ([`Problem::version`](super::Problem::version)):
    /// what a facade's negotiation calls for the errors of its routes.
    pub fn write_at(&self, error: &ApiError, version: Option<Version>, headers: &mut W::Map) -> String {
        self.write_for(error, version, None, headers)
    }

    /// [`ErrorRenderer::write_at`] answering `request`, for a format that
    /// reads it ([`ErrorFormat::reads_request`]): the body may then be a
    /// page ([`ErrorFormat::page`]), whose content type the headers get.
    pub fn write_for(
        &self,
        error: &ApiError,
        version: Option<Version>,
        request: Option<&ErrorRequest>,
        headers: &mut W::Map,
    ) -> String {
        let carried = match error.request_id() {
            Some(_) => None,
            None => answer_request_id::<W>(headers),
        };
        let (content_type, body) = self.body(error, version, carried.as_deref(), request);
        let range = error.min_version().zip(error.max_version());
        error_headers::<W>(headers, content_type, range, (&self.min_header, &self.max_header));
        body
    }

    /// Whether the format reads the request it answers
    /// ([`ErrorFormat::reads_request`], asked once): a facade then reads an
    /// [`ErrorRequest`] of each request (`Engine::error_request`).
    pub fn reads_request(&self) -> bool {
        self.reads_request
    }

    /// `error`'s content type and body in this format, its code qualified
    /// by this renderer's service (else the error's own), at `version`,
    /// answering `request`, with `carried` as the request id when the
    /// error has none.
    fn body(
        &self,
        error: &ApiError,
        version: Option<Version>,
        carried: Option<&str>,
        request: Option<&ErrorRequest>,
    ) -> (&'static str, String) {
        let service = self.service.or(error.service());
        let code = error.qualified_code(service);
        let mut problem = error.problem(&code);
        problem.request_id = problem.request_id.or(carried);
        problem.version = version;
        problem.request = request;
        match self.format.page(&problem, service) {
            Some(page) => (page.content_type, page.body),
            None => (JSON, self.format.render(&problem, service).to_string()),
        }
    }
}

/// The content type of an error document.
const JSON: &str = "application/json";

impl<W: AnswerWire> ErrorRenderer<W> {
    /// The answer to `error` in the framework's type: its status, the body
    /// in this format, JSON content type, and the minimum/maximum headers
    /// when it carries versions.
    pub fn render(&self, error: &ApiError) -> W::Answer {
        self.render_for(error, None, None)
    }

    /// [`ErrorRenderer::render`] for a request served at `version`, which
    /// the format reads ([`Problem::version`](super::Problem::version)).
    pub fn render_at(&self, error: &ApiError, version: Option<Version>) -> W::Answer {
        self.render_for(error, version, None)
    }

    /// [`ErrorRenderer::render_at`] answering `request`, for a format that
    /// reads it: the body may be a page ([`ErrorFormat::page`]).
    pub fn render_for(
        &self,
        error: &ApiError,
        version: Option<Version>,
        request: Option<&ErrorRequest>,
    ) -> W::Answer {
        let (content_type, body) = self.body(error, version, None, request);
        let mut answer = W::answer(error.status().as_u16(), Some(body.into_bytes()));
        let range = error.min_version().zip(error.max_version());
        error_headers::<W>(
            W::headers(&mut answer),
            content_type,
            range,
            (&self.min_header, &self.max_header),
        );
        answer
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::Problem;
    use crate::header::HttpWire;

    /// Renders what a version-dependent format reads.
    struct ByVersion;

    impl ErrorFormat for ByVersion {
        fn render(&self, problem: &Problem<'_>, service: Option<&str>) -> Value {
            json!({"at": problem.version.map(|v| v.to_string()), "service": service, "id": problem.request_id})
        }
    }

    #[test]
    fn a_format_reads_the_version_an_error_was_written_at() {
        let renderer = ErrorRenderer::<HttpWire>::new(ByVersion).with_service("compute");
        let error = ApiError::conflict("Locked.");
        let mut headers = http::HeaderMap::new();
        headers.insert("x-openstack-request-id", "req-7".parse().unwrap());
        let at = renderer.write_at(&error, Some(Version::lit("2.3")), &mut headers);
        assert_eq!(at, json!({"at": "2.3", "service": "compute", "id": "req-7"}).to_string());
        assert_eq!(headers["content-type"], "application/json");
        let unversioned = renderer.write(&error, &mut http::HeaderMap::new());
        assert_eq!(unversioned, json!({"at": null, "service": "compute", "id": null}).to_string());
        let answer = renderer.render(&error);
        assert_eq!(
            answer.body(),
            json!({"at": null, "service": "compute", "id": null}).to_string().as_bytes()
        );
        let answer = renderer.render_at(&error, Some(Version::lit("2.1")));
        assert_eq!(
            answer.body(),
            json!({"at": "2.1", "service": "compute", "id": null}).to_string().as_bytes()
        );
    }

    /// A page for a client whose `Accept` names `text/plain`, else the document.
    struct PlainPages;

    impl ErrorFormat for PlainPages {
        fn reads_request(&self) -> bool {
            true
        }
        fn render(&self, problem: &Problem<'_>, _: Option<&str>) -> Value {
            json!({"method": problem.request.map(|r| r.method.as_str())})
        }
        fn page(&self, problem: &Problem<'_>, _: Option<&str>) -> Option<crate::error::ErrorPage> {
            let request = problem.request.filter(|r| r.accept.as_deref() == Some("text/plain"))?;
            let body = format!("{} {}", problem.status, request.method);
            Some(crate::error::ErrorPage { content_type: "text/plain; charset=UTF-8", body })
        }
    }

    #[test]
    fn a_format_that_reads_the_request_may_answer_a_page_of_its_own_type() {
        let renderer = ErrorRenderer::<HttpWire>::new(PlainPages);
        let mut asked = http::HeaderMap::new();
        asked.insert("accept", "text/plain".parse().unwrap());
        assert!(renderer.reads_request());
        let request = ErrorRequest::read::<HttpWire>("DELETE", &asked);
        let error = ApiError::conflict("Locked.").with_versions(Version::lit("2.1"), Version::lit("2.5"));
        let mut headers = http::HeaderMap::new();
        headers.insert("content-length", "99".parse().unwrap());
        let page = renderer.write_for(&error, None, Some(&request), &mut headers);
        assert_eq!(page, "409 DELETE");
        assert_eq!(headers["content-type"], "text/plain; charset=UTF-8");
        assert_eq!(headers["openstack-api-maximum-version"], "2.5", "an error's headers all the same");
        assert!(!headers.contains_key("content-length"));
        let answer = renderer.render_for(&error, None, Some(&request));
        assert_eq!(
            (answer.body().as_slice(), answer.headers()["content-type"].to_str().unwrap()),
            (&b"409 DELETE"[..], "text/plain; charset=UTF-8")
        );

        // Another `Accept`: the document; no request (outside a negotiation): the same.
        let json = ErrorRequest::read::<HttpWire>("GET", &http::HeaderMap::new());
        let answer = renderer.render_for(&error, None, Some(&json));
        assert_eq!(
            (answer.body().as_slice(), answer.headers()["content-type"].to_str().unwrap()),
            (&br#"{"method":"GET"}"#[..], "application/json")
        );
        assert_eq!(renderer.render(&error).body(), br#"{"method":null}"#);
        assert!(
            !ErrorRenderer::<HttpWire>::new(ByVersion).reads_request(),
            "a format reads nothing unless it says so"
        );
    }
}
