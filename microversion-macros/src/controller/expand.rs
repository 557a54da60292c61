//! Expansion: the controller's ast into Rust. Each operation becomes one
//! dispatcher that picks its variant with a few comparisons
//! ([`dispatch`](super::dispatch)). The routes become one table for every
//! framework: the controller's `OPERATIONS` and one function that runs the
//! routed operation at an index, which the facade's `register_controller!`
//! registers with its framework. Nothing here names a framework.

use microversion_core::{Version, VersionRange};
use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::{FnArg, Ident, ImplItemFn};

use super::ast::{Controller, Operation, Response, Schema, SchemaKind, Variant};
use super::dispatch::{Key, decision_tree, served, sorted, total_tree, without_gaps};
use crate::shared::api::{api_binding, declared_checks};
use crate::shared::names::{
    self, DEFAULT_MISSING_STATUS, SchemaTarget, last_segment_span, path_text, runtime,
};
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
                items.extend(schema_fn(&rt, op, i, variant, target));
            }
            named.extend(named_ranges(op, variant));
        }
        totals.extend(total_check(&rt, op));
        if !op.is_route() {
            items.push(helper_dispatcher(&rt, op));
        }
    }
    // The routes once per facade, each through its own `__private` names.
    let (mut registrations, mut paths) = (Vec::new(), Vec::new());
    for (nth, facade) in c.facades.iter().enumerate() {
        let rt = runtime(facade);
        let routes = c.operations.iter().filter(|op| op.is_route());
        items.extend(routes.map(|op| route_handler(&rt, &c.api, op, nth)));
        let dispatch = route_dispatch(&rt, c, nth);
        registrations.push(match &dispatch {
            Some(_) => {
                let routes = names::route_dispatch(nth);
                quote!(#rt::register_controller!(#self_ty, routes = <#self_ty>::#routes);)
            }
            None => quote!(#rt::register_controller!(#self_ty);),
        });
        items.extend(dispatch);
        paths.extend(route_path_checks(&rt, c));
    }
    // Each deprecation built once at compile time, so that a bad link is an
    // error at its literal whether or not the route is ever compiled to code.
    let deprecations = c.operations.iter().flat_map(|op| &op.variants).filter_map(|v| {
        let deprecation = deprecation_tokens(&rt, v)?;
        Some(quote!(let _: #rt::Deprecation = #deprecation;))
    });
    let checks = declared_checks(&rt, &c.api, named).into_iter().chain(totals).chain(deprecations);
    let api_type_check = api_binding(&rt, &c.api);
    let introspection = controller_impl(c);
    let client = super::client::client(c);
    quote! {
        impl #self_ty {
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
    ranges
}

/// The `Deprecation` of a `#[deprecated_from]`: from its version to the
/// variant's last, with its dates and links, each spanned at its literal
/// (a `const` panic about one is reported there).
fn deprecation_tokens(rt: &TokenStream, variant: &Variant) -> Option<TokenStream> {
    let deprecation = variant.deprecation.as_ref()?;
    let range = VersionRange::new(Some(deprecation.from.version), served(variant).max()).ok()?;
    let range = range_tokens(rt, range);
    let since = &deprecation.since;
    let mut tokens = quote_spanned!(since.span()=> #rt::Deprecation::range(#range).since(#since));
    let builders = [
        ("sunset", &deprecation.sunset),
        ("link", &deprecation.link),
        ("sunset_link", &deprecation.sunset_link),
    ];
    for (builder, lit) in builders {
        if let Some(lit) = lit {
            let builder = Ident::new(builder, lit.span());
            tokens = quote_spanned!(lit.span()=> #tokens.#builder(#lit));
        }
    }
    Some(tokens)
}

fn has_receiver(method: &ImplItemFn) -> bool {
    matches!(method.sig.inputs.first(), Some(FnArg::Receiver(_)))
}

pub(super) fn typed_args(method: &ImplItemFn) -> Vec<&syn::PatType> {
    method
        .sig
        .inputs
        .iter()
        .filter_map(|arg| match arg {
            FnArg::Typed(t) => Some(t),
            FnArg::Receiver(_) => None,
        })
        .collect()
}

/// The names a method's arguments are bound to in generated code: the
/// user's own where a parameter is a plain name (`id`, `body`), else `__a0`,
/// `__a1`, ... (a pattern such as `Path(id)`, or a name the expansion keeps
/// for itself, which all begin with `__`).
pub(super) fn argument_names(method: &ImplItemFn) -> Vec<Ident> {
    let named = |pat: &syn::Pat| match pat {
        syn::Pat::Ident(p)
            if p.by_ref.is_none() && p.subpat.is_none() && !p.ident.to_string().starts_with("__") =>
        {
            let mut name = p.ident.clone();
            name.set_span(Span::call_site());
            Some(name)
        }
        _ => None,
    };
    typed_args(method)
        .iter()
        .enumerate()
        .map(|(n, arg)| named(&arg.pat).unwrap_or_else(|| format_ident!("__a{}", n)))
        .collect()
}

fn missing_status(op: &Operation) -> u16 {
    op.missing.map_or(DEFAULT_MISSING_STATUS, |(s, _)| s)
}

fn route_handler(rt: &TokenStream, api: &syn::Path, op: &Operation, nth: usize) -> TokenStream {
    let handler = names::route_handler(&op.name, nth);
    let version = format_ident!("__version");
    // The locals that tokens spanned at the user's types refer to: named at
    // the call site, so that they resolve even when those types came from a
    // `macro_rules!`, whose hygiene would hide them.
    let (input, out) = (format_ident!("__input"), format_ident!("__out"));
    let status = missing_status(op);
    // The version after the last variant's end, if it has one: the operation was removed there.
    let removed_in = match sorted(op).last().and_then(|(_, v)| served(v).max()).and_then(Version::successor) {
        Some(removed) => {
            let removed = version_tokens(rt, removed);
            quote!(::core::option::Option::Some(#removed))
        }
        None => quote!(::core::option::Option::None),
    };
    // The route answers with the facade's response itself, an error as its response
    // (as a framework's `Result` responder would, without moving it once more).
    let name = op.name.to_string();
    let miss = quote!(#rt::missing(#rt::MissingVariant::new(
        #version,
        #status,
        #removed_in,
        <Self as #rt::Controller>::OPERATIONS,
        #name,
    )));
    // What a variant needs before its call: its schemas checked, then its
    // arguments extracted, one call each; a refusal is answered at once, in
    // the API's format (`tried!`: a `?` whose error is the answer, without
    // the inner `async` block a `?` would need, which costs compile time).
    let prologue = |i: usize, variant: &Variant| {
        let extract = typed_args(&variant.method).into_iter().zip(argument_names(&variant.method)).map(
            |(arg, name)| {
                let ty = &arg.ty;
                // The trait called at the type, every token of the call
                // placed there (the local keeps the expansion's hygiene):
                // one that is no extractor is one error, there, in the
                // words of the facade's trait.
                let at = ty_span(ty);
                let (ty_at, rt_at) = (relocated(ty.to_token_stream(), at), respanned(rt.clone(), at));
                let input_at = Ident::new("__input", Span::call_site().located_at(at));
                let extracted =
                    quote_spanned!(at=> <#ty_at as #rt_at::RouteArgument<_>>::extract(&mut #input_at));
                quote!(let #name: #ty = #rt::tried!(#rt::error_response, #extracted.await);)
            },
        );
        let validate_query = variant.schemas_of(SchemaTarget::Query).next().map(|_| {
            let schemas = names::schemas(&op.name, i, SchemaTarget::Query);
            quote!(#rt::tried!(#rt::error_response, #input.validate_query(Self::#schemas()));)
        });
        let validate_body = variant.schemas_of(SchemaTarget::Body).next().map(|_| {
            let schemas = names::schemas(&op.name, i, SchemaTarget::Body);
            quote!(#rt::tried!(#rt::error_response, #input.validate_body(Self::#schemas()).await);)
        });
        quote! {
            #validate_query
            #validate_body
            #(#extract)*
        }
    };
    // The call of a variant with the arguments bound to `arg_names`, and its answer.
    let call = |i: usize, variant: &Variant, arg_names: &[Ident]| {
        let method = names::variant(&op.name, i, &variant.method.sig.ident);
        let call = if has_receiver(&variant.method) {
            quote!(__controller.#method(#(#arg_names),*))
        } else {
            quote!(Self::#method(#(#arg_names),*))
        };
        let call = if variant.method.sig.asyncness.is_some() { quote!(#call.await) } else { call };
        // The answer through the facade's trait, its type spanned at the
        // return type: one that is no response is one error, there.
        let respond_at = match &variant.method.sig.output {
            syn::ReturnType::Type(_, ty) => ty_span(ty),
            syn::ReturnType::Default => variant.method.sig.ident.span(),
        };
        let answer_type = quote_spanned!(respond_at=> _);
        let respond = quote!(<#answer_type as #rt::RouteResponse<_>>::respond(#out, &#input.request));
        // A declared answer is checked when the service asks for it.
        let checked = match &variant.response {
            Some(response) => {
                let declared = response_description(rt, response);
                quote! {
                    const __DECLARED: #rt::ResponseDescription = #declared;
                    #rt::check_response(&#input.request, #version, &__DECLARED, #respond).await
                }
            }
            None => respond,
        };
        quote! {
            let __out = #call;
            #checked
        }
    };
    let key = Key { version: &version, runtime: rt };
    let variants = sorted(op);
    let tree = if let Some(((last_i, last), others)) = variants.split_last().filter(|_| shared_arguments(op))
    {
        // Every variant takes the same arguments and checks no schema: the
        // variant is chosen first (a miss answers before any extraction, as
        // when each variant extracts its own), then the arguments are
        // extracted once, where each variant would have extracted them.
        let chosen = format_ident!("__variant");
        let index = |i: usize, _: &Variant| {
            let i = syn::LitInt::new(&format!("{i}usize"), Span::call_site());
            quote!(#i)
        };
        let choose = decision_tree(key, &variants, &index, &quote!(return #miss));
        let extract = prologue(0, &op.variants[0]);
        let extracted = argument_names(&op.variants[0].method);
        let arms = others.iter().map(|(i, variant)| {
            let body = call(*i, variant, &extracted);
            quote!(#i => { #body })
        });
        let last = call(*last_i, last, &extracted);
        quote! {
            let #chosen: usize = #choose;
            #extract
            match #chosen {
                #(#arms)*
                _ => { #last }
            }
        }
    } else {
        let leaf = |i: usize, variant: &Variant| {
            let (prologue, call) = (prologue(i, variant), call(i, variant, &argument_names(&variant.method)));
            match deprecation_tokens(rt, variant) {
                None => quote!(#prologue #call),
                // Every answer of a deprecated variant carries its notice,
                // a refused argument's too: the variant's block is awaited
                // whole, its early answers included.
                Some(deprecation) => quote! {
                    const __DEPRECATION: #rt::Deprecation = #deprecation;
                    let mut __answer: #rt::Response = async { #prologue #call }.await;
                    #rt::stamp_deprecation::<#rt::Headers>(
                        __answer.headers_mut(), &__DEPRECATION, #version, &#api, #name,
                    );
                    __answer
                },
            }
        };
        decision_tree(key, &variants, &leaf, &miss)
    };
    quote! {
        #[doc(hidden)]
        #[allow(unused_mut, unused_variables)]
        fn #handler(
            __controller: #rt::Shared<Self>,
            __input: #rt::OperationInput,
        ) -> impl ::core::future::Future<Output = #rt::Response> + 'static {
            async move {
                let mut __input = __input;
                let #version = __input.version;
                #tree
            }
        }
    }
}

/// Whether every variant of a route takes arguments of the same types and
/// checks no schema, so that the arguments can be extracted once.
fn shared_arguments(op: &Operation) -> bool {
    let types = |variant: &Variant| -> Vec<String> {
        typed_args(&variant.method).iter().map(|arg| arg.ty.to_token_stream().to_string()).collect()
    };
    let first = types(&op.variants[0]);
    op.variants.len() > 1
        && op.variants.iter().all(|variant| variant.deprecation.is_none())
        && op.variants.iter().all(|variant| {
            types(variant) == first
                && variant.schemas_of(SchemaTarget::Body).next().is_none()
                && variant.schemas_of(SchemaTarget::Query).next().is_none()
        })
}

/// Where an error about a type reads best: the last segment of a path type
/// (`Value` in `serde_json::Value`), else its first token.
/// `tokens` with every span set to `span`, so that what rustc reports
/// about them (a `const` panic) points there.
fn respanned(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut token| {
            token.set_span(span);
            token
        })
        .collect()
}

/// `tokens` placed at `at`, each keeping its own hygiene.
fn relocated(tokens: TokenStream, at: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|token| match token {
            proc_macro2::TokenTree::Group(group) => {
                let mut moved = proc_macro2::Group::new(group.delimiter(), relocated(group.stream(), at));
                moved.set_span(group.span().located_at(at));
                proc_macro2::TokenTree::Group(moved)
            }
            mut token => {
                token.set_span(token.span().located_at(at));
                token
            }
        })
        .collect()
}

fn ty_span(ty: &syn::Type) -> Span {
    match ty {
        syn::Type::Path(path) => last_segment_span(&path.path),
        _ => ty.to_token_stream().into_iter().next().map_or_else(Span::call_site, |t| t.span()),
    }
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
        let method = names::variant(&op.name, i, &variant.method.sig.ident);
        let call = if has_receiver(&variant.method) {
            quote!(self.#method(#(#arg_names),*))
        } else {
            quote!(Self::#method(#(#arg_names),*))
        };
        let call = if variant.method.sig.asyncness.is_some() { quote!(#call.await) } else { call };
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

/// The name a schema has in start-up errors and introspection.
fn schema_name(schema: &Schema) -> String {
    format!("{}{}", schema.kind.prefix(), path_text(&schema.path))
}

/// The `ResponseDescription` of a `#[response(...)]`.
fn response_description(rt: &TokenStream, response: &Response) -> TokenStream {
    let status = response.status;
    let (body, name) = match &response.body {
        None => (quote!(::core::option::Option::None), quote!(::core::option::Option::None)),
        Some((path, kind)) => {
            let document = schema_document(rt, path, *kind);
            let name = format!("{}{}", kind.prefix(), path_text(path));
            (quote!(::core::option::Option::Some(#document)), quote!(::core::option::Option::Some(#name)))
        }
    };
    quote!(#rt::ResponseDescription { status: #status, body: #body, body_name: #name })
}

/// A schema function, a versioned model's `json_schema_at` or a
/// `JsonSchema` type's document as a `SchemaDocument`, spanned at the path
/// so that a wrong one reads there.
fn schema_document(rt: &TokenStream, path: &syn::Path, kind: SchemaKind) -> TokenStream {
    match kind {
        SchemaKind::Model => quote_spanned!(last_segment_span(path)=> #rt::SchemaDocument::AtVersion(
            <#path as #rt::VersionedModel>::json_schema_at as fn(#rt::Version) -> #rt::serde_json::Value
        )),
        SchemaKind::Function | SchemaKind::JsonSchema => {
            let function = schema_function(rt, path, kind);
            quote_spanned!(last_segment_span(path)=> #rt::SchemaDocument::Fixed(#function))
        }
    }
}

/// The `fn() -> Value` of a schema function or of a `JsonSchema` type.
fn schema_function(rt: &TokenStream, path: &syn::Path, kind: SchemaKind) -> TokenStream {
    match kind {
        SchemaKind::JsonSchema => quote_spanned!(last_segment_span(path)=>
            #rt::json_schema_of::<#path> as fn() -> #rt::serde_json::Value),
        _ => quote_spanned!(last_segment_span(path)=> #path as fn() -> #rt::serde_json::Value),
    }
}

/// The function holding a variant's compiled schemas of `target`, if it has any.
fn schema_fn(
    rt: &TokenStream,
    op: &Operation,
    i: usize,
    variant: &Variant,
    target: SchemaTarget,
) -> Option<TokenStream> {
    let mut schemas = variant.schemas_of(target).peekable();
    schemas.peek()?;
    let ident = names::schemas(&op.name, i, target);
    let lazy = match variant.schemas_of(target).find(|s| s.kind == SchemaKind::Model) {
        Some(model) => {
            let ty = &model.path;
            let name = schema_name(model);
            let range = range_tokens(rt, model.range_in(Some(served(variant))).unwrap_or(VersionRange::ANY));
            let compile = quote_spanned!(last_segment_span(ty)=> #rt::compile_model_schemas::<#ty>(#name));
            quote!(#rt::LazySchemas::model::<#ty>(#range, || #compile))
        }
        None => {
            let sources = schemas.map(|s| {
                let name = schema_name(s);
                let range = range_tokens(rt, s.range_in(Some(served(variant))).unwrap_or(VersionRange::ANY));
                let schema = schema_function(rt, &s.path, s.kind);
                quote!(#rt::SchemaSource { name: #name, range: #range, schema: #schema })
            });
            // A `query_json_schema` type's query is read by its types.
            let typed = match variant.schemas_of(target).any(|s| s.kind == SchemaKind::JsonSchema) {
                true if target == SchemaTarget::Query => quote!(.map(#rt::VersionedSchemas::typed_query)),
                _ => quote!(),
            };
            quote! {
                #rt::LazySchemas::new(#rt::VersionRange::ANY, || {
                    #rt::VersionedSchemas::compile(&[#(#sources),*])#typed
                })
            }
        }
    };
    Some(quote! {
        #[doc(hidden)]
        fn #ident() -> &'static #rt::LazySchemas {
            static SCHEMAS: #rt::LazySchemas = #lazy;
            &SCHEMAS
        }
    })
}

/// Every schema function of the controller.
fn schema_fns(c: &Controller) -> impl Iterator<Item = Ident> + '_ {
    c.operations.iter().flat_map(|op| {
        op.variants.iter().enumerate().flat_map(move |(i, v)| {
            [SchemaTarget::Body, SchemaTarget::Query]
                .into_iter()
                .filter(move |t| v.schemas_of(*t).next().is_some())
                .map(move |t| names::schemas(&op.name, i, t))
        })
    })
}

/// The position of `op` among the controller's operations with a route: its
/// arm in the controller's route dispatch.
fn route_index(c: &Controller, op: &Operation) -> syn::LitInt {
    let index = c.operations.iter().filter(|o| o.is_route()).position(|o| o.name == op.name).unwrap_or(0);
    syn::LitInt::new(&format!("{index}usize"), Span::call_site())
}

/// The routes of a controller, one function: the operation at an index,
/// awaited in place. Its future is one type for the controller, so a
/// framework's service is instantiated once per controller (compile time,
/// docs/performance.md section 7), and a framework that boxes a service's
/// future boxes it once, with the operation's own future inside.
fn route_dispatch(rt: &TokenStream, c: &Controller, nth: usize) -> Option<TokenStream> {
    let routes: Vec<&Operation> = c.operations.iter().filter(|o| o.is_route()).collect();
    let (last, others) = routes.split_last()?;
    let arms = others.iter().map(|op| {
        let (index, handler) = (route_index(c, op), names::route_handler(&op.name, nth));
        quote!(#index => Self::#handler(__controller, __input).await,)
    });
    let last = names::route_handler(&last.name, nth);
    let dispatch = names::route_dispatch(nth);
    Some(quote! {
        #[doc(hidden)]
        fn #dispatch(
            __controller: #rt::Shared<Self>,
            __route: usize,
            __input: #rt::OperationInput,
        ) -> impl ::core::future::Future<Output = #rt::Response> + 'static {
            async move {
                match __route {
                    #(#arms)*
                    _ => Self::#last(__controller, __input).await,
                }
            }
        }
    })
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
        let variants = sorted(op).into_iter().map(|(_, v)| {
            let range = range_tokens(&rt, served(v));
            let described = |target: SchemaTarget| {
                let schemas = v.schemas_of(target).map(|s| {
                    let name = schema_name(s);
                    let range = range_tokens(&rt, s.range_in(Some(served(v))).unwrap_or(VersionRange::ANY));
                    let document = schema_document(&rt, &s.path, s.kind);
                    quote!(#rt::SchemaDescription { name: #name, range: #range, document: #document })
                });
                quote!(&[#(#schemas),*])
            };
            let (body, query) = (described(SchemaTarget::Body), described(SchemaTarget::Query));
            let response = match &v.response {
                None => quote!(::core::option::Option::None),
                Some(response) => {
                    let response = response_description(&rt, response);
                    quote!(::core::option::Option::Some(#response))
                }
            };
            let statuses = v.errors.as_ref().map(|e| e.statuses.as_slice()).unwrap_or_default();
            let deprecation = match deprecation_tokens(&rt, v) {
                Some(deprecation) => quote!(::core::option::Option::Some(#deprecation)),
                None => quote!(::core::option::Option::None),
            };
            quote!(#rt::OperationVariant {
                range: #range, schemas: #body, query_schemas: #query, response: #response,
                errors: &[#(#statuses),*], deprecation: #deprecation
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
