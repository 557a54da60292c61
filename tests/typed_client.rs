//! The calls a `#[controller(client)]` client makes (docs/reference.md
//! §14.9), recorded by a transport of the test's own: the controller's
//! scope and route templates filled (a tuple of parameters, a pattern
//! parameter, a regex segment, characters to encode), query strings from a
//! type and from pairs, JSON bodies, the methods of an operation whose
//! variants differ, and the answers read back (a body, none, text); the
//! same client from a controller of the axum facade alone.

use std::sync::Mutex;

use microversion_actix::portable::{Json, JsonQuery, Path, Query, Reply, StatusCode};
use microversion_actix::{Version, controller};
use microversion_core::client::typed_client::{Answer, Call, CallError, Transport};
use microversion_tests::API;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

#[derive(Serialize, Deserialize)]
struct Filter {
    colour: Option<String>,
    limit: u32,
}

#[derive(Serialize, Deserialize)]
struct NewItem {
    name: String,
}

struct Shelves;

#[controller(api = API, scope = "/shelves", actix, client)]
impl Shelves {
    #[get("/{shelf}/items/{id:\\d+}")]
    async fn show(&self, path: Path<(String, u32)>) -> Json<Value> {
        Json(json!({"shelf": path.0, "id": path.1}))
    }

    #[get("/{shelf}/items")]
    #[api_version("2.1", "2.4")]
    async fn list(&self, Path(shelf): Path<String>, filter: Query<Filter>) -> Json<Value> {
        Json(json!({"shelf": shelf, "limit": filter.limit}))
    }

    /// From 2.5 the query is read as it comes.
    #[get("/{shelf}/items")]
    #[api_version("2.5")]
    async fn list(&self, Path(shelf): Path<String>, query: JsonQuery) -> Json<Value> {
        Json(json!({"shelf": shelf, "query": query.value()}))
    }

    #[post("/{shelf}/items")]
    #[api_version("2.3")]
    async fn create(&self, shelf: Path<String>, body: Json<NewItem>) -> Reply {
        Reply::json(StatusCode::CREATED, &json!({"shelf": *shelf, "name": body.name}))
    }
}

/// The same client from a controller of the axum facade alone.
struct Lamps;

#[controller(api = API, axum, client)]
impl Lamps {
    #[put("/lamps/{id}")]
    #[api_version("2.2")]
    async fn switch(&self, id: Path<u32>, body: Json<Value>) -> Json<Value> {
        Json(json!({"id": *id, "on": body["on"]}))
    }
}

/// Records every call and answers each with the next of `answers`.
struct Recorder {
    version: Version,
    calls: Mutex<Vec<Call>>,
    answers: Mutex<Vec<Answer>>,
}

impl Recorder {
    fn at(version: &str, answers: Vec<(u16, &str)>) -> Recorder {
        let answers =
            answers.into_iter().rev().map(|(status, body)| Answer { status, body: body.into() }).collect();
        Recorder { version: version.parse().unwrap(), calls: Mutex::default(), answers: Mutex::new(answers) }
    }

    fn calls(&self) -> Vec<Call> {
        self.calls.lock().unwrap().clone()
    }
}

impl Transport for Recorder {
    fn version(&self) -> Version {
        self.version
    }

    async fn send(&self, call: Call) -> Result<Answer, CallError> {
        self.calls.lock().unwrap().push(call);
        self.answers.lock().unwrap().pop().ok_or_else(|| CallError::Transport("no more answers".into()))
    }
}

fn run<F: std::future::Future>(future: F) -> F::Output {
    actix_web::rt::System::new().block_on(future)
}

#[test]
fn calls_fill_the_scope_and_the_template() {
    let recorder = Recorder::at("2.4", vec![(200, r#"{"id": 7}"#), (200, r#"{"limit": 3}"#), (201, "")]);
    let client = Shelves::client(&recorder);
    run(async {
        let shown = client.show(("top shelf/ä".to_owned(), 7)).await.expect("shown");
        assert_eq!(shown.json(), &json!({"id": 7}));
        let filter = Filter { colour: Some("red & blue".into()), limit: 3 };
        let listed = client.list_2_1("top".to_owned(), &filter).await.expect("listed");
        assert_eq!(listed.decode().expect("a value")["limit"], 3);
        let created = client.create("top".to_owned(), &NewItem { name: "lamp".into() }).await.expect("made");
        assert_eq!((created.status(), created.json()), (201, &Value::Null));
    });
    let calls = recorder.calls();
    let seen: Vec<(&str, &str, &str)> =
        calls.iter().map(|c| (c.method, c.path.as_str(), c.query.as_str())).collect();
    assert_eq!(
        seen,
        [
            ("GET", "/shelves/top%20shelf%2F%C3%A4/items/7", ""),
            ("GET", "/shelves/top/items", "colour=red+%26+blue&limit=3"),
            ("POST", "/shelves/top/items", ""),
        ]
    );
    assert_eq!(calls[0].operation, "Shelves::show");
    assert_eq!(calls[2].body.as_deref(), Some(br#"{"name":"lamp"}"#.as_slice()));
    assert_eq!(calls[0].body, None);
}

#[test]
fn each_signature_is_its_own_method_served_where_its_variants_are() {
    let recorder = Recorder::at("2.5", vec![(200, "plain text")]);
    let client = Shelves::client(&recorder);
    run(async {
        // 2.5 has the pairs' method, not the typed query's.
        let refused = client.list_2_1("top".to_owned(), &Filter { colour: None, limit: 1 }).await;
        match refused {
            Err(CallError::NotAtVersion { operation, version, served }) => {
                assert_eq!((operation, version.to_string()), ("Shelves::list", "2.5".to_owned()));
                assert_eq!(served.iter().map(ToString::to_string).collect::<Vec<_>>(), ["2.1 to 2.4"]);
            }
            other => panic!("{other:?}"),
        }
        let listed = client.list_2_5("top".to_owned(), &[("colour", "red"), ("colour", "blue")]).await;
        // An answer that is not JSON reads as the string of its text.
        assert_eq!(listed.expect("listed").json(), &json!("plain text"));
    });
    let calls = recorder.calls();
    assert_eq!(calls.len(), 1, "the refused call sent nothing");
    assert_eq!(calls[0].query, "colour=red&colour=blue");
}

#[test]
fn an_operation_from_a_later_version_is_refused_before_sending() {
    let recorder = Recorder::at("2.2", vec![]);
    let refused = run(Shelves::client(&recorder).create("top".to_owned(), &NewItem { name: "x".into() }));
    assert!(matches!(refused, Err(CallError::NotAtVersion { .. })), "{refused:?}");
    assert!(recorder.calls().is_empty());
}

#[test]
fn a_controller_of_the_axum_facade_has_the_same_client() {
    let recorder = Recorder::at("2.2", vec![(200, r#"{"id": 3, "on": true}"#)]);
    let switched = run(Lamps::client(&recorder).switch(3, &json!({"on": true}))).expect("switched");
    assert_eq!(switched.json()["on"], true);
    let calls = recorder.calls();
    assert_eq!((calls[0].method, calls[0].path.as_str()), ("PUT", "/lamps/3"));
    assert_eq!(calls[0].body.as_deref(), Some(br#"{"on":true}"#.as_slice()));
    let older = Recorder::at("2.1", vec![]);
    assert!(matches!(run(Lamps::client(&older).switch(3, &json!({}))), Err(CallError::NotAtVersion { .. })));
}
