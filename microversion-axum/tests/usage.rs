//! Who uses what, on axum as on actix (docs/reference.md §13.5): the same
//! requests through both facades add the same counts to the same series of
//! `microversion_requests_total` (service, version, chosen_by, outcome),
//! read back as Prometheus text.

use std::collections::BTreeMap;

use actix_web::test as actix_test;
use axum::Router;
use axum::routing::get;
use microversion_core::{Api, Microversion, Version};
use tower::ServiceExt as _;

const API: Api = Api::new(
    "compute",
    &[
        Microversion::new("2.1", "Initial version."),
        Microversion::new("2.2", "Keypairs gain a type."),
        Microversion::new("2.3", "Servers show their host."),
    ],
)
.with_legacy_headers(&["X-OpenStack-Nova-API-Version"]);

/// The requests: their headers, and whether the handler fails (500).
const REQUESTS: [(&[(&str, &str)], &str); 9] = [
    (&[], "/servers"),
    (&[("OpenStack-API-Version", "compute 2.3")], "/servers"),
    (&[("OpenStack-API-Version", "compute latest")], "/servers"),
    (&[("X-OpenStack-Nova-API-Version", "2.2")], "/servers"),
    (&[("OpenStack-API-Version", "compute 2.9")], "/servers"),
    (&[("OpenStack-API-Version", "compute 2.x")], "/servers"),
    (&[("X-Auth-Token", "pinned")], "/servers"),
    // The client default's store fails: the request is answered 503.
    (&[("X-Auth-Token", "store-down")], "/servers"),
    (&[("OpenStack-API-Version", "compute 2.2")], "/broken"),
];

/// Every series of the request counter and its value.
fn counts(text: &str) -> BTreeMap<String, f64> {
    let scrape =
        prometheus_parse::Scrape::parse(text.lines().map(|l| Ok(l.to_owned()))).expect("Prometheus text");
    scrape
        .samples
        .into_iter()
        .filter(|s| s.metric == "microversion_requests_total")
        .map(|s| {
            let value = match s.value {
                prometheus_parse::Value::Counter(v) | prometheus_parse::Value::Untyped(v) => v,
                other => panic!("a counter, not {other:?}"),
            };
            let labels: BTreeMap<_, _> = s.labels.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
            (format!("{labels:?}"), value)
        })
        .collect()
}

#[actix_web::test]
async fn both_facades_count_alike() {
    let handle =
        metrics_exporter_prometheus::PrometheusBuilder::new().install_recorder().expect("one recorder");
    let pinned = |pin: bool| pin.then(|| Version::lit("2.1"));
    let store_down = |token: Option<&str>| token == Some("store-down");

    // axum first.
    let pins = microversion_axum::middleware::ClientDefault::new(&["X-Auth-Token"], move |headers| {
        let pin = pinned(headers.contains_key("X-Auth-Token"));
        let down = store_down(headers.get("X-Auth-Token").and_then(|v| v.to_str().ok()));
        async move {
            match down {
                true => Err(microversion_axum::ApiError::from_status(
                    http::StatusCode::SERVICE_UNAVAILABLE,
                    "The store is down.",
                )),
                false => Ok(pin),
            }
        }
    });
    let axum = Router::new()
        .route("/servers", get(|| async { "[]" }))
        .route("/broken", get(|| async { (http::StatusCode::INTERNAL_SERVER_ERROR, "broken") }))
        .layer(microversion_axum::VersionNegotiation::new(
            microversion_axum::Negotiation::new(API).with_client_default(pins),
        ));
    for (headers, path) in REQUESTS {
        let mut req = http::Request::get(path);
        for (name, value) in headers {
            req = req.header(*name, *value);
        }
        axum.clone().oneshot(req.body(axum::body::Body::empty()).unwrap()).await.unwrap();
    }
    let after_axum = counts(&handle.render());

    // Then actix, the same requests.
    let pins = microversion_actix::middleware::ClientDefault::new(&["X-Auth-Token"], move |headers| {
        let pin = pinned(headers.contains_key("X-Auth-Token"));
        let down = store_down(headers.get("X-Auth-Token").and_then(|v| v.to_str().ok()));
        async move {
            match down {
                true => Err(microversion_actix::ApiError::from_status(
                    actix_web::http::StatusCode::SERVICE_UNAVAILABLE,
                    "The store is down.",
                )),
                false => Ok(pin),
            }
        }
    });
    let actix = actix_test::init_service(
        actix_web::App::new()
            .wrap(microversion_actix::VersionNegotiation::new(
                microversion_actix::Negotiation::new(API).with_client_default(pins),
            ))
            .route("/servers", actix_web::web::get().to(|| async { "[]" }))
            .route(
                "/broken",
                actix_web::web::get()
                    .to(|| async { actix_web::HttpResponse::InternalServerError().body("broken") }),
            ),
    )
    .await;
    for (headers, path) in REQUESTS {
        let mut req = actix_test::TestRequest::get().uri(path);
        for header in headers {
            req = req.insert_header(*header);
        }
        actix_test::call_service(&actix, req.to_request()).await;
    }
    let after_both = counts(&handle.render());

    // Each series has doubled: actix counted exactly what axum counted.
    let doubled: BTreeMap<String, f64> = after_axum.iter().map(|(k, v)| (k.clone(), v * 2.0)).collect();
    assert_eq!(after_both, doubled);
    // And the series say what was asked, by whom, and how it ended.
    let series = |version: &str, chosen_by: &str, outcome: &str| {
        format!(
            "{{\"chosen_by\": \"{chosen_by}\", \"outcome\": \"{outcome}\", \"service\": \"compute\", \"version\": \"{version}\"}}"
        )
    };
    for (key, count) in [
        // No header: the API's default; `2.3` and `latest` by the standard header.
        (series("2.1", "none", "2xx"), 1.0),
        (series("2.3", "standard", "2xx"), 2.0),
        (series("2.2", "legacy", "2xx"), 1.0),
        // A version no declaration has shares one label, or series would grow without bound.
        (series("undeclared", "standard", "406"), 1.0),
        (series("invalid", "standard", "400"), 1.0),
        (series("2.1", "client", "2xx"), 1.0),
        // A hook that fails: counted as the request stood, naming no version.
        (series("2.1", "none", "5xx"), 1.0),
        (series("2.2", "standard", "5xx"), 1.0),
    ] {
        assert_eq!(after_axum.get(&key), Some(&count), "{key} in {after_axum:#?}");
    }
    assert_eq!(after_axum.values().sum::<f64>(), REQUESTS.len() as f64);
}
