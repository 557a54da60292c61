//! Procedural macros of `microversion`. An implementation detail: use them
//! through a facade (`microversion-actix`, `microversion-axum`), which
//! re-exports them with an example on its framework. The prose below is
//! what every facade shows.
//!
//! One folder per macro, each split as in thiserror and serde: `parse` reads
//! syn tokens into its `ast`, `validate` checks the whole of it, `expand`
//! writes code from the ast only. Every error is collected, and on error the
//! expansion still emits the items users refer to. `shared` holds what both
//! use; the entry points below only convert token streams.

mod change;
mod controller;
mod gates;
mod history;
mod shared;
mod versioned_model;

use proc_macro::TokenStream;

/// Makes an impl block a controller: same-named methods with
/// `#[api_version]` are variants of one operation, dispatched by the
/// negotiated version; checked at compile time (valid literals, no
/// overlapping ranges, one route per operation, versions declared by the API).
///
/// `#[controller(api = API)]`, optionally `scope = "/path"` and the facades
/// that serve it (`crate = path::to::facade`, or bare words such as `axum`
/// for `microversion-axum`, `actix, axum` for both; by default the facade
/// whose `controller` it is: `microversion_actix::controller` is served by
/// actix). Nothing is read from the crate's manifest. The type then
/// implements the core's `Routes` for every facade that reads its
/// arguments and writes its answers, and registers with each facade named
/// (`.service(value)` on actix, `Router::from(value)` on axum). See the
/// guide's chapter on controllers.
#[proc_macro_attribute]
pub fn controller(args: TokenStream, item: TokenStream) -> TokenStream {
    controller::expand(args.into(), item.into(), None).into()
}

/// Declares each facade's own entry points: `controller` and the
/// `VersionedModel` derive, served by that facade unless told otherwise,
/// which the facade re-exports under the plain names.
macro_rules! facade_entry_points {
    ($($word:literal: $controller:ident, $model:ident, $change:ident;)*) => {$(
        #[doc(hidden)]
        #[proc_macro_attribute]
        pub fn $controller(args: TokenStream, item: TokenStream) -> TokenStream {
            controller::expand(args.into(), item.into(), Some($word)).into()
        }

        #[doc(hidden)]
        #[allow(non_snake_case)]
        #[proc_macro_derive($model, attributes(versioned))]
        pub fn $model(input: TokenStream) -> TokenStream {
            versioned_model::derive(input.into(), Some($word)).into()
        }

        #[doc(hidden)]
        #[proc_macro_attribute]
        pub fn $change(args: TokenStream, item: TokenStream) -> TokenStream {
            change::expand(args.into(), item.into(), Some($word)).into()
        }
    )*};
}

facade_entry_points! {
    "actix": actix_controller, ActixVersionedModel, actix_version_change;
    "axum": axum_controller, AxumVersionedModel, axum_version_change;
}

/// Makes a type a change of an API at one version of its history:
/// `#[version_change(api = API, "1.4")]` on a struct, whose doc comment
/// says what the change did. It may declare what it touched, for the
/// reference: `field(Type::field, didnt_exist)`, `field(Type::field,
/// renamed_from = "old")`, `field(Type::field, had_type = "string")`,
/// `member(Enum::Member, didnt_exist)`. A version the API does not
/// declare, or a field or member no type has, is a compile error at its
/// literal. The type then converts what it changed with the core's
/// `Upgrade` and `Downgrade`, and controller variants list it in
/// `#[change(...)]`. See the guide's chapter on version changes.
#[proc_macro_attribute]
pub fn version_change(args: TokenStream, item: TokenStream) -> TokenStream {
    change::expand(args.into(), item.into(), None).into()
}

/// A version history, checked where it is written: one
/// `"X.Y" => "the change it made"` per version, oldest first. A malformed
/// version, one out of order or declared twice, or an empty history is a
/// compile error on the literal itself. It is a `&'static [Microversion]`
/// for `Api::new`.
#[proc_macro]
pub fn history(input: TokenStream) -> TokenStream {
    history::expand(input.into()).into()
}

/// Declares a struct of behaviours, each a `bool` that is `true` from the
/// version it was introduced in, and `at(version)` to read them all at
/// once: `struct Syntax for API { forbidden_traits: "1.22", ... }`. Every
/// version must be declared by the API named after `for`; a malformed one,
/// or one outside the history, is a compile error on its literal.
/// `INTRODUCED` lists each behaviour's name and version, in the order
/// written. See the guide's chapter on in-handler checks.
#[proc_macro]
pub fn version_gates(input: TokenStream) -> TokenStream {
    gates::expand(input.into()).into()
}

/// Derives `VersionedModel` for a struct whose fields carry versions:
/// `#[versioned(since = "2.55")]`, `until`, `rename`, `nested`, `default`,
/// `schema = fn`, `render(until = "2.74", with = fn)`; on the struct
/// `api = API`, `allow_unknown`, `crate = "..."` (here, required: a
/// facade's `VersionedModel` gives its own). The models are the core's,
/// shared by every facade. See the guide's chapter on versioned models.
#[proc_macro_derive(VersionedModel, attributes(versioned))]
pub fn derive_versioned_model(input: TokenStream) -> TokenStream {
    versioned_model::derive(input.into(), None).into()
}

/// The versions a controller method serves: `#[api_version("2.1")]` (2.1 and
/// later), `#[api_version("2.1", "2.4")]` (inclusive), optionally
/// `missing = 405` for the status when no variant serves a version (404 by
/// default). Only valid inside a `#[controller]` impl, which reads it;
/// alone it is an error.
#[proc_macro_attribute]
pub fn api_version(args: TokenStream, _item: TokenStream) -> TokenStream {
    controller::parse::outside_controller("api_version", args.into()).to_compile_error().into()
}

/// A request schema for some versions of a controller route:
/// `#[schema(schema_fn, "2.3", "2.8")]` where `schema_fn` is a
/// `fn() -> serde_json::Value`, `#[schema(query = schema_fn, ...)]` for the
/// query string, or `#[schema(model = Type)]` for a `VersionedModel`'s
/// derived schema. Only valid inside a `#[controller]` impl, which reads
/// it; alone it is an error.
#[proc_macro_attribute]
pub fn schema(args: TokenStream, _item: TokenStream) -> TokenStream {
    controller::parse::outside_controller("schema", args.into()).to_compile_error().into()
}

#[cfg(test)]
mod never_panics;

#[cfg(test)]
mod expansion_snapshot {
    use std::path::Path;

    /// Expands `tests/expand/*.rs` (controller impls and derived models) and
    /// compares with the checked-in `*.expanded.rs`; `MACROTEST=overwrite`
    /// rewrites them.
    #[test]
    fn expansions_match_their_snapshots() {
        // Tests run in the package's directory.
        let dir = Path::new("tests/expand");
        let mut inputs: Vec<_> = std::fs::read_dir(dir)
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
                match item {
                    // `#[controller(...)] impl ...`
                    syn::Item::Impl(mut item) => {
                        let attr = item.attrs.remove(0);
                        let args = attr.meta.require_list().expect("#[controller(...)]").tokens.clone();
                        let item = quote::ToTokens::into_token_stream(item);
                        out.extend(crate::controller::expand(args, item, Some("actix")));
                    }
                    // `#[version_change(...)] struct ...`
                    syn::Item::Struct(mut item)
                        if item.attrs.iter().any(|a| a.path().is_ident("version_change")) =>
                    {
                        let at = item.attrs.iter().position(|a| a.path().is_ident("version_change"));
                        let attr = item.attrs.remove(at.expect("found"));
                        let args = attr.meta.require_list().expect("#[version_change(...)]").tokens.clone();
                        let item = quote::ToTokens::into_token_stream(item);
                        out.extend(crate::change::expand(args, item, Some("actix")));
                    }
                    // `#[derive(VersionedModel)] struct ...`
                    syn::Item::Struct(mut item) => {
                        item.attrs.retain(|a| !a.path().is_ident("derive"));
                        let item = quote::ToTokens::into_token_stream(item);
                        out.extend(crate::versioned_model::derive(item, Some("actix")));
                    }
                    _ => {}
                }
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
