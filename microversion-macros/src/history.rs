//! `history!`: a version history, checked where it is written. Each entry is
//! `"X.Y" => "the change it made"`; the versions must be valid literals in
//! strictly increasing order, and there must be at least one. Every mistake
//! is an error on the literal itself, quoting it.

use microversion_core::Version;
use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Expr, LitStr, Token};

use crate::shared::errors::Errors;
use crate::shared::names::runtime;
use crate::shared::ranges::version_tokens;

/// `"2.1" => "Initial version."`
struct Entry {
    version: LitStr,
    change: Expr,
}

impl Parse for Entry {
    fn parse(input: ParseStream<'_>) -> syn::Result<Entry> {
        let version = input.parse()?;
        input.parse::<Token![=>]>()?;
        Ok(Entry { version, change: input.parse()? })
    }
}

/// `crate = path;`, which a facade's forwarding macro puts first, then the entries.
struct History {
    krate: Option<syn::Path>,
    entries: Punctuated<Entry, Token![,]>,
}

impl Parse for History {
    fn parse(input: ParseStream<'_>) -> syn::Result<History> {
        let krate = crate::shared::names::crate_argument(input)?;
        Ok(History { krate, entries: Punctuated::parse_terminated(input)? })
    }
}

/// The expansion of `history![...]`: a `&'static [Microversion]`.
pub(crate) fn expand(input: TokenStream) -> TokenStream {
    let History { krate, entries } = match syn::parse2(input) {
        Ok(history) => history,
        Err(e) => return e.to_compile_error(),
    };
    let mut errors = Errors::default();
    if entries.is_empty() {
        errors.at_span(
            Span::call_site(),
            "a version history lists at least one version, e.g. history![\"2.1\" => \"Initial version.\"]",
        );
    }
    let mut versions: Vec<(Version, &Expr)> = Vec::new();
    for entry in &entries {
        let lit = &entry.version;
        let version = match lit.value().parse::<Version>() {
            Ok(version) => version,
            Err(e) => {
                errors.at(lit, format!("invalid version {:?} in the history: {e}", lit.value()));
                continue;
            }
        };
        let highest = versions.iter().map(|(v, _)| *v).max();
        if versions.iter().any(|(v, _)| *v == version) {
            errors.at(lit, format!("version {version} is declared twice in the history"));
        } else if let Some(highest) = highest.filter(|highest| version < *highest) {
            errors.at(
                lit,
                format!(
                    "version {version} comes after {highest}: the history lists versions in increasing order"
                ),
            );
        }
        versions.push((version, &entry.change));
    }
    let krate = krate.unwrap_or_else(|| {
        errors.at_span(Span::call_site(), crate::shared::names::NO_FACADE);
        syn::parse_quote!(::microversion_core)
    });
    let rt = runtime(&krate);
    match errors.finish() {
        Ok(()) => {
            let entries = versions.iter().map(|(version, change)| {
                let version = version_tokens(&rt, *version);
                quote!(#rt::Microversion { version: #version, change: #change })
            });
            quote!(&[#(#entries),*])
        }
        // A valid value of the right type, so that the declaration using it
        // reports nothing more.
        Err(e) => {
            let e = e.to_compile_error();
            let one = version_tokens(&rt, Version::new(1, 0));
            quote!({ #e &[#rt::Microversion { version: #one, change: "" }] })
        }
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    fn errors(input: proc_macro2::TokenStream) -> Vec<String> {
        let out = super::expand(quote!(crate = ::facade; #input)).to_string();
        out.match_indices("compile_error !")
            .map(|(i, _)| out[i..].split(')').next().unwrap_or_default().to_owned())
            .collect()
    }

    #[test]
    fn each_mistake_is_one_error_quoting_the_literal() {
        assert!(errors(quote!("2.1" => "a", "2.2" => "b")).is_empty());
        let found = errors(
            quote!("2.1" => "a", "2.O" => "b", "2.3" => "c", "2.3" => "d", "2.2" => "e", "2.3" => "f"),
        );
        assert_eq!(found.len(), 4, "{found:?}");
        assert!(found[3].contains("version 2.3 is declared twice"), "{found:?}");
        assert!(found[0].contains("invalid version \\\"2.O\\\" in the history"), "{found:?}");
        assert!(found[1].contains("version 2.3 is declared twice"), "{found:?}");
        assert!(found[2].contains("version 2.2 comes after 2.3"), "{found:?}");
        assert_eq!(errors(quote!()).len(), 1);
    }

    #[test]
    fn without_a_facade_it_asks_for_one() {
        let out = super::expand(quote!("2.1" => "a")).to_string();
        assert!(out.contains("call it through a facade"), "{out}");
    }

    #[test]
    fn the_facade_named_by_its_forwarding_macro_is_the_one_written() {
        let text = super::expand(quote!(crate = ::renamed_facade; "2.1" => "a")).to_string();
        assert!(text.contains(":: renamed_facade :: __private :: Microversion"), "{text}");
        assert!(errors(quote!(crate = ::renamed_facade;)).len() == 1, "an empty history is still refused");
    }
}
