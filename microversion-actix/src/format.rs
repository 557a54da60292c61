//! Error body formats (the API-SIG errors document, Nova-style faults) and
//! the one way an error becomes a response: [`ErrorRenderer`].

use std::sync::{Arc, LazyLock};

use actix_web::HttpResponse;
use actix_web::body::MessageBody;
use actix_web::http::header::{self, HeaderMap, HeaderName, HeaderValue};

pub use microversion_core::{ApiSigErrors, ErrorFormat, NovaFaults, Problem};

use crate::ApiError;
use crate::error::version_value;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Version, discovery::Link};
    use actix_web::http::StatusCode;
    use serde_json::{Value, json};

    #[test]
    fn api_sig_has_every_optional_field_when_set() {
        let err = ApiError::bad_request("bad")
            .with_request_id("req-9")
            .with_versions(Version::new(2, 1), Version::new(2, 5))
            .with_link(Link { href: "http://docs".into(), rel: "help".into(), media_type: None });
        let body = err.body(&ApiSigErrors, None);
        assert_eq!(
            body,
            json!({"errors": [{
                "request_id": "req-9", "code": "bad-request", "status": 400, "title": "Bad Request",
                "detail": "bad", "links": [{"href": "http://docs", "rel": "help"}],
                "min_version": "2.1", "max_version": "2.5"
            }]})
        );
    }

    #[test]
    fn nova_fault_names_follow_status() {
        let nova = NovaFaults::default();
        let cases = [
            (400, "badRequest"),
            (404, "itemNotFound"),
            (409, "conflictingRequest"),
            (413, "overLimit"),
            (415, "badMediaType"),
            (406, "computeFault"),
            (500, "computeFault"),
            (501, "notImplemented"),
        ];
        for (status, name) in cases {
            let err = ApiError::from_status(StatusCode::from_u16(status).unwrap(), "m");
            assert_eq!(err.body(&nova, None), json!({name: {"code": status, "message": "m"}}));
        }
        assert_eq!(NovaFaults::with_fallback("volumeFault").fault_name(500), "volumeFault");
    }

    /// Every built-in format says the served range in the body of a 406
    /// and of a malformed version's 400, and leaves it out otherwise.
    #[test]
    fn every_format_writes_bodies_its_schema_accepts() {
        let errors = [
            ApiError::from_status(StatusCode::NOT_FOUND, "gone").with_request_id("req-1"),
            ApiError::bad_request("bad").with_versions(Version::new(2, 1), Version::new(2, 5)),
            ApiError::invalid_input(vec![crate::error::Violation::new("/a", "type", "m")]),
            ApiError::conflict("c").with_link(Link {
                href: "http://h".into(),
                rel: "help".into(),
                media_type: None,
            }),
        ];
        let formats: [&dyn ErrorFormat; 2] = [&ApiSigErrors, &NovaFaults::default()];
        for format in formats {
            let validator = jsonschema::validator_for(&format.schema()).expect("a valid schema");
            for error in &errors {
                let body = error.body(format, Some("compute"));
                assert!(validator.is_valid(&body), "{body} breaks {}", format.schema());
            }
            assert!(!validator.is_valid(&json!([])), "an array is no error body");
        }
    }

    #[test]
    fn every_format_puts_the_range_in_the_body() {
        use crate::version::NegotiationError;
        let not_acceptable = ApiError::from(NegotiationError::NotAcceptable {
            requested: Version::lit("3.7"),
            min: Version::lit("2.1"),
            max: Version::lit("2.96"),
        });
        let malformed = ApiError::from(NegotiationError::Malformed {
            requested: "2.x".into(),
            min: Version::lit("2.1"),
            max: Version::lit("2.96"),
        });
        let formats: [(&str, &dyn ErrorFormat); 3] = [
            ("API-SIG", &ApiSigErrors),
            ("Nova faults", &NovaFaults::default()),
            ("Nova faults, another fallback", &NovaFaults::with_fallback("volumeFault")),
        ];
        for (name, format) in formats {
            for (err, status) in [(&not_acceptable, 406), (&malformed, 400)] {
                let body = err.body(format, Some("compute"));
                let entry =
                    range_holder(&body).unwrap_or_else(|| panic!("{name}: one error entry in {body}"));
                assert_eq!(entry["min_version"], json!("2.1"), "{name} {status}: {body}");
                assert_eq!(entry["max_version"], json!("2.96"), "{name} {status}: {body}");
            }
            let plain = ApiError::conflict("Locked.").body(format, None);
            let entry = range_holder(&plain).unwrap_or_else(|| panic!("{name}: one error entry in {plain}"));
            assert!(entry.get("min_version").is_none(), "{name}: {plain}");
            assert!(entry.get("max_version").is_none(), "{name}: {plain}");
        }
    }

    /// The object that holds an error's fields: the only entry of an
    /// API-SIG `errors` list, or the only fault of a Nova body.
    fn range_holder(body: &Value) -> Option<&serde_json::Map<String, Value>> {
        let object = body.as_object()?;
        if let Some(errors) = object.get("errors") {
            return errors.as_array().filter(|e| e.len() == 1)?[0].as_object();
        }
        (object.len() == 1).then(|| object.values().next()?.as_object()).flatten()
    }

    #[test]
    fn nova_fault_carries_the_range_fields() {
        let err = ApiError::from(crate::version::NegotiationError::NotAcceptable {
            requested: Version::lit("3.7"),
            min: Version::lit("2.1"),
            max: Version::lit("2.96"),
        });
        assert_eq!(
            err.body(&NovaFaults::default(), Some("compute")),
            json!({"computeFault": {
                "code": 406,
                "message": "Version 3.7 is not supported by the API. Minimum is 2.1 and maximum is 2.96.",
                "min_version": "2.1", "max_version": "2.96"
            }})
        );
    }
}
