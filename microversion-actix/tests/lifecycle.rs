//! A version's life over HTTP (docs/reference.md §13): the `Deprecation`,
//! `Sunset` and `Link` headers (read back with real parsers of each
//! format), discovery's status and planned minimum, retirement, and a cap
//! changed while serving.

use std::time::{Duration, UNIX_EPOCH};

use actix_web::http::StatusCode;
use actix_web::test::{self, TestRequest};
use actix_web::{App, HttpResponse, web};
use microversion_actix::test::{call_at, header, read_json};
use microversion_actix::{
    Api, Discovery, DiscoverySettings, Microversion, Negotiation, Version, VersionNegotiation,
    lifecycle::{Deprecation, DeprecationNotice, Timestamp},
    version::VersionCap,
};
use serde_json::json;

static HISTORY: [Microversion; 5] = [
    Microversion::new("2.1", "a"),
    Microversion::new("2.2", "b"),
    Microversion::new("2.59", "c"),
    Microversion::new("2.60", "d"),
    Microversion::new("2.61", "e"),
];

const API: Api =
    Api::new("compute", &HISTORY).with_legacy_headers(&["X-OpenStack-Nova-API-Version"]).with_deprecation(
        Deprecation::versions("2.1", "2.59")
            .since("2026-01-01")
            .sunset("2026-07-01")
            .link("https://docs.example/migrate")
            .sunset_link("https://docs.example/sunset"),
    );

fn v(text: &str) -> Version {
    text.parse().unwrap()
}

async fn handler() -> HttpResponse {
    HttpResponse::Ok().insert_header(("Link", "</v2.1/servers?page=2>; rel=\"next\"")).json(json!({}))
}

macro_rules! app {
    ($middleware:expr, $discovery:expr) => {
        test::init_service(
            App::new().service($discovery).service(
                web::scope("/v2.1")
                    .wrap($middleware)
                    .route("/servers", web::get().to(handler))
                    .route("/fail", web::get().to(|| async { HttpResponse::Conflict().finish() })),
            ),
        )
        .await
    };
}

fn all<B>(res: &actix_web::dev::ServiceResponse<B>, name: &str) -> Vec<String> {
    res.headers().get_all(name).map(|v| v.to_str().unwrap().to_owned()).collect()
}

#[actix_web::test]
async fn deprecated_versions_carry_the_headers_in_their_formats() {
    let app = app!(VersionNegotiation::new(API), Discovery::new(&[API]));
    for version in ["2.1", "2.2", "2.59"] {
        for path in ["/v2.1/servers", "/v2.1/fail", "/v2.1/missing"] {
            let res = call_at(&app, &API, version, TestRequest::get().uri(path)).await;
            // Sunset: an HTTP-date, read by the `httpdate` crate.
            let sunset = header(&res, "Sunset").expect("a Sunset header");
            let at = httpdate::parse_http_date(&sunset).unwrap();
            assert_eq!(at, UNIX_EPOCH + Duration::from_secs(1_782_864_000), "{version} {path}");
            assert_eq!(httpdate::fmt_http_date(at), sunset, "IMF-fixdate, exactly");
            // Deprecation: a structured-field Date, read by the `sfv` crate.
            let deprecation = header(&res, "Deprecation").expect("a Deprecation header");
            let item: sfv::Item = sfv::Parser::new(&deprecation).parse().unwrap();
            let date = item.bare_item.as_date().expect("an sf-date");
            assert_eq!(i64::from(date.unix_seconds()), 1_767_225_600, "{version} {path}");
            assert!(item.params.is_empty());
            // Link: the handler's own stays, ours is added.
            let links = all(&res, "Link");
            let ours = "<https://docs.example/migrate>; rel=\"deprecation\", \
                        <https://docs.example/sunset>; rel=\"sunset\"";
            assert!(links.iter().any(|l| l == ours), "{links:?}");
            if path == "/v2.1/servers" {
                assert!(links.iter().any(|l| l.contains("rel=\"next\"")), "{links:?}");
            }
            // And a client reads it all back.
            let pairs: Vec<(String, String)> = res
                .headers()
                .iter()
                .map(|(n, v)| (n.as_str().to_owned(), v.to_str().unwrap_or_default().to_owned()))
                .collect();
            let notice = DeprecationNotice::from_headers(pairs.iter().map(|(n, v)| (n.as_str(), v.as_str())));
            let notice = notice.unwrap();
            assert_eq!(notice.sunset, Some(Timestamp::lit("2026-07-01")));
            assert_eq!(notice.link.as_deref(), Some("https://docs.example/migrate"));
        }
    }
    // The first version after the range, the newest, and latest: none of it.
    for version in ["2.60", "2.61", "latest"] {
        let res = call_at(&app, &API, version, TestRequest::get().uri("/v2.1/servers")).await;
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!((header(&res, "Deprecation"), header(&res, "Sunset")), (None, None), "{version}");
        assert_eq!(all(&res, "Link"), ["</v2.1/servers?page=2>; rel=\"next\""], "{version}");
    }
    // No header: the default, 2.1, is deprecated.
    let res = test::call_service(&app, TestRequest::get().uri("/v2.1/servers").to_request()).await;
    assert_eq!(header(&res, "Deprecation").as_deref(), Some("@1767225600"));
    // 400 and 406 negotiate no version: no deprecation headers.
    for bad in ["bogus", "3.0"] {
        let res = call_at(&app, &API, bad, TestRequest::get().uri("/v2.1/servers")).await;
        assert!(res.status().is_client_error());
        assert_eq!(header(&res, "Deprecation"), None, "{bad}");
    }
    // Discovery is outside the scope.
    let res = test::call_service(&app, TestRequest::get().uri("/").to_request()).await;
    assert_eq!(header(&res, "Deprecation"), None);
}

#[actix_web::test]
async fn discovery_announces_the_planned_minimum() {
    let app = app!(VersionNegotiation::new(API), Discovery::new(&[API]));
    let res = test::call_service(&app, TestRequest::get().uri("/").to_request()).await;
    let doc = read_json(res).await;
    let entry = &doc["versions"][0];
    assert_eq!((&entry["min_version"], &entry["max_version"]), (&json!("2.1"), &json!("2.61")));
    assert_eq!((&entry["next_min_version"], &entry["not_before"]), (&json!("2.60"), &json!("2026-07-01")));
    assert_eq!(entry["status"], "CURRENT", "a deprecated range leaves the API's status");
    let parsed = microversion_actix::client::parse_discovery(&doc.to_string()).unwrap();
    assert_eq!(parsed[0].next_min, Some(v("2.60")));
    assert_eq!(parsed[0].not_before.as_deref(), Some("2026-07-01"));

    const WHOLE: Api =
        Api::new("compute", &HISTORY).with_deprecation(Deprecation::whole_api().since("2026-01-01"));
    const FUTURE: Api =
        Api::new("compute", &HISTORY).with_deprecation(Deprecation::whole_api().since("2999-01-01"));
    for (api, status) in [(WHOLE, "DEPRECATED"), (FUTURE, "CURRENT")] {
        let app = app!(VersionNegotiation::new(api), Discovery::new(&[api]));
        for path in ["/", "/v2.1/"] {
            let doc =
                read_json(test::call_service(&app, TestRequest::get().uri(path).to_request()).await).await;
            let entry = if path == "/" { &doc["versions"][0] } else { &doc["version"] };
            assert_eq!(entry["status"], status, "{path}");
            assert!(entry.get("next_min_version").is_none());
        }
        // Every version of a deprecated API says so, even a future deprecation.
        let res = call_at(&app, &api, "2.61", TestRequest::get().uri("/v2.1/servers")).await;
        assert!(header(&res, "Deprecation").is_some());
        assert_eq!(header(&res, "Sunset"), None);
    }
}

#[actix_web::test]
async fn retired_versions_answer_406_and_the_default_moves_up() {
    let retired = API.retire_below(v("2.60")).expect("the sunset (2026-07-01) has passed");
    let cap = VersionCap::new(&retired);
    let (middleware, discovery) = (
        VersionNegotiation::new(Negotiation::new(API).with_version_cap(cap.clone())),
        Discovery::new(DiscoverySettings::new(&[API]).with_version_cap(cap)),
    );
    let app = app!(middleware, discovery);
    for version in ["2.1", "2.59"] {
        let res = call_at(&app, &API, version, TestRequest::get().uri("/v2.1/servers")).await;
        assert_eq!(res.status(), StatusCode::NOT_ACCEPTABLE, "{version}");
        assert_eq!(header(&res, "OpenStack-API-Minimum-Version").as_deref(), Some("2.60"));
        let body = read_json(res).await;
        assert_eq!(body["errors"][0]["code"], "compute.version-retired");
        assert_eq!(
            body["errors"][0]["detail"],
            format!(
                "Version {version} was retired after its sunset on 2026-07-01. \
                 The oldest version served is 2.60; maximum is 2.61."
            )
        );
    }
    let res = call_at(&app, &API, "2.3", TestRequest::get().uri("/v2.1/servers")).await;
    assert_eq!(read_json(res).await["errors"][0]["code"], "compute.version-not-supported", "undeclared");
    let res = test::call_service(&app, TestRequest::get().uri("/v2.1/servers").to_request()).await;
    assert_eq!(header(&res, "OpenStack-API-Version").as_deref(), Some("compute 2.60"), "the new default");
    assert_eq!(header(&res, "Deprecation"), None);
    let res = call_at(&app, &API, "2.60", TestRequest::get().uri("/v2.1/servers")).await;
    assert_eq!(res.status(), StatusCode::OK);
    let doc = read_json(test::call_service(&app, TestRequest::get().uri("/v2.1").to_request()).await).await;
    assert_eq!(doc["version"]["min_version"], "2.60");
    assert_eq!(doc["version"]["id"], "v2.1", "the id stays");
    assert!(doc["version"].get("next_min_version").is_none());
    // Before the sunset it is refused, naming it.
    const LATER: Api = Api::new("compute", &HISTORY)
        .with_deprecation(Deprecation::versions("2.1", "2.2").since("2026-01-01").sunset("2999-01-01"));
    let err = Negotiation::new(LATER).retire_below(v("2.59")).unwrap_err();
    assert_eq!(err.to_string(), "cannot retire version 2.1 before its sunset on 2999-01-01");
}

#[actix_web::test]
async fn a_shared_cap_changes_while_serving() {
    let cap = VersionCap::new(&API.capped_at(v("2.59")).unwrap());
    let app = app!(
        VersionNegotiation::new(Negotiation::new(API).with_version_cap(cap.clone())),
        Discovery::new(DiscoverySettings::new(&[API]).with_version_cap(cap.clone()))
    );
    let latest = || call_at(&app, &API, "latest", TestRequest::get().uri("/v2.1/servers"));
    let max_in_discovery = || async {
        let doc = read_json(test::call_service(&app, TestRequest::get().uri("/").to_request()).await).await;
        doc["versions"][0]["max_version"].as_str().unwrap().to_owned()
    };
    assert_eq!(header(&latest().await, "OpenStack-API-Version").as_deref(), Some("compute 2.59"));
    assert_eq!(max_in_discovery().await, "2.59");
    let res = call_at(&app, &API, "2.61", TestRequest::get().uri("/v2.1/servers")).await;
    assert_eq!(res.status(), StatusCode::NOT_ACCEPTABLE);
    assert_eq!(header(&res, "OpenStack-API-Maximum-Version").as_deref(), Some("2.59"));

    cap.set(v("2.61")).unwrap();
    assert_eq!(header(&latest().await, "OpenStack-API-Version").as_deref(), Some("compute 2.61"));
    assert_eq!(max_in_discovery().await, "2.61");
    let res = call_at(&app, &API, "2.61", TestRequest::get().uri("/v2.1/servers")).await;
    assert_eq!(res.status(), StatusCode::OK);

    // Refused values leave the cap as it was.
    assert!(cap.set(v("2.3")).is_err());
    assert!(cap.set(v("3.0")).is_err());
    assert_eq!(max_in_discovery().await, "2.61");
    cap.set(v("2.60")).unwrap();
    assert_eq!(header(&latest().await, "OpenStack-API-Version").as_deref(), Some("compute 2.60"));
    assert_eq!(max_in_discovery().await, "2.60");
}

#[cfg(feature = "metrics")]
mod counting {
    use std::collections::BTreeMap;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::{Arc, Mutex};

    use metrics::{
        Counter, CounterFn, Gauge, Histogram, Key, KeyName, Metadata, Recorder, SharedString, Unit,
    };

    use super::*;

    #[derive(Default)]
    struct Count(AtomicU64);

    impl CounterFn for Count {
        fn increment(&self, value: u64) {
            self.0.fetch_add(value, Ordering::Relaxed);
        }
        fn absolute(&self, value: u64) {
            self.0.store(value, Ordering::Relaxed);
        }
    }

    /// Counters by their labels, `name{k=v,...}`.
    #[derive(Default)]
    struct Counts(Mutex<BTreeMap<String, Arc<Count>>>);

    impl Counts {
        fn get(&self) -> BTreeMap<String, u64> {
            self.0.lock().unwrap().iter().map(|(k, c)| (k.clone(), c.0.load(Ordering::Relaxed))).collect()
        }
    }

    impl Recorder for Counts {
        fn describe_counter(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}
        fn describe_gauge(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}
        fn describe_histogram(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}
        fn register_counter(&self, key: &Key, _: &Metadata<'_>) -> Counter {
            let labels: Vec<String> = key.labels().map(|l| format!("{}={}", l.key(), l.value())).collect();
            let name = format!("{}{{{}}}", key.name(), labels.join(","));
            Counter::from_arc(self.0.lock().unwrap().entry(name).or_default().clone())
        }
        fn register_gauge(&self, _: &Key, _: &Metadata<'_>) -> Gauge {
            Gauge::noop()
        }
        fn register_histogram(&self, _: &Key, _: &Metadata<'_>) -> Histogram {
            Histogram::noop()
        }
    }

    #[test]
    fn requests_are_counted_by_version_header_and_outcome() {
        let counts = Counts::default();
        metrics::with_local_recorder(&counts, || {
            actix_web::rt::System::new().block_on(async {
                let app = app!(VersionNegotiation::new(API), Discovery::new(&[API]));
                let get = |path: &'static str| TestRequest::get().uri(path);
                let send = |req: TestRequest| test::call_service(&app, req.to_request());
                send(get("/v2.1/servers")).await;
                send(get("/v2.1/servers").insert_header(("OpenStack-API-Version", "compute 2.2"))).await;
                send(get("/v2.1/servers").insert_header(("OpenStack-API-Version", "compute 2.2"))).await;
                send(get("/v2.1/servers").insert_header(("X-OpenStack-Nova-API-Version", "2.60"))).await;
                send(get("/v2.1/fail").insert_header(("OpenStack-API-Version", "compute latest"))).await;
                send(get("/v2.1/servers").insert_header(("OpenStack-API-Version", "compute bogus"))).await;
                send(get("/v2.1/servers").insert_header(("X-OpenStack-Nova-API-Version", "3.7"))).await;
                send(get("/v2.1/servers").insert_header(("X-OpenStack-Nova-API-Version", "2.30"))).await;
                send(get("/")).await;
            });
        });
        let got = counts.get();
        let key = |version: &str, by: &str, outcome: &str| {
            format!(
                "microversion_requests_total{{service=compute,version={version},chosen_by={by},outcome={outcome}}}"
            )
        };
        let expected: BTreeMap<String, u64> = [
            (key("2.1", "none", "2xx"), 1),
            (key("2.2", "standard", "2xx"), 2),
            (key("2.60", "legacy", "2xx"), 1),
            (key("2.61", "standard", "4xx"), 1),
            (key("invalid", "standard", "400"), 1),
            (key("undeclared", "legacy", "406"), 2),
        ]
        .into_iter()
        .collect();
        assert_eq!(got, expected);
    }
}
