//! Errors: [`ApiError`], the one error of a versioned API; as documents, the [`Problem`] every format renders, the formats
//! ([`ApiSigErrors`], [`NovaFaults`], any [`ErrorFormat`]), the details the
//! contract's refusals say, and the [`Violation`]s of a refused body or
//! query in the words of Python's `jsonschema` ([`violation`]).

mod api_error;
mod page;
mod problem;
pub(crate) mod python;
mod renderer;
pub mod violation;

pub use api_error::ApiError;
pub use page::{ErrorPage, ErrorRequest};
pub use problem::{ApiSigErrors, ErrorFormat, NovaFaults, Problem, qualified_code};
pub use renderer::ErrorRenderer;
pub use violation::Violation;

// The details every facade writes alike: not for services.
#[cfg(feature = "schema")]
#[doc(hidden)]
pub use problem::read_query;
#[doc(hidden)]
pub use problem::{
    PATH_REFUSED_DETAIL, bodiless_error_detail, method_not_allowed_detail, not_at_version_detail,
    removed_detail,
};
