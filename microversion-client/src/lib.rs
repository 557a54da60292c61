//! The HTTP side of the typed clients `#[controller(client)]` generates
//! (docs/20-typed-clients.md): [`HttpClient`] reads a service's version
//! document, settles on the highest version both the service and this
//! build's declaration serve (or the one asked for), and sends every
//! request with that version where the API reads it first
//! (`OpenStack-API-Version` and the API's legacy headers, unless it
//! declares other readers: docs/reference.md §2.6), through reqwest.
//!
//! ```no_run
//! use microversion_client::HttpClient;
//! use microversion_core::{Api, Microversion};
//!
//! const COMPUTE: Api = Api::new("compute", &[Microversion::new("2.1", "Initial version.")]);
//! # async fn run() -> Result<(), microversion_client::ConnectError> {
//! let client = HttpClient::discover("http://127.0.0.1:8774/v2.1", &COMPUTE).await?;
//! println!("talking {} at {}", COMPUTE.service_type(), client.version());
//! # Ok(()) }
//! ```

use std::fmt;

pub use microversion_core::client::typed_client::{
    Answer, AtVersion, Call, CallError, Refusal, Rendered, Transport,
};
use microversion_core::{
    Api, Version, VersionRange, client::ClientNegotiationError, client::ClientRequest, client::ServerVersion,
    client::choose_version, client::parse_discovery, client::versioned_call,
};

/// A service's endpoint at one negotiated version.
#[derive(Clone, Debug)]
pub struct HttpClient {
    http: reqwest::Client,
    endpoint: String,
    api: Api,
    version: Version,
    server: ServerVersion,
}

/// Why no client could be made.
#[derive(Debug)]
#[non_exhaustive]
pub enum ConnectError {
    /// The version document could not be fetched.
    Transport(String),
    /// The endpoint answered no version document of the API.
    Discovery(String),
    /// The service and this build have no version in common, or not the
    /// one asked for.
    Negotiation(ClientNegotiationError),
}

impl fmt::Display for ConnectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConnectError::Transport(why) => write!(f, "the version document could not be fetched: {why}"),
            ConnectError::Discovery(why) => write!(f, "no version document: {why}"),
            ConnectError::Negotiation(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for ConnectError {}

impl HttpClient {
    /// The client of `api`'s `endpoint` (`http://host:8774/v2.1`) at the
    /// highest version both the service (its cap included) and `api`
    /// serve, read from the endpoint's version document.
    pub async fn discover(endpoint: &str, api: &Api) -> Result<HttpClient, ConnectError> {
        HttpClient::negotiate(reqwest::Client::new(), endpoint, api, ClientRequest::HighestCommon).await
    }

    /// The client of `api`'s `endpoint` at exactly `version`, refused
    /// unless both the service and `api` serve it.
    pub async fn pinned(endpoint: &str, api: &Api, version: Version) -> Result<HttpClient, ConnectError> {
        HttpClient::negotiate(reqwest::Client::new(), endpoint, api, ClientRequest::Exactly(version)).await
    }

    /// [`HttpClient::discover`] or [`HttpClient::pinned`] through `http`,
    /// a reqwest client of the caller's (TLS roots, timeouts, a token in
    /// its default headers).
    pub async fn negotiate(
        http: reqwest::Client,
        endpoint: &str,
        api: &Api,
        request: ClientRequest,
    ) -> Result<HttpClient, ConnectError> {
        let endpoint = endpoint.trim_end_matches('/').to_owned();
        let answer = http
            .get(format!("{endpoint}/"))
            .send()
            .await
            .map_err(|e| ConnectError::Transport(e.to_string()))?;
        let text = answer.text().await.map_err(|e| ConnectError::Transport(e.to_string()))?;
        let documents = parse_discovery(&text).map_err(|e| ConnectError::Discovery(e.to_string()))?;
        let id = api.id();
        let server = documents
            .iter()
            .find(|d| d.id == id)
            .or(documents.first().filter(|_| documents.len() == 1))
            .cloned()
            .ok_or_else(|| ConnectError::Discovery(format!("the endpoint lists no {id}")))?;
        let ours = VersionRange::between(api.min(), api.max());
        let version = choose_version(ours, request, &server).map_err(ConnectError::Negotiation)?;
        Ok(HttpClient { http, endpoint, api: *api, version, server })
    }

    /// The version every request is sent at.
    pub fn version(&self) -> Version {
        self.version
    }

    /// The service's range as its version document showed it.
    pub fn server(&self) -> &ServerVersion {
        &self.server
    }

    /// The same endpoint at `version`, refused as [`HttpClient::pinned`]
    /// refuses it (from the document already read).
    pub fn at(&self, version: Version, api: &Api) -> Result<HttpClient, ConnectError> {
        let ours = VersionRange::between(api.min(), api.max());
        let version = choose_version(ours, ClientRequest::Exactly(version), &self.server)
            .map_err(ConnectError::Negotiation)?;
        Ok(HttpClient { version, ..self.clone() })
    }
}

impl Transport for HttpClient {
    fn version(&self) -> Version {
        self.version
    }

    async fn send(&self, call: Call) -> Result<Answer, CallError> {
        let method = reqwest::Method::from_bytes(call.method.as_bytes())
            .map_err(|e| CallError::Encode(format!("{}: {e}", call.method)))?;
        let placed = versioned_call(&self.api, self.version, &call.path, &call.query);
        let mut url = format!("{}{}", self.endpoint, placed.path);
        if !placed.query.is_empty() {
            url.push('?');
            url.push_str(&placed.query);
        }
        let mut request = self.http.request(method, url);
        if !placed.headers.iter().any(|(name, _)| *name == "Accept") {
            request = request.header("Accept", "application/json");
        }
        for (name, value) in placed.headers {
            request = request.header(name, value);
        }
        if let Some(body) = call.body {
            request = request.header("Content-Type", "application/json").body(body);
        }
        let transport = |e: reqwest::Error| CallError::Transport(format!("{}: {e}", call.operation));
        let answer = request.send().await.map_err(transport)?;
        let status = answer.status().as_u16();
        let body = answer.bytes().await.map_err(transport)?.to_vec();
        Ok(Answer { status, body })
    }
}

/// The guide's chapter on typed clients, compiled as doctests so that its
/// snippets stay true.
#[cfg(doctest)]
#[doc = include_str!("../../docs/20-typed-clients.md")]
struct Guide;
