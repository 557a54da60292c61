//! A default version per client (docs/reference.md §3.6): a hook of the
//! deployer's picks the version of a request that names none, from
//! whatever identifies the client (a token, an account, a header of the
//! deployer's choice), as Stripe pins each account to a version.

use std::fmt;
use std::future::Future;
use std::sync::Arc;

use actix_web::http::header::{HeaderMap, HeaderName};
use futures_util::future::LocalBoxFuture;

use crate::{ApiError, Version};

/// What the hook answers: the client's version, `None` for the API's
/// default, or an error the request is answered with (a store that cannot
/// be read is a 503, not a silent change of version).
pub type ClientChoice = Result<Option<Version>, ApiError>;

type Choose = dyn Fn(&HeaderMap) -> LocalBoxFuture<'static, ClientChoice> + Send + Sync;

/// The hook that chooses the version of a request naming none, and the
/// request headers it reads. Given to
/// [`VersionNegotiation::with_client_default`](crate::VersionNegotiation::with_client_default)
/// it is asked for every such request of the scope; given to
/// [`Discovery::with_client_default`](crate::Discovery::with_client_default)
/// the version documents show the asking client its version
/// (`client_version`). Every response of either names the headers read in
/// `Vary`, so that a shared cache keeps one client's answer from another.
///
/// The chosen version is served within what the API serves at the time
/// ([`Api::negotiate_pinned`](crate::Api::negotiate_pinned)); requests that
/// name a version are never affected.
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
#[derive(Clone)]
pub struct ClientDefault {
    reads: Vec<HeaderName>,
    vary: String,
    choose: Arc<Choose>,
}

impl ClientDefault {
    /// A hook reading the request headers `names`, given the request's
    /// headers (the same closure serves on axum). `choose` runs on the
    /// worker that serves the request; the future it returns may wait on
    /// I/O (a database) and must not keep the headers.
    ///
    /// # Panics
    ///
    /// If one of `names` is not a valid header name: a mistake in the
    /// deployment, found at start-up.
    pub fn new<F, Fut>(names: &[&'static str], choose: F) -> ClientDefault
    where
        F: Fn(&HeaderMap) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ClientChoice> + 'static,
    {
        let reads = microversion_core::read_header_names("ClientDefault", names);
        let vary = names.join(", ");
        ClientDefault { reads, vary, choose: Arc::new(move |req| Box::pin(choose(req))) }
    }

    /// The request headers the hook reads.
    pub fn reads(&self) -> &[HeaderName] {
        &self.reads
    }

    /// The names of [`ClientDefault::reads`] as a `Vary` value.
    pub fn vary(&self) -> &str {
        &self.vary
    }

    /// Asks the hook for the version of a request with `headers`.
    pub(crate) fn choose(&self, headers: &HeaderMap) -> LocalBoxFuture<'static, ClientChoice> {
        (self.choose)(headers)
    }
}

impl fmt::Debug for ClientDefault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientDefault").field("reads", &self.reads).finish_non_exhaustive()
    }
}
