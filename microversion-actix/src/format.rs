//! Error body formats (the API-SIG errors document, Nova-style faults) and
//! the one way an error becomes a response: [`ErrorRenderer`].

use std::sync::{Arc, LazyLock};

use actix_web::HttpResponse;
use actix_web::body::MessageBody;
use actix_web::http::header::{self, HeaderMap, HeaderName, HeaderValue};

pub use microversion_core::{ApiSigErrors, ErrorFormat, NovaFaults, Problem};

use crate::ApiError;
use crate::header::version_value;
use crate::header::{MAX_VERSION_HEADER_NAME, MIN_VERSION_HEADER_NAME};

/// A 408 closes its connection: the body it gave up on may still be on
/// its way, and a chunked one would otherwise be drained without a deadline.
fn close_after_timeout(error: &ApiError, head: &mut actix_web::dev::ResponseHead) {
    if error.status() == actix_web::http::StatusCode::REQUEST_TIMEOUT {
        head.set_connection_type(actix_web::http::ConnectionType::Close);
    }
}

/// How one API renders its errors: the body [`ErrorFormat`], the service
/// type that prefixes error codes, and the names of the headers that carry
/// the served minimum and maximum versions (on 400 and 406).
///
/// [`VersionNegotiation`](crate::VersionNegotiation) and [`Discovery`](crate::Discovery)
/// render every error through one; use one for errors of your own outside
/// them, so that clients see a single shape:
///
/// ```
/// use actix_web::http::StatusCode;
/// use microversion_actix::{ApiError, error::{ErrorRenderer, NovaFaults}};
///
/// let renderer = ErrorRenderer::new(NovaFaults::default()).with_service("compute");
/// let res = renderer.render(&ApiError::not_found("No such flavor."));
/// assert_eq!(res.status(), StatusCode::NOT_FOUND);
///
/// // The defaults: API-SIG errors, no service prefix, the standard header names.
/// let plain = ErrorRenderer::default().render(&ApiError::conflict("Locked."));
/// assert_eq!(plain.status(), StatusCode::CONFLICT);
/// ```
#[derive(Clone)]
pub struct ErrorRenderer {
    format: Arc<dyn ErrorFormat>,
    service: Option<&'static str>,
    min_header: HeaderName,
    max_header: HeaderName,
}

impl std::fmt::Debug for ErrorRenderer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ErrorRenderer")
            .field("service", &self.service)
            .field("min_header", &self.min_header)
            .field("max_header", &self.max_header)
            .finish_non_exhaustive()
    }
}

/// API-SIG errors, no service prefix, the default header names; shared,
/// since every standalone [`ApiError`] response uses it.
static DEFAULT_RENDERER: LazyLock<ErrorRenderer> = LazyLock::new(|| ErrorRenderer::new(ApiSigErrors));

impl Default for ErrorRenderer {
    fn default() -> ErrorRenderer {
        DEFAULT_RENDERER.clone()
    }
}

impl ErrorRenderer {
    /// Renders bodies with `format`, without a service prefix, with the
    /// default minimum/maximum header names.
    pub fn new(format: impl ErrorFormat) -> ErrorRenderer {
        ErrorRenderer::shared(Arc::new(format))
    }

    /// [`ErrorRenderer::new`] with a format shared with other renderers.
    pub(crate) fn shared(format: Arc<dyn ErrorFormat>) -> ErrorRenderer {
        ErrorRenderer {
            format,
            service: None,
            min_header: MIN_VERSION_HEADER_NAME,
            max_header: MAX_VERSION_HEADER_NAME,
        }
    }

    /// Prefixes error codes with `service` (`compute.not-found`).
    pub fn with_service(mut self, service: &'static str) -> ErrorRenderer {
        self.service = Some(service);
        self
    }

    /// Names the headers that carry the served minimum and maximum (Ironic
    /// uses `X-OpenStack-Ironic-API-Minimum-Version`, ...).
    pub fn with_min_max_headers(mut self, min: HeaderName, max: HeaderName) -> ErrorRenderer {
        self.min_header = min;
        self.max_header = max;
        self
    }

    /// The body format.
    pub fn format(&self) -> &dyn ErrorFormat {
        &*self.format
    }

    /// The names of the minimum and maximum version headers.
    pub fn min_max_headers(&self) -> (&HeaderName, &HeaderName) {
        (&self.min_header, &self.max_header)
    }

    /// The service type that prefixes codes, if set.
    pub fn service_type(&self) -> Option<&'static str> {
        self.service
    }

    /// A route answering every request with a JSON 404 in this format, for
    /// `App::default_service`: actix's own 404 for a path outside every
    /// scope has an empty body.
    ///
    /// ```
    /// use actix_web::{test, App};
    /// use microversion_actix::error::{ErrorRenderer, NovaFaults};
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let errors = ErrorRenderer::new(NovaFaults::default()).with_service("compute");
    /// let app = test::init_service(App::new().default_service(errors.default_service())).await;
    /// let res = test::call_service(&app, test::TestRequest::get().uri("/nowhere").to_request()).await;
    /// assert_eq!(res.status(), 404);
    /// let body: serde_json::Value = test::read_body_json(res).await;
    /// assert_eq!(body["itemNotFound"]["code"], 404);
    /// # });
    /// ```
    pub fn default_service(&self) -> actix_web::Route {
        let renderer = self.clone();
        actix_web::web::to(move || {
            let res = renderer.render(&ApiError::not_found("The resource could not be found."));
            std::future::ready(res)
        })
    }

    /// The response for `error`: its status, the body in this format, JSON
    /// content type, and the minimum/maximum headers when it carries versions.
    pub fn render(&self, error: &ApiError) -> HttpResponse {
        let mut res = HttpResponse::new(error.status());
        close_after_timeout(error, res.head_mut());
        let body = self.write(error, res.headers_mut());
        res.set_body(body).map_into_boxed_body()
    }

    /// Puts `error` into an existing response of its scope, keeping the
    /// headers the handler set: the body, its content type, and the
    /// minimum/maximum headers under this renderer's names.
    pub(crate) fn render_into<B: MessageBody>(
        &self,
        error: &ApiError,
        res: HttpResponse<B>,
    ) -> HttpResponse<actix_web::body::BoxBody> {
        let mut res = res.set_body(());
        close_after_timeout(error, res.head_mut());
        let headers = res.headers_mut();
        headers.remove(header::CONTENT_LENGTH);
        // A standalone rendering used the default names.
        headers.remove(MIN_VERSION_HEADER_NAME);
        headers.remove(MAX_VERSION_HEADER_NAME);
        let body = self.write(error, headers);
        res.set_body(body).map_into_boxed_body()
    }

    /// Sets the headers of `error` and returns its body.
    fn write(&self, error: &ApiError, headers: &mut HeaderMap) -> String {
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
        if let (Some(min), Some(max)) = (error.min_version(), error.max_version()) {
            headers.insert(self.min_header.clone(), version_value(min));
            headers.insert(self.max_header.clone(), version_value(max));
        }
        error.body(&*self.format, self.service.or(error.service())).to_string()
    }
}
