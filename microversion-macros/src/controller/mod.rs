//! `#[controller]`: an impl block whose same-named methods are variants of
//! one operation. Parse ([`parse`]) into the [`ast`], validate the whole of
//! it ([`validate`]), then write code from the ast only ([`expand`], with the
//! variant-picking [`dispatch`] tree, each operation's [`route`] and the
//! variants' [`schemas`]).

mod ast;
mod client;
mod dispatch;
mod expand;
pub(crate) mod parse;
mod route;
mod schemas;
mod validate;

use proc_macro2::TokenStream;

use crate::shared::errors::Errors;

/// The expansion of `#[controller(args)] item`, served by `default_facade`
/// (a word, `actix`) unless the arguments name facades; on errors, the
/// errors and the items users refer to, so that no follow-on errors appear.
pub(crate) fn expand(args: TokenStream, item: TokenStream, default_facade: Option<&str>) -> TokenStream {
    let item: syn::ItemImpl = match syn::parse2(item) {
        Ok(item) => item,
        Err(e) => return syn::Error::new(e.span(), "#[controller] goes on an impl block").to_compile_error(),
    };
    let mut errors = Errors::default();
    let controller = parse::controller(args, item, default_facade, &mut errors);
    validate::controller(&controller, &mut errors);
    match errors.finish() {
        Ok(()) => expand::controller(&controller),
        Err(e) => {
            let fallback = expand::fallback(&controller);
            let errors = e.to_compile_error();
            quote::quote!(#errors #fallback)
        }
    }
}
