//! `#[derive(VersionedModel)]`: fields rendered, accepted and described at
//! every boundary of their ranges; the derived schema agrees with the parser.

use std::collections::BTreeMap;

use actix_web::http::StatusCode;
use actix_web::test as actix_test;
use actix_web::{App, web};
use microversion_actix::test::{call_at, read_json};
use microversion_actix::{
    ApiVersion, Native, Version, VersionNegotiation, Versioned, VersionedModel, error::Violation,
    model::VersionedStruct,
};
use microversion_tests::API;
use serde_json::{Value, json};

fn v(text: &str) -> Version {
    text.parse().expect("a version")
}

/// Nova's flavor view in miniature: a field from 2.5, one from 2.8, a
/// representation change at 2.10, a renamed field.
#[derive(VersionedModel, Debug, Clone, PartialEq)]
#[versioned(api = API)]
struct FlavorView {
    id: String,
    ram: u64,
    #[versioned(rename = "OS-FLV-EXT-DATA:ephemeral")]
    ephemeral: u64,
    #[versioned(since = "2.5")]
    description: Option<String>,
    #[versioned(since = "2.8", default)]
    extra_specs: BTreeMap<String, String>,
    #[versioned(render(until = "2.9", with = swap_before_2_10))]
    swap: u64,
}

/// Before 2.10, no swap is `""`.
fn swap_before_2_10(swap: &u64) -> Value {
    if *swap == 0 { json!("") } else { json!(swap) }
}

fn flavor() -> FlavorView {
    FlavorView {
        id: "1".into(),
        ram: 512,
        ephemeral: 0,
        description: Some("tiny".into()),
        extra_specs: BTreeMap::from([("hw:cpu_policy".into(), "dedicated".into())]),
        swap: 0,
    }
}

fn render(model: &FlavorView, version: &str) -> Value {
    serde_json::to_value(model.at(v(version))).expect("serializes")
}

#[test]
fn fields_render_inside_their_ranges_only() {
    let model = flavor();
    for (version, description, extra_specs, swap) in [
        ("2.1", false, false, json!("")),
        ("2.4", false, false, json!("")),
        ("2.5", true, false, json!("")),
        ("2.7", true, false, json!("")),
        ("2.8", true, true, json!("")),
        ("2.9", true, true, json!("")),
        ("2.10", true, true, json!(0)),
        ("2.12", true, true, json!(0)),
    ] {
        let out = render(&model, version);
        assert_eq!(out.get("description").is_some(), description, "description at {version}");
        assert_eq!(out.get("extra_specs").is_some(), extra_specs, "extra_specs at {version}");
        assert_eq!(out["swap"], swap, "swap at {version}");
        assert_eq!(out["OS-FLV-EXT-DATA:ephemeral"], 0, "renamed at {version}");
        assert!(out.get("ephemeral").is_none());
    }
    assert_eq!(render(&FlavorView { swap: 512, ..flavor() }, "2.1")["swap"], 512, "only zero changes");
}

/// `skip_none`: an absent value is left out rather than rendered `null`,
/// per field, inside the field's range only.
#[derive(VersionedModel)]
#[versioned(api = API)]
struct KeypairView {
    name: String,
    #[versioned(skip_none)]
    private_key: Option<String>,
    #[versioned(since = "2.3", skip_none)]
    user_id: Option<String>,
    comment: Option<String>,
}

#[test]
fn skip_none_leaves_absent_values_out() {
    let bare = KeypairView { name: "k".into(), private_key: None, user_id: None, comment: None };
    assert_eq!(serde_json::to_value(bare.at(v("2.3"))).unwrap(), json!({"name": "k", "comment": null}));
    let full = KeypairView {
        name: "k".into(),
        private_key: Some("p".into()),
        user_id: Some("u".into()),
        comment: None,
    };
    assert_eq!(
        serde_json::to_value(full.at(v("2.3"))).unwrap(),
        json!({"name": "k", "private_key": "p", "user_id": "u", "comment": null})
    );
    // Outside its range a field is absent whatever its value.
    assert_eq!(
        serde_json::to_value(full.at(v("2.2"))).unwrap(),
        json!({"name": "k", "private_key": "p", "comment": null})
    );
}

#[test]
fn round_trip_at_each_version() {
    for version in ["2.1", "2.4", "2.5", "2.8", "2.10", "2.12"] {
        let mut model = flavor();
        model.swap = 256; // a value both representations render as a number
        let rendered = render(&model, version);
        let parsed = FlavorView::from_json_at(v(version), rendered).expect("parses what it rendered");
        let mut expected = model.clone();
        if v(version) < v("2.5") {
            expected.description = None;
        }
        if v(version) < v("2.8") {
            expected.extra_specs = BTreeMap::new();
        }
        assert_eq!(parsed, expected, "at {version}");
    }
}

fn violations(version: &str, body: Value) -> Vec<String> {
    let mut errors: Vec<Violation> = Vec::new();
    let parsed = FlavorView::deserialize_at(v(version), body, "", &mut errors);
    assert!(parsed.is_none() || errors.is_empty());
    errors.into_iter().map(|e| format!("{} {}", e.path, e.message)).collect()
}

#[test]
fn requests_are_refused_with_the_field_and_its_versions() {
    let base = json!({"id": "1", "ram": 512, "OS-FLV-EXT-DATA:ephemeral": 0, "swap": 0});
    let with = |key: &str, value: Value| {
        let mut body = base.clone();
        body[key] = value;
        body
    };
    assert_eq!(
        violations("2.4", with("description", json!("x"))),
        ["/description `description` is not accepted at version 2.4; it is accepted at 2.5 and later"]
    );
    assert_eq!(violations("2.5", with("description", json!("x"))), Vec::<String>::new());
    assert_eq!(
        violations("2.7", with("extra_specs", json!({}))),
        ["/extra_specs `extra_specs` is not accepted at version 2.7; it is accepted at 2.8 and later"]
    );
    assert_eq!(violations("2.1", with("colour", json!("red"))), ["/colour `colour` is not a known field"]);
    let mut missing = base.clone();
    missing.as_object_mut().expect("object").remove("ram");
    assert_eq!(violations("2.1", missing), ["/ram `ram` is required at version 2.1"]);
    let wrong = violations("2.1", with("ram", json!("lots")));
    assert_eq!(wrong.len(), 1);
    assert!(wrong[0].starts_with("/ram invalid type: string \"lots\", expected u64"), "{wrong:?}");
    let all = violations("2.4", json!({"id": 1, "description": "x", "colour": 1}));
    assert_eq!(all.len(), 6, "every problem at once: {all:?}");
    assert_eq!(violations("2.1", json!([1])), ["/ expected an object, got [1]"]);
}

/// The request side: a nested model and a list of them.
#[derive(VersionedModel, Debug, PartialEq)]
struct Server {
    name: String,
    #[versioned(nested)]
    flavor: FlavorRef,
    #[versioned(nested, since = "2.3", default)]
    networks: Vec<Network>,
}

#[derive(VersionedModel, Debug, PartialEq)]
struct FlavorRef {
    id: String,
}

#[derive(VersionedModel, Debug, PartialEq, Default)]
struct Network {
    uuid: String,
    #[versioned(since = "2.6")]
    tag: Option<String>,
}

#[test]
fn nested_models_are_versioned_too() {
    let body = json!({"name": "vm", "flavor": {"id": "1"}, "networks": [{"uuid": "n1", "tag": "a"}]});
    let mut errors = Vec::new();
    assert!(Server::deserialize_at(v("2.5"), body.clone(), "", &mut errors).is_none());
    let messages: Vec<String> = errors.iter().map(|e| format!("{} {}", e.path, e.message)).collect();
    assert_eq!(
        messages,
        ["/networks/0/tag `tag` is not accepted at version 2.5; it is accepted at 2.6 and later"]
    );
    let server = Server::from_json_at(v("2.6"), body).expect("valid at 2.6");
    assert_eq!(server.networks, [Network { uuid: "n1".into(), tag: Some("a".into()) }]);
    let rendered = serde_json::to_value(server.at(v("2.3"))).expect("serializes");
    assert_eq!(rendered, json!({"name": "vm", "flavor": {"id": "1"}, "networks": [{"uuid": "n1"}]}));
    let mut changes = Vec::new();
    Server::changes(&mut changes);
    changes.sort();
    assert_eq!(changes, [v("2.3"), v("2.6")], "nested changes count");
}

#[test]
fn derived_schema_agrees_with_the_parser() {
    let schemas = FlavorView::compiled_schemas().expect("derived schemas compile");
    let cases = [
        json!({"id": "1", "ram": 1, "OS-FLV-EXT-DATA:ephemeral": 0, "swap": 0}),
        json!({"id": "1", "ram": 1, "OS-FLV-EXT-DATA:ephemeral": 0, "swap": 0, "description": "d"}),
        json!({"id": "1", "ram": 1, "OS-FLV-EXT-DATA:ephemeral": 0, "swap": 0, "description": null}),
        json!({"id": "1", "ram": 1, "OS-FLV-EXT-DATA:ephemeral": 0, "swap": 0, "extra_specs": {"a": "b"}}),
        json!({"id": "1", "ram": 1, "OS-FLV-EXT-DATA:ephemeral": 0, "swap": 0, "extra_specs": {"a": 1}}),
        json!({"id": "1", "ram": -1, "OS-FLV-EXT-DATA:ephemeral": 0, "swap": 0}),
        json!({"id": "1", "OS-FLV-EXT-DATA:ephemeral": 0, "swap": 0}),
        json!({"id": 1, "ram": 1, "OS-FLV-EXT-DATA:ephemeral": 0, "swap": 0}),
        json!({"id": "1", "ram": 1, "OS-FLV-EXT-DATA:ephemeral": 0, "swap": 0, "other": true}),
        json!("not an object"),
    ];
    for version in ["2.1", "2.4", "2.5", "2.7", "2.8", "2.9", "2.10", "2.12"] {
        for case in &cases {
            let by_schema = schemas.validate(v(version), case).is_ok();
            let by_parser = FlavorView::from_json_at(v(version), case.clone()).is_ok();
            assert_eq!(by_schema, by_parser, "{case} at {version}");
        }
    }
    let schema = FlavorView::json_schema_at(v("2.5"));
    assert_eq!(schema["required"], json!(["id", "ram", "OS-FLV-EXT-DATA:ephemeral", "swap"]));
    assert!(schema["properties"].get("description").is_some());
    assert!(FlavorView::json_schema_at(v("2.4"))["properties"].get("description").is_none());
}

async fn show(Native(version): Native<ApiVersion>) -> Native<Versioned<FlavorView>> {
    let mut model = flavor();
    model.description = Some(format!("rendered for {version}"));
    Native(Versioned::ok(model))
}

async fn create(Native(body): Native<Versioned<FlavorView>>) -> Native<Versioned<FlavorView>> {
    Native(Versioned::created(body.into_inner()))
}

#[actix_web::test]
async fn handlers_return_and_take_models_at_the_negotiated_version() {
    let app = actix_test::init_service(
        App::new()
            .wrap(VersionNegotiation::new(API))
            .route("/flavor", web::get().to(show))
            .route("/flavor", web::post().to(create)),
    )
    .await;
    let res = call_at(&app, &API, "2.4", actix_test::TestRequest::get().uri("/flavor")).await;
    assert_eq!(res.status(), StatusCode::OK);
    let body = read_json(res).await;
    assert!(body.get("description").is_none());
    assert_eq!(body["swap"], "");
    let res = call_at(&app, &API, "2.10", actix_test::TestRequest::get().uri("/flavor")).await;
    let body = read_json(res).await;
    assert_eq!((&body["description"], &body["swap"]), (&json!("rendered for 2.10"), &json!(0)));

    let sent = json!({"id": "9", "ram": 64, "OS-FLV-EXT-DATA:ephemeral": 0, "swap": 0, "description": "new"});
    let res =
        call_at(&app, &API, "2.5", actix_test::TestRequest::post().uri("/flavor").set_json(&sent)).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    assert_eq!(read_json(res).await["description"], "new");
    let res =
        call_at(&app, &API, "2.4", actix_test::TestRequest::post().uri("/flavor").set_json(&sent)).await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    let body = read_json(res).await;
    assert_eq!(body["errors"][0]["violations"][0]["path"], "/description", "{body}");
}

/// `#[schema(model = ...)]`: a variant validated by a model's derived schema.
struct Checked;

#[microversion_actix::controller(api = API)]
impl Checked {
    #[post("/checked")]
    #[api_version("2.1")]
    #[schema(model = FlavorView)]
    async fn create(&self, body: microversion_actix::Json<Value>) -> microversion_actix::Json<Value> {
        body
    }

    #[put("/checked")]
    #[api_version("2.1")]
    #[schema(model = FlavorView, "2.5")]
    async fn replace(&self, body: microversion_actix::Json<Value>) -> microversion_actix::Json<Value> {
        body
    }
}

#[actix_web::test]
async fn model_schemas_validate_controller_variants() {
    use microversion_actix::operation::Controller;
    let app = actix_test::init_service(App::new().wrap(VersionNegotiation::new(API)).service(Checked)).await;
    let with_description =
        json!({"id": "9", "ram": 64, "OS-FLV-EXT-DATA:ephemeral": 0, "swap": 0, "description": "d"});
    let post = |version: &'static str| {
        call_at(
            &app,
            &API,
            version,
            actix_test::TestRequest::post().uri("/checked").set_json(&with_description),
        )
    };
    assert_eq!(post("2.4").await.status(), StatusCode::BAD_REQUEST, "no description before 2.5");
    assert_eq!(post("2.5").await.status(), StatusCode::OK);
    let put = |version: &'static str| {
        call_at(
            &app,
            &API,
            version,
            actix_test::TestRequest::put().uri("/checked").set_json(json!({"colour": 1})),
        )
    };
    assert_eq!(put("2.4").await.status(), StatusCode::OK, "not validated before 2.5");
    assert_eq!(put("2.5").await.status(), StatusCode::BAD_REQUEST);
    let replace = Checked::OPERATIONS.iter().find(|op| op.name == "replace").expect("listed");
    assert_eq!(replace.variants[0].schemas[0].name, "model FlavorView");
    assert_eq!(replace.variants[0].schemas[0].range.to_string(), "2.5 and later");
    assert!(Checked::check_schemas().is_ok());
}

/// `Versioned` as an argument behind `#[schema(model = ...)]` of the same model: the
/// route's validation is not repeated, and the answers are unchanged.
struct Typed;

#[microversion_actix::controller(api = API)]
impl Typed {
    #[post("/typed")]
    #[api_version("2.1")]
    #[schema(model = FlavorView)]
    async fn create(&self, body: Versioned<FlavorView>) -> Versioned<FlavorView> {
        Versioned::created(body.into_inner())
    }
}

#[actix_web::test]
async fn versioned_json_after_a_model_schema() {
    let app = actix_test::init_service(App::new().wrap(VersionNegotiation::new(API)).service(Typed)).await;
    let body = json!({"id": "9", "ram": 64, "OS-FLV-EXT-DATA:ephemeral": 0, "swap": 0, "description": "d"});
    let post = |version: &'static str, body: &Value| {
        call_at(&app, &API, version, actix_test::TestRequest::post().uri("/typed").set_json(body))
    };
    assert_eq!(post("2.4", &body).await.status(), StatusCode::BAD_REQUEST);
    let res = post("2.5", &body).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    assert_eq!(read_json(res).await["description"], "d");
    assert_eq!(post("2.5", &json!({"id": "9"})).await.status(), StatusCode::BAD_REQUEST);
}

/// A type of the service's own, described by `schemars`.
#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum PowerState {
    Running,
    Shutdown,
}

#[derive(VersionedModel, Debug, PartialEq)]
struct ServerView {
    id: u32,
    #[versioned(json_schema, since = "2.3")]
    power: Option<PowerState>,
}

#[test]
fn a_json_schema_field_is_described_and_checked_by_its_types_schema() {
    use microversion_actix::model::VersionedModel as _;
    let schema = ServerView::json_schema_at(v("2.3"));
    assert_eq!(schema["properties"]["power"]["enum"], json!(["running", "shutdown", null]));
    assert!(ServerView::json_schema_at(v("2.2"))["properties"].get("power").is_none());
    let documents = [("server", microversion_actix::version::VersionRange::from(v("2.3")), schema)];
    let compiled =
        microversion_actix::schema::VersionedSchemas::compile_documents(documents).expect("it compiles");
    assert!(compiled.validate(v("2.3"), &json!({"id": 1, "power": "running"})).is_ok());
    assert!(compiled.validate(v("2.3"), &json!({"id": 1, "power": "paused"})).is_err(), "paused is no state");
    let mut errors = Vec::new();
    let parsed = ServerView::deserialize_at(v("2.3"), json!({"id": 1, "power": "shutdown"}), "", &mut errors);
    assert_eq!(parsed, Some(ServerView { id: 1, power: Some(PowerState::Shutdown) }), "{errors:?}");
}

/// The flavor view once more, borrowing from the flavor it renders.
#[derive(VersionedModel, Clone)]
#[versioned(api = API)]
struct FlavorSummary<'a> {
    id: &'a str,
    ram: u64,
    #[versioned(rename = "OS-FLV-EXT-DATA:ephemeral")]
    ephemeral: u64,
    #[versioned(since = "2.5")]
    description: Option<&'a str>,
    #[versioned(since = "2.8", default)]
    extra_specs: &'a BTreeMap<String, String>,
    #[versioned(render(until = "2.9", with = swap_before_2_10))]
    swap: u64,
}

impl<'a> FlavorSummary<'a> {
    fn of(flavor: &'a FlavorView) -> FlavorSummary<'a> {
        FlavorSummary {
            id: &flavor.id,
            ram: flavor.ram,
            ephemeral: flavor.ephemeral,
            description: flavor.description.as_deref(),
            extra_specs: &flavor.extra_specs,
            swap: flavor.swap,
        }
    }
}

/// A page of any model, with a link to the next from 2.3.
#[derive(VersionedModel, Debug, PartialEq)]
#[versioned(api = API)]
struct Page<T> {
    #[versioned(nested)]
    items: Vec<T>,
    #[versioned(since = "2.3")]
    next: Option<String>,
}

/// Every version of the history, in order.
fn every_version() -> impl Iterator<Item = Version> {
    API.history().iter().map(|m| m.version)
}

#[test]
fn a_borrowed_model_renders_and_is_described_as_the_owned_one() {
    let owned = flavor();
    let borrowed = FlavorSummary::of(&owned);
    for version in every_version() {
        let expected = serde_json::to_value(owned.at(version)).expect("serializes");
        assert_eq!(serde_json::to_value(borrowed.at(version)).expect("serializes"), expected, "at {version}");
        assert_eq!(
            FlavorSummary::json_schema_at(version),
            FlavorView::json_schema_at(version),
            "at {version}"
        );
    }
    let (mut theirs, mut ours) = (Vec::new(), Vec::new());
    FlavorSummary::changes(&mut ours);
    FlavorView::changes(&mut theirs);
    assert_eq!(ours, theirs);
}

#[test]
fn a_borrowed_model_is_not_read_from_a_request() {
    let body = serde_json::to_value(flavor().at(v("2.12"))).expect("serializes");
    let refused = FlavorSummary::from_json_at(v("2.12"), body).err().expect("refused");
    assert_eq!(
        refused.0.iter().map(|e| format!("{} {}", e.path, e.message)).collect::<Vec<_>>(),
        ["/ `FlavorSummary` borrows its data, so it is only rendered: it cannot be read from a request"]
    );
}

#[test]
fn a_generic_model_renders_reads_and_is_described_at_every_version() {
    let owned = flavor();
    let page = Page { items: vec![owned.clone(), owned.clone()], next: Some("/flavors?marker=1".into()) };
    let borrowed = Page { items: vec![FlavorSummary::of(&owned); 2], next: page.next.clone() };
    for version in every_version() {
        let rendered = serde_json::to_value(page.at(version)).expect("serializes");
        let item = serde_json::to_value(owned.at(version)).expect("serializes");
        let mut expected = json!({"items": [item, item]});
        if version >= v("2.3") {
            expected["next"] = json!("/flavors?marker=1");
        }
        assert_eq!(rendered, expected, "at {version}");
        assert_eq!(serde_json::to_value(borrowed.at(version)).expect("serializes"), rendered, "at {version}");
        let schemas = Page::<FlavorView>::compiled_schemas().expect("derived schemas compile");
        assert!(schemas.validate(version, &rendered).is_ok(), "at {version}");
        // Before 2.10 the swap is rendered as `""`, which reads as no number.
        if version >= v("2.10") {
            let read = Page::<FlavorView>::from_json_at(version, rendered).expect("reads back");
            assert_eq!(read, page, "at {version}");
        }
    }
    let mut changes = Vec::new();
    Page::<FlavorView>::changes(&mut changes);
    changes.sort();
    changes.dedup();
    assert_eq!(changes, [v("2.3"), v("2.5"), v("2.8"), v("2.10")]);
}

/// Each instance of a generic model has its own schemas.
#[test]
fn each_instance_of_a_generic_model_has_its_own_schemas() {
    let flavors = Page::<FlavorView>::compiled_schemas().expect("compiles");
    let networks = Page::<Network>::compiled_schemas().expect("compiles");
    let body = json!({"items": [{"uuid": "n1"}]});
    assert!(networks.validate(v("2.6"), &body).is_ok());
    assert!(flavors.validate(v("2.6"), &body).is_err());
    assert!(std::ptr::eq(flavors, Page::<FlavorView>::compiled_schemas().expect("compiles")));
}
