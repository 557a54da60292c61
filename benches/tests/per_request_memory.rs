//! Memory per request (docs/reference.md §11): the allocations of one whole
//! in-process request through the framework do not grow with the number of
//! declared versions, and a schema-validated route parses its body once (it
//! allocates no more than the plain route, which parses once with actix's
//! `web::Json`); on axum the negotiation and the version headers allocate
//! nothing. Prints the counts with `--nocapture`.
#![allow(unsafe_code)] // a counting global allocator

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::convert::Infallible;
use std::future::Future;

use actix_web::dev::{Service, ServiceResponse};
use actix_web::test::{self, TestRequest};
use actix_web::{App, Error};
use axum::body::Body;
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

/// Allocations (count, bytes) of one request, its building excluded:
/// `request()` builds it and returns the future that sends it and reads
/// the answer whole, which alone is counted; the median of several, so a
/// one-off (a lazy static, a pool growing) does not count.
async fn median_allocations<F: Future<Output = ()>>(request: impl Fn() -> F) -> (usize, usize) {
    let mut samples = Vec::new();
    for _ in 0..9 {
        let answered = request();
        let before = ALLOCATIONS.with(Cell::get);
        answered.await;
        let after = ALLOCATIONS.with(Cell::get);
        samples.push((after.0 - before.0, after.1 - before.1));
    }
    samples.sort_unstable();
    samples[samples.len() / 2]
}

/// [`median_allocations`] of a call to the actix `app`.
async fn per_request<S>(app: &S, make: impl Fn() -> actix_http::Request) -> (usize, usize)
where
    S: Service<actix_http::Request, Response = ServiceResponse, Error = Error>,
{
    median_allocations(|| {
        let req = make();
        async move {
            let res = app.call(req).await.unwrap_or_else(|e| panic!("request failed: {e}"));
            assert!(res.status().is_success(), "{}", res.status());
            drop(test::read_body(res).await);
        }
    })
    .await
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

/// [`median_allocations`] of a `GET path` answered by `call`, an axum app's.
async fn per_axum_request<F>(path: &str, call: impl Fn(http::Request<Body>) -> F) -> (usize, usize)
where
    F: Future<Output = Result<axum::response::Response, Infallible>>,
{
    median_allocations(|| {
        let req = http::Request::get(path)
            .header(VERSION_HEADER.0, VERSION_HEADER.1)
            .body(Body::empty())
            .expect("a request");
        let call = &call;
        async move {
            let res = call(req).await.unwrap_or_else(|never| match never {});
            assert!(res.status().is_success(), "{path}: {}", res.status());
            drop(axum::body::to_bytes(res.into_body(), usize::MAX).await.expect("a body"));
        }
    })
    .await
}

#[tokio::test(flavor = "current_thread")]
async fn on_axum_the_negotiation_and_the_stamp_allocate_nothing() {
    use axum::Router;
    use microversion_axum::version::{Negotiated, Version, VersionHeader, VersionSource};
    use microversion_benches::axum_server::{AxumServers, floor, plain, versioned};
    use microversion_benches::server::COMPUTE;
    use microversion_core::exchange::Scoped;
    use tower::ServiceExt as _;

    let (plain, floor, framework) = (plain(), floor(), versioned(COMPUTE));
    let plain = per_axum_request("/plain/servers/42", |req| plain.clone().oneshot(req)).await;
    let floor = per_axum_request("/floor/servers/42", |req| floor.clone().oneshot(req)).await;
    let framework = per_axum_request("/v2.1/servers/42", |req| framework.clone().oneshot(req)).await;
    // The same controller's route with the version put in scope by hand:
    // nothing negotiated, nothing stamped.
    let at = Negotiated {
        version: Version::lit("2.27"),
        source: VersionSource::Explicit,
        header: VersionHeader::Standard,
    };
    let routes = Router::new().nest("/v2.1", Router::from(AxumServers));
    let route_alone =
        per_axum_request("/v2.1/servers/42", |req| Scoped::new(routes.clone().oneshot(req), at)).await;
    println!(
        "axum GET plain: {plain:?}, floor: {floor:?}, framework: {framework:?}, \
         the route alone: {route_alone:?} (allocations, bytes)"
    );
    // The negotiation around the router and the version headers it writes,
    // from values built once, add no allocation to the route's own
    // (reference §11): the version stays in scope, not in the request's
    // extensions, and the stamp's header map has room for its headers.
    assert_eq!(framework, route_alone, "what the negotiation and the stamp allocate (count, bytes)");
}
