//! One operation deprecated from a version (`#[deprecated_from]`,
//! docs/reference.md §13.7), the same declaration through both facades: its
//! answers at those versions carry `Deprecation`, `Sunset` and `Link`, an
//! error's and a refused argument's too, while its earlier versions and the
//! other operations carry none; its documents mark it `deprecated` at those
//! versions only; and `microversion_deprecated_requests_total` counts its
//! answers.

use actix_web::test as actix_test;
use axum::Router;
use microversion_core::{Api, Microversion, Version};
use tower::ServiceExt as _;

const API: Api = Api::new(
    "compute",
    &[
        Microversion::new("2.1", "Initial version."),
        Microversion::new("2.2", "Servers are shown by a new variant."),
        Microversion::new("2.3", "Showing a server by id is deprecated."),
    ],
);

/// The same controller for either framework, in module `$module`.
macro_rules! servers {
    ($module:ident, $framework:ident, $Path:ty $(, $axum:ident)?) => {
        mod $module {
            use $framework::{ApiError, controller};

            pub(crate) struct Servers;

            #[controller(api = super::API, scope = "/v2.1" $(, $axum)?)]
            impl Servers {
                #[get("/servers/{id}")]
                #[api_version("2.1", "2.1")]
                async fn show(&self, id: $Path) -> Result<String, ApiError> {
                    found(*id)
                }

                #[get("/servers/{id}")]
                #[api_version("2.2")]
                #[deprecated_from(
                    "2.3",
                    since = "2026-01-01",
                    sunset = "2027-01-01",
                    link = "https://docs.example/servers"
                )]
                async fn show(&self, id: $Path) -> Result<String, ApiError> {
                    found(*id)
                }

                #[get("/servers")]
                async fn list(&self) -> String {
                    "[]".to_owned()
                }
            }

            fn found(id: u32) -> Result<String, ApiError> {
                match id {
                    0 => Err(ApiError::not_found("No such server.")),
                    id => Ok(format!("server {id}")),
                }
            }
        }
    };
}

servers!(on_actix, microversion_actix, actix_web::web::Path<u32>);
servers!(on_axum, microversion_axum, axum::extract::Path<u32>, axum);

/// The deprecation's headers, as sent.
const DEPRECATION: &str = "@1767225600";
const SUNSET: &str = "Fri, 01 Jan 2027 00:00:00 GMT";
const LINK: &str = "<https://docs.example/servers>; rel=\"deprecation\"";

/// The requests: a version (none, or what the header names) and a path.
fn requests() -> Vec<(Option<&'static str>, &'static str)> {
    let mut requests = Vec::new();
    for version in [None, Some("2.1"), Some("2.2"), Some("2.3"), Some("latest")] {
        // Found, not found (the variant's error), and an id that is no
        // number (refused before the variant runs).
        for path in ["/v2.1/servers/1", "/v2.1/servers/0", "/v2.1/servers/abc", "/v2.1/servers"] {
            requests.push((version, path));
        }
    }
    requests
}

/// Whether a request gets the notice: the deprecated variant's versions, on
/// its path only.
fn deprecated(version: Option<&str>, path: &str) -> bool {
    matches!(version, Some("2.3" | "latest")) && path != "/v2.1/servers"
}

/// The status and the three headers of an answer, each joined.
type Answer = (u16, [Option<String>; 3]);

fn notice<'a>(get_all: impl Fn(&str) -> Vec<&'a [u8]>) -> [Option<String>; 3] {
    ["deprecation", "sunset", "link"].map(|name| {
        let values: Vec<String> =
            get_all(name).into_iter().map(|v| String::from_utf8_lossy(v).into_owned()).collect();
        (!values.is_empty()).then(|| values.join(", "))
    })
}

async fn on_axum(app: &Router, version: Option<&str>, path: &str) -> Answer {
    let mut req = http::Request::get(path);
    if let Some(version) = version {
        req = req.header("OpenStack-API-Version", format!("compute {version}"));
    }
    let res = app
        .clone()
        .oneshot(req.body(axum::body::Body::empty()).expect("a request"))
        .await
        .expect("infallible");
    (res.status().as_u16(), notice(|name| res.headers().get_all(name).iter().map(|v| v.as_bytes()).collect()))
}

/// The notice is on the answers of the deprecated variant at its versions,
/// its errors and refusals too, and on no other answer.
fn check_notice(facade: &str, version: Option<&str>, path: &str, (status, headers): Answer) {
    let context = format!("{facade}, {version:?} {path}: {status}");
    if deprecated(version, path) {
        let expected = [DEPRECATION, SUNSET, LINK].map(|value| Some(value.to_owned()));
        assert_eq!(headers, expected, "{context}");
    } else {
        assert_eq!(headers, [None, None, None], "{context}");
    }
    if path == "/v2.1/servers/0" {
        assert_eq!(status, 404, "{context}");
    }
}

/// The value of the deprecated-operation counter for `show` at 2.3.
fn deprecated_count(text: &str) -> f64 {
    let scrape =
        prometheus_parse::Scrape::parse(text.lines().map(|l| Ok(l.to_owned()))).expect("Prometheus text");
    scrape
        .samples
        .iter()
        .filter(|s| s.metric == "microversion_deprecated_requests_total")
        .map(|s| {
            assert_eq!(s.labels.get("service"), Some("compute"), "{s:?}");
            assert_eq!(s.labels.get("operation"), Some("show"), "{s:?}");
            assert_eq!(s.labels.get("version"), Some("2.3"), "{s:?}");
            match s.value {
                prometheus_parse::Value::Counter(v) | prometheus_parse::Value::Untyped(v) => v,
                ref other => panic!("a counter, not {other:?}"),
            }
        })
        .sum()
}

#[actix_web::test]
async fn only_the_deprecated_variant_carries_the_notice_on_both_facades() {
    let recorder =
        metrics_exporter_prometheus::PrometheusBuilder::new().install_recorder().expect("one recorder");
    let expected_per_facade = requests().iter().filter(|(v, p)| deprecated(*v, p)).count() as f64;
    assert_eq!(expected_per_facade, 6.0);

    let axum = Router::new().merge(on_axum::Servers).layer(microversion_axum::VersionNegotiation::new(API));
    let actix = actix_test::init_service(
        actix_web::App::new()
            .wrap(microversion_actix::VersionNegotiation::new(API))
            .service(on_actix::Servers),
    )
    .await;
    for (version, path) in requests() {
        let (status, headers) = on_axum(&axum, version, path).await;
        check_notice("axum", version, path, (status, headers));
    }
    assert_eq!(deprecated_count(&recorder.render()), expected_per_facade, "axum's answers counted");

    for (version, path) in requests() {
        let mut req = actix_test::TestRequest::get().uri(path);
        if let Some(version) = version {
            req = req.insert_header(("OpenStack-API-Version", format!("compute {version}")));
        }
        let res = actix_test::call_service(&actix, req.to_request()).await;
        let headers = notice(|name| res.headers().get_all(name).map(|v| v.as_bytes()).collect());
        check_notice("actix", version, path, (res.status().as_u16(), headers));
    }
    assert_eq!(
        deprecated_count(&recorder.render()),
        2.0 * expected_per_facade,
        "actix's answers counted too"
    );
}

#[test]
fn the_documents_mark_the_operation_deprecated_at_its_versions_only() {
    use microversion_actix::openapi::ApiDescription;
    let description = ApiDescription::new(API).controller::<on_actix::Servers>();
    for version in ["2.1", "2.2", "2.3"] {
        let document = description.document(Version::lit(version));
        let paths = &document["paths"];
        let show = &paths["/v2.1/servers/{id}"]["get"];
        let expected = (version == "2.3").then_some(&serde_json::Value::Bool(true));
        assert_eq!(show.get("deprecated"), expected, "show at {version}: {show}");
        assert_eq!(paths["/v2.1/servers"]["get"].get("deprecated"), None, "list at {version}");
        // OpenAPI 3.0 says it the same way.
        let document = description.document_3_0(Version::lit(version));
        assert_eq!(
            document["paths"]["/v2.1/servers/{id}"]["get"].get("deprecated"),
            expected,
            "3.0 at {version}"
        );
    }
    // The declaration says it: the variant of 2.2 on, deprecated from 2.3,
    // the same through either facade.
    for operations in [
        <on_actix::Servers as microversion_core::Controller>::OPERATIONS,
        <on_axum::Servers as microversion_core::Controller>::OPERATIONS,
    ] {
        let show = operations.iter().find(|op| op.name == "show").expect("show");
        let deprecations: Vec<_> = show.variants.iter().map(|v| v.deprecation).collect();
        let expected =
            microversion_core::Deprecation::range(microversion_core::VersionRange::from(Version::lit("2.3")))
                .since("2026-01-01")
                .sunset("2027-01-01")
                .link("https://docs.example/servers");
        assert_eq!(deprecations, [None, Some(expected)]);
    }
}
