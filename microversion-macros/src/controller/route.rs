//! The routes of a controller: each operation's route handler (its
//! variant chosen by the negotiated version, its schemas checked, then its
//! arguments extracted, one call each, and its answer), and the one
//! function that runs the routed operation at an index, which the facade
//! registers with its framework. Nothing here names a framework.

use microversion_core::Version;
use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::{FnArg, Ident, ImplItemFn};

use super::ast::{ChangeUse, Controller, Operation, Schema, SchemaKind, Variant};
use super::dispatch::{Key, decision_tree, served, sorted};
use super::schemas::{deprecation_tokens, response_description, schema_document};
use crate::shared::names::{self, DEFAULT_MISSING_STATUS, SchemaTarget, last_segment_span};
use crate::shared::ranges::version_tokens;

/// The call of variant `i` of `op` on `receiver` (when it takes `self`)
/// with `args`, awaited when it is `async`.
pub(super) fn variant_call(
    op: &Operation,
    i: usize,
    variant: &Variant,
    receiver: &TokenStream,
    args: &[Ident],
) -> TokenStream {
    let method = names::variant(&op.name, i, &variant.method.sig.ident);
    let call = if has_receiver(&variant.method) {
        quote!(#receiver.#method(#(#args),*))
    } else {
        quote!(Self::#method(#(#args),*))
    };
    if variant.method.sig.asyncness.is_some() { quote!(#call.await) } else { call }
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

pub(super) fn missing_status(op: &Operation) -> u16 {
    op.missing.map_or(DEFAULT_MISSING_STATUS, |(s, _)| s)
}

pub(super) fn route_handler(
    rt: &TokenStream,
    api: &syn::Path,
    op: &Operation,
    generic: &GenericRoutes,
) -> TokenStream {
    let handler = names::route_handler(&op.name);
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
    let missing = quote!(#rt::MissingVariant::new(
        #version,
        #status,
        #removed_in,
        <Self as #rt::Controller>::OPERATIONS,
        #name,
    ));
    let miss = quote!(#rt::__serving::missing::<__F>(#missing));
    // What a variant needs before its call: its schemas checked, then its
    // arguments extracted, one call each; a refusal is answered at once, in
    // the API's format (a `match` whose error is the answer, without
    // the inner `async` block a `?` would need, which costs compile time).
    let prologue = |i: usize, variant: &Variant, types: &[Typed]| {
        let extract = types.iter().zip(argument_names(&variant.method)).map(|(typed, name)| {
            let ty = &typed.ty;
            // The trait called at the type, every token of the call
            // placed there (the local keeps the expansion's hygiene):
            // one that is no extractor is one error, there, in the
            // words of the facade's trait.
            let at = ty_span(ty);
            let (ty_at, rt_at) = (relocated(ty.to_token_stream(), at), respanned(rt.clone(), at));
            let input_at = Ident::new("__input", Span::call_site().located_at(at));
            let facade = Ident::new("__F", Span::call_site().located_at(at));
            let extracted = match typed.through() {
                None => {
                    quote_spanned!(at=> <#facade as #rt_at::Extracts<#ty_at, _>>::extract(&mut #input_at))
                }
                Some(changes) => quote_spanned! {at=>
                    <#facade as #rt_at::ExtractsThrough<#changes, #ty_at, _>>::extract(&mut #input_at)
                },
            };
            quote! {
                let #name: #ty = match #extracted.await {
                    ::core::result::Result::Ok(argument) => argument,
                    ::core::result::Result::Err(refusal) => return refusal,
                };
            }
        });
        let check = |target_schemas: SchemaTarget| {
            variant.schemas_of(target_schemas).next()?;
            let schemas = names::schemas(&op.name, i, target_schemas);
            Some(match target_schemas {
                SchemaTarget::Query => quote! {
                    if let ::core::result::Result::Err(refusal) =
                        #rt::__serving::validate_query::<__F>(&mut #input, Self::#schemas())
                    {
                        return refusal;
                    }
                },
                SchemaTarget::Body => quote! {
                    if let ::core::result::Result::Err(refusal) =
                        #rt::__serving::validate_body::<__F>(&mut #input, Self::#schemas()).await
                    {
                        return refusal;
                    }
                },
            })
        };
        let (validate_query, validate_body) = (check(SchemaTarget::Query), check(SchemaTarget::Body));
        quote! {
            #validate_query
            #validate_body
            #(#extract)*
        }
    };
    // The call of a variant with the arguments bound to `arg_names`, and its answer.
    let call = |i: usize, variant: &Variant, arg_names: &[Ident], answer: &Typed, band: usize| {
        let call = variant_call(op, i, variant, &quote!(__controller), arg_names);
        // The answer through the facade's trait, its type spanned at the
        // return type: one that is no response is one error, there.
        let respond_at = match &variant.method.sig.output {
            syn::ReturnType::Type(_, ty) => ty_span(ty),
            syn::ReturnType::Default => variant.method.sig.ident.span(),
        };
        let answer_type = quote_spanned!(respond_at=> _);
        let facade = Ident::new("__F", Span::call_site().located_at(respond_at));
        let respond = match answer.through() {
            None => quote!(<#facade as #rt::Answers<#answer_type, _>>::answer(#out, &#input)),
            Some(changes) => {
                let ty = &answer.ty;
                quote!(<#facade as #rt::AnswersThrough<#changes, #ty, _>>::answer(#out, &#input))
            }
        };
        // A declared answer is checked when the service asks for it.
        let checked = match super::route::band_response(rt, variant, band) {
            Some(declared) => {
                quote! {
                    const __DECLARED: #rt::ResponseDescription = #declared;
                    let __answer = #respond;
                    #rt::__serving::check_response::<__F>(&#input, &__DECLARED, __answer).await
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
        let head = &bands(&op.variants[0])[0];
        let extract = prologue(0, &op.variants[0], &head.arguments);
        let extracted = argument_names(&op.variants[0].method);
        let arms = others.iter().map(|(i, variant)| {
            let body = call(*i, variant, &extracted, &head_answer(variant), 0);
            quote!(#i => { #body })
        });
        let last = call(*last_i, last, &extracted, &head_answer(last), 0);
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
            let names = argument_names(&variant.method);
            let bands = bands(variant);
            // A version change's band: each argument read as the type it
            // had before the band's later changes that upgrade it, upgraded
            // through them to the head's; the handler called once; its
            // answer downgraded back through the later changes that
            // downgrade it (the core's `ExtractsThrough`, `AnswersThrough`).
            let band = |j: usize| {
                let prologue = prologue(i, variant, &bands[j].arguments);
                let call = call(i, variant, &names, &bands[j].answer, j);
                quote!(#prologue #call)
            };
            let mut body = band(0);
            for (j, change) in variant.changes.iter().enumerate() {
                let (c, later) = (&change.ty, band(j + 1));
                body = quote! {
                    if #version.lt(<#c as #rt::VersionChange>::VERSION) { #body } else { #later }
                };
            }
            let (checks, body) = (change_checks(rt, api, op, variant), body);
            let body = quote!(#checks #body);
            match deprecation_tokens(rt, variant) {
                None => body,
                // Every answer of a deprecated variant carries its notice,
                // a refused argument's too: the variant's block is awaited
                // whole, its early answers included.
                Some(deprecation) => quote! {
                    const __DEPRECATION: #rt::Deprecation = #deprecation;
                    let mut __answer: <__F as #rt::Facade>::Response = async { #body }.await;
                    #rt::__serving::stamp_deprecation::<__F>(&mut __answer, &__DEPRECATION, #version, &#api, #name);
                    __answer
                },
            }
        };
        decision_tree(key, &variants, &leaf, &miss)
    };
    let (markers, bounds) = generic.of(op);
    quote! {
        #[doc(hidden)]
        #[allow(unused_mut, unused_variables)]
        fn #handler<__F: #rt::Facade, #(#markers: 'static),*>(
            __controller: ::std::sync::Arc<Self>,
            mut __input: #rt::RouteInput<__F>,
        ) -> impl ::core::future::Future<Output = <__F as #rt::Facade>::Response> + 'static
        where #(#bounds,)*
        {
            // The input is the block's own (moved in, never copied into a
            // local of its own), so the future holds it once.
            async move {
                let #version = __input.version;
                #tree
            }
        }
    }
}

/// Whether every variant of a route takes arguments of the same types and
/// checks no schema, so that the arguments can be extracted once.
pub(super) fn shared_arguments(op: &Operation) -> bool {
    let types = |variant: &Variant| -> Vec<String> {
        typed_args(&variant.method).iter().map(|arg| arg.ty.to_token_stream().to_string()).collect()
    };
    let first = types(&op.variants[0]);
    op.variants.len() > 1
        && op.variants.iter().all(|variant| variant.deprecation.is_none() && variant.changes.is_empty())
        && op.variants.iter().all(|variant| {
            types(variant) == first
                && variant.schemas_of(SchemaTarget::Body).next().is_none()
                && variant.schemas_of(SchemaTarget::Query).next().is_none()
        })
}

/// A type a route reads or writes, and the version changes it goes
/// through at the versions of one band: read as the type before them and
/// upgraded (`ExtractsThrough`), or downgraded and written as the type
/// before them (`AnswersThrough`); none at the head.
#[derive(Clone)]
pub(super) struct Typed {
    /// The handler's type.
    pub(super) ty: syn::Type,
    /// The changes, newest first.
    pub(super) changes: Vec<syn::Path>,
}

impl Typed {
    fn plain(ty: syn::Type) -> Typed {
        Typed { ty, changes: Vec::new() }
    }

    /// The changes as the core's list, `(Newest, (Older, ()))`; `None` at the head.
    pub(super) fn through(&self) -> Option<TokenStream> {
        let oldest = self.changes.last()?;
        let at = last_segment_span(oldest);
        Some(self.changes.iter().rev().fold(quote_spanned!(at=> ()), |older, c| quote!((#c, #older))))
    }

    /// The bound's text without its marker, as the key of its marker.
    fn key(&self) -> String {
        let ty = self.ty.to_token_stream().to_string();
        match self.through() {
            None => ty,
            Some(changes) => format!("{ty} through {changes}"),
        }
    }
}

/// A variant's argument types and answer type at the versions of one
/// band of its version changes.
pub(super) struct Band {
    /// Each argument, in the handler's order.
    pub(super) arguments: Vec<Typed>,
    /// The answer.
    pub(super) answer: Typed,
}

/// The handler's own answer type.
fn head_answer(variant: &Variant) -> Typed {
    Typed::plain(match &variant.method.sig.output {
        syn::ReturnType::Default => syn::parse_quote!(()),
        syn::ReturnType::Type(_, ty) => (**ty).clone(),
    })
}

/// The bands of a variant's version changes, oldest first: band `j` is
/// served before change `j` (from the one before it), the last band is
/// the head. In band `j` an argument goes through the changes from `j` on
/// that upgrade it, the answer through those that downgrade it, newest
/// first.
pub(super) fn bands(variant: &Variant) -> Vec<Band> {
    let names = argument_names(&variant.method);
    let head: Vec<syn::Type> = typed_args(&variant.method).iter().map(|arg| (*arg.ty).clone()).collect();
    let answer = head_answer(variant).ty;
    (0..=variant.changes.len())
        .map(|j| {
            let later = &variant.changes[j..];
            let newest_first = |pick: &dyn Fn(&ChangeUse) -> bool| -> Vec<syn::Path> {
                later.iter().rev().filter(|c| pick(c)).map(|c| c.ty.clone()).collect()
            };
            let arguments = head
                .iter()
                .zip(&names)
                .map(|(ty, name)| Typed { ty: ty.clone(), changes: newest_first(&|c| c.upgrades(name)) })
                .collect();
            Band { arguments, answer: Typed { ty: answer.clone(), changes: newest_first(&|c| c.answer) } }
        })
        .collect()
}

/// What band `j` of `variant` declares it answers, as a
/// `ResponseDescription`: the variant's `#[response]` with the status of
/// the oldest later change that says what the operation answered before
/// it (`status = N`), and a `json_schema = T` body as the answer's type is
/// in the band (`TypedSchema`), when later changes downgrade it.
pub(super) fn band_response(rt: &TokenStream, variant: &Variant, j: usize) -> Option<TokenStream> {
    let response = variant.response.as_ref()?;
    let later = variant.changes.get(j..).unwrap_or_default();
    let status = later.iter().find_map(|change| change.status.as_ref());
    let status = status.and_then(|s| s.base10_parse().ok()).unwrap_or(response.status);
    let answer = &bands(variant)[j].answer;
    let body = match (&response.body, answer.through()) {
        (Some((path, SchemaKind::JsonSchema)), Some(changes)) => {
            let ty = &answer.ty;
            let document = typed_schema(rt, quote!(<#changes as #rt::Downgrades<#ty>>::Oldest), path);
            let name = format!("{} {}", band_schema_name(path), before(later));
            Some((quote!(#rt::SchemaDocument::Fixed(#document)), name))
        }
        (Some((path, kind)), _) => {
            Some((schema_document(rt, path, *kind), format!("{}{}", kind.prefix(), names::path_text(path))))
        }
        (None, _) => None,
    };
    Some(response_description(rt, status, body))
}

/// The schema `schema` checks in band `j` of `variant`, when it differs
/// from the head's: a `json_schema = T` written without versions describes
/// the argument that reads `T` (`Json<T>`, `Query<T>`); in a band where
/// later changes upgrade that argument, the versions read it as the type
/// it had there, and are checked and documented by that type's schema
/// (`TypedSchema`). The `fn() -> Value` and its name.
pub(super) fn band_schema(
    rt: &TokenStream,
    variant: &Variant,
    j: usize,
    schema: &Schema,
) -> Option<(TokenStream, String)> {
    if schema.kind != SchemaKind::JsonSchema || schema.range.min.is_some() || schema.range.max.is_some() {
        return None;
    }
    let band = bands(variant).into_iter().nth(j)?;
    let argument = band.arguments.into_iter().find(|argument| reads_schema_type(&argument.ty, schema))?;
    let changes = argument.through()?;
    let ty = &argument.ty;
    let document = typed_schema(rt, quote!(<#changes as #rt::Upgrades<#ty>>::Oldest), &schema.path);
    Some((document, format!("{} {}", band_schema_name(&schema.path), before(&variant.changes[j..]))))
}

/// The reader a schema's target is read by: `Json<T>` for a body, `Query<T>`
/// for a query.
pub(super) fn schema_reader(schema: &Schema) -> &'static str {
    match schema.target {
        SchemaTarget::Body => "Json",
        SchemaTarget::Query => "Query",
    }
}

/// Whether an argument of type `ty` reads what `schema` describes: the
/// schema's reader (`Json`, `Query`) of its type, compared by their last
/// names (`Json<models::NewWidget>` reads `json_schema = NewWidget`).
pub(super) fn reads_schema_type(ty: &syn::Type, schema: &Schema) -> bool {
    let last = |path: &syn::Path| path.segments.last().map(|s| s.ident.to_string());
    let syn::Type::Path(path) = ty else { return false };
    let Some(reader) = path.path.segments.last() else { return false };
    let syn::PathArguments::AngleBracketed(arguments) = &reader.arguments else { return false };
    let mut types = arguments.args.iter().filter_map(|a| match a {
        syn::GenericArgument::Type(t) => Some(t),
        _ => None,
    });
    reader.ident == schema_reader(schema)
        && matches!((types.next(), types.next()), (Some(syn::Type::Path(read)), None)
            if last(&read.path) == last(&schema.path))
}

/// `TypedSchema`'s document of `ty`, spanned at the schema's type.
fn typed_schema(rt: &TokenStream, ty: TokenStream, at: &syn::Path) -> TokenStream {
    let ty = respanned(ty, last_segment_span(at));
    quote_spanned!(last_segment_span(at)=>
        <#ty as #rt::TypedSchema>::typed_schema as fn() -> #rt::serde_json::Value)
}

fn band_schema_name(path: &syn::Path) -> String {
    format!("{}{}", SchemaKind::JsonSchema.prefix(), names::path_text(path))
}

/// "before Change": the oldest of a band's later changes.
fn before(later: &[ChangeUse]) -> String {
    later.first().map(|c| format!("before {}", names::path_text(&c.ty))).unwrap_or_default()
}

/// The compile-time checks of a variant's changes, each an `assert!` at
/// the change's name: listed oldest first, each at a version of its own,
/// each inside the versions the variant serves and after its first (a
/// change at the first has no version before it to serve).
fn change_checks(rt: &TokenStream, api: &syn::Path, op: &Operation, variant: &Variant) -> TokenStream {
    let Some(served) = variant.range() else { return TokenStream::new() };
    let range = crate::shared::ranges::range_tokens(rt, served);
    let mut checks = TokenStream::new();
    for (k, change) in variant.changes.iter().enumerate() {
        let (c, at) = (&change.ty, last_segment_span(&change.ty));
        let name = names::path_text(c);
        let message = format!(
            "the version change `{name}` is not inside the versions this variant of `{}` serves, after its first \
             ({served}): it would have no version before it to serve",
            op.name
        );
        // After the variant's first version, or the API's for a variant
        // that serves every version.
        let first = match served.min() {
            Some(min) => version_tokens(rt, min),
            None => quote!(#api.history()[0].version),
        };
        let first = quote!(&& #first.lt(<#c as #rt::VersionChange>::VERSION));
        checks.extend(quote_spanned! {at=>
            const _: () = ::core::assert!(#range.contains(<#c as #rt::VersionChange>::VERSION) #first, #message);
        });
        // Each conversion named where the change is named, so that a
        // change without it is reported there first.
        let later = &variant.changes[k + 1..];
        let after = |head: &syn::Type, pick: &dyn Fn(&ChangeUse) -> bool, list: TokenStream| {
            let newer = Typed {
                ty: head.clone(),
                changes: later.iter().rev().filter(|c| pick(c)).map(|c| c.ty.clone()).collect(),
            };
            match newer.through() {
                None => head.to_token_stream(),
                Some(changes) => quote!(<#changes as #rt::#list<#head>>::Oldest),
            }
        };
        for (arg, name) in typed_args(&variant.method).iter().zip(argument_names(&variant.method)) {
            if change.upgrades(&name) {
                let after = after(&arg.ty, &|c| c.upgrades(&name), quote!(Upgrades));
                checks.extend(quote_spanned!(at=> let _ = <#c as #rt::Upgrade<#after>>::upgrade;));
            }
        }
        if change.answer {
            let after = after(&head_answer(variant).ty, &|c| c.answer, quote!(Downgrades));
            checks.extend(quote_spanned!(at=> let _ = <#c as #rt::Downgrade<#after>>::downgrade;));
        }
        let Some(earlier) = k.checked_sub(1).map(|e| &variant.changes[e].ty) else { continue };
        let message = format!(
            "`{name}` is listed after `{}` on `{}`, at a version that is not after it: list a variant's version \
             changes oldest first, each at a version of its own (two changes of one version are one change)",
            names::path_text(earlier),
            op.name
        );
        checks.extend(quote_spanned! {at=>
            const _: () = ::core::assert!(
                <#earlier as #rt::VersionChange>::VERSION.lt(<#c as #rt::VersionChange>::VERSION),
                #message
            );
        });
    }
    checks
}

/// Where an error about a type reads best: the last segment of a path type
/// (`Value` in `serde_json::Value`), else its first token.
/// `tokens` with every span set to `span`, so that what rustc reports
/// about them (a `const` panic) points there.
pub(super) fn respanned(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut token| {
            token.set_span(span);
            token
        })
        .collect()
}

/// `tokens` placed at `at`, each keeping its own hygiene.
pub(super) fn relocated(tokens: TokenStream, at: Span) -> TokenStream {
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

pub(super) fn ty_span(ty: &syn::Type) -> Span {
    match ty {
        syn::Type::Path(path) => last_segment_span(&path.path),
        _ => ty.to_token_stream().into_iter().next().map_or_else(Span::call_site, |t| t.span()),
    }
}

/// The routes of a controller, one function: the future of the operation
/// at an index, as one type for the controller, so a framework's service
/// is instantiated once per controller (compile time, docs/performance.md
/// section 7), and a framework that boxes a service's future boxes it
/// once, with the operation's own future inside. The operations' futures
/// are the leaves of a balanced tree of `Either` (a future that is one of
/// two), not awaited in an `async` block of its own, which would hold the
/// request twice: once as its own, once in the operation's.
pub(super) fn route_dispatch(
    rt: &TokenStream,
    c: &Controller,
    generic: &GenericRoutes,
) -> Option<TokenStream> {
    let routes: Vec<&Operation> = c.operations.iter().filter(|o| o.is_route()).collect();
    let count = routes.len();
    let mut futures = routes.iter().enumerate().map(|(position, op)| {
        let handler = names::route_handler(&op.name);
        let (markers, _) = generic.of(op);
        let call = quote!(Self::#handler::<__F, #(#markers),*>(__controller, __input));
        either_leaf(rt, call, position, count)
    });
    let last = futures.next_back()?;
    let arms = futures.enumerate().map(|(position, future)| {
        let index = syn::LitInt::new(&format!("{position}usize"), Span::call_site());
        quote!(#index => #future,)
    });
    let dispatch = names::route_dispatch();
    let (markers, bounds) = generic.all();
    Some(quote! {
        #[doc(hidden)]
        fn #dispatch<__F: #rt::Facade, #(#markers: 'static),*>(
            __controller: ::std::sync::Arc<Self>,
            __route: usize,
            __input: #rt::RouteInput<__F>,
        ) -> impl ::core::future::Future<Output = <__F as #rt::Facade>::Response> + 'static
        where #(#bounds,)*
        {
            match __route {
                #(#arms)*
                _ => #last,
            }
        }
    })
}

/// `future` as the leaf at `position` of a balanced tree of `count`
/// leaves: `Either::Left` for the first half, `Either::Right` for the rest.
fn either_leaf(rt: &TokenStream, future: TokenStream, position: usize, count: usize) -> TokenStream {
    if count <= 1 {
        return future;
    }
    let half = count.div_ceil(2);
    let (side, inner) = if position < half {
        (format_ident!("Left"), either_leaf(rt, future, position, half))
    } else {
        (format_ident!("Right"), either_leaf(rt, future, position - half, count - half))
    };
    quote!(#rt::__serving::Either::#side { future: #inner })
}

/// What a controller's routes generic over the facade are bounded by: one
/// marker per distinct argument type (`__A0`, ...) and answer type
/// (`__R0`, ...), each with the bound that the facade `__F` reads or writes
/// that type by some impl (`Extracts<T, __A0>`), which the marker, inferred
/// where a facade serves the controller, names.
pub(super) struct GenericRoutes {
    rt: TokenStream,
    arguments: Vec<String>,
    answers: Vec<String>,
    types: std::collections::HashMap<String, Typed>,
}

impl GenericRoutes {
    /// The bounds of `c`'s routes, or the error at a type that cannot be
    /// named in a bound (`impl Responder`, `&HttpRequest`) or a variant
    /// generic of its own.
    pub(super) fn of_controller(rt: &TokenStream, c: &Controller) -> syn::Result<GenericRoutes> {
        let mut generic = GenericRoutes {
            rt: rt.clone(),
            arguments: Vec::new(),
            answers: Vec::new(),
            types: Default::default(),
        };
        for variant in c.operations.iter().filter(|op| op.is_route()).flat_map(|op| &op.variants) {
            let sig = &variant.method.sig;
            if !sig.generics.params.is_empty() {
                let message =
                    "a route variant cannot be generic: every facade calls it with the types it reads";
                return Err(syn::Error::new_spanned(&sig.generics, message));
            }
            for band in bands(variant) {
                for typed in &band.arguments {
                    let key = generic.named(typed)?;
                    generic.arguments.push(key);
                }
                let key = generic.named(&band.answer)?;
                generic.answers.push(key);
            }
        }
        let mut seen = std::collections::HashSet::new();
        generic.arguments.retain(|ty| seen.insert(format!("a{ty}")));
        generic.answers.retain(|ty| seen.insert(format!("r{ty}")));
        Ok(generic)
    }

    /// `typed`'s key, or the error at it when it cannot be named in a bound.
    fn named(&mut self, typed: &Typed) -> syn::Result<String> {
        if let Some(unnamed) = unnameable_part(&typed.ty) {
            let message = "a route's argument or answer is named by its type, which every facade reads or \
                           writes: write the type here (`HttpResponse`, `Json<Server>`), not `impl Trait`, `_` \
                           or a reference without a lifetime";
            return Err(syn::Error::new_spanned(unnamed, message));
        }
        let key = typed.key();
        self.types.insert(key.clone(), typed.clone());
        Ok(key)
    }

    /// The markers and bounds of the types of `op`'s variants.
    fn of(&self, op: &Operation) -> (Vec<Ident>, Vec<TokenStream>) {
        let mut arguments = std::collections::HashSet::new();
        let mut answers = std::collections::HashSet::new();
        for band in op.variants.iter().flat_map(bands) {
            arguments.extend(band.arguments.iter().map(Typed::key));
            answers.insert(band.answer.key());
        }
        self.bounds(|ty| arguments.contains(ty), |ty| answers.contains(ty))
    }

    /// The markers and bounds of every route's types.
    fn all(&self) -> (Vec<Ident>, Vec<TokenStream>) {
        self.bounds(|_| true, |_| true)
    }

    fn bounds(
        &self,
        argument: impl Fn(&str) -> bool,
        answer: impl Fn(&str) -> bool,
    ) -> (Vec<Ident>, Vec<TokenStream>) {
        let rt = &self.rt;
        let (mut markers, mut bounds) = (Vec::new(), Vec::new());
        for (n, key) in self.arguments.iter().enumerate().filter(|(_, key)| argument(key)) {
            let marker = format_ident!("__A{}", n);
            let typed = &self.types[key];
            let ty = &typed.ty;
            bounds.push(match typed.through() {
                None => quote!(__F: #rt::Extracts<#ty, #marker>),
                Some(changes) => quote!(__F: #rt::ExtractsThrough<#changes, #ty, #marker>),
            });
            markers.push(marker);
        }
        for (n, key) in self.answers.iter().enumerate().filter(|(_, key)| answer(key)) {
            let marker = format_ident!("__R{}", n);
            let typed = &self.types[key];
            let ty = &typed.ty;
            bounds.push(match typed.through() {
                None => quote!(__F: #rt::Answers<#ty, #marker>),
                Some(changes) => quote!(__F: #rt::AnswersThrough<#changes, #ty, #marker>),
            });
            markers.push(marker);
        }
        (markers, bounds)
    }

    /// The `Routes` impl: every facade whose impls meet the bounds serves
    /// the controller.
    pub(super) fn routes_impl(&self, c: &Controller) -> TokenStream {
        let (rt, self_ty) = (&self.rt, &c.self_ty);
        let (markers, bounds) = self.all();
        let dispatch = names::route_dispatch();
        quote! {
            #[automatically_derived]
            impl<__F: #rt::Facade, #(#markers: 'static),*> #rt::Routes<__F, (#(#markers,)*)> for #self_ty
            where #(#bounds,)*
            {
                fn route(
                    __controller: ::std::sync::Arc<Self>,
                    __route: usize,
                    __input: #rt::RouteInput<__F>,
                ) -> impl ::core::future::Future<Output = <__F as #rt::Facade>::Response> + 'static {
                    #rt::__serving::operation_answer::<__F, _>(
                        Self::__MV_API,
                        <Self as #rt::Controller>::OPERATIONS,
                        __route,
                        Self::#dispatch::<__F, #(#markers),*>(__controller, __route, __input),
                    )
                }
            }
        }
    }
}

/// The part of `ty` that cannot be named in a bound: `impl Trait`, `_`, a
/// reference without a lifetime.
fn unnameable_part(ty: &syn::Type) -> Option<&syn::Type> {
    match ty {
        syn::Type::ImplTrait(_) | syn::Type::Infer(_) => Some(ty),
        syn::Type::Reference(r) if r.lifetime.is_none() => Some(ty),
        syn::Type::Reference(r) => unnameable_part(&r.elem),
        syn::Type::Paren(p) => unnameable_part(&p.elem),
        syn::Type::Group(g) => unnameable_part(&g.elem),
        syn::Type::Tuple(t) => t.elems.iter().find_map(unnameable_part),
        syn::Type::Array(a) => unnameable_part(&a.elem),
        syn::Type::Slice(s) => unnameable_part(&s.elem),
        syn::Type::Path(p) => p.path.segments.iter().find_map(|segment| match &segment.arguments {
            syn::PathArguments::AngleBracketed(args) => args.args.iter().find_map(|arg| match arg {
                syn::GenericArgument::Type(ty) => unnameable_part(ty),
                _ => None,
            }),
            _ => None,
        }),
        _ => None,
    }
}
