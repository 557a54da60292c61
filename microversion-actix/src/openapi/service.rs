//! `OpenApiService`: the documents over HTTP, built once at start-up.

use std::sync::Arc;

use actix_web::dev::{AppService, HttpServiceFactory};
use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, web};

use microversion_core::openapi::{DocumentRequest, Documents};

use super::OpenApiService;
use crate::ApiError;
use crate::error::ErrorRenderer;
use crate::header::ActixHeaders;

/// The documents, each rendered once, and the renderer of their refusals.
type Served = (Documents, ErrorRenderer);

/// The core's answer to `request` (docs/reference.md §14), as actix's:
/// the document, a 304, or the refusal in the service's error format.
fn answer(served: &Served, req: &HttpRequest, request: DocumentRequest<'_>) -> HttpResponse {
    let (documents, errors) = served;
    let if_none_match = req.headers().get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok());
    match documents.answer(request, req.query_string(), if_none_match) {
        Ok(answer) => {
            let status = StatusCode::from_u16(answer.status()).unwrap_or(StatusCode::OK);
            let mut res = match answer.body() {
                Some(body) => HttpResponse::with_body(status, body.to_owned()).map_into_boxed_body(),
                None => HttpResponse::new(status),
            };
            for (name, value) in answer.headers() {
                microversion_core::set_header::<ActixHeaders>(res.headers_mut(), name, value);
            }
            res
        }
        Err(refusal) => errors.render(&ApiError::from(refusal)),
    }
}

impl HttpServiceFactory for OpenApiService {
    fn register(self, config: &mut AppService) {
        let served = Arc::new((Documents::new(self.description), self.errors));
        // One route per path, each answering its kind of request.
        let route = |request: fn(&HttpRequest) -> DocumentRequest<'_>| {
            let served = Arc::clone(&served);
            web::get().to(move |req: HttpRequest| {
                let served = Arc::clone(&served);
                async move { answer(&served, &req, request(&req)) }
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
