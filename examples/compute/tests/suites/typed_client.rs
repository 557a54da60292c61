//! The compute API's typed client (`compute::client`, docs/20-typed-clients.md)
//! against a running server, at every released version and against a
//! server capped lower.

use super::FRAMEWORK;

use std::sync::atomic::{AtomicUsize, Ordering};

use compute::client::{
    AtVersion, CallError, ConnectError, CreateBody, ExtraSpecs, FlavorCreate, FlavorDescription,
    FlavorExtraSpecs, FlavorUpdate, Flavors, HttpClient, KeyType, Keypairs, NewFlavor, NewKeypair, Scalar,
    Transport,
};
use compute::{COMPUTE, RunningServer, Version};
use microversion_core::client::typed_client::{Answer, Call};
use microversion_core::portable::JsonQuery;
use serde_json::json;

/// `future` on a runtime of its own, as a client program runs it.
fn run<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime").block_on(future)
}

/// A transport that counts what reaches the server.
struct Counting<'a> {
    inner: &'a HttpClient,
    sent: AtomicUsize,
}

impl Counting<'_> {
    fn sent(&self) -> usize {
        self.sent.load(Ordering::SeqCst)
    }
}

impl Transport for Counting<'_> {
    fn version(&self) -> Version {
        self.inner.version()
    }

    async fn send(&self, call: Call) -> Result<Answer, CallError> {
        self.sent.fetch_add(1, Ordering::SeqCst);
        self.inner.send(call).await
    }
}

/// `{"extra_specs": {key: value}}`.
fn specs_of(key: &str, value: &str) -> ExtraSpecs {
    ExtraSpecs { extra_specs: [(key.to_owned(), json!(value))].into_iter().collect() }
}

fn endpoint(server: &RunningServer) -> String {
    format!("{}/v2.1", server.url)
}

#[test]
fn every_released_version_through_the_typed_client() {
    let server = RunningServer::start(FRAMEWORK).expect("the compute example starts");
    run(async {
        let client = HttpClient::discover(&endpoint(&server), &COMPUTE).await.expect("discovery");
        assert_eq!(client.version(), COMPUTE.max(), "the newest version both serve");
        let mut imported_key = None;
        for version in COMPUTE.served_versions() {
            let at = client.at(version, &COMPUTE).expect("a served version");
            let counting = Counting { inner: &at, sent: AtomicUsize::new(0) };
            let flavors = Flavors::client(&counting);

            let list = flavors.list(&[]).await.unwrap_or_else(|e| panic!("{version}: {e}"));
            assert_eq!(list.status(), 200);
            assert!(!list.json()["flavors"].as_array().expect("a list").is_empty(), "{version}");
            let shown = flavors.show("1".to_owned()).await.unwrap_or_else(|e| panic!("{version}: {e}"));
            let flavor = &shown.json()["flavor"];
            assert_eq!(flavor["id"], "1", "{version}");
            let has = |field: &str| flavor.get(field).is_some();
            assert_eq!(has("description"), version >= Version::new(2, 55), "{version}: {flavor}");
            assert_eq!(has("extra_specs"), version >= Version::new(2, 61), "{version}: {flavor}");
            // Decoded into the model at every version: `swap` is `""` until
            // 2.74 and 0 after, the same 0 in the model.
            let decoded = shown.decode().unwrap_or_else(|e| panic!("{version}: {e}")).flavor;
            assert_eq!((decoded.id.as_str(), decoded.swap), ("1", 0), "{version}");
            assert_eq!(flavor["swap"], if version >= Version::new(2, 75) { json!(0) } else { json!("") });
            let listed = list.decode().unwrap_or_else(|e| panic!("{version}: {e}"));
            assert!(listed.flavors.iter().any(|f| f.id == "1"), "{version}");

            // An operation the version lacks is refused before anything is sent.
            let before = counting.sent();
            let described =
                FlavorUpdate { flavor: FlavorDescription { description: Some(format!("at {version}")) } };
            match flavors.update("1".to_owned(), &described).await {
                Ok(updated) => {
                    assert!(version >= Version::new(2, 55), "{version}");
                    assert_eq!(updated.json()["flavor"]["description"], format!("at {version}"));
                    assert_eq!(counting.sent(), before + 1);
                }
                Err(CallError::NotAtVersion { operation, version: refused_at, served }) => {
                    assert!(version < Version::new(2, 55), "{version}");
                    assert_eq!((operation, refused_at), ("Flavors::update", version));
                    assert_eq!(
                        served.iter().map(ToString::to_string).collect::<Vec<_>>(),
                        ["2.55 and later"]
                    );
                    assert_eq!(counting.sent(), before, "nothing was sent at {version}");
                }
                Err(other) => panic!("{version}: {other}"),
            }

            // Errors read from the API's own format (Nova's faults).
            match flavors.show("nope".to_owned()).await {
                Err(CallError::Refused(refusal)) => {
                    assert_eq!(refusal.status, 404, "{version}");
                    assert_eq!(refusal.code.as_deref(), Some("itemNotFound"), "{version}");
                    assert_eq!(refusal.detail, "Flavor nope could not be found.", "{version}");
                }
                other => panic!("{version}: {other:?}"),
            }

            // Extra specs: path of two parameters.
            let specs = FlavorExtraSpecs::client(&counting);
            // A namespace Nova does not know: its 2.86 validators pass it.
            let key = format!("acme:v{}_{}", version.major(), version.minor());
            specs.create("1".to_owned(), &specs_of(&key, "1")).await.expect("extra specs");
            let one = specs.show(("1".to_owned(), key.clone())).await.expect("an extra spec");
            assert_eq!(one.json()[&key], "1", "{version}");

            // Keypairs: 200 at 2.1, 201 after; generated at 2.1 (a generated
            // key costs), its public key imported at every later version.
            let keypairs = Keypairs::client(&counting);
            let name = format!("key-{}-{}", version.major(), version.minor());
            let public_key = imported_key.clone();
            let body = CreateBody {
                keypair: NewKeypair { name: name.clone(), public_key, key_type: KeyType::Ssh, user_id: None },
            };
            let created = keypairs.create(&body).await.unwrap_or_else(|e| panic!("{version}: {e}"));
            let expected = if version == Version::new(2, 1) { 200 } else { 201 };
            assert_eq!(created.status(), expected, "{version}");
            let keypair = &created.json()["keypair"];
            assert_eq!(keypair["name"], name.as_str());
            imported_key.get_or_insert_with(|| keypair["public_key"].as_str().expect("a key").to_owned());
            // One method at every version: the head's handler takes the
            // query, which the versions before 2.10 ignore.
            let shown = keypairs.show(name.clone(), &[]).await;
            assert_eq!(shown.expect("the keypair").json()["keypair"]["name"], name.as_str(), "{version}");
            // The method of the versions before 2.2 (`KeypairType`) decodes
            // the keypair as they wrote it: no `type`.
            if version < Version::new(2, 2) {
                let no_query = JsonQuery(json!({}));
                let before = keypairs.show_before_keypair_type(name.clone(), &no_query).await;
                let before = before.expect("the keypair, as 2.1 wrote it");
                assert_eq!(before.json()["keypair"].get("type"), None, "{version}");
            }
            let owned = keypairs.show(name.clone(), &[("user_id", "someone-else")]).await;
            match owned {
                Ok(shown) => assert!(version < Version::new(2, 10), "{version}: {:?}", shown.json()),
                Err(CallError::Refused(refusal)) => {
                    assert!(version >= Version::new(2, 10), "{version}");
                    assert_eq!(refusal.status, 404, "{version}: another user's keypair");
                }
                Err(other) => panic!("{version}: {other}"),
            }
        }
    });
}

#[test]
fn the_client_settles_on_the_cap_of_a_server_capped_lower() {
    let cap = Version::new(2, 50);
    let server = RunningServer::start_with_cap(FRAMEWORK, Some(cap)).expect("the compute example starts");
    run(async {
        let client = HttpClient::discover(&endpoint(&server), &COMPUTE).await.expect("discovery");
        assert_eq!(client.version(), cap);
        // The server answers at the client's version.
        let counting = Counting { inner: &client, sent: AtomicUsize::new(0) };
        let shown = Flavors::client(&counting).show("1".to_owned()).await.expect("a flavor");
        assert!(shown.json()["flavor"].get("description").is_none(), "2.50 has no description");
        let cleared = FlavorUpdate { flavor: FlavorDescription { description: None } };
        let refused = Flavors::client(&counting).update("1".to_owned(), &cleared).await;
        assert!(matches!(refused, Err(CallError::NotAtVersion { .. })), "{refused:?}");
        assert_eq!(counting.sent(), 1, "only the show reached the server");
        // Asking for more than the cap is refused, by discovery and by the client.
        let pinned = HttpClient::pinned(&endpoint(&server), &COMPUTE, Version::new(2, 60)).await;
        assert!(matches!(pinned, Err(ConnectError::Negotiation(_))), "{pinned:?}");
        assert!(matches!(client.at(Version::new(2, 51), &COMPUTE), Err(ConnectError::Negotiation(_))));
        assert_eq!(
            client.at(Version::new(2, 3), &COMPUTE).expect("below the cap").version(),
            Version::new(2, 3)
        );
    });
}

#[test]
fn a_version_that_is_a_type() {
    let server = RunningServer::start(FRAMEWORK).expect("the compute example starts");
    run(async {
        let client =
            HttpClient::pinned(&endpoint(&server), &COMPUTE, Version::new(2, 55)).await.expect("2.55");
        // Only a transport at 2.55 is one of this type.
        let other = client.at(Version::new(2, 54), &COMPUTE).expect("2.54");
        assert!(AtVersion::<_, 2, 55>::new(other).is_err());
        let Ok(typed) = AtVersion::<_, 2, 55>::new(client) else { panic!("the client is at 2.55") };
        assert_eq!(typed.version(), Version::new(2, 55));
        assert_eq!(<AtVersion<HttpClient, 2, 55> as Transport>::FIXED, Some(Version::new(2, 55)));
        // `update` exists from 2.55: this compiles, and is served. (Below
        // 2.55 it does not compile: tests/ui/fail/client_operation_not_at_version.rs.)
        let updated = Flavors::client(&typed)
            .update(
                "1".to_owned(),
                &FlavorUpdate { flavor: FlavorDescription { description: Some("typed".into()) } },
            )
            .await
            .expect("updated");
        assert_eq!(updated.json()["flavor"]["description"], "typed");
    });
}

/// A flavor created through the typed client: the fields left out are
/// not sent (the schema refuses a `null` size), a size may be a string,
/// and the description exists at 2.55.
#[test]
fn a_flavor_is_created_from_a_typed_body() {
    let server = RunningServer::start(FRAMEWORK).expect("the compute example starts");
    run(async {
        let client =
            HttpClient::pinned(&endpoint(&server), &COMPUTE, Version::new(2, 55)).await.expect("2.55");
        let flavor = NewFlavor {
            name: "typed".to_owned(),
            id: Some(Scalar::Text("typed-1".to_owned())),
            ram: Scalar::Text("512".to_owned()),
            vcpus: Scalar::Number(2.into()),
            disk: Scalar::Number(1.into()),
            ephemeral: None,
            swap: None,
            rxtx_factor: None,
            is_public: Some(Scalar::Flag(false)),
            description: Some("made from a type".to_owned()),
        };
        let created = Flavors::client(&client).create(&FlavorCreate { flavor }).await.expect("created");
        let shown = &created.json()["flavor"];
        assert_eq!(
            (&shown["id"], &shown["ram"], &shown["vcpus"], &shown["OS-FLV-EXT-DATA:ephemeral"]),
            (&json!("typed-1"), &json!(512), &json!(2), &json!(0)),
            "{shown}"
        );
        assert_eq!(
            (&shown["os-flavor-access:is_public"], &shown["rxtx_factor"]),
            (&json!(false), &json!(1.0))
        );
        assert_eq!(shown["description"], "made from a type");
    });
}

#[test]
fn an_endpoint_without_the_api_is_a_discovery_error() {
    let server = RunningServer::start(FRAMEWORK).expect("the compute example starts");
    run(async {
        let wrong = HttpClient::discover(&format!("{}/v2.1/flavors", server.url), &COMPUTE).await;
        assert!(matches!(wrong, Err(ConnectError::Discovery(_))), "{wrong:?}");
        let closed = HttpClient::discover("http://127.0.0.1:9/v2.1", &COMPUTE).await;
        assert!(matches!(closed, Err(ConnectError::Transport(_))), "{closed:?}");
    });
}
