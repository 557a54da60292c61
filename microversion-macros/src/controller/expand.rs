//! Expansion: the controller's ast into Rust. Each operation becomes one
//! dispatcher that picks its variant with a few comparisons
//! ([`dispatch`](super::dispatch)). The routes become one table for every
//! framework: the controller's `OPERATIONS` and one function that runs the
//! routed operation at an index ([`route`](super::route)), which the
//! facade's `register_controller!` registers with its framework; what each
//! variant declares is written by [`schemas`](super::schemas). Nothing here
//! names a framework.

use microversion_core::VersionRange;
use proc_macro2::TokenStream;
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::{FnArg, Ident};

use super::ast::{Controller, Operation, Variant};
use super::dispatch::{Key, decision_tree, served, sorted, total_tree, without_gaps};
use super::route::{
    GenericRoutes, argument_names, missing_status, respanned, route_dispatch, route_handler, typed_args,
    variant_call,
};
use super::schemas::{deprecation_tokens, schema_document, schema_fn, schema_fns, schema_name};
use crate::shared::api::declared_checks;
use crate::shared::names::{self, SchemaTarget, last_segment_span, path_text, runtime};
use crate::shared::ranges::{RangeLit, range_tokens, version_tokens};

pub(crate) fn controller(c: &Controller) -> TokenStream {
    let Controller { self_ty, passthrough, .. } = c;
    let rt = runtime(c.krate());
    let mut items = Vec::new();
    let mut named = Vec::new();
    let mut totals = Vec::new();
    for op in &c.operations {
        for (i, variant) in op.variants.iter().enumerate() {
            items.push(renamed_variant(op, i, variant));
            for target in [SchemaTarget::Body, SchemaTarget::Query] {
                items.extend(schema_fn(&rt, &c.api, op, i, variant, target));
            }
            named.extend(named_ranges(op, variant));
        }
        totals.extend(total_check(&rt, op));
        if !op.is_route() {
            items.push(helper_dispatcher(&rt, op));
        }
    }
    // The routes once, generic over the facade; each facade named registers
    // them with its framework (an argument or answer it cannot take is one
    // error there, in the words of the core's `Extracts` and `Answers`).
    let (mut registrations, mut paths) = (Vec::new(), Vec::new());
    match GenericRoutes::of_controller(&rt, c) {
        Ok(generic) => {
            let routes = c.operations.iter().filter(|op| op.is_route());
            items.extend(routes.map(|op| route_handler(&rt, &c.api, op, &generic)));
            let dispatch = route_dispatch(&rt, c, &generic);
            if dispatch.is_some() {
                registrations.push(generic.routes_impl(c));
            }
            items.extend(dispatch);
            for facade in &c.facades {
                let rt = runtime(facade);
                registrations.push(match dispatch_exists(c) {
                    true => quote!(#rt::register_controller!(#self_ty, routes);),
                    false => quote!(#rt::register_controller!(#self_ty);),
                });
                paths.extend(route_path_checks(&rt, c));
            }
        }
        Err(unnameable) => registrations.push(unnameable.to_compile_error()),
    }
    // Each deprecation built once at compile time, so that a bad link is an
    // error at its literal whether or not the route is ever compiled to code.
    let deprecations = c.operations.iter().flat_map(|op| &op.variants).filter_map(|v| {
        let deprecation = deprecation_tokens(&rt, v)?;
        Some(quote!(let _: #rt::Deprecation = #deprecation;))
    });
    let checks = declared_checks(&rt, &c.api, named)
        .into_iter()
        .chain(totals)
        .chain(deprecations)
        .chain(claim_checks(&rt, c));
    // The API, bound once on the controller: a wrong path is one type error,
    // at the path, whatever uses it.
    let api = &c.api;
    let api_const = quote_spanned!(last_segment_span(api)=>
        #[doc(hidden)]
        const __MV_API: &'static #rt::Api = &#api;
    );
    let api_type_check = quote!(const __MV_API: &#rt::Api = <#self_ty>::__MV_API;);
    let introspection = controller_impl(c);
    let client = super::client::client(c);
    quote! {
        impl #self_ty {
            #api_const
            #(#passthrough)*
            #(#items)*
        }
        #(#registrations)*
        #introspection
        #[doc(hidden)]
        const _: () = {
            #api_type_check
            #(#checks)*
        };
        #(#paths)*
        #client
    }
}

/// One compile-time check per two version changes the controller names:
/// no two declare one same thing (docs/reference.md §4.10), each reported
/// at the later one's first `#[change]`.
fn claim_checks(rt: &TokenStream, c: &Controller) -> Vec<TokenStream> {
    let mut named: Vec<&syn::Path> = Vec::new();
    for change in c.operations.iter().flat_map(|op| &op.variants).flat_map(|v| &v.changes) {
        // One change written two ways (`Described`, `changes::Described`)
        // is one change: named by its last segment.
        let last = |path: &syn::Path| path.segments.last().map(|s| s.ident.to_string());
        if !named.iter().any(|seen| last(seen) == last(&change.ty)) {
            named.push(&change.ty);
        }
    }
    let mut checks = Vec::new();
    for (k, later) in named.iter().enumerate() {
        for earlier in &named[..k] {
            let message = format!(
                "the version changes `{}` and `{}` declare one same thing (a field or member new, renamed or \
                 retyped alike): only one change can claim it",
                path_text(earlier),
                path_text(later)
            );
            checks.push(quote_spanned! {last_segment_span(later)=>
                const _: () = ::core::assert!(
                    !#rt::claim_alike(<#earlier as #rt::VersionChange>::DECLARES, <#later as #rt::VersionChange>::DECLARES),
                    #message
                );
            });
        }
    }
    checks
}

/// Whether the controller has routes, which a facade registers.
fn dispatch_exists(c: &Controller) -> bool {
    c.operations.iter().any(|op| op.is_route())
}

/// One `const` per route path, that the facade's router reads it (a
/// pattern that its router cannot read is one error at that path).
fn route_path_checks<'a>(rt: &'a TokenStream, c: &'a Controller) -> impl Iterator<Item = TokenStream> + 'a {
    c.operations.iter().flat_map(|op| &op.variants).filter_map(|v| v.route.as_ref()).map(move |route| {
        let path = &route.path;
        // The call spanned at the path, where rustc reports a `const` that
        // panics (at its caller: the check is `#[track_caller]`).
        let callee = respanned(quote!(#rt::check_route_path), path.span());
        quote_spanned!(path.span()=> const _: () = #callee(#path);)
    })
}

/// What still compiles when the controller has errors: the untouched items,
/// the variants themselves (so the user's imports stay used and no "unused
/// import" warning follows the error), one stub per helper and empty
/// registrations, so no follow-on errors appear.
pub(crate) fn fallback(c: &Controller) -> TokenStream {
    let Controller { self_ty, passthrough, .. } = c;
    let rt = runtime(c.krate());
    let variants = c.operations.iter().flat_map(|op| {
        op.variants.iter().enumerate().map(move |(i, variant)| renamed_variant(op, i, variant))
    });
    let stubs = c.operations.iter().filter(|op| !op.is_route()).map(|op| {
        let sig = dispatcher_signature(&rt, op);
        let vis = &op.variants[0].method.vis;
        quote!(#vis #sig { ::core::unreachable!() })
    });
    let introspection = controller_trait_impl(c, &quote!(&[]), &[]);
    let registration = c.facades.iter().map(|facade| {
        let rt = runtime(facade);
        quote!(#rt::register_controller!(#self_ty);)
    });
    quote! {
        impl #self_ty {
            #(#passthrough)*
            #(#variants)*
            #(#stubs)*
        }
        #introspection
        #(#registration)*
    }
}

fn renamed_variant(op: &Operation, i: usize, variant: &Variant) -> TokenStream {
    let mut method = variant.method.clone();
    method.sig.ident = names::variant(&op.name, i, &variant.method.sig.ident);
    method.vis = syn::Visibility::Inherited;
    // An `async` variant without `.await` is normal for a handler.
    let unused_async = method.sig.asyncness.is_some().then(|| quote!(clippy::unused_async,));
    quote! {
        #[doc(hidden)]
        #[allow(#unused_async dead_code)]
        #method
    }
}

/// The ranges a variant names, each with what names it in the message of
/// the compile-time check that its versions lie in the API declaration (the
/// `const` panic is reported at the literal).
fn named_ranges<'a>(op: &Operation, variant: &'a Variant) -> Vec<(&'a RangeLit, String)> {
    let mut ranges = Vec::new();
    if let Some(range) = &variant.range {
        ranges.push((range, format!("a version of `{}`", op.name)));
    }
    for schema in &variant.schemas {
        ranges.push((&schema.range, format!("a version of the schema `{}`", path_text(&schema.path))));
    }
    if let Some(deprecation) = &variant.deprecation {
        ranges.push((&deprecation.named, format!("the first deprecated version of `{}`", op.name)));
    }
    for example in &variant.examples {
        ranges.push((&example.named, format!("the version of an example of `{}`", op.name)));
    }
    ranges
}

/// Whether a helper returns its value directly: its variants run from the
/// first one's minimum on without a gap, and that minimum is the API's (a
/// compile-time check, [`total_check`]).
fn is_total(op: &Operation) -> bool {
    !op.is_route() && without_gaps(&sorted(op))
}

/// The check that a helper returning its value directly starts at the API's
/// minimum, spanned at its first version.
fn total_check(rt: &TokenStream, op: &Operation) -> Option<TokenStream> {
    if !is_total(op) {
        return None;
    }
    let sorted = sorted(op);
    let first = sorted.first()?.1.range.as_ref()?.min.as_ref()?;
    let first_version = version_tokens(rt, first.version);
    let message = format!(
        "`{name}` returns its value directly, since its variants serve every version from {v} on without a gap, \
         but the API starts before {v}: add a variant for the versions before it, or bound its last variant \
         to return `Result<_, UnservedVersion>`",
        name = op.name,
        v = first.version
    );
    Some(quote_spanned! {first.lit.span()=>
        ::core::assert!(__MV_API.compiled_min().packed() >= #first_version.packed(), #message);
    })
}

/// The helper's public signature: the first variant's, with the version
/// first; the result is wrapped in `Result<_, UnservedVersion>` unless the
/// helper serves every version ([`is_total`]).
fn dispatcher_signature(rt: &TokenStream, op: &Operation) -> TokenStream {
    let first = &op.variants[0].method.sig;
    let name = &op.name;
    let asyncness = &first.asyncness;
    let (generics, where_clause) = (&first.generics, &first.generics.where_clause);
    let receiver = first.inputs.iter().find_map(|a| match a {
        FnArg::Receiver(r) => Some(quote!(#r,)),
        FnArg::Typed(_) => None,
    });
    let names = argument_names(&op.variants[0].method);
    let args = typed_args(&op.variants[0].method).into_iter().zip(names).map(|(a, ident)| {
        let ty = &a.ty;
        quote!(#ident: #ty)
    });
    let output = match &first.output {
        syn::ReturnType::Default => quote!(()),
        syn::ReturnType::Type(_, ty) => ty.to_token_stream(),
    };
    let output =
        if is_total(op) { output } else { quote!(::core::result::Result<#output, #rt::UnservedVersion>) };
    quote! {
        #asyncness fn #name #generics(
            #receiver
            __version: impl ::core::convert::Into<#rt::Version>,
            #(#args),*
        ) -> #output #where_clause
    }
}

fn helper_dispatcher(rt: &TokenStream, op: &Operation) -> TokenStream {
    let sig = dispatcher_signature(rt, op);
    let vis = &op.variants[0].method.vis;
    let version = format_ident!("__version");
    let name = op.name.to_string();
    let miss = quote! {
        ::core::result::Result::Err(#rt::UnservedVersion { operation: #name, version: #version })
    };
    // Every variant is called with the arguments of the dispatcher, named as the first variant names them.
    let arg_names = argument_names(&op.variants[0].method);
    let leaf = |i: usize, variant: &Variant| {
        let call = variant_call(op, i, variant, &quote!(self), &arg_names);
        if is_total(op) { call } else { quote!(::core::result::Result::Ok(#call)) }
    };
    let key = Key { version: &version, runtime: rt };
    let tree = if is_total(op) {
        total_tree(key, &sorted(op), &leaf)
    } else {
        decision_tree(key, &sorted(op), &leaf, &miss)
    };
    let doc = format!("Dispatches to the variant of `{name}` that serves the given version.");
    // The dispatcher is a few comparisons or a table around the calls:
    // inlined, a caller pays no call for it, as for a `match` of its own.
    quote! {
        #[doc = #doc]
        #[inline]
        #vis #sig {
            let #version: #rt::Version = ::core::convert::Into::into(#version);
            #tree
        }
    }
}

fn controller_impl(c: &Controller) -> TokenStream {
    let rt = runtime(c.krate());
    let some_or_none = |value: Option<String>| match value {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    };
    let operations = c.operations.iter().map(|op| {
        let name = op.name.to_string();
        let route = op.variants[0].route.as_ref();
        let method = some_or_none(route.map(|r| r.method.clone()));
        let path = some_or_none(route.map(|r| {
            format!("{}{}", c.scope.as_ref().map(|s| s.value()).unwrap_or_default(), r.path.value())
        }));
        // A variant with version changes is described band by band: each
        // band's versions, with the status and doc it had.
        let bands = sorted(op).into_iter().flat_map(|(_, v)| (0..=v.changes.len()).map(move |j| (v, j)));
        let variants = bands.map(|(v, j)| {
            let range = match v.changes.is_empty() {
                true => range_tokens(&rt, served(v)),
                false => {
                    let (api, whole) = (&c.api, range_tokens(&rt, served(v)));
                    let versions = v.changes.iter().map(|change| {
                        let c = &change.ty;
                        quote!(<#c as #rt::VersionChange>::VERSION)
                    });
                    quote!(#rt::change_band(&#api, #whole, &[#(#versions),*], #j))
                }
            };
            let described = |target: SchemaTarget| {
                let schemas = v.schemas_of(target).map(|s| {
                    let name = schema_name(s);
                    let range = range_tokens(&rt, s.range_in(Some(served(v))).unwrap_or(VersionRange::ANY));
                    let (document, name) = match super::route::band_schema(&rt, v, j, s) {
                        Some((function, name)) => (quote!(#rt::SchemaDocument::Fixed(#function)), name),
                        None => (schema_document(&rt, &s.path, s.kind), name),
                    };
                    quote!(#rt::SchemaDescription { name: #name, range: #range, document: #document })
                });
                quote!(&[#(#schemas),*])
            };
            let (body, query) = (described(SchemaTarget::Body), described(SchemaTarget::Query));
            let response = match super::route::band_response(&rt, v, j) {
                None => quote!(::core::option::Option::None),
                Some(response) => quote!(::core::option::Option::Some(#response)),
            };
            let statuses = match v.changes[j..].iter().find_map(|change| change.errors.as_ref()) {
                Some(before) => before.as_slice(),
                None => v.errors.as_ref().map(|e| e.statuses.as_slice()).unwrap_or_default(),
            };
            let deprecation = match deprecation_tokens(&rt, v) {
                Some(deprecation) => quote!(::core::option::Option::Some(#deprecation)),
                None => quote!(::core::option::Option::None),
            };
            let doc = match v.changes[j..].iter().find_map(|change| change.doc.as_ref()) {
                Some(before) => before.value(),
                None => crate::shared::docs::doc_text(&v.method.attrs),
            };
            let changes = v.changes.iter().map(|change| {
                let (c, name) = (&change.ty, crate::shared::names::path_text(&change.ty));
                quote!(#rt::ChangeNote::of::<#c>(#name))
            });
            let examples = v.examples.iter().map(|e| example_tokens(&rt, e));
            quote!(#rt::OperationVariant {
                range: #range, schemas: #body, query_schemas: #query, response: #response,
                errors: &[#(#statuses),*], deprecation: #deprecation, doc: #doc, changes: &[#(#changes),*],
                examples: &[#(#examples),*]
            })
        });
        let status = missing_status(op);
        quote! {
            #rt::Operation {
                name: #name,
                http_method: #method,
                path: #path,
                variants: &[#(#variants),*],
                missing_status: #status,
            }
        }
    });
    let checks: Vec<Ident> = schema_fns(c).collect();
    controller_trait_impl(c, &quote!(&[#(#operations),*]), &checks)
}

/// An `Example`, each body read from its file under the crate's root at
/// compile time (a missing file is an error at its literal). The macro
/// reads no environment: the `env!` it writes is expanded by the caller's
/// compiler, so the tokens are the same whatever the crate depends on.
fn example_tokens(rt: &TokenStream, example: &super::ast::Example) -> TokenStream {
    let from = version_tokens(rt, example.from);
    let path = &example.path;
    let file = |file: &Option<syn::LitStr>| match file {
        None => quote!(::core::option::Option::None),
        Some(file) => quote_spanned!(file.span()=> ::core::option::Option::Some(::core::include_str!(
            ::core::concat!(::core::env!("CARGO_MANIFEST_DIR"), "/", #file)
        ))),
    };
    let (request, response) = (file(&example.request), file(&example.response));
    quote!(#rt::Example { from: #from, path: #path, request: #request, response: #response })
}

/// The `Controller` impl: the operations and the schema check.
fn controller_trait_impl(c: &Controller, operations: &TokenStream, checks: &[Ident]) -> TokenStream {
    let rt = runtime(c.krate());
    let self_ty = &c.self_ty;
    quote! {
        #[automatically_derived]
        impl #rt::Controller for #self_ty {
            const OPERATIONS: &'static [#rt::Operation] = #operations;
            fn check_schemas() -> ::core::result::Result<(), #rt::SchemaError> {
                #(Self::#checks().check()?;)*
                ::core::result::Result::Ok(())
            }
        }
    }
}
