//! Shared declarations for the workspace-level tests.

use microversion_actix::{Api, Microversion};

/// A small compute-like API, 2.1 to 2.12, used by the UI and end-to-end tests.
pub const API: Api = Api::new(
    "compute",
    &[
        Microversion::new("2.1", "Initial version."),
        Microversion::new("2.2", "Change 2."),
        Microversion::new("2.3", "Change 3."),
        Microversion::new("2.4", "Change 4."),
        Microversion::new("2.5", "Change 5."),
        Microversion::new("2.6", "Change 6."),
        Microversion::new("2.7", "Change 7."),
        Microversion::new("2.8", "Change 8."),
        Microversion::new("2.9", "Change 9."),
        Microversion::new("2.10", "Change 10."),
        Microversion::new("2.11", "Change 11."),
        Microversion::new("2.12", "Change 12."),
    ],
)
.with_legacy_headers(&["X-OpenStack-Nova-API-Version"]);

/// The answers of actix-web and of axum to the same `requests`, checked to
/// be alike, answer by answer (each shown by `text` when they differ): the
/// actix-web ones.
pub fn alike<R: std::fmt::Debug, A: PartialEq + std::fmt::Debug>(
    requests: &[R],
    actix: Vec<A>,
    axum: Vec<A>,
    text: impl Fn(&A) -> String,
) -> Vec<A> {
    assert_eq!(actix.len(), axum.len(), "one answer per request on each");
    for ((request, actix), axum) in requests.iter().zip(&actix).zip(&axum) {
        assert_eq!(actix, axum, "{request:?}: actix {} / axum {}", text(actix), text(axum));
    }
    actix
}

/// An error format that reads the request it answers, as Placement's
/// webob pages do: an HTML page naming the status and the method for a
/// client whose `Accept` names `text/html`, else a document naming the
/// method and the `Accept` (tests/third_framework.rs, tests/portable.rs).
pub struct Pages;

impl microversion_core::error::ErrorFormat for Pages {
    fn reads_request(&self) -> bool {
        true
    }

    fn render(&self, problem: &microversion_core::Problem<'_>, _: Option<&str>) -> serde_json::Value {
        let request = problem.request.expect("the request, for a format that reads it");
        serde_json::json!({"status": problem.status, "method": request.method, "accept": request.accept})
    }

    fn page(
        &self,
        problem: &microversion_core::Problem<'_>,
        _: Option<&str>,
    ) -> Option<microversion_core::error::ErrorPage> {
        let request = problem.request?;
        request.accept.as_deref().filter(|accept| accept.contains("text/html"))?;
        let body = format!("<h1>{} {}</h1><p>{}</p>", problem.status, problem.title, request.method);
        Some(microversion_core::error::ErrorPage { content_type: "text/html; charset=UTF-8", body })
    }
}
