//! The compute example's resources at every version boundary Nova's history
//! gives them, in process (`actix_web::test`).

use std::sync::Arc;

use actix_web::http::StatusCode;
use actix_web::{App, test as actix_test};
use compute::{COMPUTE, Store};
use microversion_actix::test::{call_at, header, read_json};
use serde_json::{Value, json};

/// Sends one request at `version` to a fresh server; returns status, body (JSON or null) and
/// the `OpenStack-API-Version` response header.
async fn call(version: &str, method: &str, path: &str, body: Option<Value>) -> (StatusCode, Value) {
    let app = actix_test::init_service(
        App::new().configure(compute::routes(Arc::new(Store::with_default_flavors().await), None)),
    )
    .await;
    (calls(&app, &[(version, method, path, body)]).await).pop().expect("one answer")
}

/// Sends several requests in order to one server (state carries over).
async fn calls<S, B>(app: &S, requests: &[(&str, &str, &str, Option<Value>)]) -> Vec<(StatusCode, Value)>
where
    S: actix_web::dev::Service<
            actix_http::Request,
            Response = actix_web::dev::ServiceResponse<B>,
            Error = actix_web::Error,
        >,
    B: actix_web::body::MessageBody,
{
    let mut answers = Vec::new();
    for (version, method, path, body) in requests {
        let mut req = actix_test::TestRequest::default().method(method.parse().expect("method")).uri(path);
        if let Some(body) = body {
            req = req.set_json(body);
        }
        let res = call_at(app, &COMPUTE, version, req).await;
        let status = res.status();
        assert_eq!(
            header(&res, "OpenStack-API-Version"),
            Some(format!("compute {version}")),
            "{method} {path}"
        );
        let bytes = actix_test::read_body(res).await;
        answers.push((status, serde_json::from_slice(&bytes).unwrap_or(Value::Null)));
    }
    answers
}

fn flavor_body(extra: Value) -> Value {
    let mut flavor = json!({"name": "test.flavor", "ram": 1024, "vcpus": 2, "disk": 10, "id": "test-1"});
    flavor.as_object_mut().expect("object").extend(extra.as_object().expect("object").clone());
    json!({"flavor": flavor})
}

#[actix_web::test]
async fn flavor_view_fields_appear_at_their_versions() {
    for (version, description, extra_specs, swap) in [
        ("2.1", false, false, json!("")),
        ("2.54", false, false, json!("")),
        ("2.55", true, false, json!("")),
        ("2.60", true, false, json!("")),
        ("2.61", true, true, json!("")),
        ("2.74", true, true, json!("")),
        ("2.75", true, true, json!(0)),
        ("2.96", true, true, json!(0)),
    ] {
        let (status, body) = call(version, "GET", "/v2.1/flavors/1", None).await;
        assert_eq!(status, StatusCode::OK);
        let flavor = &body["flavor"];
        assert_eq!(flavor.get("description").is_some(), description, "description at {version}");
        assert_eq!(flavor.get("extra_specs").is_some(), extra_specs, "extra_specs at {version}");
        assert_eq!(flavor["swap"], swap, "swap at {version}");
        assert_eq!(flavor["ram"], 512);
        let (_, list) = call(version, "GET", "/v2.1/flavors", None).await;
        assert_eq!(list["flavors"][0].get("description").is_some(), description, "summary at {version}");
        assert!(list["flavors"][0].get("ram").is_none(), "the summary has no ram");
    }
}

#[actix_web::test]
async fn flavor_create_schema_by_version() {
    let with_description = flavor_body(json!({"description": "for tests"}));
    let (status, body) = call("2.54", "POST", "/v2.1/flavors", Some(with_description.clone())).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["badRequest"]["message"].as_str().unwrap_or_default().contains("description"), "{body}");
    let (status, body) = call("2.55", "POST", "/v2.1/flavors", Some(with_description)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["flavor"]["description"], "for tests");
    assert_eq!(body["flavor"]["id"], "test-1");

    for bad in [
        json!({"ram": 0}),
        json!({"ram": "0"}),
        json!({"vcpus": -1}),
        json!({"colour": "red"}),
        json!({"name": " padded"}),
    ] {
        let (status, body) = call("2.1", "POST", "/v2.1/flavors", Some(flavor_body(bad.clone()))).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {body}");
        assert!(body["badRequest"]["message"].is_string(), "Nova fault shape: {body}");
    }
    let (status, body) =
        call("2.1", "POST", "/v2.1/flavors", Some(flavor_body(json!({"ram": "2048", "swap": 512})))).await;
    assert_eq!(
        (status, &body["flavor"]["ram"], &body["flavor"]["swap"]),
        (StatusCode::OK, &json!(2048), &json!(512))
    );
    let (status, body) = call(
        "2.1",
        "POST",
        "/v2.1/flavors",
        Some(json!({"flavor": {"name": "x", "ram": 1, "vcpus": 1, "disk": 0}})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["flavor"]["id"].as_str().map(str::len), Some(36), "a generated uuid");
    // Nova's `flavors.create`: `if not flavorid`, so 0 gets a UUID too; any
    // other number is kept as its text.
    for (id, name, expected) in [(json!(0), "zero-id", None), (json!(7), "seven-id", Some("7"))] {
        let flavor = json!({"flavor": {"name": name, "ram": 1, "vcpus": 1, "disk": 0, "id": id}});
        let (status, body) = call("2.1", "POST", "/v2.1/flavors", Some(flavor)).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let made = body["flavor"]["id"].as_str().unwrap_or_default();
        match expected {
            Some(expected) => assert_eq!(made, expected),
            None => assert_eq!(made.len(), 36, "a generated uuid for id 0: {made}"),
        }
    }

    // Nova's `parameter_types._is_printable` over the Basic Multilingual
    // Plane: a control character or an emoji in a name is `InvalidName`
    // (the `name` format), a newline in a description is refused (its
    // pattern); accented letters and inner spaces are printable.
    let invalid_name = "An invalid 'name' value was provided. The name must be: printable characters. \
                        Can not start or end with whitespace.";
    for name in ["a\u{1}b", "rocket \u{1F680}", "a\u{2028}b"] {
        let (status, body) =
            call("2.1", "POST", "/v2.1/flavors", Some(flavor_body(json!({"name": name})))).await;
        assert_eq!((status, &body["badRequest"]["message"]), (StatusCode::BAD_REQUEST, &json!(invalid_name)));
    }
    let (status, body) =
        call("2.55", "POST", "/v2.1/flavors", Some(flavor_body(json!({"description": "two\nlines"})))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body["badRequest"]["message"].as_str().unwrap_or_default().contains("description"), "{body}");
    let printable = json!({"name": "Zürich café", "description": "fast, für alle"});
    let (status, body) = call("2.55", "POST", "/v2.1/flavors", Some(flavor_body(printable))).await;
    assert_eq!((status, &body["flavor"]["name"]), (StatusCode::OK, &json!("Zürich café")), "{body}");
}

#[actix_web::test]
async fn duplicate_flavors_conflict_and_deleted_ones_are_gone() {
    let app = actix_test::init_service(
        App::new().configure(compute::routes(Arc::new(Store::with_default_flavors().await), None)),
    )
    .await;
    let answers = calls(
        &app,
        &[
            ("2.1", "POST", "/v2.1/flavors", Some(flavor_body(json!({"id": "1"})))),
            ("2.1", "POST", "/v2.1/flavors", Some(flavor_body(json!({"name": "m1.tiny"})))),
            ("2.1", "DELETE", "/v2.1/flavors/2", None),
            ("2.1", "GET", "/v2.1/flavors/2", None),
            ("2.1", "DELETE", "/v2.1/flavors/2", None),
        ],
    )
    .await;
    assert_eq!(answers[0].0, StatusCode::CONFLICT);
    assert_eq!(answers[0].1["conflictingRequest"]["message"], "Flavor with ID 1 already exists.");
    assert_eq!(answers[1].1["conflictingRequest"]["message"], "Flavor with name m1.tiny already exists.");
    assert_eq!(answers[2].0, StatusCode::ACCEPTED);
    assert_eq!(answers[3].0, StatusCode::NOT_FOUND);
    assert_eq!(answers[3].1["itemNotFound"]["message"], "Flavor 2 could not be found.");
    assert_eq!(answers[4].0, StatusCode::NOT_FOUND);
}

#[actix_web::test]
async fn flavor_update_exists_from_2_55() {
    let body = json!({"flavor": {"description": "updated"}});
    let (status, answer) = call("2.54", "PUT", "/v2.1/flavors/1", Some(body.clone())).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(answer["itemNotFound"]["message"], "API version 2.54 is not supported on this method.");
    let (status, answer) = call("2.55", "PUT", "/v2.1/flavors/1", Some(body)).await;
    assert_eq!((status, &answer["flavor"]["description"]), (StatusCode::OK, &json!("updated")));
    let (status, _) = call("2.55", "PUT", "/v2.1/flavors/1", Some(json!({"flavor": {}}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "description is required");
    let (status, _) =
        call("2.96", "PUT", "/v2.1/flavors/nope", Some(json!({"flavor": {"description": null}}))).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[actix_web::test]
async fn extra_specs_show_in_views_from_2_61() {
    let app = actix_test::init_service(
        App::new().configure(compute::routes(Arc::new(Store::with_default_flavors().await), None)),
    )
    .await;
    let answers = calls(
        &app,
        &[
            (
                "2.1",
                "POST",
                "/v2.1/flavors/1/os-extra_specs",
                Some(json!({"extra_specs": {"hw:cpu_policy": "dedicated", "n": 2}})),
            ),
            ("2.60", "GET", "/v2.1/flavors/1", None),
            ("2.61", "GET", "/v2.1/flavors/1", None),
            ("2.1", "GET", "/v2.1/flavors/1/os-extra_specs/n", None),
            ("2.1", "PUT", "/v2.1/flavors/1/os-extra_specs/n", Some(json!({"other": "1"}))),
            ("2.1", "DELETE", "/v2.1/flavors/1/os-extra_specs/n", None),
            ("2.1", "GET", "/v2.1/flavors/1/os-extra_specs", None),
            ("2.1", "POST", "/v2.1/flavors/1/os-extra_specs", Some(json!({"extra_specs": {"bad/key": "x"}}))),
        ],
    )
    .await;
    // Echoed as sent (`return body`), the number a number.
    assert_eq!(answers[0], (StatusCode::OK, json!({"extra_specs": {"hw:cpu_policy": "dedicated", "n": 2}})));
    assert!(answers[1].1["flavor"].get("extra_specs").is_none());
    assert_eq!(answers[2].1["flavor"]["extra_specs"], json!({"hw:cpu_policy": "dedicated", "n": "2"}));
    assert_eq!(answers[3].1, json!({"n": "2"}));
    assert_eq!(answers[4].0, StatusCode::BAD_REQUEST, "body and URI mismatch");
    assert_eq!(answers[5].0, StatusCode::OK, "200, as Nova answers an extra spec delete");
    assert_eq!(answers[6].1, json!({"extra_specs": {"hw:cpu_policy": "dedicated"}}));
    assert_eq!(answers[7].0, StatusCode::BAD_REQUEST);
}

/// From 2.86 Nova's validators check the extra specs it knows
/// (`FlavorExtraSpecsController._check_extra_specs_value`, then
/// `api/validation/extra_specs/validators.validate`), before the flavor is
/// looked up and before `PUT`'s body and URI are compared; below 2.86
/// anything the schema takes is stored.
#[actix_web::test]
async fn extra_specs_are_checked_by_novas_validators_from_2_86() {
    let app = actix_test::init_service(
        App::new().configure(compute::routes(Arc::new(Store::with_default_flavors().await), None)),
    )
    .await;
    let create = |version, specs: Value| {
        (version, "POST", "/v2.1/flavors/1/os-extra_specs", Some(json!({"extra_specs": specs})))
    };
    let answers = calls(
        &app,
        &[
            create("2.85", json!({"hw:cpu_policy": "fast"})),
            create("2.86", json!({"hw:cpu_policy": "fast"})),
            create(
                "2.86",
                json!({"hw:cpu_policy": "dedicated", "hw:numa_nodes": 2, "acme:x": "y", "plain": "z"}),
            ),
            create("2.86", json!({"hw:numa_nodes": 1.5})),
            create("2.86", json!({"hw:no_such_thing": "1"})),
            create("2.86", json!({"resources1:VCPU": "1_0", "trait:HW_CPU_X86_AVX": "required"})),
            (
                "2.86",
                "POST",
                "/v2.1/flavors/nope/os-extra_specs",
                Some(json!({"extra_specs": {"hw:cpu_realtime": "maybe"}})),
            ),
            ("2.86", "PUT", "/v2.1/flavors/1/os-extra_specs/other", Some(json!({"hw:numa_nodes": "0"}))),
            (
                "2.86",
                "PUT",
                "/v2.1/flavors/1/os-extra_specs/hw:numa_nodes",
                Some(json!({"hw:numa_nodes": "4"})),
            ),
            ("2.86", "GET", "/v2.1/flavors/1/os-extra_specs", None),
        ],
    )
    .await;
    let status: Vec<u16> = answers.iter().map(|(s, _)| s.as_u16()).collect();
    assert_eq!(status, [200, 400, 200, 400, 400, 200, 400, 400, 200, 200], "{answers:?}");
    let message = |i: usize| answers[i].1["badRequest"]["message"].as_str().unwrap_or_default().to_owned();
    assert_eq!(message(1), "Validation failed; 'fast' is not one of: dedicated, shared, mixed.");
    assert_eq!(message(3), "Validation failed; '1.5' is not a valid integer value.");
    assert_eq!(
        message(4),
        "Validation failed; extra spec 'hw:no_such_thing' does not appear to be a valid extra spec."
    );
    assert_eq!(
        message(6),
        "Validation failed; 'maybe' is not a valid boolean-like value.",
        "before the lookup"
    );
    assert_eq!(
        message(7),
        "Validation failed; '0' is less than the min value of '1'.",
        "before the URI check"
    );
    let stored = &answers[9].1["extra_specs"];
    assert_eq!(stored["hw:numa_nodes"], "4");
    assert_eq!(
        (&stored["acme:x"], &stored["plain"], &stored["resources1:VCPU"]),
        (&json!("y"), &json!("z"), &json!("1_0"))
    );
}

#[actix_web::test]
async fn flavor_list_query_by_version() {
    let (status, body) = call("2.74", "GET", "/v2.1/flavors/detail?minRam=4096&bogus=1", None).await;
    assert_eq!(status, StatusCode::OK, "unknown parameters ignored before 2.75");
    let ids: Vec<&str> =
        body["flavors"].as_array().expect("list").iter().filter_map(|f| f["id"].as_str()).collect();
    assert_eq!(ids, ["3", "4", "5"]);
    let (status, _) = call("2.75", "GET", "/v2.1/flavors/detail?minRam=4096&bogus=1", None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "refused from 2.75");
    let (_, body) = call("2.75", "GET", "/v2.1/flavors?sort_key=memory_mb&sort_dir=desc&limit=2", None).await;
    let ids: Vec<&str> =
        body["flavors"].as_array().expect("list").iter().filter_map(|f| f["id"].as_str()).collect();
    assert_eq!(ids, ["5", "4"]);
    let (_, body) = call("2.1", "GET", "/v2.1/flavors?marker=3", None).await;
    assert_eq!(body["flavors"].as_array().map(Vec::len), Some(2));
    assert_eq!(call("2.1", "GET", "/v2.1/flavors?marker=nope", None).await.0, StatusCode::BAD_REQUEST);
    // Nova's `_flavor_get_all_from_db` finds the marker among every flavor
    // and pages from its place in the sort, even when the filters leave it
    // out: after m1.tiny (512 MB), the flavors of at least 4096 MB.
    let (status, body) = call("2.1", "GET", "/v2.1/flavors?minRam=4096&marker=1", None).await;
    let ids: Vec<&str> =
        body["flavors"].as_array().expect("list").iter().filter_map(|f| f["id"].as_str()).collect();
    assert_eq!((status, ids), (StatusCode::OK, vec!["3", "4", "5"]));
    // In descending order, after the marker is below it.
    let (_, body) = call("2.1", "GET", "/v2.1/flavors?sort_key=memory_mb&sort_dir=desc&marker=4", None).await;
    let ids: Vec<&str> =
        body["flavors"].as_array().expect("list").iter().filter_map(|f| f["id"].as_str()).collect();
    assert_eq!(ids, ["3", "2", "1"]);
    assert_eq!(call("2.1", "GET", "/v2.1/flavors?minRam=lots", None).await.0, StatusCode::BAD_REQUEST);
}

#[actix_web::test]
async fn keypair_status_codes_and_fields_by_version() {
    let app = actix_test::init_service(
        App::new().configure(compute::routes(Arc::new(Store::with_default_flavors().await), None)),
    )
    .await;
    let create = |name: &str, extra: Value| {
        let mut keypair = json!({"name": name});
        keypair.as_object_mut().expect("object").extend(extra.as_object().expect("object").clone());
        Some(json!({"keypair": keypair}))
    };
    let answers = calls(
        &app,
        &[
            ("2.1", "POST", "/v2.1/os-keypairs", create("old", json!({}))),
            ("2.1", "POST", "/v2.1/os-keypairs", create("typed", json!({"type": "ssh"}))),
            ("2.2", "POST", "/v2.1/os-keypairs", create("cert", json!({"type": "x509"}))),
            ("2.2", "POST", "/v2.1/os-keypairs", create("mine", json!({"user_id": "alice"}))),
            ("2.10", "POST", "/v2.1/os-keypairs", create("alices", json!({"user_id": "alice"}))),
            ("2.92", "POST", "/v2.1/os-keypairs", create("gen", json!({}))),
            ("2.91", "POST", "/v2.1/os-keypairs", create("a@b", json!({}))),
            ("2.1", "POST", "/v2.1/os-keypairs", create("old", json!({}))),
            ("2.1", "GET", "/v2.1/os-keypairs/old", None),
            ("2.2", "GET", "/v2.1/os-keypairs/old", None),
            ("2.10", "GET", "/v2.1/os-keypairs/alices?user_id=alice", None),
            ("2.9", "GET", "/v2.1/os-keypairs/alices?user_id=alice", None),
            ("2.1", "DELETE", "/v2.1/os-keypairs/old", None),
            ("2.2", "DELETE", "/v2.1/os-keypairs/cert", None),
            ("2.10", "DELETE", "/v2.1/os-keypairs/alices?user_id=alice", None),
            ("2.2", "POST", "/v2.1/os-keypairs", create("bad", json!({"public_key": "ssh-rsa not-base64"}))),
        ],
    )
    .await;
    let status: Vec<u16> = answers.iter().map(|(s, _)| s.as_u16()).collect();
    assert_eq!(status, [200, 400, 201, 400, 201, 400, 400, 409, 200, 200, 200, 404, 202, 204, 204, 400]);
    let old = &answers[0].1["keypair"];
    // As Nova's `crypto.generate_key_pair` writes a generated pair.
    assert!(old["private_key"].as_str().is_some_and(|k| k.starts_with("-----BEGIN RSA PRIVATE KEY-----\n")));
    assert!(old["public_key"].as_str().is_some_and(|k| k.starts_with("ssh-rsa AAAAB3NzaC1yc2E")));
    assert!(old["public_key"].as_str().is_some_and(|k| k.ends_with(" Generated-by-Nova")));
    assert_eq!(old["fingerprint"].as_str().map(|f| f.split(':').count()), Some(16), "MD5, colon-separated");
    assert!(old.get("type").is_none(), "no type at 2.1");
    let cert = &answers[2].1["keypair"];
    assert_eq!(cert["type"], "x509");
    assert!(cert["public_key"].as_str().is_some_and(|k| k.starts_with("-----BEGIN CERTIFICATE-----")));
    assert_eq!(
        cert["fingerprint"].as_str().map(|f| f.split(':').count()),
        Some(20),
        "SHA-1, colon-separated"
    );
    assert_eq!(answers[4].1["keypair"]["user_id"], "alice");
    assert!(answers[8].1["keypair"].get("type").is_none());
    assert_eq!(answers[9].1["keypair"]["type"], "ssh");
    assert_eq!(answers[9].1["keypair"]["user_id"], "demo");
    assert_eq!(answers[10].1["keypair"]["user_id"], "alice");
    assert_eq!(answers[7].1["conflictingRequest"]["message"], "Key pair 'old' already exists.");
}

/// An imported x509 public key is read as Nova's
/// `crypto.generate_x509_fingerprint` has `cryptography` read it: the first
/// certificate of the PEM text must parse, and a refusal says why in its
/// words (the framing, another kind of PEM) or its parser's (the ASN.1).
#[actix_web::test]
async fn x509_keys_are_read_as_novas_generate_x509_fingerprint_reads_them() {
    let app = actix_test::init_service(
        App::new().configure(compute::routes(Arc::new(Store::with_default_flavors().await), None)),
    )
    .await;
    let import = |name: &str, public_key: &str| {
        let keypair = json!({"name": name, "type": "x509", "public_key": public_key});
        ("2.2", "POST", "/v2.1/os-keypairs", Some(json!({"keypair": keypair})))
    };
    let generated = calls(
        &app,
        &[("2.2", "POST", "/v2.1/os-keypairs", Some(json!({"keypair": {"name": "made", "type": "x509"}})))],
    )
    .await;
    let certificate = generated[0].1["keypair"]["public_key"].as_str().expect("a certificate").to_owned();
    let with_a_key_first =
        format!("-----BEGIN PUBLIC KEY-----\nMAoGCCqGSM49AwEH\n-----END PUBLIC KEY-----\n{certificate}");
    let answers = calls(
        &app,
        &[
            import("again", &certificate),
            import("behind-a-key", &with_a_key_first),
            import("junk", "junk"),
            import("a-key", "-----BEGIN PUBLIC KEY-----\nMAoGCCqGSM49AwEH\n-----END PUBLIC KEY-----\n"),
            import("not-asn1", "-----BEGIN CERTIFICATE-----\nMAMCAQE=\n-----END CERTIFICATE-----\n"),
        ],
    )
    .await;
    let status: Vec<u16> = answers.iter().map(|(s, _)| s.as_u16()).collect();
    assert_eq!(status, [201, 201, 400, 400, 400], "{answers:?}");
    let fingerprint = &generated[0].1["keypair"]["fingerprint"];
    assert_eq!(&answers[0].1["keypair"]["fingerprint"], fingerprint, "the certificate's SHA-1");
    assert_eq!(&answers[1].1["keypair"]["fingerprint"], fingerprint, "the first certificate in the text");
    let message = |i: usize| answers[i].1["badRequest"]["message"].as_str().unwrap_or_default().to_owned();
    let prefix = "Keypair data is invalid: failed to generate X509 fingerprint. Error message: ";
    assert_eq!(
        message(2),
        format!(
            "{prefix}Unable to load PEM file. See https://cryptography.io/en/latest/faq/#why-can-t-i-import-my-pem-file \
             for more details. MalformedFraming"
        )
    );
    assert_eq!(
        message(3),
        format!(
            "{prefix}Valid PEM but no BEGIN CERTIFICATE/END CERTIFICATE delimiters. Are you sure this is a certificate?"
        )
    );
    assert!(message(4).starts_with(&format!("{prefix}error parsing asn1 value: ")), "{}", message(4));
}

/// As Nova's `KeypairController` reads a keypair: a name with whitespace at
/// either end is refused by the `name` format its schemas include
/// (`validators._validate_name`, `InvalidName`), an imported public key is
/// kept as sent (`KeypairAPI.import_key_pair`), and a list names its user by
/// the first `user_id` (`KeypairController._get_user_id`).
#[actix_web::test]
async fn keypairs_as_novas_keypair_controller_reads_them() {
    let app = actix_test::init_service(
        App::new().configure(compute::routes(Arc::new(Store::with_default_flavors().await), None)),
    )
    .await;
    let create = |name: &str| Some(json!({"keypair": {"name": name}}));
    let generated = calls(&app, &[("2.10", "POST", "/v2.1/os-keypairs", create("generated"))]).await;
    let public_key = generated[0].1["keypair"]["public_key"].as_str().expect("a public key").to_owned();
    let sent = format!("{public_key}\n");
    let import = Some(json!({"keypair": {"name": "imported", "public_key": sent}}));
    let answers = calls(
        &app,
        &[
            ("2.10", "POST", "/v2.1/os-keypairs", import),
            ("2.10", "GET", "/v2.1/os-keypairs/imported", None),
            ("2.10", "POST", "/v2.1/os-keypairs", create(" leading")),
            (
                "2.92",
                "POST",
                "/v2.1/os-keypairs",
                Some(json!({"keypair": {"name": "trailing ", "public_key": public_key}})),
            ),
            (
                "2.10",
                "POST",
                "/v2.1/os-keypairs",
                Some(json!({"keypair": {"name": "alices", "user_id": "alice"}})),
            ),
            ("2.10", "GET", "/v2.1/os-keypairs?user_id=alice&user_id=bob", None),
            ("2.10", "GET", "/v2.1/os-keypairs?user_id=bob&user_id=alice", None),
        ],
    )
    .await;
    let status: Vec<u16> = answers.iter().map(|(s, _)| s.as_u16()).collect();
    assert_eq!(status, [201, 200, 400, 400, 201, 200, 200]);
    assert_eq!(answers[0].1["keypair"]["public_key"], sent.as_str(), "as sent, newline included");
    assert_eq!(answers[1].1["keypair"]["public_key"], sent.as_str());
    let invalid_name = "An invalid 'name' value was provided. The name must be: printable characters. \
                        Can not start or end with whitespace.";
    assert_eq!(answers[2].1["badRequest"]["message"], invalid_name);
    assert_eq!(answers[3].1["badRequest"]["message"], invalid_name);
    let names = |body: &Value| -> Vec<String> {
        let keypairs = body["keypairs"].as_array().expect("a list");
        keypairs.iter().filter_map(|k| k["keypair"]["name"].as_str().map(str::to_owned)).collect()
    };
    assert_eq!(names(&answers[5].1), ["alices"], "the first user_id, alice");
    assert!(names(&answers[6].1).is_empty(), "the first user_id, bob, has none");

    // Show and delete name the owner as `_get_user_id` does (the first
    // `user_id`; an empty one is the caller's, `user_id or
    // context.user_id`), and from 2.75 refuse any other parameter with the
    // root message of Nova's query schema.
    let answers = calls(
        &app,
        &[
            ("2.10", "GET", "/v2.1/os-keypairs/alices?user_id=alice&user_id=bob", None),
            ("2.10", "GET", "/v2.1/os-keypairs/alices?user_id=bob&user_id=alice", None),
            ("2.10", "GET", "/v2.1/os-keypairs/generated?user_id=", None),
            ("2.75", "GET", "/v2.1/os-keypairs/alices?user_id=alice&colour=red", None),
            ("2.74", "GET", "/v2.1/os-keypairs/alices?user_id=alice&colour=red", None),
            ("2.75", "DELETE", "/v2.1/os-keypairs/alices?user_id=alice&b=1&a=2", None),
            ("2.75", "DELETE", "/v2.1/os-keypairs/alices?user_id=alice&user_id=bob", None),
        ],
    )
    .await;
    let status: Vec<u16> = answers.iter().map(|(s, _)| s.as_u16()).collect();
    assert_eq!(status, [200, 404, 200, 400, 200, 400, 204]);
    let unexpected = "Additional properties are not allowed ('colour' was unexpected)";
    assert_eq!(answers[3].1["badRequest"]["message"], unexpected);
    let both = "Additional properties are not allowed ('a', 'b' were unexpected)";
    assert_eq!(answers[5].1["badRequest"]["message"], both);
}

/// Nova's `KeypairAPI._check_key_pair_quotas` with the default `[quota]
/// key_pairs` of 100: a user holding 100 keypairs gets 403 for any create,
/// before its key or name is looked at (`keypairs.KeypairController._create`
/// turns `KeypairLimitExceeded` into `HTTPForbidden`); other users are not
/// held back, and a delete makes room.
#[actix_web::test]
async fn keypairs_stop_at_novas_quota_per_user() {
    let app = actix_test::init_service(
        App::new().configure(compute::routes(Arc::new(Store::with_default_flavors().await), None)),
    )
    .await;
    let first = Some(json!({"keypair": {"name": "key-0"}}));
    let generated = calls(&app, &[("2.10", "POST", "/v2.1/os-keypairs", first)]).await;
    let public_key = generated[0].1["keypair"]["public_key"].as_str().expect("a public key").to_owned();
    let import = |name: String, user: Option<&str>| {
        let mut keypair = json!({"name": name, "public_key": public_key});
        if let Some(user) = user {
            keypair["user_id"] = json!(user);
        }
        ("2.10", "POST", "/v2.1/os-keypairs", Some(json!({"keypair": keypair})))
    };
    let filling: Vec<_> = (1..compute::KEYPAIR_QUOTA).map(|i| import(format!("key-{i}"), None)).collect();
    let filled = calls(&app, &filling).await;
    assert!(filled.iter().all(|(status, _)| *status == StatusCode::CREATED), "100 keypairs fit");
    let answers = calls(
        &app,
        &[
            import("one-too-many".into(), None),
            import("key-7".into(), None),
            (
                "2.10",
                "POST",
                "/v2.1/os-keypairs",
                Some(json!({"keypair": {"name": "k", "public_key": "junk"}})),
            ),
            import("alices".into(), Some("alice")),
            ("2.10", "DELETE", "/v2.1/os-keypairs/key-3", None),
            import("one-more".into(), None),
            import("and-another".into(), None),
        ],
    )
    .await;
    let status: Vec<u16> = answers.iter().map(|(s, _)| s.as_u16()).collect();
    assert_eq!(status, [403, 403, 403, 201, 204, 201, 403], "{answers:?}");
    assert_eq!(
        answers[0].1,
        json!({"forbidden": {"code": 403, "message": "Quota exceeded, too many key pairs."}})
    );
    let listed = calls(&app, &[("2.10", "GET", "/v2.1/os-keypairs", None)]).await;
    let count = listed[0].1["keypairs"].as_array().map_or(0, Vec::len) as u64;
    assert_eq!(count, compute::KEYPAIR_QUOTA, "nothing refused was stored");
}

#[actix_web::test]
async fn keypair_paging_from_2_35() {
    let app = actix_test::init_service(
        App::new().configure(compute::routes(Arc::new(Store::with_default_flavors().await), None)),
    )
    .await;
    let mut requests: Vec<(&str, &str, &str, Option<Value>)> = ["a", "b", "c"]
        .iter()
        .map(|n| ("2.35", "POST", "/v2.1/os-keypairs", Some(json!({"keypair": {"name": n}}))))
        .collect();
    requests.push(("2.34", "GET", "/v2.1/os-keypairs?limit=1", None));
    requests.push(("2.35", "GET", "/v2.1/os-keypairs?limit=2", None));
    requests.push(("2.35", "GET", "/v2.1/os-keypairs?limit=2&marker=b", None));
    requests.push(("2.35", "GET", "/v2.1/os-keypairs?marker=zzz", None));
    requests.push(("2.35", "GET", "/v2.1/os-keypairs?limit=3", None));
    requests.push(("2.35", "GET", "/v2.1/os-keypairs?limit=4", None));
    let answers = calls(&app, &requests).await;
    let names = |body: &Value| -> Vec<String> {
        body["keypairs"]
            .as_array()
            .expect("list")
            .iter()
            .filter_map(|k| k["keypair"]["name"].as_str().map(str::to_owned))
            .collect()
    };
    assert_eq!(names(&answers[3].1), ["a", "b", "c"], "no paging before 2.35");
    assert_eq!(names(&answers[4].1), ["a", "b"]);
    assert!(
        answers[4].1["keypairs_links"][0]["href"]
            .as_str()
            .is_some_and(|h| h.ends_with("/v2.1/os-keypairs?limit=2&marker=b"))
    );
    assert_eq!(names(&answers[5].1), ["c"]);
    assert!(answers[5].1.get("keypairs_links").is_none());
    assert_eq!(answers[6].0, StatusCode::BAD_REQUEST);
    // Nova's `_get_collection_links`: a full page has a `next` link, even
    // when nothing follows it; a page with room left has none.
    assert_eq!(names(&answers[7].1), ["a", "b", "c"]);
    assert!(
        answers[7].1["keypairs_links"][0]["href"]
            .as_str()
            .is_some_and(|h| h.ends_with("/v2.1/os-keypairs?limit=3&marker=c")),
        "{}",
        answers[7].1
    );
    assert!(answers[8].1.get("keypairs_links").is_none(), "{}", answers[8].1);
}

#[actix_web::test]
async fn capped_server_refuses_versions_above_the_cap() {
    let cap = microversion_actix::Version::lit("2.60");
    let app = actix_test::init_service(
        App::new().configure(compute::routes(Arc::new(Store::with_default_flavors().await), Some(cap))),
    )
    .await;
    let req = actix_test::TestRequest::get().uri("/v2.1/flavors/1");
    let res = call_at(&app, &COMPUTE, "2.61", req).await;
    assert_eq!(res.status(), StatusCode::NOT_ACCEPTABLE);
    let req = actix_test::TestRequest::get().uri("/v2.1/flavors/1");
    let res = call_at(&app, &COMPUTE, "latest", req).await;
    assert_eq!(header(&res, "OpenStack-API-Version").as_deref(), Some("compute 2.60"));
    let doc = read_json(
        actix_test::call_service(&app, actix_test::TestRequest::get().uri("/v2.1").to_request()).await,
    )
    .await;
    assert_eq!(doc["version"]["version"], "2.60");
}

/// Nova's `views/flavors.py` `_list_view` with `common.get_limit_and_marker`
/// and `_get_collection_links`: a page holds at most `max_limit` (1000)
/// flavors, asked for or not, and a full page links to the next one with
/// every parameter of the query and the page's last flavor id as `marker`.
#[actix_web::test]
async fn flavor_lists_page_as_novas_list_view_pages_them() {
    let app = actix_test::init_service(
        App::new().configure(compute::routes(Arc::new(Store::with_default_flavors().await), None)),
    )
    .await;
    let get = |path: &'static str| ("2.1", "GET", path, None);
    let answers = calls(
        &app,
        &[
            get("/v2.1/flavors?limit=2"),
            get("/v2.1/flavors/detail?sort_key=name&limit=2&marker=4"),
            get("/v2.1/flavors?limit=10"),
            get("/v2.1/flavors?limit=5"),
            get("/v2.1/flavors?limit=0"),
        ],
    )
    .await;
    let ids = |body: &Value| -> Vec<String> {
        body["flavors"]
            .as_array()
            .expect("a list")
            .iter()
            .map(|f| f["id"].as_str().expect("an id").to_owned())
            .collect()
    };
    let next = |body: &Value| body["flavors_links"][0]["href"].as_str().map(str::to_owned);
    assert_eq!(ids(&answers[0].1), ["1", "2"]);
    assert_eq!(next(&answers[0].1).as_deref(), Some("http://localhost:8080/v2.1/flavors?limit=2&marker=2"));
    assert_eq!(answers[0].1["flavors_links"][0]["rel"], "next");
    // The detail list's own collection; the pairs sorted, `marker` replaced where it sorts.
    // By name after m1.large: m1.medium, m1.small.
    assert_eq!(ids(&answers[1].1), ["3", "2"]);
    assert_eq!(
        next(&answers[1].1).as_deref(),
        Some("http://localhost:8080/v2.1/flavors/detail?limit=2&marker=2&sort_key=name")
    );
    // A page with room left has no link; a full one has, even when nothing follows.
    assert!(answers[2].1.get("flavors_links").is_none(), "{}", answers[2].1);
    assert_eq!(next(&answers[3].1).as_deref(), Some("http://localhost:8080/v2.1/flavors?limit=5&marker=5"));
    // `limit=0`: an empty page, and no link (`if max_items and ...`).
    assert_eq!((ids(&answers[4].1).len(), answers[4].1.get("flavors_links")), (0, None));

    // Beyond `max_limit`: 1,000 a page without `limit` and with a larger one.
    let bodies: Vec<Value> = (0..996)
        .map(|n| flavor_body(json!({"name": format!("bulk-{n:04}"), "id": format!("bulk-{n:04}")})))
        .collect();
    let creates: Vec<(&str, &str, &str, Option<Value>)> =
        bodies.into_iter().map(|body| ("2.1", "POST", "/v2.1/flavors", Some(body))).collect();
    assert!(calls(&app, &creates).await.iter().all(|(status, _)| *status == StatusCode::OK));
    let answers = calls(
        &app,
        &[get("/v2.1/flavors"), get("/v2.1/flavors?limit=5000"), get("/v2.1/flavors?marker=bulk-0995")],
    )
    .await;
    for body in [&answers[0].1, &answers[1].1] {
        assert_eq!(body["flavors"].as_array().map(Vec::len), Some(1000));
    }
    // 1000 of 1001 flavors by flavorid ("1" < "2" < ... < "5" < "bulk-0000" ...): the last shown is bulk-0994.
    assert_eq!(next(&answers[0].1).as_deref(), Some("http://localhost:8080/v2.1/flavors?marker=bulk-0994"));
    assert_eq!(
        next(&answers[1].1).as_deref(),
        Some("http://localhost:8080/v2.1/flavors?limit=5000&marker=bulk-0994")
    );
    assert_eq!((ids(&answers[2].1), answers[2].1.get("flavors_links")), (vec![], None));
}

/// `FlavorsController._get_flavors`: `minRam` and `minDisk` are read by
/// Python's `int()` and `is_public` by `_parse_is_public`, each refused in
/// its own words; only `limit` is checked by the query schema
/// (`parameter_types.non_negative_integer`).
#[actix_web::test]
async fn flavor_filters_are_read_as_novas_get_flavors_reads_them() {
    let count = |body: &Value| body["flavors"].as_array().map(Vec::len);
    for (query, flavors) in [
        ("minRam=-1", 5),
        ("minRam=%204096%20", 3),
        ("minRam=4_096", 3),
        ("minRam=%2B8192&minDisk=0", 2),
        ("is_public=%20TRUE%20", 5),
        ("is_public=None", 5),
        ("is_public=off", 0),
        ("limit=007", 5),
    ] {
        let path = format!("/v2.1/flavors?{query}");
        let (status, body) = call("2.1", "GET", &path, None).await;
        assert_eq!((status, count(&body)), (StatusCode::OK, Some(flavors)), "{query}: {body}");
    }
    for (query, message) in [
        ("minRam=lots", "Invalid minRam filter [lots]"),
        ("minRam=4__096", "Invalid minRam filter [4__096]"),
        ("minDisk=1.5", "Invalid minDisk filter [1.5]"),
        ("is_public=maybe", "Invalid is_public filter [maybe]"),
        ("limit=-1", "Invalid input for query parameters limit. Value: -1. '-1' does not match '^[0-9]*$'"),
    ] {
        let path = format!("/v2.1/flavors?{query}");
        let (status, body) = call("2.1", "GET", &path, None).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}");
        assert_eq!(body["badRequest"]["message"], message, "{query}");
    }
}

/// `FlavorExtraSpecsController.create` and `update` `return body`: the
/// values as sent, a number still a number and written as Python's json
/// writes it, while the stored value is its `str()`; a boolean is refused
/// (`schemas/flavors_extraspecs.py`: a string or a number).
#[actix_web::test]
async fn extra_specs_are_echoed_as_sent_and_stored_as_strings() {
    let app = actix_test::init_service(
        App::new().configure(compute::routes(Arc::new(Store::with_default_flavors().await), None)),
    )
    .await;
    let raw = |method: &str, path: &str, body: &str| {
        actix_test::TestRequest::default()
            .method(method.parse().expect("a method"))
            .uri(path)
            .insert_header(("Content-Type", "application/json"))
            .set_payload(body.to_owned())
    };
    let sent = r#"{"extra_specs": {"b": 1e20, "a": 2, "c": "x", "d": 0.5}}"#;
    let res = call_at(&app, &COMPUTE, "2.1", raw("POST", "/v2.1/flavors/1/os-extra_specs", sent)).await;
    assert_eq!(res.status(), StatusCode::OK);
    let echoed = String::from_utf8(actix_test::read_body(res).await.to_vec()).expect("UTF-8");
    // In the order of the keys (docs/14-from-nova.md: Nova keeps the order sent).
    assert_eq!(echoed, r#"{"extra_specs":{"a":2,"b":1e+20,"c":"x","d":0.5}}"#);
    let res =
        call_at(&app, &COMPUTE, "2.1", raw("PUT", "/v2.1/flavors/1/os-extra_specs/e", r#"{"e": 3.0}"#)).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(actix_test::read_body(res).await, r#"{"e":3.0}"#);
    let answers = calls(
        &app,
        &[
            ("2.1", "GET", "/v2.1/flavors/1/os-extra_specs", None),
            ("2.1", "POST", "/v2.1/flavors/1/os-extra_specs", Some(json!({"extra_specs": {"f": true}}))),
            ("2.1", "PUT", "/v2.1/flavors/1/os-extra_specs/f", Some(json!({"f": false}))),
        ],
    )
    .await;
    assert_eq!(
        answers[0].1["extra_specs"],
        json!({"a": "2", "b": "1e+20", "c": "x", "d": "0.5", "e": "3.0"}),
        "stored as Python's str() writes them"
    );
    assert_eq!((answers[1].0, answers[2].0), (StatusCode::BAD_REQUEST, StatusCode::BAD_REQUEST));
}

/// `os-flavor-access` as Nova's `FlavorAccessController` and
/// `FlavorActionController` keep it: a private flavor's projects, added and
/// removed through `POST /flavors/{id}/action` (the body's only key names
/// the action, `wsgi.action_peek`), a public flavor refused from 2.7, and
/// the projects gone with the flavor (`_flavor_destroy`).
#[actix_web::test]
async fn flavor_access_as_novas_flavor_access_controllers_keep_it() {
    let app = actix_test::init_service(
        App::new().configure(compute::routes(Arc::new(Store::with_default_flavors().await), None)),
    )
    .await;
    let act =
        |version, id: &str, body: Value| (version, "POST", format!("/v2.1/flavors/{id}/action"), Some(body));
    let add =
        |version, id: &str, tenant: &str| act(version, id, json!({"addTenantAccess": {"tenant": tenant}}));
    let remove = |id: &str, tenant: &str| act("2.7", id, json!({"removeTenantAccess": {"tenant": tenant}}));
    let list = |id: &str| ("2.1", "GET", format!("/v2.1/flavors/{id}/os-flavor-access"), None);
    let private =
        flavor_body(json!({"id": "p1", "name": "private.one", "os-flavor-access:is_public": false}));
    let requests: Vec<(&str, &str, String, Option<Value>)> = vec![
        list("1"),
        list("nope"),
        ("2.1", "POST", "/v2.1/flavors".into(), Some(private.clone())),
        list("p1"),
        add("2.7", "p1", "proj-b"),
        add("2.7", "p1", "proj-a"),
        add("2.7", "p1", "proj-a"),
        remove("p1", "proj-b"),
        remove("p1", "proj-b"),
        list("p1"),
        add("2.6", "1", "proj-x"),
        add("2.7", "1", "proj-y"),
        add("2.7", "nope", "proj-a"),
        act("2.7", "p1", json!({})),
        act("2.7", "p1", json!({"addTenantAccess": {"tenant": "a"}, "removeTenantAccess": {"tenant": "a"}})),
        act("2.7", "p1", json!({"fly": {}})),
        act("2.7", "p1", json!({"addTenantAccess": {}})),
        act("2.7", "p1", json!({"addTenantAccess": {"tenant": ""}})),
        ("2.1", "DELETE", "/v2.1/flavors/p1".into(), None),
        ("2.1", "POST", "/v2.1/flavors".into(), Some(private)),
        list("p1"),
    ];
    let requests: Vec<(&str, &str, &str, Option<Value>)> =
        requests.iter().map(|(v, m, p, b)| (*v, *m, p.as_str(), b.clone())).collect();
    let answers = calls(&app, &requests).await;
    let status: Vec<u16> = answers.iter().map(|(s, _)| s.as_u16()).collect();
    assert_eq!(
        status,
        [
            404, 404, 200, 200, 200, 200, 409, 200, 404, 200, 200, 409, 404, 400, 400, 400, 400, 400, 202,
            200, 200
        ],
        "{answers:?}"
    );
    let message = |i: usize| -> String {
        let body = &answers[i].1;
        let fault = body.as_object().and_then(|o| o.values().next()).expect("a fault");
        fault["message"].as_str().expect("a message").to_owned()
    };
    let entries = |i: usize| answers[i].1["flavor_access"].clone();
    assert_eq!(message(0), "Access list not available for public flavors.");
    assert_eq!(message(1), "Flavor nope could not be found.");
    assert_eq!(entries(3), json!([]));
    assert_eq!(entries(4), json!([{"flavor_id": "p1", "tenant_id": "proj-b"}]));
    assert_eq!(
        entries(5),
        json!([{"flavor_id": "p1", "tenant_id": "proj-a"}, {"flavor_id": "p1", "tenant_id": "proj-b"}])
    );
    assert_eq!(message(6), "Flavor access already exists for flavor p1 and project proj-a combination.");
    assert_eq!(entries(7), json!([{"flavor_id": "p1", "tenant_id": "proj-a"}]));
    assert_eq!(message(8), "Flavor access not found for p1 / proj-b combination.");
    assert_eq!(entries(9), entries(7));
    // Until 2.6 a public flavor takes a project; from 2.7 it is a conflict.
    assert_eq!(entries(10), json!([{"flavor_id": "1", "tenant_id": "proj-x"}]));
    assert_eq!(message(11), "Can not add access to a public flavor.");
    assert_eq!(message(12), "Flavor nope could not be found.");
    assert_eq!(
        (message(13), message(14)),
        ("Malformed request body".into(), "Malformed request body".into())
    );
    assert_eq!(message(15), "There is no such action: fly");
    assert_eq!(
        message(16),
        "Invalid input for field/attribute addTenantAccess. Value: {}. 'tenant' is a required property"
    );
    assert_eq!(message(17), "Invalid input for field/attribute tenant. Value: . '' should be non-empty");
    // The projects went with the flavor.
    assert_eq!(entries(20), json!([]));
}
