//! The names and defaults of generated code, each written once.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote};
use syn::Ident;

/// The facade crate the calling crate depends on, unless `crate = "..."`
/// says otherwise: `microversion-actix` if it is a dependency (under any
/// name), else `microversion-axum`. What a model or a history expands to
/// is the same through either.
pub(crate) fn default_crate() -> syn::Path {
    Framework::of_caller().default_crate()
}

/// The web framework a controller's routes are written for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Framework {
    /// actix-web, through `microversion-actix` (the default).
    Actix,
    /// axum, through `microversion-axum` (`#[controller(api = API, axum)]`).
    Axum,
}

impl Framework {
    /// The framework of the facade the calling crate depends on: actix
    /// when it depends on `microversion-actix` (or on neither), axum when
    /// only on `microversion-axum`.
    pub(crate) fn of_caller() -> Framework {
        if facade_name("microversion-actix").is_none() && facade_name("microversion-axum").is_some() {
            Framework::Axum
        } else {
            Framework::Actix
        }
    }

    /// The facade crate of the framework, as the calling crate names it
    /// (a renamed dependency keeps working), unless `crate = "..."` says otherwise.
    pub(crate) fn default_crate(self) -> syn::Path {
        let (package, canonical) = match self {
            Framework::Actix => ("microversion-actix", "microversion_actix"),
            Framework::Axum => ("microversion-axum", "microversion_axum"),
        };
        let name = facade_name(package).unwrap_or_else(|| canonical.to_owned());
        let ident = syn::Ident::new(&name, Span::call_site());
        syn::parse_quote!(::#ident)
    }
}

/// The name the calling crate gives `package`, if it depends on it. The
/// facade itself (its doctests and tests) names it by its own name.
fn facade_name(package: &str) -> Option<String> {
    match proc_macro_crate::crate_name(package).ok()? {
        proc_macro_crate::FoundCrate::Itself => Some(package.replace('-', "_")),
        proc_macro_crate::FoundCrate::Name(name) => Some(name),
    }
}

/// The status of an operation at a version none of its variants serves,
/// unless `missing = N` says otherwise: 404, as Nova answers.
pub(crate) const DEFAULT_MISSING_STATUS: u16 = 404;

/// The one door of generated code into the runtime: `<crate>::__private`.
pub(crate) fn runtime(krate: &syn::Path) -> TokenStream {
    quote!(#krate::__private)
}

/// A path as text without the spaces `to_string` puts between tokens
/// (`schemas::create_v2_1`), for messages and schema names.
pub(crate) fn path_text(path: &impl ToTokens) -> String {
    path.to_token_stream().to_string().replace(' ', "")
}

/// The span of a path's last segment, where a type error about it reads best.
pub(crate) fn last_segment_span(path: &syn::Path) -> Span {
    path.segments.last().map_or_else(Span::call_site, |s| s.ident.span())
}

/// The `i`-th variant of operation `op`, renamed so variants can coexist;
/// it keeps the span of the variant's own name (`method`), so that rustc's
/// errors about its signature point at that variant.
pub(crate) fn variant(op: &Ident, i: usize, method: &Ident) -> Ident {
    format_ident!("__mv_{}_v{}", op, i, span = method.span())
}

/// The function of an actix controller that runs its routes, by index.
pub(crate) fn route_dispatch() -> Ident {
    format_ident!("__mv_routes")
}

/// The route function of operation `op`.
pub(crate) fn route_handler(op: &Ident) -> Ident {
    format_ident!("__mv_route_{}", op)
}

/// What a variant's schemas validate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum SchemaTarget {
    /// The request body.
    Body,
    /// The query string.
    Query,
}

/// The function holding the compiled schemas of the `i`-th variant of `op`.
pub(crate) fn schemas(op: &Ident, i: usize, target: SchemaTarget) -> Ident {
    match target {
        SchemaTarget::Body => format_ident!("__mv_schemas_{}_v{}", op, i),
        SchemaTarget::Query => format_ident!("__mv_query_schemas_{}_v{}", op, i),
    }
}
