//! OpenStack-style API microversions for actix-web.

pub use microversion_core::*;
