//! A default version per client (docs/reference.md §3.6): a hook of the
//! deployer's picks the version of a request that names none, from
//! whatever identifies the client (a token, an account, a header of the
//! deployer's choice), as Stripe pins each account to a version.

pub use microversion_core::exchange::ClientChoice;

use crate::header::ActixHeaders;

/// The hook that chooses the version of a request naming none, the core's
/// [`ClientDefault`](microversion_core::exchange::ClientDefault) over
/// actix's headers: its future need not be `Send`, a request staying on
/// its worker.
///
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
pub type ClientDefault = microversion_core::exchange::ClientDefault<ActixHeaders>;
