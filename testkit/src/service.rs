//! The compute example as an in-process actix service, fed requests in a
//! readable text form:
//!
//! ```text
//! METHOD TARGET
//! Name: value
//! Name: value
//!
//! body bytes
//! ```
//!
//! Lines end at `\n` (a trailing `\r` is dropped). A method, target, header
//! name or value the HTTP/1 codec would refuse is not a case: actix never
//! routes such a request (`examples/compute/tests/suites/hostile_input.rs` covers
//! those over TCP).

use std::cell::RefCell;
use std::mem::ManuallyDrop;
use std::rc::Rc;
use std::sync::Arc;

use actix_web::body::BoxBody;
use actix_web::dev::{Service, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::http::{Method, Uri};
use actix_web::test::TestRequest;
use actix_web::{App, Error};

use crate::http::Response;

/// One parsed request.
#[derive(Debug)]
pub struct Case {
    /// The method as sent.
    pub method: String,
    /// The request target as sent.
    pub target: Vec<u8>,
    /// The header lines as sent.
    pub headers: Vec<(Vec<u8>, Vec<u8>)>,
    /// The body.
    pub body: Vec<u8>,
}

/// Parses the text form; `None` for what the codec would refuse.
pub fn parse(data: &[u8]) -> Option<Case> {
    let (head, body) = split_head(data);
    let mut lines = head.split(|b| *b == b'\n').map(|l| l.strip_suffix(b"\r").unwrap_or(l));
    let request_line = lines.next()?;
    let space = request_line.iter().position(|b| *b == b' ')?;
    let (method, target) = (&request_line[..space], &request_line[space + 1..]);
    Method::from_bytes(method).ok()?;
    std::str::from_utf8(target).ok()?.parse::<Uri>().ok()?;
    let mut headers = Vec::new();
    for line in lines {
        let colon = line.iter().position(|b| *b == b':')?;
        let (name, value) = (&line[..colon], line[colon + 1..].trim_ascii());
        HeaderName::from_bytes(name).ok()?;
        HeaderValue::from_bytes(value).ok()?;
        headers.push((name.to_vec(), value.to_vec()));
    }
    let method = String::from_utf8(method.to_vec()).ok()?;
    Some(Case { method, target: target.to_vec(), headers, body: body.to_vec() })
}

/// The head and the body, split at the first empty line.
fn split_head(data: &[u8]) -> (&[u8], &[u8]) {
    for (at, byte) in data.iter().enumerate() {
        if *byte != b'\n' {
            continue;
        }
        let rest = &data[at + 1..];
        if let Some(body) = rest.strip_prefix(b"\n").or_else(|| rest.strip_prefix(b"\r\n")) {
            return (&data[..at], body);
        }
    }
    (data, &[])
}

type LocalBoxFuture<T> = std::pin::Pin<Box<dyn std::future::Future<Output = T>>>;
type Call = Box<dyn Fn(actix_http::Request) -> LocalBoxFuture<Result<ServiceResponse<BoxBody>, Error>>>;

/// One app instance and the runtime it runs on.
struct Instance {
    runtime: actix_web::rt::SystemRunner,
    call: Call,
    served: usize,
}

thread_local! {
    // Never dropped at thread exit: actix's request pool is a thread-local
    // too, and may be gone by then. Replaced instances are dropped normally.
    static APP: RefCell<Option<ManuallyDrop<Instance>>> = const { RefCell::new(None) };
}

/// Requests served by one app instance before a fresh one (with a fresh
/// store) replaces it, so that created flavors and keypairs stay few.
const FRESH_EVERY: usize = 5_000;

fn new_app() -> Instance {
    let runtime = actix_web::rt::System::new();
    let service = runtime.block_on(async {
        let store = Arc::new(compute::Store::with_default_flavors().await);
        actix_web::test::init_service(App::new().configure(compute::routes(store, None))).await
    });
    let service = Rc::new(service);
    let call: Call = Box::new(move |req| {
        let service = Rc::clone(&service);
        Box::pin(async move { service.call(req).await.map(|res| res.map_into_boxed_body()) })
    });
    Instance { runtime, call, served: 0 }
}

/// Serves `case` in process and returns the response as the raw client
/// would have read it (status, header lines, body).
pub fn serve(case: &Case) -> Response {
    APP.with(|slot| {
        let mut slot = slot.borrow_mut();
        if slot.as_ref().is_none_or(|app| app.served >= FRESH_EVERY) {
            drop(slot.take().map(ManuallyDrop::into_inner));
            *slot = Some(ManuallyDrop::new(new_app()));
        }
        let app = slot.as_mut().expect("an app");
        app.served += 1;
        let mut req = TestRequest::default()
            .method(Method::from_bytes(case.method.as_bytes()).expect("checked by parse"))
            .uri(std::str::from_utf8(&case.target).expect("checked by parse"));
        for (name, value) in &case.headers {
            let name = HeaderName::from_bytes(name).expect("checked by parse");
            let value = HeaderValue::from_bytes(value).expect("checked by parse");
            req = req.append_header((name, value));
        }
        let req = req.set_payload(case.body.clone()).to_request();
        let call = &app.call;
        app.runtime.block_on(async move {
            let res = match call(req).await {
                Ok(res) => res.into_parts().1,
                Err(err) => err.error_response(),
            };
            let status = res.status().as_u16();
            let headers =
                res.headers().iter().map(|(n, v)| (n.as_str().to_owned(), v.as_bytes().to_vec())).collect();
            let body =
                actix_web::body::to_bytes(res.into_body()).await.map(|b| b.to_vec()).unwrap_or_default();
            Response { status, headers, body }
        })
    })
}
