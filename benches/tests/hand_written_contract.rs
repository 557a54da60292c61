//! The hand-written side of `scripts/load.sh` (`/hand`) keeps the
//! framework's contract for the benchmarked routes, so that the ratio
//! framework/by hand compares like with like: for each request the two
//! answer with the same status, the same version headers, the same `Vary`,
//! the same body on success, and the same range on a refusal; on actix and
//! on axum (`FACADE=axum`).

use actix_web::{App, test};
use axum::body::Body;
use microversion_benches::axum_server::{floor, hand, versioned};
use microversion_benches::server::{COMPUTE, VERSION_HEADER, configure};
use serde_json::Value;
use tower::ServiceExt as _;

const ENDPOINTS: [&str; 3] = ["servers/42", "servers/42/model", "servers/detail"];

/// The header sets a client sends: none, the standard header (a version,
/// `latest`, another service's entry beside ours), the legacy header, and
/// the mistakes: malformed (400) and outside the range (406).
const CASES: [&[(&str, &str)]; 10] = [
    &[],
    &[("OpenStack-API-Version", "compute 2.27")],
    &[("OpenStack-API-Version", "compute 2.2")],
    &[("OpenStack-API-Version", "compute latest")],
    &[("OpenStack-API-Version", "volume 3.1, compute 2.60")],
    &[("X-OpenStack-Nova-API-Version", "2.50")],
    &[("OpenStack-API-Version", "compute 2.x")],
    &[("OpenStack-API-Version", "compute 2")],
    &[("OpenStack-API-Version", "compute 2.97")],
    &[("X-OpenStack-Nova-API-Version", "1.9")],
];

const COMPARED_HEADERS: [&str; 5] = [
    "openstack-api-version",
    "x-openstack-nova-api-version",
    "vary",
    "openstack-api-minimum-version",
    "openstack-api-maximum-version",
];

/// What is compared of an answer: its status, the values of
/// [`COMPARED_HEADERS`] (joined, `None` when absent) and its JSON body.
type Answer = (u16, Vec<Option<String>>, Value);

fn compared_headers<'a>(values: impl Fn(&str) -> Vec<&'a str>) -> Vec<Option<String>> {
    COMPARED_HEADERS
        .iter()
        .map(|name| {
            let values = values(name);
            (!values.is_empty()).then(|| values.join(", "))
        })
        .collect()
}

fn assert_alike(framework: &Answer, hand: &Answer, case: &str) {
    assert_eq!(framework.0, hand.0, "status of {case}");
    assert_eq!(framework.1, hand.1, "headers {COMPARED_HEADERS:?} of {case}");
    if (200..300).contains(&framework.0) {
        assert_eq!(framework.2, hand.2, "body of {case}");
    } else {
        let (f, h) = (&framework.2["errors"][0], &hand.2["errors"][0]);
        for field in ["status", "min_version", "max_version"] {
            assert_eq!(f[field], h[field], "{field} of the refusal of {case}");
        }
    }
}

/// The answer of an actix `app` to `GET path` with `headers`.
async fn actix_answer<S>(app: &S, path: &str, headers: &[(&str, &str)]) -> Answer
where
    S: actix_web::dev::Service<
            actix_http::Request,
            Response = actix_web::dev::ServiceResponse,
            Error = actix_web::Error,
        >,
{
    let mut req = test::TestRequest::get().uri(path);
    for header in headers {
        req = req.insert_header(*header);
    }
    let res = test::call_service(app, req.to_request()).await;
    let status = res.status().as_u16();
    let named =
        compared_headers(|name| res.headers().get_all(name).filter_map(|v| v.to_str().ok()).collect());
    let body: Value = serde_json::from_slice(&test::read_body(res).await).expect("a JSON body");
    (status, named, body)
}

/// The answer of an axum `app` to `GET path` with `headers`.
async fn axum_answer(
    app: impl microversion_axum::serve::App,
    path: &str,
    headers: &[(&str, &str)],
) -> Answer {
    let mut req = http::Request::get(path);
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    let res = app.oneshot(req.body(Body::empty()).unwrap()).await.unwrap();
    let status = res.status().as_u16();
    let named =
        compared_headers(|name| res.headers().get_all(name).iter().filter_map(|v| v.to_str().ok()).collect());
    let bytes = axum::body::to_bytes(res.into_body(), usize::MAX).await.unwrap();
    (status, named, serde_json::from_slice(&bytes).expect("a JSON body"))
}

#[actix_web::test]
async fn the_hand_written_side_answers_as_the_framework_does() {
    let app = test::init_service(App::new().configure(configure)).await;
    for endpoint in ENDPOINTS {
        for headers in CASES {
            let framework = actix_answer(&app, &format!("/v2.1/{endpoint}"), headers).await;
            let hand = actix_answer(&app, &format!("/hand/{endpoint}"), headers).await;
            assert_alike(&framework, &hand, &format!("GET {endpoint} with {headers:?}"));
        }
    }
}

#[tokio::test]
async fn the_hand_written_side_answers_as_the_framework_does_on_axum() {
    for endpoint in ENDPOINTS {
        for headers in CASES {
            let framework = axum_answer(versioned(COMPUTE), &format!("/v2.1/{endpoint}"), headers).await;
            let hand = axum_answer(hand(), &format!("/hand/{endpoint}"), headers).await;
            assert_alike(&framework, &hand, &format!("axum: GET {endpoint} with {headers:?}"));
        }
    }
}

/// The floor (`/floor`, and behind a layer that adds nothing, `/layered`)
/// is measured on the request `scripts/instructions.sh` sends, and answers
/// it with the framework's bytes: the same status, version headers, `Vary`
/// and body (it negotiates nothing else).
#[actix_web::test]
async fn the_floor_answers_the_measured_request_as_the_framework_does() {
    let measured = [VERSION_HEADER];
    let app = test::init_service(App::new().configure(configure)).await;
    let framework = actix_answer(&app, "/v2.1/servers/42", &measured).await;
    for side in ["/floor", "/layered"] {
        assert_eq!(
            actix_answer(&app, &format!("{side}/servers/42"), &measured).await,
            framework,
            "actix {side}"
        );
    }
    let framework = axum_answer(versioned(COMPUTE), "/v2.1/servers/42", &measured).await;
    for side in ["/floor", "/layered"] {
        assert_eq!(
            axum_answer(floor(), &format!("{side}/servers/42"), &measured).await,
            framework,
            "axum {side}"
        );
    }
}
