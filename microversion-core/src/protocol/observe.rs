//! Who uses what: per-version request counts through the `metrics` facade
//! and a `tracing` span per request (docs/reference.md §13.5), the same for
//! every facade's negotiation. Each part is compiled only with its Cargo
//! feature (`metrics`, `tracing`); without it, the functions the facades
//! call do nothing, so that they have no `cfg` of their own. Not public
//! API: what the facades call.

use crate::{Api, Negotiated, NegotiationError, version::VersionHeader};

/// The name of the request counter.
#[cfg(feature = "metrics")]
pub const REQUESTS: &str = "microversion_requests_total";

/// The label of a request's outcome: `2xx`, `400`, `406`, `4xx` (the other
/// client errors), `5xx`, or `other` (1xx, 3xx).
#[cfg(feature = "metrics")]
fn outcome(status: u16) -> &'static str {
    match status {
        200..=299 => "2xx",
        400 => "400",
        406 => "406",
        401..=499 => "4xx",
        500..=599 => "5xx",
        _ => "other",
    }
}

/// A version as a `'static` label: each declared version is rendered once
/// per process, so counting allocates nothing after the first request.
#[cfg(feature = "metrics")]
fn version_label(api: &Api, version: crate::Version) -> &'static str {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock, PoisonError};
    if api.position(version).is_none() {
        // Undeclared versions are whatever clients send: one label for all,
        // or the series would grow without bound.
        return "undeclared";
    }
    static LABELS: OnceLock<Mutex<HashMap<u32, &'static str>>> = OnceLock::new();
    let labels = LABELS.get_or_init(Default::default);
    let mut labels = labels.lock().unwrap_or_else(PoisonError::into_inner);
    labels.entry(version.packed()).or_insert_with(|| Box::leak(version.to_string().into_boxed_str()))
}

/// Adds one to the request counter of these labels. Each combination's
/// labels are built once per process (there are a few per declared
/// version), so counting allocates nothing: `metrics::counter!` would build
/// the list of labels again on every request.
#[cfg(feature = "metrics")]
fn increment(api: &Api, version: &'static str, chosen_by: &'static str, outcome: &'static str) {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock, PoisonError};

    use metrics::{Key, Label, Level, Metadata};
    type Labels = [&'static str; 4];
    static KEYS: OnceLock<Mutex<HashMap<Labels, &'static [Label]>>> = OnceLock::new();
    static METADATA: Metadata<'static> = Metadata::new(module_path!(), Level::INFO, Some(module_path!()));

    let service = api.service_type();
    let labels = {
        let keys = KEYS.get_or_init(Default::default);
        let mut keys = keys.lock().unwrap_or_else(PoisonError::into_inner);
        *keys.entry([service, version, chosen_by, outcome]).or_insert_with(|| {
            Box::leak(Box::new([
                Label::from_static_parts("service", service),
                Label::from_static_parts("version", version),
                Label::from_static_parts("chosen_by", chosen_by),
                Label::from_static_parts("outcome", outcome),
            ]))
        })
    };
    let key = Key::from_static_parts(REQUESTS, labels);
    metrics::with_recorder(|recorder| recorder.register_counter(&key, &METADATA)).increment(1);
}

/// Counts a request served at a negotiated version.
#[cfg(feature = "metrics")]
pub fn count(api: &Api, negotiated: &Negotiated, status: u16) {
    increment(api, version_label(api, negotiated.version), negotiated.chosen_by(), outcome(status));
}

/// Counts a request refused by negotiation: a 400 under the version
/// `invalid`, a 406 under the version asked for (retired and capped
/// versions included, so their remaining users show).
#[cfg(feature = "metrics")]
pub fn count_refused(api: &Api, err: &NegotiationError, header: VersionHeader) {
    let version = err.requested_version().map_or("invalid", |v| version_label(api, v));
    increment(api, version, header.as_str(), outcome(err.status()));
}

/// The name of the counter of answers of deprecated operations.
#[cfg(feature = "metrics")]
pub const DEPRECATED: &str = "microversion_deprecated_requests_total";

/// Counts an answer of an operation deprecated at `version` (labels:
/// `service`, `operation`, `version`), so that a deployer sees who still
/// calls it before its sunset. Deprecated operations are few and their
/// calls meant to dwindle: the labels are built on each call.
#[cfg(feature = "metrics")]
pub fn count_deprecated(api: &Api, operation: &'static str, version: crate::Version) {
    let labels =
        [("service", api.service_type()), ("operation", operation), ("version", version_label(api, version))];
    metrics::counter!(DEPRECATED, &labels[..]).increment(1);
}

/// Without `metrics`: nothing.
#[cfg(not(feature = "metrics"))]
pub fn count(_: &Api, _: &Negotiated, _: u16) {}

/// Without `metrics`: nothing.
#[cfg(not(feature = "metrics"))]
pub fn count_deprecated(_: &Api, _: &'static str, _: crate::Version) {}

/// Without `metrics`: nothing.
#[cfg(not(feature = "metrics"))]
pub fn count_refused(_: &Api, _: &NegotiationError, _: VersionHeader) {}

/// The middleware's future as it is returned: in its span with `tracing`,
/// itself without.
#[cfg(feature = "tracing")]
pub type Traced<F> = tracing::instrument::Instrumented<F>;
/// The middleware's future as it is returned: in its span with `tracing`,
/// itself without.
#[cfg(not(feature = "tracing"))]
pub type Traced<F> = F;

/// Starts a negotiated request's work (`start`: the inner service's call)
/// inside its span, and keeps the span on the future it gives.
#[cfg(feature = "tracing")]
pub fn negotiated<F>(api: &Api, negotiated: &Negotiated, start: impl FnOnce() -> F) -> Traced<F> {
    let span = tracing::info_span!(
        "microversion",
        service = api.service_type(),
        api_version = %negotiated.version,
        chosen_by = negotiated.chosen_by(),
    );
    let fut = span.in_scope(start);
    tracing::Instrument::instrument(fut, span)
}

/// Records a refused request in a span of its own, entered and left at
/// once.
#[cfg(feature = "tracing")]
pub fn refused(api: &Api, err: &NegotiationError) {
    let span = tracing::info_span!(
        "microversion",
        service = api.service_type(),
        api_version = "none",
        refused = err.status(),
    );
    span.in_scope(|| ());
}

/// A future outside any span (a refusal's, answered at once).
#[cfg(feature = "tracing")]
pub fn untraced<F>(fut: F) -> Traced<F> {
    tracing::Instrument::instrument(fut, tracing::Span::none())
}

/// Without `tracing`: `start()`.
#[cfg(not(feature = "tracing"))]
pub fn negotiated<F>(_: &Api, _: &Negotiated, start: impl FnOnce() -> F) -> Traced<F> {
    start()
}

/// Without `tracing`: nothing.
#[cfg(not(feature = "tracing"))]
pub fn refused(_: &Api, _: &NegotiationError) {}

/// Without `tracing`: `fut`.
#[cfg(not(feature = "tracing"))]
pub fn untraced<F>(fut: F) -> Traced<F> {
    fut
}

#[cfg(all(test, feature = "metrics"))]
mod tests {
    use super::*;

    #[test]
    fn outcomes_split_the_statuses() {
        let got: Vec<_> = [200, 204, 301, 400, 401, 404, 406, 409, 500, 503].map(outcome).into();
        assert_eq!(got, ["2xx", "2xx", "other", "400", "4xx", "4xx", "406", "4xx", "5xx", "5xx"]);
    }
}
