//! `version_gates!`: a struct of behaviours, each a `bool` that is on from
//! the version it was introduced in. Every version is checked where it is
//! written: a malformed literal is an error on it, and one the API does not
//! declare is a compile-time assertion spanned at it, as a controller's are.

use microversion_core::Version;
use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Attribute, Ident, LitStr, Token, Visibility};

use crate::shared::api::{api_binding, declared_checks};
use crate::shared::errors::Errors;
use crate::shared::names::runtime;
use crate::shared::ranges::{RangeLit, VersionLit, version_tokens};

/// `$(#[meta])* $vis struct Name for API { $(#[meta])* $vis field: "X.Y", ... }`,
/// after `crate = path;` when a facade's forwarding macro names itself.
struct Gates {
    krate: Option<syn::Path>,
    attrs: Vec<Attribute>,
    vis: Visibility,
    name: Ident,
    api: syn::Path,
    gates: Punctuated<Gate, Token![,]>,
}

/// `/// doc` `pub forbidden_traits: "1.22"`
struct Gate {
    attrs: Vec<Attribute>,
    vis: Visibility,
    name: Ident,
    since: LitStr,
}

impl Parse for Gates {
    fn parse(input: ParseStream<'_>) -> syn::Result<Gates> {
        let krate = crate::shared::names::crate_argument(input)?;
        let attrs = input.call(Attribute::parse_outer)?;
        let vis = input.parse()?;
        input.parse::<Token![struct]>()?;
        let name = input.parse()?;
        input.parse::<Token![for]>()?;
        let api = input.parse()?;
        let body;
        syn::braced!(body in input);
        let gates = body.parse_terminated(Gate::parse, Token![,])?;
        Ok(Gates { krate, attrs, vis, name, api, gates })
    }
}

impl Parse for Gate {
    fn parse(input: ParseStream<'_>) -> syn::Result<Gate> {
        let attrs = input.call(Attribute::parse_outer)?;
        let vis = input.parse()?;
        let name = input.parse()?;
        input.parse::<Token![:]>()?;
        Ok(Gate { attrs, vis, name, since: input.parse()? })
    }
}

/// The expansion of `version_gates! { ... }`: the struct, its `INTRODUCED`
/// table and `at(version)`, and the checks against the API's history.
pub(crate) fn expand(input: TokenStream) -> TokenStream {
    let Gates { krate, attrs, vis, name, api, gates } = match syn::parse2(input) {
        Ok(gates) => gates,
        Err(e) => return e.to_compile_error(),
    };
    // The facade's own path when its forwarding macro gives it (`$crate`),
    // so that a crate that reaches the facade by a re-export, or depends on
    // several, names the right one.
    let Some(krate) = krate else {
        return syn::Error::new(proc_macro2::Span::call_site(), crate::shared::names::NO_FACADE)
            .to_compile_error();
    };
    let rt = runtime(&krate);
    let mut errors = Errors::default();
    // Each version, or `None` after its error: a malformed one stands as
    // 0.0 in the expansion, so that its one error is all the user sees.
    let parsed: Vec<Option<Version>> = gates
        .iter()
        .map(|gate| {
            let parsed = gate.since.value().parse::<Version>();
            parsed
                .map_err(|e| errors.at(&gate.since, format!("invalid version {:?}: {e}", gate.since.value())))
                .ok()
        })
        .collect();
    let declared: Vec<(RangeLit, String)> = gates
        .iter()
        .zip(&parsed)
        .filter_map(|(gate, version)| {
            let lit = VersionLit { version: (*version)?, lit: gate.since.clone() };
            let tokens = gate.since.to_token_stream();
            Some((
                RangeLit { min: Some(lit), max: None, tokens, sound: true },
                format!("the first version of `{}`", gate.name),
            ))
        })
        .collect();
    let checks = declared_checks(&rt, &api, declared.iter().map(|(range, what)| (range, what.clone())));
    let binding = api_binding(&rt, &api);
    let errors = errors.finish().err().map(|e| e.to_compile_error());
    let fields = gates.iter().map(|Gate { attrs, vis, name, .. }| quote!(#(#attrs)* #vis #name: bool));
    let names: Vec<_> = gates.iter().map(|gate| &gate.name).collect();
    let versions: Vec<_> =
        parsed.iter().map(|v| version_tokens(&rt, v.unwrap_or(Version::new(0, 0)))).collect();
    quote! {
        #errors
        #(#attrs)*
        #vis struct #name { #(#fields,)* }

        impl #name {
            /// Each behaviour's name and the version it was introduced in, in the order written.
            #[allow(dead_code)]
            #vis const INTRODUCED: &'static [(&'static str, #rt::Version)] =
                &[#((::core::stringify!(#names), #versions)),*];

            /// Each behaviour at `version`: on from the version it was introduced in.
            #[allow(dead_code)]
            #vis fn at(version: #rt::Version) -> #name {
                #name { #(#names: version >= #versions),* }
            }
        }

        const _: () = {
            #binding
            #(#checks)*
        };
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    #[test]
    fn the_facade_named_by_its_forwarding_macro_is_the_one_written() {
        let out = super::expand(quote!(crate = ::renamed_facade; struct S for API { a: "2.1" }));
        let text = out.to_string();
        assert!(text.contains(":: renamed_facade :: __private :: Version"), "{text}");
        assert!(!text.contains("compile_error"), "{text}");
    }

    #[test]
    fn a_malformed_version_is_one_error_and_the_struct_still_stands() {
        let text =
            super::expand(quote!(crate = ::facade; struct S for API { a: "2.x", b: "2.2" })).to_string();
        assert_eq!(text.matches("compile_error").count(), 1, "{text}");
        assert!(text.contains("struct S"), "{text}");
    }
}
