//! The names and defaults of generated code, each written once.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote};
use syn::Ident;

/// The facade crates a controller is registered with, unless `crate = ...`
/// names one (docs/reference.md §4.7): those the words `named` name, by the
/// word after `microversion-` (`axum` for `::microversion_axum`, `actix,
/// axum` for both); with no word, the facade whose `controller` was called
/// (`default`). Nothing is read from the crate's manifest: what a crate
/// depends on changes nothing in how its controllers expand. A word that
/// names no crate of the build is rustc's error at that word.
pub(crate) fn facade_crates(named: &[Ident], default: Option<&str>) -> Result<Vec<syn::Path>, String> {
    if named.is_empty() {
        return match default {
            Some(word) => Ok(vec![facade_path(&Ident::new(word, Span::call_site()))]),
            None => Err("name the facades that serve this controller: `#[controller(api = API, actix)]`, \
                         `actix, axum` for both, or `crate = path::to::facade`; or write \
                         `#[microversion_actix::controller]`, which names its own"
                .to_owned()),
        };
    }
    Ok(named.iter().map(facade_path).collect())
}

/// The path of the facade a word names, spanned at the word.
fn facade_path(word: &Ident) -> syn::Path {
    let ident = format_ident!("microversion_{}", word, span = word.span());
    syn::parse_quote_spanned!(word.span()=> ::#ident)
}

/// The `crate = path;` a facade's forwarding `macro_rules!` puts before the
/// input of a function-like macro (`history!`, `version_gates!`): the
/// facade's own path (`$crate`), right whatever name the calling crate
/// gives the facade; `None` when the macro is called directly.
pub(crate) fn crate_argument(input: syn::parse::ParseStream<'_>) -> syn::Result<Option<syn::Path>> {
    if !(input.peek(syn::Token![crate]) && input.peek2(syn::Token![=])) {
        return Ok(None);
    }
    input.parse::<syn::Token![crate]>()?;
    input.parse::<syn::Token![=]>()?;
    let path = input.call(syn::Path::parse_mod_style)?;
    input.parse::<syn::Token![;]>()?;
    Ok(Some(path))
}

/// What a macro called without a facade answers: the facade gives its path.
pub(crate) const NO_FACADE: &str = "call it through a facade (`microversion_actix::history!`, `#[derive(microversion_axum::VersionedModel)]`), \
     which gives its own path, or give one: `crate = path::to::facade`";

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

/// The function of a controller that runs its routes, by index, on any facade.
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
