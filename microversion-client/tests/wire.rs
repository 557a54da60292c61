//! What `HttpClient` puts on the wire and reads back, against a listener
//! on 127.0.0.1 that records each request: the version document it asks
//! for, the version headers of a call, the refusal it reads.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;

use microversion_client::{CallError, HttpClient};
use microversion_core::client::typed_client::{Call, Rendered, send};
use microversion_core::{Api, Microversion, Version, VersionRange};

const COMPUTE: Api = Api::new(
    "compute",
    &[Microversion::new("2.1", "a"), Microversion::new("2.5", "b"), Microversion::new("2.9", "c")],
)
.with_legacy_headers(&["X-OpenStack-Nova-API-Version"]);

/// Serves one request per connection from `answers`, in order, and returns
/// each request's head (lower case).
fn serve(answers: Vec<(u16, &'static str)>) -> (String, std::thread::JoinHandle<Vec<String>>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
    let url = format!("http://{}", listener.local_addr().expect("an address"));
    let heads = std::thread::spawn(move || {
        let mut heads = Vec::new();
        for (status, body) in answers {
            let (stream, _) = listener.accept().expect("a connection");
            let mut reader = BufReader::new(stream);
            let (mut head, mut length) = (String::new(), 0usize);
            loop {
                let mut line = String::new();
                reader.read_line(&mut line).expect("a head line");
                if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = value.trim().parse().expect("a length");
                }
                if line == "\r\n" || line.is_empty() {
                    break;
                }
                head.push_str(&line.to_ascii_lowercase());
            }
            let mut request_body = vec![0; length];
            reader.read_exact(&mut request_body).expect("the body");
            heads.push(head);
            let mut stream = reader.into_inner();
            let answer = format!(
                "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
            stream.write_all(answer.as_bytes()).expect("the answer");
        }
        heads
    });
    (url, heads)
}

fn run<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime").block_on(future)
}

#[test]
fn the_client_settles_sends_both_headers_and_reads_a_fault() {
    let document = r#"{"version": {"id": "v2.1", "status": "CURRENT", "min_version": "2.1", "version": "2.5", "links": []}}"#;
    let fault = r#"{"itemNotFound": {"code": 404, "message": "Flavor 9 could not be found."}}"#;
    let (url, heads) = serve(vec![(200, document), (404, fault)]);
    let outcome = run(async {
        let client = HttpClient::discover(&format!("{url}/v2.1"), &COMPUTE).await.expect("discovery");
        // The server's 2.5, below this build's 2.9.
        assert_eq!(client.version(), Version::new(2, 5));
        let call = Call {
            operation: "Flavors::show",
            method: "GET",
            path: "/flavors/9".to_owned(),
            query: "a=1".to_owned(),
            body: None,
        };
        let answer: Result<Rendered<serde_json::Value>, CallError> =
            send(&client, &[VersionRange::from(Version::new(2, 1))], call).await;
        answer
    });
    let heads = heads.join().expect("the listener");
    assert!(heads[0].starts_with("get /v2.1/ http/1.1"), "{}", heads[0]);
    let call = &heads[1];
    assert!(call.starts_with("get /v2.1/flavors/9?a=1 http/1.1"), "{call}");
    assert!(call.contains("openstack-api-version: compute 2.5\r\n"), "{call}");
    assert!(call.contains("x-openstack-nova-api-version: 2.5\r\n"), "{call}");
    match outcome {
        Err(CallError::Refused(refusal)) => {
            assert_eq!((refusal.status, refusal.code.as_deref()), (404, Some("itemNotFound")));
            assert_eq!(refusal.detail, "Flavor 9 could not be found.");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_server_without_the_pinned_version_is_refused_before_any_call() {
    let document = r#"{"version": {"id": "v2.1", "status": "CURRENT", "min_version": "2.1", "version": "2.5", "links": []}}"#;
    let (url, heads) = serve(vec![(200, document)]);
    let pinned = run(HttpClient::pinned(&format!("{url}/v2.1"), &COMPUTE, Version::new(2, 9)));
    assert!(pinned.is_err(), "2.9 is above the server's 2.5");
    assert_eq!(heads.join().expect("the listener").len(), 1, "only the version document was asked for");
}
