//! The client's side (docs/10-client-negotiation.md): read a service's
//! version discovery and choose the version to ask for, as keystoneauth1
//! does.

pub use microversion_core::{
    ClientNegotiationError, ClientRequest, DiscoveryParseError, choose_version, parse_discovery,
};
