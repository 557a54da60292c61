// Every form of #[derive(VersionedModel)].
use std::collections::BTreeMap;

use microversion_actix::{Version, VersionedModel};
use serde_json::{Value, json};

mod reexport {
    pub use microversion_actix as mv;
}

fn name_schema() -> Value {
    json!({"type": "string", "minLength": 1, "maxLength": 255})
}

fn legacy_swap(swap: &u64) -> Value {
    if *swap == 0 { json!("") } else { json!(swap) }
}

#[derive(VersionedModel)]
#[versioned(api = microversion_tests::API, allow_unknown)]
struct Flavor {
    #[versioned(schema = name_schema)]
    name: String,
    #[versioned(rename = "OS-FLV-EXT-DATA:ephemeral", default)]
    ephemeral: u64,
    #[versioned(since = "2.5", until = "2.9")]
    note: Option<String>,
    #[versioned(until = "2.4", default)]
    legacy: bool,
    #[versioned(render(until = "2.9", with = legacy_swap))]
    swap: u64,
    #[versioned(nested, since = "2.3")]
    access: Option<Access>,
    #[versioned(nested, default)]
    projects: Vec<Access>,
    #[versioned(nested, default)]
    by_name: BTreeMap<String, Access>,
    extra: Value,
}

#[derive(VersionedModel)]
#[versioned(crate = "crate::reexport::mv")]
struct Access {
    project: String,
}

fn main() {
    let flavor = Flavor {
        name: "tiny".into(),
        ephemeral: 0,
        note: None,
        legacy: false,
        swap: 0,
        access: None,
        projects: vec![],
        by_name: BTreeMap::new(),
        extra: json!(null),
    };
    let _ = serde_json::to_value(flavor.at(Version::lit("2.5")));
    let _ = Flavor::json_schema_at(Version::lit("2.1"));
}
