//! The route's parameters and the query string as arguments: [`Path`] and
//! [`Query`] read into a type, with the API's errors, as on actix
//! (`microversion_actix::params`). The core's types, the same on every
//! facade; outside a controller, a handler takes them as
//! [`Native`](crate::Native)`<Path<T>>`, ...

pub use microversion_core::portable::{Path, Query};
