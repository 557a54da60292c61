//! Errors: [`ApiError`], the one error type of a versioned API; the formats
//! it is rendered in ([`ApiSigErrors`], [`NovaFaults`], any
//! [`ErrorFormat`]) through one [`ErrorRenderer`], the one way an error
//! becomes a response; and the [`Violation`]s of a refused body or query,
//! in the words of Python's `jsonschema`.

use actix_web::body::MessageBody;
use actix_web::http::{ConnectionType, StatusCode};
use actix_web::{HttpResponse, ResponseError};

use crate::header::ActixHeaders;
pub use microversion_core::error::violation::{
    Input as ViolationInput, MAX_ECHOED_VALUE_CHARS, MAX_MESSAGE_CHARS, Violation, best_match, python_repr,
    python_str,
};
pub use microversion_core::error::{ApiSigErrors, ErrorFormat, NovaFaults, Problem};

microversion_core::facade_api_error! {
    /// The error every part of this crate answers with, and the one handlers
    /// should return: a status, a stable error code, a title and a detail that
    /// says what was wrong and what is accepted.
    ///
    /// It implements [`ResponseError`], so `Result<_, ApiError>` works as a
    /// handler return type. Its own rendering uses the API-SIG errors format
    /// ([`ApiSigErrors`]); inside the scope of
    /// [`VersionNegotiation`](crate::VersionNegotiation) the middleware renders it with the
    /// API's [`ErrorRenderer`]: its [`ErrorFormat`], the
    /// service type in the code, its version header names.
    ///
    /// ```
    /// use microversion_actix::{ApiError, Version};
    /// use actix_web::http::StatusCode;
    ///
    /// let err = ApiError::method_not_at_version(Version::lit("2.3"), StatusCode::NOT_FOUND);
    /// assert_eq!(err.status(), StatusCode::NOT_FOUND);
    /// assert_eq!(err.detail(), "API version 2.3 is not supported on this method.");
    ///
    /// let err = ApiError::conflict("Server is locked.").with_request_id("req-1");
    /// assert_eq!(err.code(), "conflict");
    /// assert_eq!(err.qualified_code(Some("compute")), "compute.conflict");
    /// ```
    status = StatusCode;
}

/// Standalone, an error renders with the defaults: API-SIG errors, no
/// service prefix, the default minimum/maximum header names. Inside the
/// scope of [`VersionNegotiation`](crate::VersionNegotiation) the middleware renders
/// it again with the API's [`ErrorRenderer`].
impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.status()
    }

    fn error_response(&self) -> HttpResponse {
        ErrorRenderer::default().render(self)
    }
}

microversion_core::facade_error_renderer! {
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
    pub struct ErrorRenderer;
    wire = ActixHeaders;
}

impl ErrorRenderer {
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
        self.render_into(error, HttpResponse::new(error.status()))
    }

    /// Puts `error` into an existing response of its scope, keeping the
    /// headers the handler set.
    pub(crate) fn render_into<B: MessageBody>(&self, error: &ApiError, res: HttpResponse<B>) -> HttpResponse {
        let mut res = res.set_body(());
        // A 408 closes its connection: the body it gave up on may still be
        // on its way, and a chunked one would otherwise be drained without
        // a deadline.
        if error.status() == StatusCode::REQUEST_TIMEOUT {
            res.head_mut().set_connection_type(ConnectionType::Close);
        }
        let body = self.write(error, res.headers_mut());
        res.set_body(body).map_into_boxed_body()
    }
}

/// The core's error, which a controller's routes answer with, as this
/// crate's, every field kept.
impl From<microversion_core::portable::ApiError> for ApiError {
    fn from(error: microversion_core::portable::ApiError) -> ApiError {
        ApiError::from_fields(error.into_fields())
    }
}

/// This crate's error as the core's, every field kept: a handler's `?`
/// on it in a controller route.
impl From<ApiError> for microversion_core::portable::ApiError {
    fn from(error: ApiError) -> microversion_core::portable::ApiError {
        microversion_core::portable::ApiError::from_fields(error.into_fields())
    }
}
