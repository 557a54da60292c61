//! Error body formats (the API-SIG errors document, Nova-style faults) and
//! the one way an error becomes a response: [`ErrorRenderer`].

use actix_web::HttpResponse;
use actix_web::body::MessageBody;
use actix_web::http::{ConnectionType, StatusCode};

pub use microversion_core::{ApiSigErrors, ErrorFormat, NovaFaults, Problem};

use crate::ApiError;
use crate::header::ActixHeaders;

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
