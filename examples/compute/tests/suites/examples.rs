//! The compute example's examples (docs/reference.md §14.10; Nova's
//! `doc/api_samples`, under `api_samples/`): each request sent to a fresh
//! server at the first and the last version its example shows, and its
//! answer compared with the example, so that an example that drifts from
//! what the service answers fails here.

use super::FRAMEWORK;

use compute::{PublicUrl, RunningServer, Settings};
use microversion_testkit::http::Request;

/// The public root every example's links show.
const PUBLIC_ROOT: &str = "http://openstack.example.com";

#[test]
fn every_example_is_what_the_service_answers_at_its_versions() {
    let cases = compute::description(compute::COMPUTE).example_cases();
    let operations: std::collections::BTreeSet<&str> = cases.iter().map(|c| c.operation).collect();
    // list, show, create and update of flavors, create of keypairs.
    assert!(cases.len() >= 20 && operations.len() >= 4, "{} cases of {operations:?}", cases.len());
    // Every example declared is sent at least once.
    let declared = compute::description(compute::COMPUTE)
        .operations()
        .iter()
        .flat_map(|op| {
            op.variants.iter().flat_map(move |v| v.examples.iter().map(move |e| (op.name, e.from)))
        })
        .collect::<std::collections::BTreeSet<_>>();
    for (operation, from) in &declared {
        let sent = cases.iter().any(|c| c.operation == *operation && c.version == *from);
        assert!(sent, "the example of `{operation}` at {from} is never sent");
    }
    let mut drifted = Vec::new();
    for case in &cases {
        // A fresh store for each: an example starts from devstack's flavors.
        let settings = Settings {
            framework: FRAMEWORK,
            public_url: PublicUrl::fixed(PUBLIC_ROOT).unwrap(),
            ..Settings::default()
        };
        let server = RunningServer::start_with(settings).expect("the compute example starts");
        let mut request = Request::new(case.method, &case.path).version(&case.version.to_string());
        if let Some(body) = case.request {
            request = request.json(&serde_json::from_str(body).expect("a request example is JSON"));
        }
        let answer = request.send(&server.url);
        if let Err(drift) = case.judge(answer.status, &answer.body) {
            drifted.push(drift);
        }
    }
    assert!(drifted.is_empty(), "examples that drifted from the service:\n{}", drifted.join("\n\n"));
}

/// The check fails on a drift: an answer one field off is refused, and
/// says where.
#[test]
fn an_example_one_field_off_is_refused() {
    let cases = compute::description(compute::COMPUTE).example_cases();
    let show =
        cases.iter().find(|c| c.operation == "show" && c.path == "/v2.1/flavors/1").expect("a show example");
    let mut answer: serde_json::Value = serde_json::from_str(show.response.expect("an answer")).unwrap();
    answer["flavor"]["ram"] = serde_json::json!(513);
    let drift = show.judge(200, answer.to_string().as_bytes()).unwrap_err();
    assert!(drift.contains("/flavor/ram: shown as 512, answered 513"), "{drift}");
}
