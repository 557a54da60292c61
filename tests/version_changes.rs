//! Version changes (docs/reference.md §4.10): one handler per operation at
//! the head of the history, the versions before each change served by its
//! typed upgrade of the request and downgrade of the answer, beside
//! same-named variants. Every request of the scenario is answered at every
//! version of the shop's history, on actix-web and on axum, byte for byte
//! alike, and as each version says.

#[path = "version_changes/shop.rs"]
mod shop;

use actix_web::App;
use axum::Router;
use microversion_axum::portable::{Json, Path};
use microversion_core::Version;
use microversion_core::change::{Declared, VersionChange};
use microversion_core::client::typed_client::{Answer as CallAnswer, Call, CallError, Transport};
use serde_json::{Value, json};
use shop::{SHOP, Widgets};

/// What a test reads of an answer.
#[derive(Debug, PartialEq)]
struct Answer {
    status: u16,
    location: Option<String>,
    version: Option<String>,
    body: Vec<u8>,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }
}

/// A request: method, path, version, body.
type Request<'a> = (&'a str, &'a str, &'a str, Option<&'a str>);

/// The answers of a fresh shop on actix-web to `requests`, in order.
async fn on_actix(requests: &[Request<'_>]) -> Vec<Answer> {
    // Every answer is checked against what its version declares: an
    // answer that breaks it is a 500 (docs/reference.md §6.5).
    let app = App::new()
        .wrap(microversion_actix::VersionNegotiation::new(SHOP))
        .app_data(microversion_actix::middleware::ResponseValidation::Error)
        .service(Widgets::default());
    let app = actix_web::test::init_service(app).await;
    let mut answers = Vec::new();
    for (method, uri, version, body) in requests {
        let mut request = microversion_actix::test::versioned_request(&SHOP, version)
            .method(actix_web::http::Method::from_bytes(method.as_bytes()).unwrap())
            .uri(uri);
        if let Some(body) = body {
            request =
                request.insert_header(("Content-Type", "application/json")).set_payload(body.to_string());
        }
        let response = actix_web::test::call_service(&app, request.to_request()).await;
        let header = |name: &str| microversion_actix::test::header(&response, name);
        let (status, location, version) =
            (response.status().as_u16(), header("Location"), header("OpenStack-API-Version"));
        let body = actix_web::test::read_body(response).await.to_vec();
        answers.push(Answer { status, location, version, body });
    }
    answers
}

/// The answers of a fresh shop on axum to `requests`, in order.
async fn on_axum(requests: &[Request<'_>]) -> Vec<Answer> {
    use tower::ServiceExt as _;
    let app = Router::from(Widgets::default())
        .layer(axum::Extension(microversion_axum::middleware::ResponseValidation::Error))
        .layer(microversion_axum::VersionNegotiation::new(SHOP));
    let mut answers = Vec::new();
    for (method, uri, version, body) in requests {
        let mut request =
            microversion_axum::test::versioned_request(&SHOP, version).method(*method).uri(*uri);
        let body = match body {
            Some(body) => {
                request = request.header("Content-Type", "application/json");
                axum::body::Body::from(body.to_string())
            }
            None => axum::body::Body::empty(),
        };
        let response = app.clone().oneshot(request.body(body).unwrap()).await.unwrap();
        let header = |name: &str| microversion_axum::test::header(&response, name);
        let (status, location, version) =
            (response.status().as_u16(), header("Location"), header("OpenStack-API-Version"));
        let body = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap().to_vec();
        answers.push(Answer { status, location, version, body });
    }
    answers
}

/// The answers to `requests` on both facades, checked to be the same.
async fn answers(requests: &[Request<'_>]) -> Vec<Answer> {
    let (actix, axum) = (on_actix(requests).await, on_axum(requests).await);
    microversion_tests::alike(requests, actix, axum, |answer| {
        String::from_utf8_lossy(&answer.body).into_owned()
    })
}

/// Every version of the history, oldest first.
fn versions() -> Vec<String> {
    SHOP.served_versions().map(|v| v.to_string()).collect()
}

/// Whether `version` is `since` or later.
fn from(version: &str, since: &str) -> bool {
    Version::lit(version) >= Version::lit(since)
}

/// The create body a version reads: `colour` before 1.4, `color` from it;
/// a size from 1.2.
fn create_body(version: &str, name: &str) -> String {
    let at = |v: &str| from(version, v);
    let colour = if at("1.4") { "color" } else { "colour" };
    let size = if at("1.2") { r#","size":"l""# } else { "" };
    format!(r#"{{"name":"{name}","{colour}":"red"{size}}}"#)
}

#[actix_web::test]
async fn a_create_at_each_version_is_answered_as_that_version_wrote_it() {
    for version in versions() {
        let body = create_body(&version, "w");
        let answer = &answers(&[("POST", "/widgets", &version, Some(&body))]).await[0];
        let at = |v: &str| from(&version, v);
        let mut widget = json!({"id": 1, "name": "w", "finish": "matte"});
        widget[if at("1.4") { "color" } else { "colour" }] = json!("red");
        if at("1.2") {
            widget["size"] = json!("l");
        }
        assert_eq!(answer.json(), json!({"widget": widget}), "{version}");
        assert_eq!(answer.status, if at("1.3") { 201 } else { 200 }, "{version}");
        let location = at("1.6").then(|| "/widgets/w-1".to_owned());
        assert_eq!(answer.location, location, "{version}");
        assert_eq!(answer.version.as_deref(), Some(format!("shop {version}").as_str()));
    }
}

#[actix_web::test]
async fn a_request_in_another_versions_words_is_refused_by_the_type_of_its_own() {
    let refused = [
        // `size` did not exist before 1.2, nor `color` before 1.4.
        ("1.1", r#"{"name":"w","colour":"red","size":"l"}"#),
        ("1.3", r#"{"name":"w","color":"red"}"#),
        // Nor `colour` from 1.4, nor satin before 1.5.
        ("1.4", r#"{"name":"w","colour":"red"}"#),
        ("1.4", r#"{"name":"w","color":"red","finish":"satin"}"#),
        ("1.6", r#"{"name":"w","color":"red","finish":"velvet"}"#),
    ];
    for (version, body) in refused {
        let answer = &answers(&[("POST", "/widgets", version, Some(body))]).await[0];
        assert_eq!(answer.status, 400, "{version} {body}: {}", answer.json());
        assert_eq!(answer.json()["errors"][0]["status"], 400, "{version}: in the API's format");
    }
    let accepted =
        &answers(&[("POST", "/widgets", "1.5", Some(r#"{"name":"w","color":"red","finish":"satin"}"#))])
            .await[0];
    assert_eq!((accepted.status, &accepted.json()["widget"]["finish"]), (201, &json!("satin")));
}

#[actix_web::test]
async fn an_answer_walks_down_every_later_change_in_reverse() {
    // Created at the head in satin; read back at every version since 1.4.
    let created = r#"{"name":"w","color":"blue","finish":"satin","size":"s"}"#;
    for version in versions().into_iter().filter(|v| from(v, "1.1")) {
        let path = if from(&version, "1.6") { "/widgets/w-1" } else { "/widgets/1" };
        let got = answers(&[
            ("POST", "/widgets", "1.6", Some(created)),
            ("GET", path, &version, None),
            ("GET", "/widgets", &version, None),
        ])
        .await;
        let at = |v: &str| from(&version, v);
        let mut widget = json!({"id": 1, "name": "w", "finish": if at("1.5") { "satin" } else { "gloss" }});
        widget[if at("1.4") { "color" } else { "colour" }] = json!("blue");
        if at("1.2") {
            widget["size"] = json!("s");
        }
        assert_eq!((got[1].status, got[1].json()), (200, json!({"widget": widget})), "show at {version}");
        assert_eq!((got[2].status, got[2].json()), (200, json!({"widgets": [widget]})), "list at {version}");
    }
}

#[actix_web::test]
async fn an_error_answer_is_downgraded_too() {
    for version in ["1.4", "1.5", "1.6"] {
        let body = create_body(version, "twice");
        let got = answers(&[
            ("POST", "/widgets", version, Some(&body)),
            ("POST", "/widgets", version, Some(&body)),
        ])
        .await;
        let status = if version == "1.6" { 409 } else { 400 };
        assert_eq!(got[1].status, status, "{version}");
        assert_eq!(got[1].json()["errors"][0]["detail"], "a widget is named twice", "{version}");
        assert_eq!(got[1].location, None, "{version}");
    }
}

#[actix_web::test]
async fn the_query_and_the_path_are_upgraded_by_their_types() {
    let mut requests: Vec<Request<'_>> = vec![];
    let bodies: Vec<String> = (0..3).map(|n| create_body("1.6", &format!("w{n}"))).collect();
    for body in &bodies {
        requests.push(("POST", "/widgets", "1.6", Some(body)));
    }
    requests.extend([
        ("GET", "/widgets?limit=1", "1.5", None),
        ("GET", "/widgets?limit=1", "1.6", None),
        ("GET", "/widgets?limit=x", "1.6", None),
        ("GET", "/widgets/w-2", "1.6", None),
        ("GET", "/widgets/2", "1.5", None),
        ("GET", "/widgets/2", "1.6", None),
        ("GET", "/widgets/w-2", "1.5", None),
    ]);
    let got = answers(&requests).await;
    // `limit` means nothing before 1.6.
    assert_eq!(got[3].json()["widgets"].as_array().map(Vec::len), Some(3));
    assert_eq!(got[4].json()["widgets"].as_array().map(Vec::len), Some(1));
    assert_eq!(got[5].status, 400, "{}", got[5].json());
    // `w-2` from 1.6, `2` before: each version's own path, one handler.
    assert_eq!((got[6].status, &got[6].json()["widget"]["name"]), (200, &json!("w1")));
    assert_eq!((got[7].status, &got[7].json()["widget"]["name"]), (200, &json!("w1")));
    assert_eq!(got[8].status, 404, "a bare id from 1.6: {}", got[8].json());
    assert_eq!(got[9].status, 404, "a prefixed id before 1.6: {}", got[9].json());
}

#[actix_web::test]
async fn an_operation_before_its_first_version_answers_as_a_missing_variant() {
    let got = answers(&[("GET", "/widgets", "1.0", None)]).await;
    assert_eq!(got[0].status, 404);
}

#[test]
fn the_changes_describe_themselves() {
    assert_eq!(shop::SatinFinish::VERSION, Version::lit("1.5"));
    assert_eq!(shop::SatinFinish::DESCRIPTION, "The satin finish.");
    assert_eq!(shop::SatinFinish::DECLARES, &[Declared::MemberAdded { ty: "Finish", member: "Satin" }]);
    assert_eq!(
        shop::ColorSpelling::DECLARES,
        &[Declared::FieldRenamed { ty: "Widget", field: "color", from: "colour" }]
    );
    assert_eq!(shop::ColorSpelling::DECLARES[0].to_string(), "`Widget::color` was `colour` before");
    use microversion_core::Controller as _;
    let create = Widgets::OPERATIONS.iter().find(|op| op.name == "create").unwrap();
    let notes: Vec<(&str, String)> =
        create.variants[0].changes.iter().map(|c| (c.name, c.version.to_string())).collect();
    assert_eq!(
        notes,
        [
            ("SizeAdded", "1.2".to_owned()),
            ("CreatedStatus", "1.3".to_owned()),
            ("ColorSpelling", "1.4".to_owned()),
            ("SatinFinish", "1.5".to_owned()),
            ("ConflictAndLocation", "1.6".to_owned()),
        ]
    );
}

/// The reference says what each change did where its version is shown:
/// the page of what 1.4 changed names `ColorSpelling`, its doc comment and
/// what it declares, with the operations that go through it; the history
/// of every version's page carries it under 1.4.
#[test]
fn the_reference_shows_each_change_at_its_version() {
    use microversion_core::openapi::{ApiDescription, Documents};
    let documents = Documents::new(ApiDescription::new(SHOP).controller::<Widgets>());
    let changes = documents.changes_page(Some("1.4")).unwrap().body();
    assert!(changes.contains("<h2 id=\"version-changes\">Version changes</h2>"), "{changes}");
    assert!(
        changes.contains(
            "<li><strong><code>ColorSpelling</code></strong>: <code>colour</code> is spelled <code>color</code>. \
             (<code>Widget::color</code> was <code>colour</code> before). Served before 1.4 by its conversions in \
             <code>POST /widgets</code>, <code>GET /widgets</code>, <code>GET /widgets/{id}</code>.</li>"
        ),
        "{changes}"
    );
    assert!(!changes.contains("SatinFinish"), "1.5's change is not 1.4's");
    let at_1_5 = documents.changes_page(Some("1.5")).unwrap().body();
    assert!(
        at_1_5.contains("<code>SatinFinish</code>") && !at_1_5.contains("<code>ListLimit</code>"),
        "{at_1_5}"
    );
    assert!(at_1_5.contains("<code>Finish::Satin</code> is new"), "{at_1_5}");
    let first = documents.changes_page(Some("1.0")).unwrap().body();
    assert!(!first.contains("Version changes"), "no change is made at 1.0");
    let page = documents.reference_page(Some("1.6")).unwrap().body();
    let history_1_4 = &page[page.find("<li id=\"v1.4\"").unwrap()..page.find("<li id=\"v1.3\"").unwrap()];
    assert!(history_1_4.contains("ColorSpelling: `colour` is spelled `color`."), "{history_1_4}");
}

/// A variant with changes is described band by band: each band's
/// versions, the status it answered (`status = 200` before
/// `CreatedStatus`), and what it said of itself (`doc = "..."`).
#[test]
fn the_documents_describe_each_band_as_it_was() {
    use microversion_core::openapi::ApiDescription;
    let description = ApiDescription::new(SHOP).controller::<Widgets>();
    let create =
        |version: &str| description.document(Version::lit(version))["paths"]["/widgets"]["post"].clone();
    for (version, status, summary) in [
        ("1.0", "200", "Creates a widget, and answers 200 OK with it."),
        ("1.2", "200", "Creates a widget, and answers 200 OK with it."),
        ("1.3", "201", "Creates a widget."),
        ("1.6", "201", "Creates a widget."),
    ] {
        let operation = create(version);
        assert!(operation["responses"][status].is_object(), "{version}: {operation}");
        assert_eq!(operation["summary"], summary, "{version}");
    }
    let history = description.history_document();
    let responses = &history["paths"]["/widgets"]["post"]["responses"];
    assert_eq!(responses["200"]["x-openstack"]["max-ver"], "1.2", "{responses}");
    assert_eq!(responses["201"]["x-openstack"]["min-ver"], "1.3", "{responses}");
    use microversion_core::Controller as _;
    let create = Widgets::OPERATIONS.iter().find(|op| op.name == "create").unwrap();
    let bands: Vec<String> = create.variants.iter().map(|v| v.range.to_string()).collect();
    assert_eq!(bands, ["1.0 to 1.1", "1.2 only", "1.3 only", "1.4 only", "1.5 only", "1.6 and later"]);
}

/// A `json_schema = T` written without versions, on a variant with
/// version changes, is the head's: each older band is checked and
/// documented by the type its argument reads and its answer writes there
/// (`TypedSchema`). The answers above are checked against them
/// (`ResponseValidation::Error`); a body in another version's words is
/// refused by the schema of its own version.
#[actix_web::test]
async fn each_band_is_checked_and_described_by_its_own_types() {
    use microversion_core::openapi::ApiDescription;
    let description = ApiDescription::new(SHOP).controller::<Widgets>();
    for version in versions() {
        let at = |v: &str| from(&version, v);
        let create = &description.document(Version::lit(&version))["paths"]["/widgets"]["post"];
        let status = if at("1.3") { "201" } else { "200" };
        let read = &create["requestBody"]["content"]["application/json"]["schema"];
        let written =
            &create["responses"][status]["content"]["application/json"]["schema"]["properties"]["widget"];
        for schema in [read, written] {
            let properties = &schema["properties"];
            let (colour, color) = if at("1.4") { ("color", "colour") } else { ("colour", "color") };
            assert!(properties[colour].is_object() && properties[color].is_null(), "{version}: {schema}");
            assert_eq!(properties["size"].is_object(), at("1.2"), "{version}: {schema}");
            let finishes =
                if at("1.5") { json!(["matte", "gloss", "satin"]) } else { json!(["matte", "gloss"]) };
            assert_eq!(properties["finish"]["enum"], finishes, "{version}: {schema}");
        }
    }
    // Refused by the schema of 1.1, which names the field it does not know.
    let body = r#"{"name":"w","colour":"red","size":"l"}"#;
    let refused = &answers(&[("POST", "/widgets", "1.1", Some(body))]).await[0];
    let detail = refused.json()["errors"][0]["detail"].as_str().unwrap_or_default().to_owned();
    assert!(detail.contains("size") && detail.contains("Additional properties"), "{detail}");
    use microversion_core::Controller as _;
    let create = Widgets::OPERATIONS.iter().find(|op| op.name == "create").unwrap();
    let names: Vec<&str> = create.variants.iter().filter_map(|v| v.schemas.first().map(|s| s.name)).collect();
    assert_eq!(names[0], "json_schema NewWidget before SizeAdded");
    assert_eq!(names[5], "json_schema NewWidget");
}

/// A typed client's transport to a fresh shop on axum, in process, at one
/// version.
struct InProcess {
    app: Router,
    version: Version,
}

impl InProcess {
    fn at(version: &str) -> InProcess {
        let app = Router::from(Widgets::default()).layer(microversion_axum::VersionNegotiation::new(SHOP));
        InProcess { app, version: Version::lit(version) }
    }
}

impl Transport for InProcess {
    fn version(&self) -> Version {
        self.version
    }

    async fn send(&self, call: Call) -> Result<CallAnswer, CallError> {
        use tower::ServiceExt as _;
        let uri = match call.query.is_empty() {
            true => call.path,
            false => format!("{}?{}", call.path, call.query),
        };
        let request = http::Request::builder()
            .method(call.method)
            .uri(uri)
            .header("OpenStack-API-Version", format!("shop {}", self.version))
            .header("Content-Type", "application/json")
            .body(axum::body::Body::from(call.body.unwrap_or_default()))
            .map_err(|e| CallError::Encode(e.to_string()))?;
        let response = self.app.clone().oneshot(request).await.unwrap_or_else(|never| match never {});
        let status = response.status().as_u16();
        let body = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .map_err(|e| CallError::Transport(e.to_string()))?;
        Ok(CallAnswer { status, body: body.to_vec() })
    }
}

#[actix_web::test]
async fn a_typed_client_speaks_each_versions_types_before_each_change() {
    use shop::{FinishV1_4, NewWidget, NewWidgetV1_1, NewWidgetV1_3, NewWidgetV1_4};
    let (colour, finish) = ("red".to_owned(), FinishV1_4::Matte);
    for version in versions() {
        let shop = InProcess::at(&version);
        let client = Widgets::client(&shop);
        let at = |since: &str| from(&version, since);
        let name = || format!("w-at-{version}");
        // The method of each band takes the body as that band reads it and
        // decodes the widget as that band wrote it.
        let created = if !at("1.2") {
            let body = NewWidgetV1_1 { name: name(), colour: colour.clone(), finish };
            let rendered = client.create_before_size_added(&Json(body)).await.expect("created");
            let shown = rendered.decode().expect("a 1.0 widget");
            assert_eq!((shown.widget.colour.as_str(), rendered.status()), ("red", 200), "{version}");
            rendered.into_json()
        } else if !at("1.4") {
            let body = NewWidgetV1_3 { name: name(), colour: colour.clone(), size: "l".into(), finish };
            let rendered = match at("1.3") {
                false => client.create_before_created_status(&Json(body)).await,
                true => client.create_before_color_spelling(&Json(body)).await,
            };
            let rendered = rendered.expect("created");
            let shown = rendered.decode().expect("a 1.3 widget");
            assert_eq!(shown.widget.colour, "red", "{version}");
            rendered.into_json()
        } else if !at("1.6") {
            match at("1.5") {
                false => {
                    let body =
                        NewWidgetV1_4 { name: name(), color: colour.clone(), size: "m".into(), finish };
                    client.create_before_satin_finish(&Json(body)).await.expect("created").into_json()
                }
                // The change at 1.6 converts the answer only: the body is the head's.
                true => {
                    let body = NewWidget {
                        name: name(),
                        color: colour.clone(),
                        size: "m".into(),
                        finish: shop::Finish::Matte,
                    };
                    client.create_before_conflict_and_location(&body).await.expect("created").into_json()
                }
            }
        } else {
            let body = NewWidget {
                name: name(),
                color: colour.clone(),
                size: "m".into(),
                finish: shop::Finish::Matte,
            };
            client.create(&body).await.expect("created").into_json()
        };
        assert_eq!(created["widget"]["name"], name(), "{version}");
        assert_eq!(created["widget"].get("colour").is_some(), !at("1.4"), "{version}: {created}");

        // The head's method speaks the head's types at every version: where a
        // change renamed what it sends, an older version refuses it.
        let head = NewWidget {
            name: format!("head-{version}"),
            color: "red".into(),
            size: "m".into(),
            finish: shop::Finish::Matte,
        };
        let refused = client.create(&head).await;
        assert_eq!(refused.is_ok(), at("1.4"), "{version}: {refused:?}");

        // A band's method is served only at its band's versions.
        let elsewhere = client
            .create_before_size_added(&Json(NewWidgetV1_1 { name: name(), colour: colour.clone(), finish }))
            .await;
        assert_eq!(matches!(elsewhere, Err(CallError::NotAtVersion { .. })), at("1.2"), "{version}");

        // A path parameter through a change: before 1.6 the id is a number,
        // in each band's method of the variant from 1.2.
        let id = Path(1);
        let shown = match version.as_str() {
            "1.0" | "1.1" => None,
            "1.2" | "1.3" => Some(client.show_before_color_spelling(&id).await.map(|r| r.into_json())),
            "1.4" => Some(client.show_before_satin_finish(&id).await.map(|r| r.into_json())),
            "1.5" => Some(client.show_before_prefixed_ids(&id).await.map(|r| r.into_json())),
            _ => Some(client.show_1_2("w-1".to_owned()).await.map(|r| r.into_json())),
        };
        if let Some(shown) = shown {
            assert_eq!(shown.expect("shown")["widget"]["id"], 1, "{version}");
        }
    }
}

#[path = "version_changes/clerks.rs"]
mod clerks;

#[actix_web::test]
async fn a_header_renamed_by_a_change_is_read_by_its_name_at_each_version() {
    use clerks::{COUNTER, Counter};
    let requests: [(&str, &[(&str, &str)]); 6] = [
        ("1.0", &[("X-Clerk", "ann")]),
        ("1.0", &[]),
        ("1.0", &[("Shop-Clerk", "bob")]),
        ("1.1", &[("Shop-Clerk", "bob")]),
        ("1.1", &[("X-Clerk", "ann")]),
        ("1.1", &[]),
    ];
    let mut actix = Vec::new();
    let app = actix_web::test::init_service(
        App::new().wrap(microversion_actix::VersionNegotiation::new(COUNTER)).service(Counter),
    )
    .await;
    for (version, headers) in &requests {
        let request = headers.iter().fold(
            microversion_actix::test::versioned_request(&COUNTER, version).uri("/clerk"),
            |r, (n, v)| r.insert_header((*n, *v)),
        );
        let response = actix_web::test::call_service(&app, request.to_request()).await;
        let status = response.status().as_u16();
        actix.push((status, actix_web::test::read_body(response).await.to_vec()));
    }
    let mut axum = Vec::new();
    let router = Router::from(Counter).layer(microversion_axum::VersionNegotiation::new(COUNTER));
    for (version, headers) in &requests {
        use tower::ServiceExt as _;
        let request = headers.iter().fold(
            microversion_axum::test::versioned_request(&COUNTER, version).uri("/clerk"),
            |r, (n, v)| r.header(*n, *v),
        );
        let response =
            router.clone().oneshot(request.body(axum::body::Body::empty()).unwrap()).await.unwrap();
        let status = response.status().as_u16();
        axum.push((status, axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap().to_vec()));
    }
    let answers = microversion_tests::alike(&requests, actix, axum, |(_, body)| {
        String::from_utf8_lossy(body).into_owned()
    });
    let read: Vec<(u16, Value)> = answers
        .iter()
        .map(|(status, body)| (*status, serde_json::from_slice(body).unwrap_or(Value::Null)))
        .collect();
    assert_eq!(read[0], (200, json!({"clerk": "ann"})), "1.0 reads X-Clerk");
    assert_eq!(read[1], (200, json!({"clerk": "anyone"})), "1.0: optional");
    assert_eq!(read[2], (200, json!({"clerk": "anyone"})), "1.0 does not read the head's header");
    assert_eq!(read[3], (200, json!({"clerk": "bob"})), "1.1 reads Shop-Clerk");
    assert_eq!(read[4].0, 400, "1.1 does not read X-Clerk, and requires its own");
    assert_eq!(read[4].1["errors"][0]["detail"], "name the clerk in Shop-Clerk");
    assert_eq!(read[5].0, 400);
}
