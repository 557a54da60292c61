// Models that borrow and models over types, with every field option.
use std::collections::BTreeMap;

use microversion_actix::{Version, VersionedModel, model::VersionedStruct};
use serde_json::{Value, json};

mod reexport {
    pub use microversion_actix as mv;
}

fn name_schema() -> Value {
    json!({"type": "string", "minLength": 1})
}

fn legacy_swap(swap: &u64) -> Value {
    if *swap == 0 { json!("") } else { json!(swap) }
}

#[derive(VersionedModel)]
#[versioned(api = microversion_tests::API, allow_unknown)]
struct Summary<'a> {
    #[versioned(schema = name_schema)]
    name: &'a str,
    #[versioned(rename = "OS-FLV-EXT-DATA:ephemeral", default)]
    ephemeral: u64,
    #[versioned(since = "2.5", until = "2.9", skip_none)]
    note: Option<&'a str>,
    #[versioned(render(until = "2.9", with = legacy_swap))]
    swap: u64,
    #[versioned(nested, since = "2.3")]
    access: Option<Access<'a>>,
    #[versioned(nested, default)]
    by_name: BTreeMap<String, Access<'a>>,
    tags: &'a [String],
    extra: &'a Value,
}

#[derive(VersionedModel, Clone)]
#[versioned(crate = "crate::reexport::mv")]
struct Access<'a> {
    project: std::borrow::Cow<'a, str>,
}

/// Over a type: plain, nested and defaulted fields of it, with bounds of its own.
#[derive(VersionedModel)]
struct Tagged<T: Clone, M>
where
    M: Send,
{
    value: T,
    #[versioned(since = "2.2", default)]
    previous: Vec<T>,
    #[versioned(nested)]
    models: Vec<M>,
}

/// Both: a borrowed page of any model.
#[derive(VersionedModel)]
struct Page<'a, T> {
    #[versioned(nested)]
    items: Vec<T>,
    #[versioned(since = "2.3")]
    next: Option<&'a str>,
}

fn main() {
    let tags = vec!["a".to_owned()];
    let extra = json!(null);
    let access = Access { project: "p".into() };
    let summary = Summary {
        name: "tiny",
        ephemeral: 0,
        note: None,
        swap: 0,
        access: Some(access.clone()),
        by_name: BTreeMap::from([("p".to_owned(), access)]),
        tags: &tags,
        extra: &extra,
    };
    let _ = serde_json::to_value(summary.at(Version::lit("2.5")));
    let _ = Summary::json_schema_at(Version::lit("2.1"));
    let tagged: Tagged<u32, Access<'static>> = Tagged { value: 1, previous: vec![], models: vec![] };
    let _ = serde_json::to_value(tagged.at(Version::lit("2.2")));
    let _ = Tagged::<u32, Access<'static>>::json_schema_at(Version::lit("2.2"));
    let _ = Tagged::<String, Tagged<u8, Tagged<u8, Tagged<u8, Access<'static>>>>>::changes;
    let _ = Tagged::<u32, Tagged<u8, Tagged<u8, Tagged<u8, Access<'static>>>>>::compiled_schemas;
    let page = Page { items: vec![summary], next: Some("/next") };
    let _ = serde_json::to_value(page.at(Version::lit("2.3")));
}
