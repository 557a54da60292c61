//! A small API whose widgets changed at every version, served by one
//! handler per operation at the head of its history and by the version
//! changes between (docs/reference.md §4.10), on actix-web and on axum.
//!
//! | version | change |
//! |---------|--------|
//! | 1.0 | widgets: a name, a `colour`, a finish (`matte`, `gloss`) |
//! | 1.1 | `GET /widgets` lists them (an operation that did not exist before) |
//! | 1.2 | `size` (`SizeAdded`) |
//! | 1.3 | create answers 201 (`CreatedStatus`) |
//! | 1.4 | `colour` is spelled `color` (`ColorSpelling`) |
//! | 1.5 | the `satin` finish (`SatinFinish`) |
//! | 1.6 | a taken name is a 409, not a 400, create answers `Location`, ids are `w-<n>` in paths, the list takes `limit` (`ConflictAndLocation`, `PrefixedIds`, `ListLimit`) |

#![allow(dead_code, unreachable_pub)]

use std::sync::{Arc, Mutex};

use microversion_axum::portable::{Answer, ApiError, Json, Path, Query, StatusCode};
use microversion_axum::{Api, Downgrade, Upgrade, controller, history, version_change};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The shop's API, 1.0 to 1.6.
pub(crate) const SHOP: Api = Api::new(
    "shop",
    history![
        "1.0" => "Widgets.",
        "1.1" => "Widgets can be listed.",
        "1.2" => "Widgets have a size.",
        "1.3" => "A created widget answers 201.",
        "1.4" => "`colour` is spelled `color`.",
        "1.5" => "The satin finish.",
        "1.6" => "A taken name answers 409; a created widget's `Location`; ids in paths are `w-<n>`; the list takes `limit`.",
    ],
);

// ---- The head: the types every handler is written with.

/// A finish.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Finish {
    Matte,
    Gloss,
    Satin,
}

/// A widget to create, as the head reads it.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewWidget {
    pub(crate) name: String,
    pub(crate) color: String,
    #[serde(default = "medium")]
    pub(crate) size: String,
    #[serde(default = "matte")]
    pub(crate) finish: Finish,
}

/// A widget, as the head shows it.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub(crate) struct Widget {
    id: u32,
    name: String,
    color: String,
    size: String,
    finish: Finish,
}

/// `{"widget": ...}`.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub(crate) struct Shown<W> {
    pub(crate) widget: W,
}

/// What create answers at the head.
pub(crate) type ShownWidget = Shown<Widget>;

/// `{"widgets": [...]}`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Listed<W> {
    pub(crate) widgets: Vec<W>,
}

/// The list's query from 1.6.
#[derive(Clone, Debug, Deserialize, Serialize)]
pub(crate) struct ListQuery {
    pub(crate) limit: Option<usize>,
}

fn medium() -> String {
    "m".to_owned()
}

fn matte() -> Finish {
    Finish::Matte
}

// ---- The changes, newest first, each with the types before it.

/// A taken name answers 409 Conflict (400 before); a created widget's
/// answer carries its `Location`.
#[version_change(api = SHOP, "1.6")]
pub(crate) struct ConflictAndLocation;

impl Downgrade<Result<Answer<Shown<Widget>>, ApiError>> for ConflictAndLocation {
    type Before = Result<Answer<Shown<Widget>>, ApiError>;
    fn downgrade(after: Result<Answer<Shown<Widget>>, ApiError>) -> Self::Before {
        match after {
            Ok(answer) => Ok(answer.without_header("location")),
            Err(error) if error.status() == StatusCode::CONFLICT => {
                Err(ApiError::bad_request(error.detail()))
            }
            Err(error) => Err(error),
        }
    }
}

/// Ids in paths are `w-<n>`; a bare number before.
#[version_change(api = SHOP, "1.6")]
pub(crate) struct PrefixedIds;

impl Upgrade<Path<String>> for PrefixedIds {
    type Before = Path<u32>;
    fn upgrade(Path(id): Path<u32>) -> Result<Path<String>, ApiError> {
        Ok(Path(format!("w-{id}")))
    }
}

/// The satin finish.
#[version_change(api = SHOP, "1.5", member(Finish::Satin, didnt_exist))]
pub(crate) struct SatinFinish;

/// The finishes before 1.5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum FinishV1_4 {
    Matte,
    Gloss,
}

impl From<FinishV1_4> for Finish {
    fn from(finish: FinishV1_4) -> Finish {
        match finish {
            FinishV1_4::Matte => Finish::Matte,
            FinishV1_4::Gloss => Finish::Gloss,
        }
    }
}

impl From<Finish> for FinishV1_4 {
    /// Satin shows as gloss to the versions that do not know it.
    fn from(finish: Finish) -> FinishV1_4 {
        match finish {
            Finish::Matte => FinishV1_4::Matte,
            Finish::Gloss | Finish::Satin => FinishV1_4::Gloss,
        }
    }
}

/// A widget to create, 1.4.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewWidgetV1_4 {
    pub(crate) name: String,
    pub(crate) color: String,
    #[serde(default = "medium")]
    pub(crate) size: String,
    #[serde(default = "matte_v1_4")]
    pub(crate) finish: FinishV1_4,
}

fn matte_v1_4() -> FinishV1_4 {
    FinishV1_4::Matte
}

/// A widget shown at 1.4.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub(crate) struct WidgetV1_4 {
    id: u32,
    name: String,
    color: String,
    size: String,
    finish: FinishV1_4,
}

impl From<Widget> for WidgetV1_4 {
    fn from(w: Widget) -> WidgetV1_4 {
        WidgetV1_4 { id: w.id, name: w.name, color: w.color, size: w.size, finish: w.finish.into() }
    }
}

impl Upgrade<Json<NewWidget>> for SatinFinish {
    type Before = Json<NewWidgetV1_4>;
    fn upgrade(Json(w): Json<NewWidgetV1_4>) -> Result<Json<NewWidget>, ApiError> {
        Ok(Json(NewWidget { name: w.name, color: w.color, size: w.size, finish: w.finish.into() }))
    }
}

impl Downgrade<Result<Answer<Shown<Widget>>, ApiError>> for SatinFinish {
    type Before = Result<Answer<Shown<WidgetV1_4>>, ApiError>;
    fn downgrade(after: Result<Answer<Shown<Widget>>, ApiError>) -> Self::Before {
        after.map(|answer| answer.map(|shown| Shown { widget: shown.widget.into() }))
    }
}

/// The widget list takes `limit`; before, every widget is listed and
/// `limit` means nothing.
#[version_change(api = SHOP, "1.6", field(ListQuery::limit, didnt_exist))]
pub(crate) struct ListLimit;

/// The list's query before 1.6: nothing it reads.
#[derive(Clone, Debug, Deserialize, Serialize)]
pub(crate) struct ListQueryV1_4 {}

impl Upgrade<Query<ListQuery>> for ListLimit {
    type Before = Query<ListQueryV1_4>;
    fn upgrade(_: Query<ListQueryV1_4>) -> Result<Query<ListQuery>, ApiError> {
        Ok(Query(ListQuery { limit: None }))
    }
}

/// `colour` is spelled `color`.
#[version_change(api = SHOP, "1.4", field(Widget::color, renamed_from = "colour"))]
pub(crate) struct ColorSpelling;

/// A widget to create, 1.2 and 1.3.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewWidgetV1_3 {
    pub(crate) name: String,
    pub(crate) colour: String,
    #[serde(default = "medium")]
    pub(crate) size: String,
    #[serde(default = "matte_v1_4")]
    pub(crate) finish: FinishV1_4,
}

/// A widget shown at 1.2 and 1.3.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub(crate) struct WidgetV1_3 {
    pub(crate) id: u32,
    pub(crate) name: String,
    pub(crate) colour: String,
    pub(crate) size: String,
    pub(crate) finish: FinishV1_4,
}

impl Upgrade<Json<NewWidgetV1_4>> for ColorSpelling {
    type Before = Json<NewWidgetV1_3>;
    fn upgrade(Json(w): Json<NewWidgetV1_3>) -> Result<Json<NewWidgetV1_4>, ApiError> {
        Ok(Json(NewWidgetV1_4 { name: w.name, color: w.colour, size: w.size, finish: w.finish }))
    }
}

impl Downgrade<Result<Answer<Shown<WidgetV1_4>>, ApiError>> for ColorSpelling {
    type Before = Result<Answer<Shown<WidgetV1_3>>, ApiError>;
    fn downgrade(after: Result<Answer<Shown<WidgetV1_4>>, ApiError>) -> Self::Before {
        after.map(|answer| answer.map(|shown| Shown { widget: shown.widget.into() }))
    }
}

impl From<WidgetV1_4> for WidgetV1_3 {
    fn from(w: WidgetV1_4) -> WidgetV1_3 {
        WidgetV1_3 { id: w.id, name: w.name, colour: w.color, size: w.size, finish: w.finish }
    }
}

/// A created widget answers 201 Created (200 OK before).
#[version_change(api = SHOP, "1.3")]
pub(crate) struct CreatedStatus;

impl Downgrade<Result<Answer<Shown<WidgetV1_3>>, ApiError>> for CreatedStatus {
    type Before = Result<Answer<Shown<WidgetV1_3>>, ApiError>;
    fn downgrade(after: Result<Answer<Shown<WidgetV1_3>>, ApiError>) -> Self::Before {
        after.map(|answer| answer.with_status(StatusCode::OK))
    }
}

/// Widgets have a size, `m` unless given.
#[version_change(api = SHOP, "1.2", field(Widget::size, didnt_exist))]
pub(crate) struct SizeAdded;

/// A widget to create, 1.0 and 1.1.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewWidgetV1_1 {
    pub(crate) name: String,
    pub(crate) colour: String,
    #[serde(default = "matte_v1_4")]
    pub(crate) finish: FinishV1_4,
}

/// A widget shown at 1.0 and 1.1.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub(crate) struct WidgetV1_1 {
    pub(crate) id: u32,
    pub(crate) name: String,
    pub(crate) colour: String,
    pub(crate) finish: FinishV1_4,
}

impl Upgrade<Json<NewWidgetV1_3>> for SizeAdded {
    type Before = Json<NewWidgetV1_1>;
    fn upgrade(Json(w): Json<NewWidgetV1_1>) -> Result<Json<NewWidgetV1_3>, ApiError> {
        Ok(Json(NewWidgetV1_3 { name: w.name, colour: w.colour, size: medium(), finish: w.finish }))
    }
}

impl Downgrade<Result<Answer<Shown<WidgetV1_3>>, ApiError>> for SizeAdded {
    type Before = Result<Answer<Shown<WidgetV1_1>>, ApiError>;
    fn downgrade(after: Result<Answer<Shown<WidgetV1_3>>, ApiError>) -> Self::Before {
        after.map(|answer| answer.map(|shown| Shown { widget: shown.widget.into() }))
    }
}

impl From<WidgetV1_3> for WidgetV1_1 {
    fn from(w: WidgetV1_3) -> WidgetV1_1 {
        WidgetV1_1 { id: w.id, name: w.name, colour: w.colour, finish: w.finish }
    }
}

// ---- The controller: one handler per operation at the head.

/// The widgets, in memory.
#[derive(Clone, Default)]
pub(crate) struct Widgets {
    stored: Arc<Mutex<Vec<Widget>>>,
}

#[controller(api = SHOP, actix, axum, client)]
impl Widgets {
    /// Creates a widget.
    ///
    /// It answers 201 Created with the widget and its `Location`.
    #[post("/widgets")]
    #[api_version("1.0")]
    #[response(201, json_schema = ShownWidget)]
    #[schema(json_schema = NewWidget)]
    #[change(SizeAdded, body, answer)]
    #[change(CreatedStatus, answer, status = 200, doc = "Creates a widget, and answers 200 OK with it.")]
    #[change(ColorSpelling, body, answer)]
    #[change(SatinFinish, body, answer)]
    #[change(ConflictAndLocation, answer)]
    async fn create(&self, body: Json<NewWidget>) -> Result<Answer<Shown<Widget>>, ApiError> {
        let Json(new) = body;
        let mut stored = self.stored.lock().expect("the store");
        if stored.iter().any(|w| w.name == new.name) {
            return Err(ApiError::conflict(format!("a widget is named {}", new.name)));
        }
        let id = stored.len() as u32 + 1;
        let widget = Widget { id, name: new.name, color: new.color, size: new.size, finish: new.finish };
        stored.push(widget.clone());
        Ok(Answer::created(Shown { widget }).with_header("location", format!("/widgets/w-{id}")))
    }

    /// Lists the widgets; from 1.6 at most `limit` of them.
    #[get("/widgets")]
    #[api_version("1.1")]
    #[change(SizeAdded, answer)]
    #[change(ColorSpelling, answer)]
    #[change(SatinFinish, answer)]
    #[change(ListLimit, query)]
    async fn list(&self, query: Query<ListQuery>) -> Json<Listed<Widget>> {
        let stored = self.stored.lock().expect("the store");
        let limit = query.limit.unwrap_or(usize::MAX);
        Json(Listed { widgets: stored.iter().take(limit).cloned().collect() })
    }

    /// Shows a widget, 1.0 and 1.1: written by hand, a variant of its own.
    #[get("/widgets/{id}")]
    #[api_version("1.0", "1.1")]
    async fn show(&self, id: Path<u32>) -> Result<Json<Shown<WidgetV1_1>>, ApiError> {
        let widget = self.find(&format!("w-{}", *id))?;
        let widget = WidgetV1_3::from(WidgetV1_4::from(widget));
        Ok(Json(Shown { widget: widget.into() }))
    }

    /// Shows a widget from 1.2, by the head's handler and the changes since.
    #[get("/widgets/{id}")]
    #[api_version("1.2")]
    #[change(ColorSpelling, answer)]
    #[change(SatinFinish, answer)]
    #[change(PrefixedIds, id)]
    async fn show(&self, id: Path<String>) -> Result<Json<Shown<Widget>>, ApiError> {
        Ok(Json(Shown { widget: self.find(&id)? }))
    }
}

impl Widgets {
    fn find(&self, id: &str) -> Result<Widget, ApiError> {
        let stored = self.stored.lock().expect("the store");
        let found = stored.iter().find(|w| format!("w-{}", w.id) == id).cloned();
        found.ok_or_else(|| ApiError::not_found(format!("no widget {id}")))
    }
}

impl Downgrade<Result<Json<Shown<Widget>>, ApiError>> for SatinFinish {
    type Before = Result<Json<Shown<WidgetV1_4>>, ApiError>;
    fn downgrade(after: Result<Json<Shown<Widget>>, ApiError>) -> Self::Before {
        after.map(|Json(shown)| Json(Shown { widget: shown.widget.into() }))
    }
}

impl Downgrade<Json<Listed<Widget>>> for SatinFinish {
    type Before = Json<Listed<WidgetV1_4>>;
    fn downgrade(Json(after): Json<Listed<Widget>>) -> Self::Before {
        Json(Listed { widgets: after.widgets.into_iter().map(Into::into).collect() })
    }
}

impl Downgrade<Result<Json<Shown<WidgetV1_4>>, ApiError>> for ColorSpelling {
    type Before = Result<Json<Shown<WidgetV1_3>>, ApiError>;
    fn downgrade(after: Result<Json<Shown<WidgetV1_4>>, ApiError>) -> Self::Before {
        after.map(|Json(shown)| Json(Shown { widget: shown.widget.into() }))
    }
}

impl Downgrade<Json<Listed<WidgetV1_4>>> for ColorSpelling {
    type Before = Json<Listed<WidgetV1_3>>;
    fn downgrade(Json(after): Json<Listed<WidgetV1_4>>) -> Self::Before {
        Json(Listed { widgets: after.widgets.into_iter().map(Into::into).collect() })
    }
}

impl Downgrade<Json<Listed<WidgetV1_3>>> for SizeAdded {
    type Before = Json<Listed<WidgetV1_1>>;
    fn downgrade(Json(after): Json<Listed<WidgetV1_3>>) -> Self::Before {
        Json(Listed { widgets: after.widgets.into_iter().map(Into::into).collect() })
    }
}
