//! Negotiation allocates nothing on the success path (docs/reference.md §11).
#![allow(unsafe_code)] // a counting global allocator

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use microversion_core::{Api, Microversion};

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: forwards to the system allocator, only counting calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
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

static HISTORY: [Microversion; 3] =
    [Microversion::new("2.1", "a"), Microversion::new("2.27", "b"), Microversion::new("2.96", "c")];
const API: Api = Api::new("compute", &HISTORY).with_legacy_headers(&["X-OpenStack-Nova-API-Version"]);

fn allocations_during(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

#[test]
fn success_path_allocates_nothing() {
    let cases: [&[(&str, &str)]; 4] = [
        &[("Accept", "application/json"), ("OpenStack-API-Version", "compute 2.27")],
        &[("OpenStack-API-Version", "volume 3.5, placement 1.10, compute 2.27, identity 3.1")],
        &[("X-OpenStack-Nova-API-Version", "2.27")],
        &[("OpenStack-API-Version", "compute latest")],
    ];
    for headers in cases {
        let n = allocations_during(|| {
            let got = API.negotiate(headers.iter().map(|(n, v)| (*n, *v))).expect("negotiates");
            std::hint::black_box(got);
        });
        assert_eq!(n, 0, "{headers:?}");
    }
}

#[test]
fn the_counter_sees_allocations() {
    // Guards the test above: a failing negotiation allocates its message.
    let n = allocations_during(|| {
        let err = API.negotiate([("OpenStack-API-Version", "compute bogus")]).unwrap_err();
        std::hint::black_box(err);
    });
    assert!(n > 0);
}
