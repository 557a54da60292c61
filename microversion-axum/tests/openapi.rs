//! The OpenAPI documents on axum are the actix service's, answer for
//! answer: the same documents, entity tags, 304s and refusals of a version.

use actix_web::test as actix_test;
use axum::Router;
use http_body_util::BodyExt as _;
use microversion_core::{Api, Microversion, error::NovaFaults};
use tower::ServiceExt as _;

const API: Api = Api::new(
    "compute",
    &[
        Microversion::new("2.1", "Initial version."),
        Microversion::new("2.2", "Servers are named by version."),
        Microversion::new("2.3", "Servers show their host."),
    ],
);

mod on_actix {
    use microversion_actix::{Json, controller};
    use serde_json::{Value, json};

    fn rename() -> Value {
        json!({"type": "object", "required": ["name"]})
    }

    pub(crate) struct Servers;

    #[controller(api = super::API, scope = "/v2.1")]
    impl Servers {
        #[put("/servers/{id}")]
        #[api_version("2.2")]
        #[schema(rename, "2.2")]
        #[errors(404, 409)]
        async fn rename(&self, body: Json<Value>) -> Json<Value> {
            body
        }
    }
}

/// One answer: status, the headers compared, the body as text.
type Answer = (u16, Vec<Option<String>>, String);

const HEADERS: [&str; 6] = [
    "etag",
    "cache-control",
    "content-type",
    "openstack-api-minimum-version",
    "openstack-api-maximum-version",
    "vary",
];

#[actix_web::test]
async fn the_documents_are_served_alike() {
    use microversion_actix::openapi::{
        ApiDescription, OpenApiService as ActixService, OpenApiSettings as ActixSettings,
    };
    use microversion_axum::openapi::{OpenApiService as AxumService, OpenApiSettings as AxumSettings};

    let description = || {
        ApiDescription::new(API)
            .with_prefix("/v2.1")
            .controller::<on_actix::Servers>()
            .with_error_format(&NovaFaults::default())
    };
    let renderer = microversion_actix::VersionNegotiation::new(
        microversion_actix::Negotiation::new(API).with_error_format(NovaFaults::default()),
    )
    .error_renderer();
    let actix = actix_test::init_service(
        actix_web::App::new()
            .service(ActixService::new(ActixSettings::new(description()).with_error_renderer(renderer))),
    )
    .await;
    let axum: Router = Router::from(AxumService::new(
        AxumSettings::new(description()).with_error_format(NovaFaults::default()),
    ));

    let latest = axum
        .clone()
        .oneshot(http::Request::get("/openapi.json").body(axum::body::Body::empty()).unwrap())
        .await
        .unwrap();
    let etag = latest.headers()["etag"].to_str().unwrap().to_owned();
    let mut statuses = std::collections::BTreeSet::new();
    for (path, if_none_match) in [
        ("/openapi.json", None),
        ("/openapi.json?version=2.1", None),
        ("/openapi.json?version=2.2&version=latest", None),
        ("/openapi.json?version=2.9", None),
        ("/openapi.json?version=two", None),
        ("/openapi.json", Some(etag.as_str())),
        ("/openapi.json", Some("\"other\", *")),
        ("/openapi-history.json", None),
    ] {
        let mut req = actix_test::TestRequest::get().uri(path);
        let mut axum_req = http::Request::get(path);
        if let Some(tags) = if_none_match {
            req = req.insert_header(("If-None-Match", tags));
            axum_req = axum_req.header("If-None-Match", tags);
        }
        let res = actix_test::call_service(&actix, req.to_request()).await;
        let headers = HEADERS.iter().map(|h| res.headers().get(*h).map(|v| v.to_str().unwrap().to_owned()));
        let expected: Answer = (res.status().as_u16(), headers.collect(), {
            let body = actix_test::read_body(res).await;
            String::from_utf8(body.to_vec()).unwrap()
        });
        let res = axum.clone().oneshot(axum_req.body(axum::body::Body::empty()).unwrap()).await.unwrap();
        let headers = HEADERS.iter().map(|h| res.headers().get(*h).map(|v| v.to_str().unwrap().to_owned()));
        let got: Answer = (res.status().as_u16(), headers.collect(), {
            let body = res.into_body().collect().await.unwrap().to_bytes();
            String::from_utf8(body.to_vec()).unwrap()
        });
        assert_eq!(got, expected, "GET {path} (If-None-Match: {if_none_match:?})");
        statuses.insert(got.0);
    }
    assert_eq!(statuses, [200, 304, 400, 406].into());
}
