//! The OpenAPI 3.0.3 documents read by other tools: openapi-spec-validator
//! accepts every committed one, and a client progenitor generates from the
//! newest one talks to the compute server.

use super::FRAMEWORK;

#[path = "../common/python.rs"]
mod python;

use compute::{COMPUTE, RunningServer};
use serde_json::json;

/// The client of the newest version, generated at compile time from its
/// committed 3.0 document (`openapi/3.0/2.96.json`).
mod client {
    progenitor::generate_api!(spec = "openapi/3.0/2.96.json");
}

use client::types;

/// The example's program: its `openapi` command writes the documents.
const NODE: &str = env!("CARGO_BIN_EXE_compute-node");

/// `compute openapi --openapi 3.0` prints the 3.0 document of a version
/// (the newest without `--version`), writes every version's with `--out`,
/// and refuses an unknown OpenAPI version and the 3.1-only history.
#[test]
fn the_openapi_command_prints_and_writes_3_0_documents() {
    let description = compute::description(COMPUTE);
    let run = |args: &[&str]| {
        let output =
            std::process::Command::new(NODE).arg("openapi").args(args).output().expect("compute-node runs");
        (output.status.success(), String::from_utf8_lossy(&output.stdout).into_owned(), output.stderr)
    };
    let printed = |args: &[&str]| -> serde_json::Value {
        let (ok, stdout, stderr) = run(args);
        assert!(ok, "{args:?}: {}", String::from_utf8_lossy(&stderr));
        serde_json::from_str(&stdout).expect("a JSON document")
    };
    let at_2_61 = compute::Version::lit("2.61");
    assert_eq!(printed(&["--version", "2.61", "--openapi", "3.0"]), description.document_3_0(at_2_61));
    assert_eq!(printed(&["--openapi", "3.0", "--version", "2.61"]), description.document_3_0(at_2_61));
    let newest = printed(&["--openapi", "3.0"]);
    assert_eq!(newest, description.document_3_0(COMPUTE.max()));
    assert_eq!(newest["openapi"], "3.0.3");
    // 3.1 stays the default, and can be asked for by name.
    assert_eq!(printed(&["--version", "2.61"]), description.document(at_2_61));
    assert_eq!(printed(&["--openapi", "3.1", "--version", "2.61"]), description.document(at_2_61));
    for refused in [&["--openapi", "2.0"][..], &["--openapi"], &["--openapi", "3.0", "--history"]] {
        let (ok, _, stderr) = run(refused);
        assert!(!ok, "{refused:?} is refused");
        assert!(String::from_utf8_lossy(&stderr).contains("usage: compute openapi"), "{refused:?}");
    }
    let dir =
        std::env::temp_dir().join(format!("compute-openapi-3-0-{}-{}", FRAMEWORK.name(), std::process::id()));
    let (ok, _, stderr) = run(&["--out", &dir.to_string_lossy(), "--openapi", "3.0"]);
    assert!(ok, "{}", String::from_utf8_lossy(&stderr));
    let written = std::fs::read_dir(&dir).expect("the directory").count();
    assert_eq!(written, COMPUTE.history().len(), "one file per version, no history");
    let text = std::fs::read_to_string(dir.join("2.61.json")).expect("2.61.json");
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&text).ok(),
        Some(description.document_3_0(at_2_61))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every committed 3.0 document reads as the `openapiv3` crate's typed
/// OpenAPI 3.0 model (what progenitor reads), in Rust, without Python.
#[test]
fn every_3_0_document_reads_as_openapiv3() {
    let dir = python::compute_dir().join("openapi").join("3.0");
    for version in COMPUTE.history().iter().map(|m| m.version) {
        let path = dir.join(format!("{version}.json"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let document: openapiv3::OpenAPI =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!((document.openapi.as_str(), document.info.version), ("3.0.3", version.to_string()));
        assert!(!document.paths.paths.is_empty(), "{version}");
    }
    // The check bites: a 3.1 document's type arrays do not read as 3.0.
    let v3_1 = compute::description(COMPUTE).document(COMPUTE.max());
    assert!(serde_json::from_value::<openapiv3::OpenAPI>(v3_1).is_err());
}

/// openapi-spec-validator (pinned in `interop/requirements.txt`, in the
/// interop tests' venv) validates every committed 3.0 document by the 3.0
/// rules.
#[test]
fn every_3_0_document_passes_openapi_spec_validator() {
    let docs = python::compute_dir().join("openapi");
    python::run_script("openapi_3_0_validator.py", &[&docs.to_string_lossy()]);
}

/// The generated client creates, reads, lists and deletes flavors, extra
/// specs and keypairs on a live server, sending the version header through
/// its reqwest client's default headers; each answer deserializes into the
/// types generated from the document, and the errors the document declares
/// come back as its `Error` type.
#[test]
fn a_generated_client_talks_to_the_server() {
    let server = RunningServer::start(FRAMEWORK).expect("the compute example starts");
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    runtime.block_on(talk(&server.url));
}

fn value<T: serde::de::DeserializeOwned>(value: serde_json::Value) -> T {
    serde_json::from_value(value).expect("a value of the generated type")
}

async fn talk(url: &str) {
    let newest = COMPUTE.compiled_max();
    assert_eq!(
        <client::Client as progenitor::progenitor_client::ClientInfo<()>>::api_version(),
        newest.to_string()
    );
    let mut headers = reqwest::header::HeaderMap::new();
    let version = format!("compute {newest}");
    headers.insert("OpenStack-API-Version", version.parse().expect("a header value"));
    let http =
        reqwest::Client::builder().default_headers(headers).no_proxy().build().expect("a reqwest client");
    let api = client::Client::new_with_client(url, http);
    let served = |headers: &reqwest::header::HeaderMap| {
        headers.get("openstack-api-version").and_then(|v| v.to_str().ok()).map(str::to_owned)
    };

    // Flavors: create (a 2.55 description), show, list, update.
    let body: types::FlavorsPostBody = value(json!({"flavor": {
        "name": "progenitor.small", "ram": 512, "vcpus": 1, "disk": 1, "id": "progenitor-1",
        "description": "made by a generated client", "os-flavor-access:is_public": "True"
    }}));
    let created = api.flavors_post(None, &body).await.expect("the flavor is created");
    assert_eq!(created.status(), 200);
    assert_eq!(served(created.headers()).as_deref(), Some(version.as_str()));
    let flavor = created.into_inner().flavor;
    assert_eq!((flavor.id.as_str(), flavor.ram, flavor.vcpus), ("progenitor-1", 512, 1));
    assert_eq!(flavor.description.as_deref(), Some("made by a generated client"));
    assert!(flavor.os_flavor_access_is_public);

    let id: types::FlavorsIdGetId = "progenitor-1".parse().expect("an id");
    let shown = api.flavors_id_get(&id, None).await.expect("the flavor is shown").into_inner().flavor;
    assert_eq!(shown.name, "progenitor.small");
    let listed = api
        .flavors_detail_get(None, None, None, None, None, None, None, None)
        .await
        .expect("the flavors are listed")
        .into_inner();
    assert!(listed.flavors.iter().any(|f| f.id == "progenitor-1"), "{listed:?}");

    let update: types::FlavorsIdPutBody = value(json!({"flavor": {"description": "renamed"}}));
    let id_put: types::FlavorsIdPutId = "progenitor-1".parse().expect("an id");
    let updated = api.flavors_id_put(&id_put, None, &update).await.expect("the flavor is updated");
    assert_eq!(updated.into_inner().flavor.description.as_deref(), Some("renamed"));

    // Extra specs: the keys 3.1 says with patternProperties, 3.0 as additionalProperties.
    let specs: types::FlavorsIdOsExtraSpecsPostBody =
        value(json!({"extra_specs": {"hw:cpu_policy": "dedicated"}}));
    let id_specs: types::FlavorsIdOsExtraSpecsPostId = "progenitor-1".parse().expect("an id");
    let set =
        api.flavors_id_os_extra_specs_post(&id_specs, None, &specs).await.expect("the extra specs are set");
    // Echoed as sent, so a string or a number, as Nova's create_response says.
    let echoed = serde_json::to_value(set.into_inner().extra_specs).expect("JSON");
    assert_eq!(echoed, json!({"hw:cpu_policy": "dedicated"}));

    // An error the document declares: 404, with the document's Error body.
    let missing: types::FlavorsIdGetId = "no-such-flavor".parse().expect("an id");
    match api.flavors_id_get(&missing, None).await {
        Err(client::Error::ErrorResponse(error)) => {
            assert_eq!(error.status(), 404);
            assert_eq!(served(error.headers()).as_deref(), Some(version.as_str()));
            let body = serde_json::to_value(error.into_inner()).expect("the error as JSON");
            assert_eq!(body["itemNotFound"]["code"], 404, "{body}");
        }
        other => panic!("expected the declared 404, got {other:?}"),
    }

    // Keypairs: import (2.92 only imports), show, list, delete.
    let key = ssh_key::PrivateKey::random(&mut ssh_key::rand_core::OsRng, ssh_key::Algorithm::Ed25519)
        .expect("a key")
        .public_key()
        .to_openssh()
        .expect("its OpenSSH text");
    let body: types::OsKeypairsPostBody =
        value(json!({"keypair": {"name": "progenitor-key", "type": "ssh", "public_key": key}}));
    let created = api.os_keypairs_post(None, &body).await.expect("the keypair is imported");
    assert_eq!(created.status(), 201);
    let keypair = created.into_inner().keypair;
    assert_eq!(keypair.public_key, key);
    let name: types::OsKeypairsNameGetName = "progenitor-key".parse().expect("a name");
    let shown = api.os_keypairs_name_get(&name, None).await.expect("the keypair is shown").into_inner();
    assert_eq!(shown.keypair.fingerprint, keypair.fingerprint);
    let listed =
        api.os_keypairs_get(None, None, None, None).await.expect("the keypairs are listed").into_inner();
    assert!(listed.keypairs.iter().any(|k| k.keypair.name == "progenitor-key"), "{listed:?}");
    let name: types::OsKeypairsNameDeleteName = "progenitor-key".parse().expect("a name");
    let deleted = api.os_keypairs_name_delete(&name, None).await.expect("the keypair is deleted");
    assert_eq!(deleted.status(), 204);
    let id: types::FlavorsIdDeleteId = "progenitor-1".parse().expect("an id");
    assert_eq!(api.flavors_id_delete(&id, None).await.expect("the flavor is deleted").status(), 202);
}
