//! The built-in error formats (API-SIG errors, Nova faults) as every
//! facade renders them: the fields each writes, the fault names, the served
//! range on a 400 or 406, and bodies their own schemas accept
//! (docs/reference.md §5).

#![cfg(feature = "portable")]

use microversion_core::portable::{ApiError, StatusCode};
use microversion_core::{
    ErrorFormat, NegotiationError, Version, Violation, discovery::Link, error::ApiSigErrors,
    error::NovaFaults,
};
use serde_json::{Value, json};

#[test]
fn api_sig_has_every_optional_field_when_set() {
    let err = ApiError::bad_request("bad")
        .with_request_id("req-9")
        .with_versions(Version::new(2, 1), Version::new(2, 5))
        .with_link(Link { href: "http://docs".into(), rel: "help".into(), media_type: None });
    let body = err.body(&ApiSigErrors, None);
    assert_eq!(
        body,
        json!({"errors": [{
            "request_id": "req-9", "code": "bad-request", "status": 400, "title": "Bad Request",
            "detail": "bad", "links": [{"href": "http://docs", "rel": "help"}],
            "min_version": "2.1", "max_version": "2.5"
        }]})
    );
}

#[test]
fn nova_fault_names_follow_status() {
    let nova = NovaFaults::default();
    let cases = [
        (400, "badRequest"),
        (404, "itemNotFound"),
        (409, "conflictingRequest"),
        (413, "overLimit"),
        (415, "badMediaType"),
        (406, "computeFault"),
        (500, "computeFault"),
        (501, "notImplemented"),
    ];
    for (status, name) in cases {
        let err = ApiError::from_status(StatusCode::from_u16(status).unwrap(), "m");
        assert_eq!(err.body(&nova, None), json!({name: {"code": status, "message": "m"}}));
    }
    assert_eq!(NovaFaults::with_fallback("volumeFault").fault_name(500), "volumeFault");
}

/// Every built-in format says the served range in the body of a 406
/// and of a malformed version's 400, and leaves it out otherwise.
#[test]
fn every_format_writes_bodies_its_schema_accepts() {
    let errors = [
        ApiError::from_status(StatusCode::NOT_FOUND, "gone").with_request_id("req-1"),
        ApiError::bad_request("bad").with_versions(Version::new(2, 1), Version::new(2, 5)),
        ApiError::invalid_input(vec![Violation::new("/a", "type", "m")]),
        ApiError::conflict("c").with_link(Link {
            href: "http://h".into(),
            rel: "help".into(),
            media_type: None,
        }),
    ];
    let formats: [&dyn ErrorFormat; 2] = [&ApiSigErrors, &NovaFaults::default()];
    for format in formats {
        let validator = jsonschema::validator_for(&format.schema()).expect("a valid schema");
        for error in &errors {
            let body = error.body(format, Some("compute"));
            assert!(validator.is_valid(&body), "{body} breaks {}", format.schema());
        }
        assert!(!validator.is_valid(&json!([])), "an array is no error body");
    }
}

#[test]
fn every_format_puts_the_range_in_the_body() {
    let not_acceptable = ApiError::from(NegotiationError::NotAcceptable {
        requested: Version::lit("3.7"),
        min: Version::lit("2.1"),
        max: Version::lit("2.96"),
    });
    let malformed = ApiError::from(NegotiationError::Malformed {
        requested: "2.x".into(),
        min: Version::lit("2.1"),
        max: Version::lit("2.96"),
    });
    let formats: [(&str, &dyn ErrorFormat); 3] = [
        ("API-SIG", &ApiSigErrors),
        ("Nova faults", &NovaFaults::default()),
        ("Nova faults, another fallback", &NovaFaults::with_fallback("volumeFault")),
    ];
    for (name, format) in formats {
        for (err, status) in [(&not_acceptable, 406), (&malformed, 400)] {
            let body = err.body(format, Some("compute"));
            let entry = range_holder(&body).unwrap_or_else(|| panic!("{name}: one error entry in {body}"));
            assert_eq!(entry["min_version"], json!("2.1"), "{name} {status}: {body}");
            assert_eq!(entry["max_version"], json!("2.96"), "{name} {status}: {body}");
        }
        let plain = ApiError::conflict("Locked.").body(format, None);
        let entry = range_holder(&plain).unwrap_or_else(|| panic!("{name}: one error entry in {plain}"));
        assert!(entry.get("min_version").is_none(), "{name}: {plain}");
        assert!(entry.get("max_version").is_none(), "{name}: {plain}");
    }
}

/// The object that holds an error's fields: the only entry of an
/// API-SIG `errors` list, or the only fault of a Nova body.
fn range_holder(body: &Value) -> Option<&serde_json::Map<String, Value>> {
    let object = body.as_object()?;
    if let Some(errors) = object.get("errors") {
        return errors.as_array().filter(|e| e.len() == 1)?[0].as_object();
    }
    (object.len() == 1).then(|| object.values().next()?.as_object()).flatten()
}

#[test]
fn nova_fault_carries_the_range_fields() {
    let err = ApiError::from(NegotiationError::NotAcceptable {
        requested: Version::lit("3.7"),
        min: Version::lit("2.1"),
        max: Version::lit("2.96"),
    });
    assert_eq!(
        err.body(&NovaFaults::default(), Some("compute")),
        json!({"computeFault": {
            "code": 406,
            "message": "Version 3.7 is not supported by the API. Minimum is 2.1 and maximum is 2.96.",
            "min_version": "2.1", "max_version": "2.96"
        }})
    );
}

#[test]
fn codes_from_statuses() {
    assert_eq!(ApiError::from_status(StatusCode::NOT_FOUND, "x").code(), "not-found");
    assert_eq!(ApiError::from_status(StatusCode::PAYLOAD_TOO_LARGE, "x").code(), "payload-too-large");
    assert_eq!(ApiError::from_status(StatusCode::IM_A_TEAPOT, "x").code(), "i-m-a-teapot");
}

#[test]
fn negotiation_errors_keep_range_and_message() {
    let err = ApiError::from(NegotiationError::NotAcceptable {
        requested: Version::new(3, 7),
        min: Version::new(2, 1),
        max: Version::new(2, 96),
    });
    assert_eq!(err.status(), StatusCode::NOT_ACCEPTABLE);
    assert_eq!(err.detail(), "Version 3.7 is not supported by the API. Minimum is 2.1 and maximum is 2.96.");
    assert_eq!((err.min_version(), err.max_version()), (Some(Version::new(2, 1)), Some(Version::new(2, 96))));
}
