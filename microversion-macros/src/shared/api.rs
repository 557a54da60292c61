//! The `api = API` binding and the checks that every version a macro names
//! is declared by that API.

use proc_macro2::TokenStream;
use quote::quote_spanned;

use crate::shared::names::{last_segment_span, path_text};
use crate::shared::ranges::{RangeLit, range_tokens};

/// The typed binding the checks use: a wrong path is one type error, at the
/// path, and the checks cannot add follow-on errors.
pub(crate) fn api_binding(runtime: &TokenStream, api: &syn::Path) -> TokenStream {
    quote_spanned!(last_segment_span(api)=> const __MV_API: &#runtime::Api = &#api;)
}

/// `assert!`s, each spanned at its literal, that every version named by
/// `ranges` is declared by `api` (bound by [`api_binding`] beforehand).
/// `what` names each range for the message. A version is checked once, at
/// its first literal: the checks are evaluated at compile time, and a
/// controller of many operations names the same few versions many times.
pub(crate) fn declared_checks<'a>(
    runtime: &TokenStream,
    api: &syn::Path,
    ranges: impl IntoIterator<Item = (&'a RangeLit, String)>,
) -> Vec<TokenStream> {
    let api_name = path_text(api);
    let mut checks = Vec::new();
    let mut checked = std::collections::BTreeSet::new();
    for (range, what) in ranges {
        for lit in range.literals() {
            if !checked.insert(lit.version) {
                continue;
            }
            let version = range_tokens(runtime, microversion_core::VersionRange::only(lit.version));
            let message = format!(
                "{what}, {}, is outside the versions declared by `{api_name}`: declare it in its version history first",
                lit.version
            );
            checks.push(quote_spanned! {lit.lit.span()=>
                ::core::assert!(__MV_API.declares(#version), #message);
            });
        }
    }
    checks
}
