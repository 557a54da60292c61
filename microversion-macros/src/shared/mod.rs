//! What both macros use: the error collector, version-range literals and
//! their runtime tokens, the checks against the declared API, and the names
//! and defaults of generated code.

pub(crate) mod api;
pub(crate) mod docs;
pub(crate) mod errors;
pub(crate) mod names;
pub(crate) mod ranges;
