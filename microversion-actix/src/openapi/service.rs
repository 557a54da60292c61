//! `OpenApiService`: the documents over HTTP, built once at start-up.

use std::sync::Arc;

use actix_web::dev::{AppService, HttpServiceFactory};
use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, web};

use microversion_core::openapi::{DocumentRequest, Documents};

use super::ApiDescription;
use crate::ApiError;
use crate::error::{ErrorFormat, ErrorRenderer};

/// The API's documents, served beside [`Discovery`](crate::Discovery):
///
/// - `GET /openapi.json`: the document of the newest served version (the cap
///   included);
/// - `GET /openapi.json?version=2.61`: the document of that version; a
///   malformed version answers 400 and one the API does not serve 406,
///   exactly as negotiation answers them;
/// - `GET /openapi-history.json`: the whole history in OpenStack's encoding;
/// - with [`OpenApiService::with_reference`], `GET /docs/` and
///   `GET /docs/2.61`: the API reference of the newest and of that version
///   as one self-contained HTML page (docs/reference.md §14.8).
///
/// Every document is rendered once, on its first request, and kept: an API
/// of 1,000 versions does not pay for 1,000 documents at start-up. Each has
/// a strong `ETag` (a request with a matching `If-None-Match` gets 304) and
/// `Cache-Control: public, max-age=300`.
///
/// ```
/// use actix_web::{App, test};
/// use microversion_actix::openapi::{ApiDescription, OpenApiService};
/// use microversion_actix::{Api, history};
///
/// const API: Api = Api::new("compute", history!["2.1" => "Initial.", "2.2" => "More."]);
///
/// # actix_web::rt::System::new().block_on(async {
/// let app = test::init_service(App::new().service(OpenApiService::new(ApiDescription::new(API)))).await;
/// let req = test::TestRequest::get().uri("/openapi.json?version=2.1").to_request();
/// let doc: serde_json::Value = test::call_and_read_body_json(&app, req).await;
/// assert_eq!(doc["info"]["version"], "2.1");
/// let res = test::call_service(&app, test::TestRequest::get().uri("/openapi.json?version=2.9").to_request()).await;
/// assert_eq!(res.status(), 406);
/// # });
/// ```
#[derive(Clone, Debug)]
pub struct OpenApiService {
    description: ApiDescription,
    errors: ErrorRenderer,
    reference: bool,
}

/// The core's answer to `request` (docs/reference.md §14), as actix's:
/// the document, a 304, or the refusal in the service's error format.
fn answer(
    documents: &Documents,
    errors: &ErrorRenderer,
    req: &HttpRequest,
    request: DocumentRequest<'_>,
) -> HttpResponse {
    let if_none_match = req.headers().get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok());
    match documents.answer(request, req.query_string(), if_none_match) {
        Ok(answer) => {
            let mut res =
                HttpResponse::build(StatusCode::from_u16(answer.status()).unwrap_or(StatusCode::OK));
            for header in answer.headers() {
                res.insert_header(header);
            }
            match answer.body() {
                Some(body) => res.body(body.to_owned()),
                None => res.finish(),
            }
        }
        Err(refusal) => errors.render(&ApiError::from(refusal)),
    }
}

impl OpenApiService {
    /// Serves the documents of `description`, errors as API-SIG errors.
    pub fn new(description: ApiDescription) -> OpenApiService {
        let errors = ErrorRenderer::default().with_service(description.api().service_type());
        OpenApiService { description, errors, reference: false }
    }

    /// Serves the API reference too: `GET /docs/` (the newest served
    /// version, or `?version=`), `GET /docs/2.61`, and `/docs` sent on to
    /// `/docs/` (docs/reference.md §14.8).
    pub fn with_reference(mut self) -> OpenApiService {
        self.reference = true;
        self
    }

    /// Renders its 400 and 406 in `format` (the API's own), as on axum.
    pub fn with_error_format(mut self, format: impl ErrorFormat) -> OpenApiService {
        self.errors = ErrorRenderer::new(format).with_service(self.description.api().service_type());
        self
    }

    /// Renders its 400 and 406 with `errors` (the API's own renderer, whose
    /// version header names it keeps too).
    pub fn with_error_renderer(mut self, errors: ErrorRenderer) -> OpenApiService {
        self.errors = errors;
        self
    }
}

impl HttpServiceFactory for OpenApiService {
    fn register(self, config: &mut AppService) {
        let documents = Arc::new(Documents::new(self.description));
        let errors = Arc::new(self.errors);
        // One route per path, each answering its kind of request.
        let route = |request: fn(&HttpRequest) -> DocumentRequest<'_>| {
            let (documents, errors) = (Arc::clone(&documents), Arc::clone(&errors));
            web::get().to(move |req: HttpRequest| {
                let (documents, errors) = (Arc::clone(&documents), Arc::clone(&errors));
                async move { answer(&documents, &errors, &req, request(&req)) }
            })
        };
        if self.reference {
            for path in ["/docs/", "/docs/{version}"] {
                web::resource(path)
                    .route(route(|req| DocumentRequest::Reference(req.match_info().get("version"))))
                    .register(config);
            }
            web::resource("/docs")
                .route(web::get().to(|| async {
                    HttpResponse::PermanentRedirect().insert_header((header::LOCATION, "docs/")).finish()
                }))
                .register(config);
        }
        web::resource("/openapi.json").route(route(|_| DocumentRequest::Document)).register(config);
        web::resource("/openapi-history.json").route(route(|_| DocumentRequest::History)).register(config);
    }
}
