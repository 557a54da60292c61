//! A request schema and body shaped like Nova's `POST /servers`, used to
//! compare validation through the framework with the validator alone.

use microversion_actix::{
    Version,
    schema::{SchemaError, SchemaSource, VersionedSchemas},
    version::VersionRange,
};
use serde_json::{Value, json};

/// The version the schema benchmarks validate at.
pub const AT: Version = Version::new(2, 27);

/// A create-server schema of realistic size: nested objects, formats,
/// patterns, arrays and closed property sets.
pub fn create_server_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "server": {
                "type": "object",
                "properties": {
                    "name": {"type": "string", "minLength": 1, "maxLength": 255,
                             "pattern": "^[^\\s].*[^\\s]$|^[^\\s]$"},
                    "imageRef": {"type": "string", "format": "uuid"},
                    "flavorRef": {"type": ["string", "integer"], "minLength": 1},
                    "key_name": {"type": "string", "minLength": 1, "maxLength": 255},
                    "min_count": {"type": "integer", "minimum": 1},
                    "max_count": {"type": "integer", "minimum": 1},
                    "availability_zone": {"type": "string", "maxLength": 255},
                    "metadata": {
                        "type": "object",
                        "maxProperties": 128,
                        "additionalProperties": {"type": "string", "maxLength": 255}
                    },
                    "networks": {
                        "oneOf": [
                            {"type": "array", "items": {
                                "type": "object",
                                "properties": {
                                    "uuid": {"type": "string", "format": "uuid"},
                                    "fixed_ip": {"type": "string", "format": "ipv4"},
                                    "tag": {"type": "string", "maxLength": 60}
                                },
                                "additionalProperties": false
                            }},
                            {"type": "string", "enum": ["auto", "none"]}
                        ]
                    },
                    "security_groups": {
                        "type": "array",
                        "items": {"type": "object", "properties": {"name": {"type": "string"}},
                                  "required": ["name"], "additionalProperties": false}
                    }
                },
                "required": ["name", "flavorRef"],
                "additionalProperties": false
            }
        },
        "required": ["server"],
        "additionalProperties": false
    })
}

/// An older, smaller schema, so the versioned set has more than one entry.
pub fn create_server_schema_v2_1() -> Value {
    json!({"type": "object", "required": ["server"],
           "properties": {"server": {"type": "object", "required": ["name", "flavorRef"]}}})
}

/// A valid body for [`create_server_schema`].
pub fn create_server_body() -> Value {
    json!({
        "server": {
            "name": "web-01",
            "imageRef": "70a599e0-31e7-49b7-b260-868f441e862b",
            "flavorRef": "1",
            "key_name": "deployer",
            "min_count": 1,
            "max_count": 1,
            "availability_zone": "nova",
            "metadata": {"role": "web", "owner": "team-a", "tier": "frontend"},
            "networks": [
                {"uuid": "ff608d40-75e9-48cb-b745-77bb55b5eaf2", "fixed_ip": "10.0.0.12", "tag": "eth0"},
                {"uuid": "5e3e5b0a-3e27-4b43-8a63-33c7c1d3b2d8"}
            ],
            "security_groups": [{"name": "default"}, {"name": "web"}]
        }
    })
}

/// The schema sources of the framework side: 2.1 to 2.26 and 2.27 on.
pub const SOURCES: [SchemaSource; 2] = [
    SchemaSource {
        name: "create_server_v2_1",
        range: VersionRange::between(Version::new(2, 1), Version::new(2, 26)),
        schema: create_server_schema_v2_1,
    },
    SchemaSource { name: "create_server_v2_27", range: VersionRange::from(AT), schema: create_server_schema },
];

/// The framework's compiled set for [`SOURCES`].
pub fn versioned() -> Result<VersionedSchemas, SchemaError> {
    VersionedSchemas::compile(&SOURCES)
}

/// The validator alone, built with the options the framework uses
/// (formats validated), for the direct baseline.
pub fn direct() -> jsonschema::Validator {
    jsonschema::options()
        .should_validate_formats(true)
        .build(&create_server_schema())
        .expect("the create-server schema is valid")
}
