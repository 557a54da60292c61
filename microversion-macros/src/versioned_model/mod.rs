//! `#[derive(VersionedModel)]`: a struct whose fields carry version ranges.
//! Parse (darling for the attribute syntax, then version literals and range
//! rules), then expand into the `VersionedModel` implementation.

mod expand;
mod parse;

use microversion_core::VersionRange;
use proc_macro2::TokenStream;

use crate::model::RangeLit;

/// A struct read from its derive input.
pub(crate) struct Model {
    pub(crate) ident: syn::Ident,
    pub(crate) krate: syn::Path,
    pub(crate) api: Option<syn::Path>,
    pub(crate) allow_unknown: bool,
    pub(crate) fields: Vec<Field>,
}

/// How a request may leave a field out.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Presence {
    Required,
    Optional,
    Default,
}

/// A field and its versions.
pub(crate) struct Field {
    pub(crate) ident: syn::Ident,
    pub(crate) ty: syn::Type,
    /// The name on the wire.
    pub(crate) key: String,
    /// The versions that have the field; `None` for every version.
    pub(crate) range: Option<RangeLit>,
    pub(crate) presence: Presence,
    /// A model type rendered and parsed at the version too.
    pub(crate) nested: bool,
    /// A function giving the field's JSON Schema, instead of the type's.
    pub(crate) schema: Option<syn::Path>,
    /// Other representations in some versions: `render(until = "2.74", with = f)`.
    pub(crate) renders: Vec<Render>,
}

impl Field {
    pub(crate) fn range(&self) -> VersionRange {
        self.range.as_ref().map_or(VersionRange::ANY, RangeLit::range)
    }
}

/// A representation used in a range of versions.
pub(crate) struct Render {
    pub(crate) range: RangeLit,
    pub(crate) with: syn::Path,
}

pub(crate) fn derive(input: TokenStream) -> TokenStream {
    let input = match syn::parse2::<syn::DeriveInput>(input) {
        Ok(input) => input,
        Err(e) => return e.to_compile_error(),
    };
    let mut errors = crate::errors::Errors::default();
    let model = parse::model(&input, &mut errors);
    match (errors.finish(), model) {
        (Ok(()), Some(model)) => expand::model(&model),
        (Err(e), Some(model)) => {
            let stub = expand::fallback(&model);
            let e = e.to_compile_error();
            quote::quote!(#e #stub)
        }
        (Err(e), None) => e.to_compile_error(),
        (Ok(()), None) => TokenStream::new(),
    }
}
