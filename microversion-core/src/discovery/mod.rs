//! Version discovery (docs/reference.md §7): the documents of `GET /` and
//! `GET /v2.1/` ([`VersionList`], [`SingleVersion`]), built from the
//! declarations, and where their links point ([`PublicUrl`]).

mod documents;
mod public_url;
mod settings;

pub use documents::{
    Link, ListedApis, MediaType, ReaderDocument, SingleVersion, VersionDocument, VersionList,
    is_version_like_path,
};
pub use public_url::{FORWARDED_AND_HOST, InvalidPublicUrl, PublicUrl, RequestLinks, RequestOrigin};
pub use settings::DiscoverySettings;

// What the facades' discovery services call: not for services.
#[doc(hidden)]
pub use public_url::{decode_unreserved, path_prefix};
