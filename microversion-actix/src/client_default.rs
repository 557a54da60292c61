//! A default version per client (docs/reference.md §3.6): a hook of the
//! deployer's picks the version of a request that names none, from
//! whatever identifies the client (a token, an account, a header of the
//! deployer's choice), as Stripe pins each account to a version.

use actix_web::http::header::{HeaderMap, HeaderName};
use futures_util::future::LocalBoxFuture;

use crate::ApiError;

microversion_core::facade_client_default! {
    /// ```
    /// use std::collections::HashMap;
    /// use std::sync::Arc;
    ///
    /// use microversion_actix::{Version, middleware::ClientDefault};
    ///
    /// // Tokens pinned to a version (a database in a real service).
    /// let pins: Arc<HashMap<String, Version>> = Arc::new(HashMap::from([
    ///     ("token-a".to_owned(), Version::lit("2.50")),
    /// ]));
    /// let client_default = ClientDefault::new(&["X-Auth-Token"], move |headers| {
    ///     let token = headers.get("X-Auth-Token").and_then(|v| v.to_str().ok()).map(str::to_owned);
    ///     let pins = Arc::clone(&pins);
    ///     async move { Ok(token.and_then(|t| pins.get(&t).copied())) }
    /// });
    /// assert_eq!(client_default.vary(), "X-Auth-Token");
    /// ```
    pub struct ClientDefault;
    headers = HeaderMap;
    names = HeaderName;
    future = LocalBoxFuture<'static, ClientChoice>;
    bounds = [];
}
