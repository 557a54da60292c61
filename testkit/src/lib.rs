//! What the tests of several crates, the compute example's soak client and
//! the fuzz targets share, in one place:
//!
//! - [`negotiation`]: a naive oracle of header negotiation (docs/reference.md §2);
//! - [`body`]: the body-reading and schema rules of docs/reference.md §6.2 as a rule
//!   table and documents of known verdict;
//! - [`http`]: a raw HTTP/1.1 client and the response contract of the
//!   compute example under hostile input;
//! - [`nginx`]: a real nginx of a test's own, on loopback;
//! - [`process`]: a server process of a test's own, on a port the kernel gives it;
//! - [`python`]: a virtual environment of pinned PyPI packages, and running
//!   a process under a deadline;
//! - [`service`]: the compute example as an in-process actix service;
//! - [`fuzz`]: the property of each fuzz target, replayed on its seeds by
//!   `cargo test`.

pub mod body;
pub mod fuzz;
pub mod http;
pub mod negotiation;
pub mod nginx;
pub mod postgres;
pub mod process;
pub mod python;
pub mod service;
