//! Version histories of any length, built at run time for the scaling
//! benchmarks (an [`Api`] needs a `&'static` history, so it is leaked once).

use microversion_actix::{Api, Microversion, Version};

/// An API `compute` declaring versions 2.1 to 2.`versions`, with Nova's
/// legacy header. Leaks the history: call it once per size, at start-up.
///
/// ```
/// let api = microversion_benches::history::leaked_api(1000);
/// assert_eq!(api.max().to_string(), "2.1000");
/// ```
pub fn leaked_api(versions: u16) -> Api {
    assert!(versions >= 1, "an API declares at least one version");
    let history: Vec<Microversion> = (1..=versions)
        .map(|minor| Microversion { version: Version::new(2, minor), change: "A change." })
        .collect();
    Api::new("compute", Vec::leak(history)).with_legacy_headers(&["X-OpenStack-Nova-API-Version"])
}
