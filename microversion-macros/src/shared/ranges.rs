//! Version ranges as written in attributes (`"2.1", "2.4"`, `since`/`until`)
//! and as runtime tokens in generated code.

use microversion_core::{Version, VersionRange};
use proc_macro2::{Literal, TokenStream};
use quote::quote;
use syn::LitStr;

use crate::shared::errors::Errors;

/// A version literal with its source token.
#[derive(Clone)]
pub(crate) struct VersionLit {
    pub(crate) version: Version,
    pub(crate) lit: LitStr,
}

/// A range as written: its two optional literals and the attribute's tokens.
#[derive(Clone)]
pub(crate) struct RangeLit {
    pub(crate) min: Option<VersionLit>,
    pub(crate) max: Option<VersionLit>,
    /// The attribute's tokens, for errors about the range as a whole.
    pub(crate) tokens: TokenStream,
    /// `false` when a literal was invalid or the pair inverted: the error is
    /// reported once, and the range takes part in no other check.
    pub(crate) sound: bool,
}

impl RangeLit {
    /// A range written without literals (every version), pointing at `tokens`.
    pub(crate) fn open(tokens: TokenStream) -> RangeLit {
        RangeLit { min: None, max: None, tokens, sound: true }
    }

    /// The range it denotes; `None` for an unsound one.
    pub(crate) fn range(&self) -> Option<VersionRange> {
        if !self.sound {
            return None;
        }
        VersionRange::new(self.min.as_ref().map(|m| m.version), self.max.as_ref().map(|m| m.version)).ok()
    }

    /// The literals it names, for the checks against the declared history.
    pub(crate) fn literals(&self) -> impl Iterator<Item = &VersionLit> {
        self.min.iter().chain(&self.max)
    }
}

/// A range from its two optional literals, each checked, and the pair
/// checked for order (`inverted` words that error, pointing at both).
pub(crate) fn range_of(
    min: Option<&LitStr>,
    max: Option<&LitStr>,
    tokens: TokenStream,
    errors: &mut Errors,
    inverted: impl Fn(Version, Version) -> String,
) -> RangeLit {
    let mut sound = true;
    let mut version = |lit: Option<&LitStr>, errors: &mut Errors| {
        let lit = lit?;
        match lit.value().parse::<Version>() {
            Ok(version) => Some(VersionLit { version, lit: lit.clone() }),
            Err(e) => {
                errors.at(lit, format!("invalid version {:?}: {e}", lit.value()));
                sound = false;
                None
            }
        }
    };
    let (min, max) = (version(min, errors), version(max, errors));
    if let (Some(lo), Some(hi)) = (&min, &max)
        && hi.version < lo.version
    {
        let (lo_lit, hi_lit) = (&lo.lit, &hi.lit);
        errors.at(quote!(#lo_lit #hi_lit), inverted(lo.version, hi.version));
        sound = false;
    }
    RangeLit { min, max, tokens, sound }
}

/// `VersionRange` construction tokens for `range`, through `runtime`
/// (the facade's `__private` path): `VersionRange::between(Version::new(2, 1),
/// Version::new(2, 46))`, as a person would write it.
pub(crate) fn range_tokens(runtime: &TokenStream, range: VersionRange) -> TokenStream {
    let version = |v| version_tokens(runtime, v);
    match (range.min(), range.max()) {
        (Some(lo), Some(hi)) if lo == hi => {
            let only = version(lo);
            quote!(#runtime::VersionRange::only(#only))
        }
        (Some(lo), Some(hi)) => {
            let (lo, hi) = (version(lo), version(hi));
            quote!(#runtime::VersionRange::between(#lo, #hi))
        }
        (Some(lo), None) => {
            let lo = version(lo);
            quote!(#runtime::VersionRange::from(#lo))
        }
        (None, Some(hi)) => {
            let hi = version(hi);
            quote!(#runtime::VersionRange::until(#hi))
        }
        (None, None) => quote!(#runtime::VersionRange::ANY),
    }
}

/// `Version` construction tokens.
pub(crate) fn version_tokens(runtime: &TokenStream, version: Version) -> TokenStream {
    let (major, minor) = (Literal::u16_unsuffixed(version.major()), Literal::u16_unsuffixed(version.minor()));
    quote!(#runtime::Version::new(#major, #minor))
}
