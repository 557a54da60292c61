//! Version readers (docs/reference.md §2.6): an API reads the version a
//! request names from the path, the query, a header of its own, `Accept`
//! or `OpenStack-API-Version`, refuses a request naming two, may require
//! one, and names in each answer the versions its operation exists in.
//! Every request is answered at every version of the history, on
//! actix-web and on axum, byte for byte alike; the documents, discovery and
//! the typed clients' calls follow the readers.

#[path = "version_readers/shop.rs"]
mod shop;

use actix_web::App;
use axum::Router;
use microversion_core::client::versioned_call;
use microversion_core::openapi::ApiDescription;
use microversion_core::version::VersionReader;
use microversion_core::{Api, Version, VersionCap};
use serde_json::{Value, json};
use shop::{READ, REQUIRED, Shop, StrictShop};

/// What a test reads of an answer.
#[derive(Debug, PartialEq)]
struct Answer {
    status: u16,
    version: Option<String>,
    vary: Option<String>,
    operation_versions: Option<String>,
    body: Vec<u8>,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }

    /// The version the handler saw.
    fn served_at(&self) -> String {
        self.json()["version"].as_str().unwrap_or_default().to_owned()
    }

    /// The detail of an error in the API-SIG format.
    fn detail(&self) -> String {
        self.json()["errors"][0]["detail"].as_str().unwrap_or_default().to_owned()
    }
}

/// A GET: its path and query, and its headers.
type Request<'a> = (String, Vec<(&'a str, String)>);

/// Which shop serves, and under which cap.
#[derive(Clone, Copy)]
enum Served {
    Read,
    ReadCappedAt(&'static str),
    Required,
    /// No negotiation in front: the routes negotiate from the API
    /// registered with the app (`app_data`, `Extension`).
    Registered,
}

impl Served {
    fn api(self) -> Api {
        match self {
            Served::Read | Served::ReadCappedAt(_) | Served::Registered => READ,
            Served::Required => REQUIRED,
        }
    }

    fn cap(self) -> VersionCap {
        let cap = VersionCap::new(&self.api());
        if let Served::ReadCappedAt(max) = self {
            cap.set(Version::lit(max)).expect("a declared version");
        }
        cap
    }
}

/// The answers of `served` on actix-web to `requests`, in order.
async fn on_actix(served: Served, requests: &[Request<'_>]) -> Vec<Answer> {
    let negotiation = microversion_actix::VersionNegotiation::new(
        microversion_actix::Negotiation::new(served.api()).with_version_cap(served.cap()),
    );
    let app = App::new()
        .wrap(actix_web::middleware::Condition::new(!matches!(served, Served::Registered), negotiation));
    let app = match served {
        Served::Required => actix_web::test::init_service(app.service(StrictShop)).await,
        Served::Registered => actix_web::test::init_service(app.app_data(READ).service(Shop)).await,
        _ => actix_web::test::init_service(app.service(Shop)).await,
    };
    let mut answers = Vec::new();
    for (uri, headers) in requests {
        let request = headers.iter().fold(actix_web::test::TestRequest::get().uri(uri), |r, (n, v)| {
            r.append_header((*n, v.as_str()))
        });
        let response = actix_web::test::call_service(&app, request.to_request()).await;
        let header = |name: &str| microversion_actix::test::header(&response, name);
        let (status, version, vary, operation_versions) = (
            response.status().as_u16(),
            header("OpenStack-API-Version"),
            header("Vary"),
            header("OpenStack-API-Operation-Versions"),
        );
        let body = actix_web::test::read_body(response).await.to_vec();
        answers.push(Answer { status, version, vary, operation_versions, body });
    }
    answers
}

/// The answers of `served` on axum to `requests`, in order.
async fn on_axum(served: Served, requests: &[Request<'_>]) -> Vec<Answer> {
    use tower::ServiceExt as _;
    use tower::util::BoxCloneSyncService;
    let negotiation = microversion_axum::VersionNegotiation::new(
        microversion_axum::Negotiation::new(served.api()).with_version_cap(served.cap()),
    );
    let app = match served {
        Served::Required => BoxCloneSyncService::new(negotiation.around(Router::from(StrictShop))),
        Served::Registered => BoxCloneSyncService::new(Router::from(Shop).layer(axum::Extension(READ))),
        _ => BoxCloneSyncService::new(negotiation.around(Router::from(Shop))),
    };
    let mut answers = Vec::new();
    for (uri, headers) in requests {
        let request =
            headers.iter().fold(http::Request::get(uri.as_str()), |r, (n, v)| r.header(*n, v.as_str()));
        let response = app.clone().oneshot(request.body(axum::body::Body::empty()).unwrap()).await.unwrap();
        let header = |name: &str| microversion_axum::test::header(&response, name);
        let (status, version, vary, operation_versions) = (
            response.status().as_u16(),
            header("OpenStack-API-Version"),
            header("Vary"),
            header("OpenStack-API-Operation-Versions"),
        );
        let body = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap().to_vec();
        answers.push(Answer { status, version, vary, operation_versions, body });
    }
    answers
}

/// The answers of `served` to `requests` on both facades, checked to be
/// the same.
async fn answers(served: Served, requests: &[Request<'_>]) -> Vec<Answer> {
    let (actix, axum) = (on_actix(served, requests).await, on_axum(served, requests).await);
    microversion_tests::alike(requests, actix, axum, |answer| {
        String::from_utf8_lossy(&answer.body).into_owned()
    })
}

/// Every version of the history, oldest first.
fn versions() -> Vec<String> {
    READ.served_versions().map(|v| v.to_string()).collect()
}

/// The request for `path` (with `query`) naming `version` in `place`.
fn named_in(place: VersionReader, version: &str, path: &str, query: &str) -> Request<'static> {
    let mut target = path.to_owned();
    let mut headers = Vec::new();
    match place {
        VersionReader::PathSegment(prefix) => target = format!("/{prefix}{version}{path}"),
        VersionReader::Query(name) => return (format!("{path}?{query}{name}={version}"), headers),
        VersionReader::Header(name) => headers.push((name, version.to_owned())),
        VersionReader::MediaType(param) => {
            headers.push(("Accept", format!("application/json; {param}={version}")))
        }
        VersionReader::Standard => headers.push(("OpenStack-API-Version", format!("shop {version}"))),
    }
    let target = if query.is_empty() { target } else { format!("{target}?{}", query.trim_end_matches('&')) };
    (target, headers)
}

const VARY: &str = "Shop-Version, Accept, OpenStack-API-Version, X-Shop-Version";

#[actix_web::test]
async fn each_reader_names_every_version_and_the_handler_sees_none_of_it() {
    let mut requests = Vec::new();
    for version in versions() {
        for place in READ.readers() {
            requests.push(named_in(*place, &version, "/widgets", "limit=2&"));
        }
        requests.push(("/widgets?limit=2".into(), vec![("X-Shop-Version", version.clone())]));
    }
    let answers = answers(Served::Read, &requests).await;
    for ((target, headers), answer) in requests.iter().zip(&answers) {
        let named = headers.first().map_or(target.as_str(), |(_, v)| v.as_str());
        assert_eq!(answer.status, 200, "{target} {headers:?}: {}", String::from_utf8_lossy(&answer.body));
        let version = answer.served_at();
        assert!(named.contains(&version), "{target} {headers:?} was served at {version}");
        assert_eq!(answer.version.as_deref(), Some(format!("shop {version}").as_str()));
        assert_eq!(answer.vary.as_deref(), Some(VARY), "every header a version is read from");
        assert_eq!(
            answer.json()["query"],
            json!({"limit": ["2"]}),
            "{target}: the reader's part is taken out"
        );
    }
    assert_eq!(answers.len(), versions().len() * 6);
}

/// Without the negotiation in front, a route negotiates from the API the
/// app registered, by the same readers but the path segment (which only
/// the negotiation in front routes): the query, the named header, the
/// media type, and two places naming two versions refused alike.
#[actix_web::test]
async fn a_route_without_the_negotiation_in_front_reads_where_its_api_reads() {
    let requests: Vec<Request<'_>> = vec![
        ("/widgets?api-version=1.2".into(), vec![]),
        ("/widgets".into(), vec![("Shop-Version", "1.1".into())]),
        ("/widgets".into(), vec![("Accept", "application/json; version=1.3".into())]),
        ("/widgets?api-version=1.2".into(), vec![("Shop-Version", "1.1".into())]),
    ];
    let answers = answers(Served::Registered, &requests).await;
    let served: Vec<(u16, String)> = answers[..3].iter().map(|a| (a.status, a.served_at())).collect();
    assert_eq!(served, [(200, "1.2".into()), (200, "1.1".into()), (200, "1.3".into())]);
    assert_eq!(answers[3].status, 400, "{}", answers[3].detail());
    assert!(
        answers[3].detail().contains("1.2") && answers[3].detail().contains("1.1"),
        "{}",
        answers[3].detail()
    );
}

#[actix_web::test]
async fn latest_and_a_request_naming_none() {
    let mut requests: Vec<Request<'_>> =
        READ.readers().iter().map(|p| named_in(*p, "latest", "/widgets", "")).collect();
    requests.push(("/widgets".into(), vec![]));
    let answers = answers(Served::Read, &requests).await;
    for answer in &answers[..READ.readers().len()] {
        assert_eq!((answer.status, answer.served_at().as_str()), (200, "1.3"));
    }
    assert_eq!((answers[5].status, answers[5].served_at().as_str()), (200, "1.0"), "the default");
}

#[actix_web::test]
async fn two_different_versions_are_refused_naming_both_and_one_version_twice_is_served() {
    let places = READ.readers();
    let mut requests = Vec::new();
    let mut expected = Vec::new();
    for (i, first) in places.iter().enumerate() {
        for second in &places[i + 1..] {
            for (a, b) in [("1.1", "1.2"), ("1.2", "1.2"), ("latest", "1.3"), ("latest", "1.0")] {
                let (mut target, mut headers) = named_in(*first, a, "/widgets", "");
                let (other, more) = named_in(*second, b, &target, "");
                if matches!(second, VersionReader::Query(_))
                    || matches!(second, VersionReader::PathSegment(_))
                {
                    target = other;
                }
                headers.extend(more);
                requests.push((target, headers));
                expected.push((*first, *second, a, b));
            }
        }
    }
    let answers = answers(Served::Read, &requests).await;
    for ((first, second, a, b), answer) in expected.into_iter().zip(&answers) {
        let resolve = |v: &str| if v == "latest" { "1.3".to_owned() } else { v.to_owned() };
        if resolve(a) == resolve(b) {
            assert_eq!((answer.status, answer.served_at()), (200, resolve(a)), "{first:?} {second:?}");
            continue;
        }
        assert_eq!(answer.status, 400, "{first:?}={a} {second:?}={b}");
        assert_eq!(answer.json()["errors"][0]["code"], "shop.ambiguous-version");
        // The first in precedence is named first.
        let detail = answer.detail();
        let expected = format!(
            "Two API versions were requested: {a:?} in {first} and {b:?} in {second}. Name one version."
        );
        assert!(detail.starts_with(&expected), "{detail}\nexpected {expected}");
        assert_eq!(answer.version, None, "no version was negotiated");
        assert_eq!(answer.vary.as_deref(), Some(VARY));
    }
}

#[actix_web::test]
async fn one_place_naming_two_versions_is_refused_and_naming_one_twice_is_not() {
    let requests: Vec<Request<'_>> = vec![
        ("/widgets?api-version=1.1&api-version=1.2".into(), vec![]),
        ("/widgets?api-version=1.1&api-version=1.1".into(), vec![]),
        ("/widgets".into(), vec![("Shop-Version", "1.1, 1.2".into())]),
        ("/widgets".into(), vec![("Shop-Version", "1.2".into()), ("Shop-Version", "1.2".into())]),
        ("/widgets".into(), vec![("Accept", "application/json; version=1.1, */*; version=1.0".into())]),
        // The standard header keeps OpenStack's rule: the last entry for the service.
        ("/widgets".into(), vec![("OpenStack-API-Version", "shop 1.1, shop 1.2".into())]),
    ];
    let answers = answers(Served::Read, &requests).await;
    assert_eq!(answers.iter().map(|a| a.status).collect::<Vec<_>>(), [400, 200, 400, 200, 400, 200]);
    assert_eq!(answers[1].served_at(), "1.1");
    assert_eq!(answers[5].served_at(), "1.2");
    assert!(
        answers[2]
            .detail()
            .contains("\"1.1\" in the Shop-Version header and \"1.2\" in the Shop-Version header")
    );
}

#[actix_web::test]
async fn a_malformed_or_unserved_version_anywhere_is_refused() {
    let mut requests = Vec::new();
    for place in READ.readers() {
        requests.push(named_in(*place, "1.x", "/widgets", ""));
        requests.push(named_in(*place, "1.9", "/widgets", ""));
    }
    // Beside a good version named first, the bad one is still refused.
    let (target, _) = named_in(VersionReader::PathSegment("v"), "1.2", "/widgets", "");
    requests.push((target, vec![("Shop-Version", "bogus".into())]));
    let answers = answers(Served::Read, &requests).await;
    for (pair, request) in answers.chunks(2).zip(requests.chunks(2)) {
        if pair.len() == 2 {
            assert_eq!((pair[0].status, pair[1].status), (400, 406), "{request:?}");
            assert_eq!(pair[1].json()["errors"][0]["code"], "shop.version-not-supported");
        }
    }
    assert_eq!(answers.last().map(|a| a.status), Some(400));
    assert!(answers.last().is_some_and(|a| a.detail().contains("\"bogus\"")), "{}", answers[10].detail());
}

#[actix_web::test]
async fn a_path_segment_names_a_version_only_as_its_prefix_and_a_digit() {
    let requests: Vec<Request<'_>> = vec![
        ("/v1.2/gadgets".into(), vec![]),
        ("/v1.2".into(), vec![]),
        ("/vwidgets".into(), vec![]),
        ("/widgets/v1.2".into(), vec![]),
        ("/%76%31%2E%32/gadgets".into(), vec![]),
    ];
    let answers = answers(Served::Read, &requests).await;
    assert_eq!((answers[0].status, answers[0].served_at().as_str()), (200, "1.2"));
    assert_eq!(answers[1].status, 404, "the root under the version has no route");
    assert_eq!(answers[1].version.as_deref(), Some("shop 1.2"), "but it was served at 1.2");
    assert_eq!(
        (answers[2].status, answers[2].version.as_deref()),
        (404, Some("shop 1.0")),
        "no version: routed as is"
    );
    assert_eq!((answers[3].status, answers[3].version.as_deref()), (404, Some("shop 1.0")));
    assert_eq!(
        (answers[4].status, answers[4].served_at().as_str()),
        (200, "1.2"),
        "escapes decoded as the router decodes them"
    );
}

#[actix_web::test]
async fn each_answer_names_the_versions_its_operation_exists_in() {
    let paths = ["/widgets", "/gadgets", "/gizmos"];
    let mut requests = Vec::new();
    for version in versions() {
        for path in paths {
            requests.push(named_in(VersionReader::Standard, &version, path, ""));
        }
    }
    let answers_at = answers(Served::Read, &requests).await;
    for (((_, headers), answer), path) in requests.iter().zip(&answers_at).zip(paths.iter().cycle()) {
        let version = headers[0].1.trim_start_matches("shop ");
        let (exists, versions) = match *path {
            "/widgets" => (true, "1.0-1.3"),
            "/gadgets" => (version >= "1.2", "1.2-1.3"),
            _ => (version != "1.1", "1.0, 1.2-1.3"),
        };
        assert_eq!(answer.status, if exists { 200 } else { 404 }, "{path} at {version}");
        assert_eq!(answer.operation_versions.as_deref(), Some(versions), "{path} at {version}, found or not");
    }
    // Under a cap, the versions above it are not named.
    let capped: Vec<Request<'_>> =
        paths.iter().map(|p| named_in(VersionReader::Standard, "1.0", p, "")).collect();
    let named: Vec<_> = answers(Served::ReadCappedAt("1.2"), &capped)
        .await
        .into_iter()
        .map(|a| a.operation_versions)
        .collect();
    assert_eq!(named, [Some("1.0-1.2".into()), Some("1.2".into()), Some("1.0, 1.2".into())]);
    // A path no operation has names none.
    let nowhere = answers(Served::Read, &[("/nothing".into(), vec![])]).await;
    assert_eq!((nowhere[0].status, nowhere[0].operation_versions.as_deref()), (404, None));
}

#[actix_web::test]
async fn an_api_that_requires_a_version_refuses_a_request_naming_none() {
    let requests: Vec<Request<'_>> = vec![
        ("/widgets".into(), vec![]),
        ("/widgets?api-version=1.2".into(), vec![]),
        ("/widgets".into(), vec![("OpenStack-API-Version", "shop 1.1".into())]),
        ("/widgets".into(), vec![("OpenStack-API-Version", "other 1.1".into())]),
    ];
    let answers = answers(Served::Required, &requests).await;
    assert_eq!(answers.iter().map(|a| a.status).collect::<Vec<_>>(), [400, 200, 200, 400]);
    assert_eq!(answers[0].json()["errors"][0]["code"], "shop.version-required");
    assert_eq!(
        answers[0].detail(),
        "An API version is required: name one in the api-version query parameter or the \
         OpenStack-API-Version header. Minimum is 1.0 and maximum is 1.3."
    );
    assert_eq!((answers[1].served_at().as_str(), answers[2].served_at().as_str()), ("1.2", "1.1"));
    assert_eq!(answers[1].vary.as_deref(), Some("OpenStack-API-Version"), "the query is in the URL");
    assert_eq!(answers[1].operation_versions, None, "not asked for");
}

#[test]
fn the_documents_read_the_version_where_the_api_reads_it() {
    let description = ApiDescription::new(READ).with_prefix("/shop").controller::<Shop>();
    let document = description.document(Version::lit("1.2"));
    // Sorted: the document's key order is serde_json's, which a `preserve_order`
    // feature elsewhere in the build changes.
    let mut paths: Vec<&String> = document["paths"].as_object().expect("paths").keys().collect();
    paths.sort();
    assert_eq!(
        paths,
        ["/shop/v{api_version}/gadgets", "/shop/v{api_version}/gizmos", "/shop/v{api_version}/widgets"]
    );
    let operation = &document["paths"]["/shop/v{api_version}/widgets"]["get"];
    let refs: Vec<&str> = operation["parameters"]
        .as_array()
        .expect("parameters")
        .iter()
        .filter_map(|p| p["$ref"].as_str())
        .collect();
    let keys = [
        "OpenStackApiVersion.path",
        "OpenStackApiVersion.query.api-version",
        "OpenStackApiVersion.header.Shop-Version",
        "OpenStackApiVersion.accept.version",
        "OpenStackApiVersion",
    ];
    assert_eq!(refs, keys.map(|k| format!("#/components/parameters/{k}")));
    let parameter = |key: &str| document["components"]["parameters"][key].clone();
    assert_eq!(parameter(keys[0])["in"], "path");
    assert_eq!(parameter(keys[0])["required"], true);
    assert_eq!(parameter(keys[0])["schema"]["enum"], json!(["1.2"]));
    assert_eq!(
        (parameter(keys[1])["in"].clone(), parameter(keys[1])["name"].clone()),
        (json!("query"), json!("api-version"))
    );
    assert_eq!(parameter(keys[2])["schema"]["enum"], json!(["1.2"]));
    assert_eq!(parameter(keys[3])["schema"]["enum"], json!(["application/json; version=1.2"]));
    assert_eq!(parameter(keys[4])["schema"]["enum"], json!(["shop 1.2"]));
    assert_eq!(parameter(keys[1]).get("required"), None, "one of several places");
    let id = operation["operationId"].as_str().unwrap_or_default();
    assert!(
        !id.is_empty() && !id.contains("api_version"),
        "the version segment is not the operation's: {id}"
    );

    let strict = ApiDescription::new(REQUIRED).controller::<StrictShop>().document(Version::lit("1.0"));
    let query = &strict["components"]["parameters"]["OpenStackApiVersion.query.api-version"];
    assert_eq!(
        query["description"],
        "The microversion asked for; a request names it in one of the places the API reads it."
    );
    assert!(strict["paths"].get("/widgets").is_some());

    // Between two versions, the version each names is no change.
    let documents = microversion_core::openapi::Documents::new(description);
    let page = documents.changes_page(Some("1.3")).expect("served").body();
    assert!(!page.contains("api_version") && !page.contains("OpenStackApiVersion"), "{page}");
    // The reference says where to send the version: the first reader's place.
    let reference = documents.reference_page(Some("1.2")).expect("served").body();
    assert!(reference.contains("Send <code>/v1.2/...</code>"), "{}", &reference[..reference.len().min(2000)]);
}

#[test]
fn discovery_lists_where_the_version_is_read() {
    let document = serde_json::to_value(READ.version_document("http://cloud.example")).expect("JSON");
    let readers: Vec<(String, String)> = document["version_readers"]
        .as_array()
        .expect("listed")
        .iter()
        .map(|r| {
            (
                r["in"].as_str().unwrap_or_default().to_owned(),
                r["example"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    let expected = [
        ("path", "/v1.0/..."),
        ("query", "?api-version=1.0"),
        ("header", "Shop-Version: 1.0"),
        ("media-type", "Accept: application/json; version=1.0"),
        ("header", "OpenStack-API-Version: shop 1.0"),
    ];
    assert_eq!(readers, expected.map(|(a, b)| (a.to_owned(), b.to_owned())));
    assert_eq!(document.get("version_required"), None);
    let strict = serde_json::to_value(REQUIRED.version_document("http://cloud.example")).expect("JSON");
    assert_eq!(strict["version_required"], true);
    let standard =
        serde_json::to_value(Api::new("shop", READ.history()).version_document("http://x")).expect("JSON");
    assert_eq!(
        (standard.get("version_readers"), standard.get("version_required")),
        (None, None),
        "as before"
    );
    let parsed = microversion_core::client::parse_discovery(&json!({"version": strict}).to_string());
    assert!(parsed.is_ok(), "{parsed:?}");
}

#[actix_web::test]
async fn a_client_names_the_version_where_the_api_reads_it_first() {
    let mut requests = Vec::new();
    for version in versions() {
        let call = versioned_call(&READ, Version::lit(&version), "/widgets", "limit=1");
        let target = format!("{}?{}", call.path, call.query);
        requests.push((target, call.headers));
    }
    for (answer, version) in answers(Served::Read, &requests).await.iter().zip(versions()) {
        assert_eq!((answer.status, answer.served_at()), (200, version));
    }
    let call = versioned_call(&REQUIRED, Version::lit("1.1"), "/widgets", "");
    assert_eq!((call.path.as_str(), call.query.as_str()), ("/widgets", "api-version=1.1"));
    let answers = answers(Served::Required, &[(format!("{}?{}", call.path, call.query), call.headers)]).await;
    assert_eq!(answers[0].served_at(), "1.1");
}

/// On axum, with the negotiation around the router, a handler is routed by
/// the URI without the version's segment and parameter, and reads the URI
/// as the client sent it in axum's `OriginalUri`, as behind any router.
#[actix_web::test]
async fn on_axum_the_uri_as_sent_stays_the_original_uri() {
    use axum::extract::OriginalUri;
    use tower::ServiceExt as _;
    let uris = |OriginalUri(sent): OriginalUri, routed: http::Uri| async move { format!("{sent} {routed}") };
    let app = microversion_axum::VersionNegotiation::new(READ)
        .around(Router::new().route("/widgets", axum::routing::get(uris)));
    for (sent, routed) in [
        ("/v1.1/widgets?limit=1", "/widgets?limit=1"),
        ("/widgets?api-version=1.1&limit=1", "/widgets?limit=1"),
        ("/widgets?limit=1", "/widgets?limit=1"),
    ] {
        let request = http::Request::get(sent).body(axum::body::Body::empty()).unwrap();
        let response = app.clone().oneshot(request).await.unwrap();
        assert_eq!(response.status(), 200, "{sent}");
        let body = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
        assert_eq!(String::from_utf8_lossy(&body), format!("{sent} {routed}"));
    }
}
