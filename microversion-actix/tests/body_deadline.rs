//! A client that stalls cannot hold a body reader (docs/reference.md §6.2):
//! a real server on 127.0.0.1, a raw TCP client, a short `BodyTimeout`.
//! The assertions are about what arrives (a 408 in the API's format, then
//! the close), never about how fast.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::Duration;

use actix_web::{App, HttpResponse, HttpServer, web};
use microversion_actix::{
    Api, Json, Microversion, Native, VersionNegotiation,
    body::{BodyLimit, BodyTimeout, read_json_body},
};
use microversion_testkit::http::{IO_TIMEOUT, Response, parse_response, send_raw};

const API: Api = Api::new("compute", &[Microversion::new("2.1", "Initial version.")]);
const DEADLINE: Duration = Duration::from_millis(200);

/// A server in a background thread, stopped when dropped.
struct Server {
    base: String,
    handle: actix_web::dev::ServerHandle,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Server {
    fn drop(&mut self) {
        actix_web::rt::System::new().block_on(self.handle.stop(false));
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn start(timeout: Option<BodyTimeout>) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (sender, receiver) = std::sync::mpsc::channel();
    let thread = std::thread::spawn(move || {
        actix_web::rt::System::new().block_on(async move {
            let server = HttpServer::new(move || {
                let mut app = App::new();
                if let Some(timeout) = timeout {
                    app = app.app_data(timeout);
                }
                app.service(
                    web::scope("/v2.1")
                        .wrap(VersionNegotiation::new(API))
                        .route(
                            "/raw",
                            web::post().to(|req: actix_web::HttpRequest, body: web::Payload| async move {
                                let body = read_json_body(&req, &mut body.into_inner()).await?;
                                Ok::<_, microversion_actix::Error>(HttpResponse::Ok().json(body))
                            }),
                        )
                        .route(
                            "/typed",
                            web::post().to(|Native(body): Native<Json<serde_json::Value>>| async move {
                                HttpResponse::Ok().json(body.into_inner())
                            }),
                        ),
                )
            })
            .workers(1)
            .listen(listener)
            .expect("listen")
            .run();
            let _ = sender.send(server.handle());
            let _ = server.await;
        })
    });
    let handle = receiver.recv().expect("the server starts");
    Server { base, handle, thread: Some(thread) }
}

fn connect(server: &Server) -> TcpStream {
    let stream = TcpStream::connect(server.base.trim_start_matches("http://")).expect("connect");
    stream.set_read_timeout(Some(IO_TIMEOUT)).unwrap();
    stream.set_write_timeout(Some(IO_TIMEOUT)).unwrap();
    stream
}

/// Reads until the server closes the connection, which it must do after a
/// 408 (a read timeout, [`IO_TIMEOUT`], fails the test).
fn read_until_close(mut stream: TcpStream) -> Response {
    let mut raw = Vec::new();
    if let Err(e) = stream.read_to_end(&mut raw) {
        assert_eq!(e.kind(), std::io::ErrorKind::ConnectionReset, "the connection was not closed: {e}");
    }
    parse_response(&raw).unwrap_or_else(|e| panic!("{e}: {:?}", String::from_utf8_lossy(&raw)))
}

fn assert_timeout(res: &Response) {
    assert_eq!(res.status, 408, "{}", res.describe());
    let body = res.json();
    assert_eq!(body["errors"][0]["code"], "compute.request-timeout", "{body}");
    assert_eq!(body["errors"][0]["status"], 408, "{body}");
    assert_eq!(res.header("OpenStack-API-Version").as_deref(), Some("compute 2.1"));
}

fn head(path: &str, framing: &str) -> String {
    format!("POST {path} HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\n{framing}\r\n\r\n")
}

#[test]
fn a_declared_body_that_never_comes_is_408() {
    let server = start(Some(BodyTimeout(DEADLINE)));
    for path in ["/v2.1/raw", "/v2.1/typed"] {
        // Keep-alive asked for: the server closes anyway, having given up on the body.
        let mut stream = connect(&server);
        stream.write_all(head(path, "Content-Length: 100").as_bytes()).unwrap();
        stream.write_all(b"{\"a\"").unwrap();
        assert_timeout(&read_until_close(stream));
    }
}

#[test]
fn a_chunked_body_that_stalls_is_408() {
    let server = start(Some(BodyTimeout(DEADLINE)));
    let mut stream = connect(&server);
    stream.write_all(head("/v2.1/raw", "Transfer-Encoding: chunked").as_bytes()).unwrap();
    stream.write_all(b"2\r\n{\"\r\n").unwrap();
    assert_timeout(&read_until_close(stream));
}

#[test]
fn a_trickled_body_is_408() {
    let server = start(Some(BodyTimeout(DEADLINE)));
    let mut stream = connect(&server);
    stream.write_all(head("/v2.1/raw", "Content-Length: 1000").as_bytes()).unwrap();
    let mut writer = stream.try_clone().unwrap();
    // One byte every 20 ms: 20 s for the whole body, far past the deadline.
    let trickle = std::thread::spawn(move || {
        for _ in 0..1000 {
            if writer.write_all(b" ").is_err() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    });
    assert_timeout(&read_until_close(stream));
    drop(trickle);
}

#[test]
fn bodies_within_the_deadline_are_read() {
    for timeout in [None, Some(BodyTimeout(DEADLINE))] {
        let server = start(timeout);
        let body = br#"{"name": "vm"}"#;
        let request = format!(
            "POST /v2.1/typed HTTP/1.1\r\nHost: h\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        );
        let res = send_raw(&server.base, &[request.as_bytes(), body].concat()).expect("an answer");
        assert_eq!(res.status, 200, "{}", res.describe());
        assert_eq!(res.json()["name"], "vm");
    }
}

#[test]
fn the_default_deadline_is_thirty_seconds() {
    assert_eq!(BodyTimeout::default(), BodyTimeout(Duration::from_secs(30)));
    assert_eq!(BodyTimeout::DEFAULT, BodyTimeout::default());
}

/// A setting registered as `web::Data` is read as one registered bare.
#[actix_web::test]
async fn a_limit_in_web_data_is_read() {
    let (req, mut payload) = actix_web::test::TestRequest::post()
        .app_data(web::Data::new(BodyLimit(4)))
        .insert_header(("Content-Type", "application/json"))
        .set_payload("[1, 2, 3]")
        .to_http_parts();
    let err = read_json_body(&req, &mut payload).await.expect_err("over the limit");
    assert_eq!(err.status(), 413, "{err:?}");
    let (req, mut payload) = actix_web::test::TestRequest::post()
        .insert_header(("Content-Type", "application/json"))
        .set_payload("[1, 2, 3]")
        .to_http_parts();
    assert_eq!(
        read_json_body(&req, &mut payload).await.expect("within the default"),
        serde_json::json!([1, 2, 3])
    );
}
