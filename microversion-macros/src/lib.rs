//! Procedural macros of `microversion`. An implementation detail: use them
//! through `microversion-actix`, which re-exports and documents them.
//!
//! The work is split as in thiserror and serde: `parse` reads syn tokens into
//! the `model`, `validate` checks the whole model, `expand` writes code
//! from the model only. Every error is collected, and on error the expansion
//! still emits the items users refer to.

mod errors;
mod expand;
mod model;
mod parse;
mod validate;
mod versioned_model;

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
    let mut errors = errors::Errors::default();
    let model = parse::controller(args, item, &mut errors);
    validate::controller(&model, &mut errors);
    match errors.finish() {
        Ok(()) => expand::controller(&model),
        Err(e) => {
            let fallback = expand::fallback(&model);
            let errors = e.to_compile_error();
            quote::quote!(#errors #fallback)
        }
    }
}

/// Derives `VersionedModel` for a struct whose fields carry version ranges
/// (`#[versioned(since = "2.55")]`). Documented in `microversion-actix`.
#[proc_macro_derive(VersionedModel, attributes(versioned))]
pub fn derive_versioned_model(input: TokenStream) -> TokenStream {
    versioned_model::derive(input.into()).into()
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

#[cfg(test)]
mod expansion_snapshot {
    use std::path::Path;

    /// Expands `tests/expand/*.rs` and compares with the checked-in
    /// `*.expanded.rs`; `MACROTEST=overwrite` rewrites them.
    #[test]
    fn expansions_match_their_snapshots() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expand");
        let mut inputs: Vec<_> = std::fs::read_dir(&dir)
            .expect("tests/expand exists")
            .map(|e| e.expect("readable entry").path())
            .filter(|p| {
                p.extension().is_some_and(|e| e == "rs") && !p.to_string_lossy().ends_with(".expanded.rs")
            })
            .collect();
        inputs.sort();
        assert!(!inputs.is_empty());
        for input in inputs {
            let file: syn::File =
                syn::parse_file(&std::fs::read_to_string(&input).expect("readable")).expect("parses");
            let mut out = proc_macro2::TokenStream::new();
            for item in file.items {
                let syn::Item::Impl(mut item) = item else { continue };
                let attr = item.attrs.remove(0);
                let args = attr.meta.require_list().expect("#[controller(...)]").tokens.clone();
                out.extend(super::controller_impl(args, quote::ToTokens::into_token_stream(item)));
            }
            let expanded = prettyplease::unparse(&syn::parse2(out).expect("expansion parses as a file"));
            let snapshot = input.with_extension("expanded.rs");
            if std::env::var_os("MACROTEST").is_some_and(|v| v == "overwrite") {
                std::fs::write(&snapshot, &expanded).expect("writable");
            }
            let expected = std::fs::read_to_string(&snapshot).unwrap_or_default();
            assert!(
                expected == expanded,
                "{} is stale; regenerate with MACROTEST=overwrite and review the diff:\n{expanded}",
                snapshot.display()
            );
        }
    }
}
