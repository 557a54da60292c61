//! The route's parameters and the query string as arguments: [`Path`] and
//! [`Query`] read into a type, [`JsonQuery`](crate::JsonQuery) as Nova's
//! validators see the query; refusals are [`ApiError`](crate::ApiError)s.
//! The core's types, the same on every facade; outside a controller, a
//! handler takes them as [`Native`](crate::Native)`<Path<T>>`, ...

pub use microversion_core::portable::{Path, Query};
