//! The names and defaults of generated code, each written once.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote};
use syn::Ident;

/// The facade crates a controller is registered with, unless `crate = ...`
/// names one (docs/reference.md §4.7): those the words `named` name, by
/// the word after `microversion-` (`axum`, or `actix, axum` for both); with
/// no word, the first facade the calling crate depends on, by package name.
/// A facade is a dependency whose package is `microversion-*`, other than
/// the framework's own `-core`, `-macros` and `-testkit`; the macro knows
/// no framework by name, so a new facade needs no change here. With no
/// facade, the calling package itself: a facade's own tests and doctests.
/// Each word that names no facade is an error at that word (the others
/// are kept, so that no follow-on error appears); with none found at all,
/// an error at the call.
pub(crate) fn facade_crates(named: &[Ident]) -> (Vec<syn::Path>, Vec<(Option<&Ident>, String)>) {
    let facades = facades_of_caller();
    let (mut chosen, mut errors) = (Vec::new(), Vec::new());
    for word in named {
        let package = format!("microversion-{word}");
        if facades.contains(&package) || own_package().as_ref() == Some(&package) {
            chosen.push(package);
        } else {
            let message = format!(
                "`{word}` names no facade: this crate does not depend on `{package}`; \
                 a word here names the facade of a framework (`axum` for `microversion-axum`)"
            );
            errors.push((Some(word), message));
        }
    }
    if named.is_empty() {
        match facades.into_iter().next().or_else(own_package) {
            Some(first) => chosen.push(first),
            None => errors.push((
                None,
                "this crate depends on no facade of microversion: add the one of its web framework"
                    .to_owned(),
            )),
        }
    }
    (chosen.iter().map(|package| crate_path(package)).collect(), errors)
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

/// The path of `package` as the calling crate names it.
fn crate_path(package: &str) -> syn::Path {
    let name = crate_name(package).unwrap_or_else(|| package.replace('-', "_"));
    let ident = syn::Ident::new(&name, Span::call_site());
    syn::parse_quote!(::#ident)
}

/// The first of [`facade_crates`], for the models, histories and route
/// tables, whose expansion is the same through every facade.
pub(crate) fn default_crate() -> syn::Path {
    facade_crates(&[]).0.into_iter().next().unwrap_or_else(|| syn::parse_quote!(::microversion_core))
}

/// The framework's own packages, which are no facades.
const NOT_FACADES: [&str; 3] = ["microversion-core", "microversion-macros", "microversion-testkit"];

/// Whether a `microversion-*` package is a facade: neither the framework's
/// own nor one of its examples (`microversion-example-compute`).
fn is_facade(package: &str) -> bool {
    package.starts_with("microversion-")
        && !package.starts_with("microversion-example-")
        && !NOT_FACADES.contains(&package)
}

/// The facade packages the calling crate depends on (any kind of
/// dependency, any target), sorted by name.
fn facades_of_caller() -> Vec<String> {
    let Some(manifest) = caller_manifest() else { return Vec::new() };
    let mut tables: Vec<&dyn toml_edit::TableLike> = Vec::new();
    let kinds = ["dependencies", "dev-dependencies", "build-dependencies"];
    tables.extend(kinds.iter().filter_map(|kind| manifest.get(kind)?.as_table_like()));
    if let Some(targets) = manifest.get("target").and_then(|t| t.as_table_like()) {
        for (_, target) in targets.iter() {
            let Some(target) = target.as_table_like() else { continue };
            tables.extend(kinds.iter().filter_map(|kind| target.get(kind)?.as_table_like()));
        }
    }
    let mut facades: Vec<String> = tables
        .into_iter()
        .flat_map(|table| table.iter())
        .map(|(key, dependency)| {
            let renamed = dependency.as_table_like().and_then(|d| d.get("package")?.as_str());
            renamed.unwrap_or(key).to_owned()
        })
        .filter(|package| is_facade(package))
        .collect();
    facades.sort();
    facades.dedup();
    facades
}

/// The calling crate's `Cargo.toml`, parsed.
fn caller_manifest() -> Option<toml_edit::DocumentMut> {
    let dir = std::env::var_os("CARGO_MANIFEST_DIR")?;
    let text = std::fs::read_to_string(std::path::Path::new(&dir).join("Cargo.toml")).ok()?;
    text.parse().ok()
}

/// The calling package's name, when it is a facade's own.
fn own_package() -> Option<String> {
    let manifest = caller_manifest()?;
    let name = manifest.get("package")?.get("name")?.as_str()?.to_owned();
    is_facade(&name).then_some(name)
}

/// The name the calling crate gives `package`, if it depends on it. The
/// facade itself (its doctests and tests) names it by its own name.
fn crate_name(package: &str) -> Option<String> {
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

/// The function of a controller that runs its routes, by index, for the
/// `nth` facade it is registered with ([`facade_crates`]).
pub(crate) fn route_dispatch(nth: usize) -> Ident {
    format_ident!("__mv_{}routes", facade_prefix(nth))
}

/// The route function of operation `op` for the `nth` facade.
pub(crate) fn route_handler(op: &Ident, nth: usize) -> Ident {
    format_ident!("__mv_{}route_{}", facade_prefix(nth), op)
}

/// What tells the route functions of several facades apart, before the
/// operation's name (after it, `list` of one facade could meet `list_1` of
/// another): nothing for the first, so that a crate with one facade reads
/// plain names.
fn facade_prefix(nth: usize) -> String {
    if nth == 0 { String::new() } else { format!("{nth}_") }
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
