//! The protocol engine, with no I/O and no framework: reading a request's
//! version ([`negotiate`](crate::version::Api::negotiate)), the steps of a
//! request and its answer ([`exchange`]), and the headers an answer gains
//! ([`header`]).

pub mod exchange;
mod headers;
mod http_wire;
pub(crate) mod negotiate;
mod negotiation;
#[doc(hidden)]
pub mod observe;
pub(crate) mod read;
mod scope;
pub(crate) mod stamp;

/// The contract's headers: their names, the values an answer at a version
/// carries (rendered once per API), `Vary`, and how one framework's header
/// map is read and written ([`HeaderWire`](header::HeaderWire)).
pub mod header {
    pub use super::headers::{MAX_VERSION_HEADER, MIN_VERSION_HEADER, OPERATION_VERSIONS_HEADER};
    pub use super::headers::{ResponseHeaders, VaryUpdate, VersionHeaderValues, append_vary, vary_update};
    pub use super::headers::{clip_operation_versions, operation_versions};
    pub use super::http_wire::{
        HttpHeaders, HttpWire, MAX_VERSION_HEADER_NAME, MIN_VERSION_HEADER_NAME, STANDARD_HEADER_NAME,
    };
    pub use super::stamp::{AnswerWire, HeaderWire, Stamp};
    pub use crate::lifecycle::{DEPRECATION_HEADER, LINK_HEADER, SUNSET_HEADER};
    pub use crate::version::{MAX_LEGACY_HEADERS, STANDARD_HEADER};

    // What the facades' layers and routes call: not for services.
    #[doc(hidden)]
    pub use super::headers::{appends_to_handlers, read_header_names};
    #[doc(hidden)]
    pub use super::stamp::{
        answer_request_id, error_headers, header_name, interned, min_max_names, plain_answer, set_header,
        stamp_deprecation,
    };
}
