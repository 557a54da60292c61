//! The client's side: the versions a server announces, read from any of
//! OpenStack's discovery shapes ([`parse_discovery`]), which version to ask
//! for ([`choose_version`]), and the typed clients generated from
//! controllers (`typed_client`, feature `schema`).

mod negotiation;
mod placement;
#[cfg(feature = "schema")]
#[cfg_attr(docsrs, doc(cfg(feature = "schema")))]
pub mod typed_client;

pub use negotiation::{
    ClientNegotiationError, ClientRequest, DiscoveryParseError, ServerVersion, choose_version,
    parse_discovery,
};
pub use placement::{VersionedCall, versioned_call};
