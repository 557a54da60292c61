//! `#[derive(VersionedModel)]`: a struct whose fields carry version ranges.
//! Parse ([`parse`]: darling for the attribute syntax, then the version
//! literals) into the [`ast`], check the rules between fields and versions
//! ([`validate`]), then write the implementation from the ast ([`expand`],
//! with the bounds of a generic model's impls from [`bounds`]).

mod ast;
mod bounds;
mod expand;
mod parse;
mod validate;

use proc_macro2::TokenStream;

use crate::shared::errors::Errors;

/// The expansion of the derive; on errors, the errors and trait impls
/// without behaviour, so that uses of the model report nothing more.
pub(crate) fn derive(input: TokenStream, default_facade: Option<&str>) -> TokenStream {
    let input = match syn::parse2::<syn::DeriveInput>(input) {
        Ok(input) => input,
        Err(e) => return e.to_compile_error(),
    };
    let mut errors = Errors::default();
    let model = parse::input(&input, default_facade, &mut errors);
    if let Some(model) = &model {
        validate::input(model, &mut errors);
    }
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
