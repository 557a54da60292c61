//! Memory per request (docs/reference.md §11): the allocations of one whole
//! in-process request through the framework do not grow with the number of
//! declared versions, and a schema-validated route parses its body once (it
//! allocates no more than the plain route, which parses once with actix's
//! `web::Json`). Prints the counts with `--nocapture`.
#![allow(unsafe_code)] // a counting global allocator

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use actix_web::dev::{Service, ServiceResponse};
use actix_web::test::{self, TestRequest};
use actix_web::{App, Error};
use microversion_benches::history::leaked_api;
use microversion_benches::schema::create_server_body;
use microversion_benches::server::{VERSION_HEADER, configure, configure_versioned};

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
}

// SAFETY: forwards to the system allocator, only counting calls and bytes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| {
            let (count, bytes) = n.get();
            n.set((count + 1, bytes + layout.size()));
        });
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations (count, bytes) of one call, request building excluded; the
/// median of several calls, so a one-off (a lazy static, a pool growing)
/// does not count.
async fn per_request<S>(app: &S, make: impl Fn() -> actix_http::Request) -> (usize, usize)
where
    S: Service<actix_http::Request, Response = ServiceResponse, Error = Error>,
{
    let mut samples = Vec::new();
    for _ in 0..9 {
        let req = make();
        let before = ALLOCATIONS.with(Cell::get);
        let res = app.call(req).await.unwrap_or_else(|e| panic!("request failed: {e}"));
        assert!(res.status().is_success(), "{}", res.status());
        drop(test::read_body(res).await);
        let after = ALLOCATIONS.with(Cell::get);
        samples.push((after.0 - before.0, after.1 - before.1));
    }
    samples.sort_unstable();
    samples[samples.len() / 2]
}

fn get(uri: &'static str, version: &'static str) -> impl Fn() -> actix_http::Request {
    move || TestRequest::get().uri(uri).insert_header(("OpenStack-API-Version", version)).to_request()
}

#[actix_web::test]
async fn allocations_do_not_grow_with_the_declaration() {
    let mut counts = Vec::new();
    for versions in [10, 100, 1000] {
        let app = test::init_service(App::new().configure(configure_versioned(leaked_api(versions)))).await;
        let got = per_request(&app, get("/v2.1/servers/42", "compute 2.9")).await;
        println!("GET through the framework, {versions} versions: {} allocations, {} bytes", got.0, got.1);
        counts.push(got);
    }
    assert!(counts.windows(2).all(|w| w[0] == w[1]), "allocations grow with the declaration: {counts:?}");
}

#[actix_web::test]
async fn framework_and_plain_allocations() {
    let app = test::init_service(App::new().configure(configure)).await;
    let plain = per_request(&app, get("/plain/servers/42", VERSION_HEADER.1)).await;
    let framework = per_request(&app, get("/v2.1/servers/42", VERSION_HEADER.1)).await;
    println!("GET plain: {plain:?}, framework: {framework:?} (allocations, bytes)");

    let body = serde_json::to_vec(&create_server_body()).expect("serializes");
    let post = |uri: &'static str| {
        let body = body.clone();
        move || {
            TestRequest::post()
                .uri(uri)
                .insert_header(VERSION_HEADER)
                .insert_header(("Content-Type", "application/json"))
                .set_payload(body.clone())
                .to_request()
        }
    };
    let plain_post = per_request(&app, post("/plain/servers")).await;
    let framework_post = per_request(&app, post("/v2.1/servers")).await;
    println!("POST plain: {plain_post:?}, framework: {framework_post:?} (allocations, bytes)");
    // The framework's own allocation (reference §11): the negotiated version
    // in the request's extensions (the route's future is inside the box
    // actix makes of every service's future, as a plain handler's is). In the
    // workspace's test run the compute example turns the `metrics` and
    // `tracing` features on, so counting and spans are held to it too.
    let get_overhead = framework.0.saturating_sub(plain.0);
    assert!(
        get_overhead <= 1,
        "a GET through the framework allocates {get_overhead} more than plain (at most 1)"
    );
    // A second parse of the body would add every node of the document again
    // (dozens of allocations); the framework's fixed overhead is the same as on GET.
    let post_overhead = framework_post.0.saturating_sub(plain_post.0);
    assert!(
        post_overhead <= get_overhead + 4,
        "the validated route allocates {post_overhead} more than plain, GET only {get_overhead}: \
         is the body parsed twice?"
    );
}
