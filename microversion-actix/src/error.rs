//! Errors: [`ApiError`], the one error type of a versioned API, and
//! [`Error`], the same as actix-web's error; the formats
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
pub use microversion_core::error::{ApiSigErrors, ErrorFormat, ErrorPage, ErrorRequest, NovaFaults, Problem};
use microversion_core::exchange::Engine;

pub use microversion_core::error::ApiError;

/// An [`ApiError`] as actix-web's error: what a handler of actix-web's own
/// (outside a `#[controller]`) returns, as `Result<_, Error>`. `?` makes
/// one from an `ApiError` or from anything an `ApiError` is made from (a
/// negotiation refusal, a body refusal, a schema's violations).
///
/// Standalone, it renders with the defaults: API-SIG errors, no service
/// prefix, the default minimum/maximum header names. Inside the scope of
/// [`VersionNegotiation`](crate::VersionNegotiation) the middleware renders
/// the error again with the API's [`ErrorRenderer`].
///
/// ```
/// use actix_web::{HttpResponse, ResponseError};
/// use microversion_actix::{ApiError, Error};
///
/// fn locked() -> Result<HttpResponse, Error> {
///     Err(ApiError::conflict("Server is locked."))?
/// }
///
/// let res = locked().unwrap_err().error_response();
/// assert_eq!(res.status(), 409);
/// ```
#[derive(Clone, Debug)]
pub struct Error(pub ApiError);

impl<E: Into<ApiError>> From<E> for Error {
    fn from(error: E) -> Error {
        Error(error.into())
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl ResponseError for Error {
    fn status_code(&self) -> StatusCode {
        status_of(self.0.status())
    }

    fn error_response(&self) -> HttpResponse {
        ErrorRenderer::default().render(&self.0)
    }
}

/// A status in actix-web's `http` types.
pub(crate) fn status_of(status: microversion_core::portable::StatusCode) -> StatusCode {
    // Both `http` versions hold the same statuses, 100 to 999.
    StatusCode::from_u16(status.as_u16()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

/// How one API renders its errors, in actix-web's header types: the
/// core's [`ErrorRenderer`](microversion_core::error::ErrorRenderer)
/// (docs/reference.md §5). Its `render` answers an `HttpResponse`.
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
pub type ErrorRenderer = microversion_core::error::ErrorRenderer<ActixHeaders>;

/// A route answering every request with a JSON 404 rendered by `renderer`,
/// for `App::default_service`: actix's own 404 for a path outside every
/// scope has an empty body.
///
/// ```
/// use actix_web::{test, App};
/// use microversion_actix::error::{ErrorRenderer, NovaFaults, default_service};
///
/// # actix_web::rt::System::new().block_on(async {
/// let errors = ErrorRenderer::new(NovaFaults::default()).with_service("compute");
/// let app = test::init_service(App::new().default_service(default_service(&errors))).await;
/// let res = test::call_service(&app, test::TestRequest::get().uri("/nowhere").to_request()).await;
/// assert_eq!(res.status(), 404);
/// let body: serde_json::Value = test::read_body_json(res).await;
/// assert_eq!(body["itemNotFound"]["code"], 404);
/// # });
/// ```
pub fn default_service(renderer: &ErrorRenderer) -> actix_web::Route {
    let renderer = renderer.clone();
    actix_web::web::to(move || {
        let res = renderer.render(&ApiError::not_found("The resource could not be found."));
        std::future::ready(res)
    })
}

/// Puts `error`, of a request served at `version` (none for a refused
/// one) whose request the format reads as `facts`, into an existing response of its scope, keeping
/// the headers the handler set.
pub(crate) fn render_into<B: MessageBody>(
    engine: &Engine<ActixHeaders>,
    error: ApiError,
    version: Option<microversion_core::Version>,
    facts: Option<&ErrorRequest>,
    res: HttpResponse<B>,
) -> HttpResponse {
    let mut res = res.set_body(());
    close_after_timeout(&mut res);
    let body = engine.write_error(res.headers_mut(), error, version, facts);
    res.set_body(body).map_into_boxed_body()
}

/// A 408 closes its connection: the body it gave up on may still be on
/// its way, and a chunked one would otherwise be drained without a deadline.
pub(crate) fn close_after_timeout<B>(res: &mut HttpResponse<B>) {
    if res.status() == StatusCode::REQUEST_TIMEOUT {
        res.head_mut().set_connection_type(ConnectionType::Close);
    }
}
