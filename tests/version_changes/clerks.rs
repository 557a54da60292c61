//! A header renamed by a version change (docs/reference.md §4.10): the
//! clerk serving a request is named in `X-Clerk` before 1.1 and in
//! `Shop-Clerk` from it; the handler reads the head's header only.

#![allow(dead_code, unreachable_pub)]

use microversion_axum::portable::{ApiError, Header, Json, RequestHeader};
use microversion_axum::{Api, Upgrade, controller, history, version_change};
use serde_json::{Value, json};

/// The counter's API.
pub(crate) const COUNTER: Api = Api::new(
    "counter",
    history![
        "1.0" => "The clerk is named in `X-Clerk`.",
        "1.1" => "The clerk is named in `Shop-Clerk`.",
    ],
);

/// The clerk, as the head reads it: `Shop-Clerk`, required.
pub(crate) struct Clerk(String);

impl RequestHeader for Clerk {
    const NAME: &'static str = "Shop-Clerk";
    fn read(value: Option<&str>) -> Result<Clerk, ApiError> {
        let name = value
            .filter(|v| !v.trim().is_empty())
            .ok_or_else(|| ApiError::bad_request("name the clerk in Shop-Clerk"))?;
        Ok(Clerk(name.trim().to_owned()))
    }
}

/// The clerk before 1.1: `X-Clerk`, `anyone` when absent.
pub(crate) struct LegacyClerk(String);

impl RequestHeader for LegacyClerk {
    const NAME: &'static str = "X-Clerk";
    fn read(value: Option<&str>) -> Result<LegacyClerk, ApiError> {
        Ok(LegacyClerk(value.unwrap_or("anyone").trim().to_owned()))
    }
}

/// The clerk's header is `Shop-Clerk`, and required; it was `X-Clerk`, and optional.
#[version_change(api = COUNTER, "1.1")]
pub(crate) struct ClerkHeaderRenamed;

impl Upgrade<Header<Clerk>> for ClerkHeaderRenamed {
    type Before = Header<LegacyClerk>;
    fn upgrade(Header(LegacyClerk(name)): Header<LegacyClerk>) -> Result<Header<Clerk>, ApiError> {
        Ok(Header(Clerk(name)))
    }
}

/// The counter.
#[derive(Clone, Default)]
pub(crate) struct Counter;

#[controller(api = COUNTER, actix, axum)]
impl Counter {
    /// Who serves the request.
    #[get("/clerk")]
    #[api_version("1.0")]
    #[change(ClerkHeaderRenamed, clerk)]
    async fn clerk(&self, clerk: Header<Clerk>) -> Json<Value> {
        let Header(Clerk(name)) = clerk;
        Json(json!({"clerk": name}))
    }
}
