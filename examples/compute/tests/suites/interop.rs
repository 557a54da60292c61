//! Interoperability tests: the real OpenStack Python clients from PyPI
//! (python-novaclient, keystoneauth1, microversion-parse; pinned in
//! `interop/requirements.txt`) and tempest.lib's compute clients (pinned in
//! `interop/requirements-tempest.txt`), unmodified, against the compute
//! example on a free loopback port.
//!
//! A virtual environment is made once under the cargo target directory
//! (`target/tmp/interop-venv-<hash of requirements.txt and python3>`, and
//! `tempest-venv-<hash>` for tempest) and reused while neither changes. `python3` with the `venv` module (Debian:
//! `python3-venv`) and access to PyPI are required: without them these tests
//! fail, with a message that says what to install; they never skip.

use super::FRAMEWORK;

#[path = "../common/python.rs"]
mod python;

use compute::{RunningServer, Settings, Version};
use microversion_testkit::python::fnv1a;
use python::{run_script, run_script_with, tempest_venv_python};

#[test]
fn novaclient_flow() {
    let server = RunningServer::start(FRAMEWORK).expect("the compute example starts");
    let capped =
        RunningServer::start_with_cap(FRAMEWORK, Some(Version::new(2, 60))).expect("a capped server starts");
    run_script("novaclient_flow.py", &[&server.url, &capped.url, "2.60"]);
}

#[test]
fn keystoneauth_flow() {
    let server = RunningServer::start(FRAMEWORK).expect("the compute example starts");
    run_script("keystoneauth_flow.py", &[&server.url]);
}

#[test]
fn microversion_parse_oracle() {
    let server = RunningServer::start(FRAMEWORK).expect("the compute example starts");
    run_script("microversion_parse_oracle.py", &[&server.url]);
}

/// The API's OpenAPI documents read by real tools: openapi-spec-validator
/// and schemathesis against the live server at eight versions.
#[test]
fn openapi_documents_pass_real_tools() {
    // Without a keypair quota: the runs at every version share one server,
    // and the quota's 403 is not in the released documents (frozen before
    // it; docs/14-from-nova.md), which schemathesis holds answers to.
    let settings =
        Settings { framework: FRAMEWORK, keypair_quota: Some(-1), ..Settings::checked(FRAMEWORK, None) };
    let server = RunningServer::start_with(settings).expect("the compute example starts");
    let docs = python::compute_dir().join("openapi");
    run_script("openapi_tools.py", &[&server.url, &docs.to_string_lossy()]);
}

/// tempest.lib's own compute clients (tempest from PyPI, in a venv of its
/// own) call every flavor, extra spec and keypair operation at sixteen
/// versions and check each answer as tempest checks Nova's: the status in
/// the `status_code` list of the response schema of that microversion, the
/// body with jsonschema and tempest's format checker, the version header.
#[test]
fn tempest_clients_accept_every_answer() {
    let server = RunningServer::start(FRAMEWORK).expect("the compute example starts");
    run_script_with(tempest_venv_python(), "tempest_clients.py", &[&server.url]);
}

#[test]
fn venv_name_is_stable() {
    // The venv is found again across runs only if its name is stable: the
    // standard 64-bit FNV-1a of "a\0b\0", computed independently.
    assert_eq!(fnv1a(&[b"a", b"b"]), 0xab40_d782_0d40_8076);
    assert_eq!(fnv1a(&[]), 0xcbf2_9ce4_8422_2325);
    assert_ne!(fnv1a(&[b"ab", b""]), fnv1a(&[b"a", b"b"]));
}
