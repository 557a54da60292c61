//! Procedural macros of `microversion`. An implementation detail: use them
//! through `microversion-actix`, which re-exports and documents them.
//!
//! The work is split as in thiserror and serde: [`parse`] reads syn tokens into
//! the [`model`], [`validate`] checks the whole model, [`expand`] writes code
//! from the model only. Every error is collected, and on error the expansion
//! still emits the items users refer to.

mod expand;
mod model;
mod parse;
mod validate;

use proc_macro::TokenStream;

/// Turns an impl block with same-named, `#[api_version]`-annotated methods into
/// one dispatcher per operation. Documented in `microversion-actix`.
#[proc_macro_attribute]
pub fn controller(args: TokenStream, item: TokenStream) -> TokenStream {
    controller_impl(args.into(), item.into()).into()
}

fn controller_impl(
    args: proc_macro2::TokenStream,
    item: proc_macro2::TokenStream,
) -> proc_macro2::TokenStream {
    let item: syn::ItemImpl = match syn::parse2(item) {
        Ok(item) => item,
        Err(e) => {
            let message = syn::Error::new(e.span(), "#[controller] goes on an impl block").to_compile_error();
            return message;
        }
    };
    let mut errors = darling::Error::accumulator();
    let model = parse::controller(args, item, &mut errors);
    validate::controller(&model, &mut errors);
    match errors.finish() {
        Ok(()) => expand::controller(&model),
        Err(e) => {
            let fallback = expand::fallback(&model);
            let errors = e.write_errors();
            quote::quote!(#errors #fallback)
        }
    }
}

/// Marks the versions a controller method serves. Only valid inside a
/// `#[controller]` impl, which reads it; alone it is an error.
#[proc_macro_attribute]
pub fn api_version(args: TokenStream, _item: TokenStream) -> TokenStream {
    parse::outside_controller("api_version", args.into()).to_compile_error().into()
}

/// Attaches a versioned request schema to a controller method. Only valid
/// inside a `#[controller]` impl, which reads it; alone it is an error.
#[proc_macro_attribute]
pub fn schema(args: TokenStream, _item: TokenStream) -> TokenStream {
    parse::outside_controller("schema", args.into()).to_compile_error().into()
}
