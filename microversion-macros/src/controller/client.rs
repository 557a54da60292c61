//! `#[controller(client)]`: the typed client of a controller
//! (docs/20-typed-clients.md). One async method per route operation, taking
//! what the request carries in the handler's own types (`Path<T>` as `T`,
//! `Query<T>` and `Json<T>` as `&T`, `JsonQuery` as pairs) and answering
//! the handler's model (`Versioned<M>`, `Json<M>`) as a `Rendered<M>`.
//! Variants that differ in their request or model get one method per
//! signature, named by its first version (`show_2_1`, `show_2_10`). Everything else a handler takes
//! (`ApiVersion`, state, the link root) is the server's, not the client's.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{GenericArgument, PathArguments, ReturnType, Type};

use super::ast::{Controller, Operation, Variant};
use super::dispatch::served;
use crate::shared::names::runtime;
use crate::shared::ranges::range_tokens;

/// What a handler argument is to the client.
enum Carried {
    /// A path parameter, or a tuple of them.
    Path(Type),
    /// A query string read into a type.
    Query(Type),
    /// The query string's pairs.
    Pairs,
    /// A JSON body.
    Body(Type),
}

/// The last segment of `ty` and its first type argument.
fn shape(ty: &Type) -> Option<(String, Option<Type>)> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    let inner = match &last.arguments {
        PathArguments::AngleBracketed(args) => args.args.iter().find_map(|a| match a {
            GenericArgument::Type(t) => Some(t.clone()),
            _ => None,
        }),
        _ => None,
    };
    Some((last.ident.to_string(), inner))
}

fn carried(ty: &Type) -> Option<Carried> {
    match shape(ty)? {
        (name, Some(inner)) if name == "Path" => Some(Carried::Path(inner)),
        (name, Some(inner)) if name == "Query" => Some(Carried::Query(inner)),
        (name, Some(inner)) if name == "Json" => Some(Carried::Body(inner)),
        (name, None) if name == "JsonQuery" => Some(Carried::Pairs),
        _ => None,
    }
}

/// The model a variant answers: `M` of `Versioned<M>` or `Json<M>` (in a
/// `Result` or not), else the JSON as it is.
fn model(variant: &Variant) -> TokenStream {
    let ReturnType::Type(_, ty) = &variant.method.sig.output else { return quote!(::serde_json::Value) };
    let mut ty: &Type = ty;
    let ok;
    if let Some((name, Some(inner))) = shape(ty)
        && name == "Result"
    {
        ok = inner;
        ty = &ok;
    }
    match shape(ty) {
        Some((name, Some(inner))) if name == "Versioned" || name == "Json" => quote!(#inner),
        _ => quote!(::serde_json::Value),
    }
}

/// A variant's client parameters (`name: type`) and the call's parts.
struct Request {
    params: Vec<TokenStream>,
    path_args: Option<TokenStream>,
    query: Option<TokenStream>,
    body: Option<TokenStream>,
}

fn request(rt: &TokenStream, variant: &Variant) -> Request {
    let mut request = Request { params: Vec::new(), path_args: None, query: None, body: None };
    for (arg, name) in client_args(variant) {
        let Some((param, part)) = carried_arg(rt, arg, &name) else { continue };
        request.params.push(param);
        match part {
            Part::Path(segments) => request.path_args = Some(segments),
            Part::Query(query) => request.query = Some(query),
            Part::Body(body) => request.body = Some(body),
        }
    }
    request
}

/// Each argument of a variant's handler with the client's name for it (a
/// pattern's `__a1` is the client's `arg1`).
fn client_args(variant: &Variant) -> impl Iterator<Item = (&syn::PatType, syn::Ident)> {
    let names = super::route::argument_names(&variant.method);
    super::route::typed_args(&variant.method).into_iter().zip(names).map(|(arg, name)| {
        let name = match name.to_string().strip_prefix("__a") {
            Some(nth) => format_ident!("arg{nth}"),
            None => name,
        };
        (arg, name)
    })
}

/// Where an argument goes in a call, as the expression that computes it.
enum Part {
    Path(TokenStream),
    Query(TokenStream),
    Body(TokenStream),
}

/// The client's parameter for one argument, read from its type's name, and
/// its part of the call; `None` for what only the server reads.
fn carried_arg(rt: &TokenStream, arg: &syn::PatType, name: &syn::Ident) -> Option<(TokenStream, Part)> {
    // What the argument's type must be able to do is asked at the
    // handler's type, so that a type that cannot is an error there.
    let at = arg.ty.span();
    Some(match carried(&arg.ty)? {
        Carried::Path(ty) => {
            // A tuple is one parameter per element, each its `Display`.
            let segments = match &ty {
                Type::Tuple(tuple) => {
                    let index = (0..tuple.elems.len()).map(syn::Index::from);
                    quote_spanned!(at=> ::std::vec![#(::std::string::ToString::to_string(&#name.#index)),*])
                }
                _ => quote_spanned!(at=> ::std::vec![::std::string::ToString::to_string(&#name)]),
            };
            (quote!(#name: #ty), Part::Path(segments))
        }
        Carried::Query(ty) => {
            (quote!(#name: &#ty), Part::Query(quote_spanned!(at=> #rt::typed_client::query_of(#name)?)))
        }
        Carried::Pairs => {
            (quote!(#name: &[(&str, &str)]), Part::Query(quote!(#rt::typed_client::query_pairs(#name))))
        }
        Carried::Body(ty) => (
            quote!(#name: &#ty),
            Part::Body(quote_spanned!(at=> ::core::option::Option::Some(#rt::typed_client::body_of(#name)?))),
        ),
    })
}

/// The client-visible signature of a variant, to tell variants apart.
fn signature(rt: &TokenStream, variant: &Variant) -> String {
    let request = request(rt, variant);
    let params = &request.params;
    let model = model(variant);
    quote!(#(#params),* -> #model).to_string()
}

/// The methods of one operation: one for all its variants when they agree
/// on the request and the model, else one per variant.
fn methods(rt: &TokenStream, c: &Controller, type_name: &str, op: &Operation) -> Vec<TokenStream> {
    // Variants that agree on the request and the model share a method.
    let mut groups: Vec<(String, Vec<&Variant>)> = Vec::new();
    for variant in &op.variants {
        let signature = signature(rt, variant);
        match groups.iter_mut().find(|(s, _)| *s == signature) {
            Some((_, group)) => group.push(variant),
            None => groups.push((signature, vec![variant])),
        }
    }
    let single = groups.len() == 1;
    let groups: Vec<(syn::Ident, Vec<&Variant>)> = groups
        .into_iter()
        .map(|(_, group)| {
            let first = group.iter().filter_map(|v| served(v).min()).min();
            match first.filter(|_| !single) {
                Some(first) => (format_ident!("{}_{}_{}", op.name, first.major(), first.minor()), group),
                None => (op.name.clone(), group),
            }
        })
        .collect();
    let mut methods: Vec<TokenStream> = groups
        .into_iter()
        .filter_map(|(name, group)| {
            let first = group[0];
            let route = first.route.as_ref()?;
            let Request { params, path_args, query, body } = request(rt, first);
            let shown: Vec<String> = group.iter().map(|v| served(v).to_string()).collect();
            let mut fill = Vec::new();
            fill.extend(path_args.map(|segments| quote!(__parts.path = #segments;)));
            fill.extend(query.map(|query| quote!(__parts.query = #query;)));
            fill.extend(body.map(|body| quote!(__parts.body = #body;)));
            // The handler's own doc comment first (of the first documented
            // variant of the group).
            let handler_doc =
                group.iter().map(|v| crate::shared::docs::doc_text(&v.method.attrs)).find(|d| !d.is_empty());
            Some(client_method(
                rt,
                c,
                type_name,
                op,
                ClientMethod {
                    name,
                    handler: first,
                    route,
                    handler_doc,
                    served_text: shown.join(", "),
                    ranges: group.iter().map(|v| range_tokens(rt, served(v))).collect(),
                    params,
                    fill,
                    model: model(first),
                },
            ))
        })
        .collect();
    for variant in op.variants.iter().filter(|v| !v.changes.is_empty()) {
        methods.extend(band_methods(rt, c, type_name, op, variant));
    }
    methods
}

/// One method of a typed client, before it is written.
struct ClientMethod<'a> {
    name: syn::Ident,
    /// The handler it calls (the first, for a group of variants).
    handler: &'a Variant,
    route: &'a super::ast::Route,
    handler_doc: Option<String>,
    /// Where it is served, in words.
    served_text: String,
    /// The ranges it is served at.
    ranges: Vec<TokenStream>,
    params: Vec<TokenStream>,
    /// The statements that fill `__parts` from the parameters.
    fill: Vec<TokenStream>,
    model: TokenStream,
}

fn client_method(
    rt: &TokenStream,
    c: &Controller,
    type_name: &str,
    op: &Operation,
    m: ClientMethod<'_>,
) -> TokenStream {
    let ClientMethod { name, handler, route, handler_doc, served_text, ranges, params, fill, model } = m;
    let template =
        format!("{}{}", c.scope.as_ref().map(|s| s.value()).unwrap_or_default(), route.path.value());
    let method = &route.method;
    let operation = format!("{type_name}::{}", op.name);
    let served_at = format!("`{method} {template}`, served at {served_text}.");
    let doc = match handler_doc {
        Some(handler_doc) => format!("{handler_doc}\n\n{served_at}"),
        None => served_at,
    };
    let not_served =
        format!("{operation} does not exist at this client's version; it is served at {served_text}");
    // A version that is a type is checked at compile time, the error shown
    // at the handler the operation comes from and naming the check after
    // the method (an inline `const` block would be named
    // `{closure#0}::{constant#0}`).
    let span = handler.method.sig.ident.span();
    let check = format_ident!("{}_IS_SERVED", name.to_string().to_uppercase(), span = span);
    let version_check = quote_spanned! {span=>
        #[doc(hidden)]
        const #check: () = {
            if let ::core::option::Option::Some(version) = <T as #rt::typed_client::Transport>::FIXED {
                ::core::assert!(#rt::typed_client::served_at(&[#(#ranges),*], version), #not_served);
            }
        };
    };
    let use_check = quote_spanned!(span=> let () = Self::#check;);
    quote! {
        #version_check

        #[doc = #doc]
        pub async fn #name(&self, #(#params),*) -> ::core::result::Result<#rt::typed_client::Rendered<#model>, #rt::typed_client::CallError> {
            #use_check
            #[allow(unused_mut)]
            let mut __parts = #rt::typed_client::CallParts::default();
            #(#fill)*
            let call = #rt::typed_client::Call {
                operation: #operation,
                method: #method,
                path: #rt::typed_client::fill_path(#template, &__parts.path)?,
                query: __parts.query,
                body: __parts.body,
            };
            #rt::typed_client::send(self.0, &[#(#ranges),*], call).await
        }
    }
}

/// The methods of the versions before each of a variant's version changes
/// (`create_before_size_added`): each takes the arguments and decodes the
/// model as those versions read and wrote them, the types the changes'
/// upgrades start from and their downgrades end at.
fn band_methods(
    rt: &TokenStream,
    c: &Controller,
    type_name: &str,
    op: &Operation,
    variant: &Variant,
) -> Vec<TokenStream> {
    let Some(route) = &variant.route else { return Vec::new() };
    let self_ty = &c.self_ty;
    let whole = range_tokens(rt, served(variant));
    let versions: Vec<TokenStream> = variant
        .changes
        .iter()
        .map(|change| {
            let ty = &change.ty;
            quote!(<#ty as #rt::VersionChange>::VERSION)
        })
        .collect();
    let bands = super::route::bands(variant);
    variant.changes.iter().zip(&bands).enumerate().map(|(j, (change, band))| {
        let change_name = change.ty.segments.last().map(|s| s.ident.to_string()).unwrap_or_default();
        let name = format_ident!("{}_before_{}", op.name, snake_case(&change_name));
        let (mut params, mut fill) = (Vec::new(), Vec::new());
        for ((arg, name), typed) in client_args(variant).zip(&band.arguments) {
            match typed.through() {
                Some(through) => {
                    let head = &typed.ty;
                    params.push(quote!(#name: &<#through as #rt::Upgrades<#head>>::Oldest));
                    fill.push(quote!(#rt::typed_client::ClientArgument::carry(#name, &mut __parts)?;));
                }
                None => {
                    let Some((param, part)) = carried_arg(rt, arg, &name) else { continue };
                    params.push(param);
                    fill.push(match part {
                        Part::Path(segments) => quote!(__parts.path = #segments;),
                        Part::Query(query) => quote!(__parts.query = #query;),
                        Part::Body(body) => quote!(__parts.body = #body;),
                    });
                }
            }
        }
        let model = match band.answer.through() {
            Some(through) => {
                let head = &band.answer.ty;
                quote!(<<#through as #rt::Downgrades<#head>>::Oldest as #rt::typed_client::ClientModel>::Model)
            }
            None => model(variant),
        };
        let handler_doc = crate::shared::docs::doc_text(&variant.method.attrs);
        let before = format!("The operation as it was before `{change_name}`: its arguments and model are the types that change converts from.");
        client_method(rt, c, type_name, op, ClientMethod {
            name,
            handler: variant,
            route,
            handler_doc: Some(match handler_doc.is_empty() { true => before, false => format!("{handler_doc}\n\n{before}") }),
            served_text: format!("the versions before `{change_name}`"),
            ranges: vec![quote!(#rt::change_band(<#self_ty>::__MV_API, #whole, &[#(#versions),*], #j))],
            params,
            fill,
            model,
        })
    }).collect()
}

/// `SizeAdded` as `size_added`.
fn snake_case(name: &str) -> String {
    let mut out = String::new();
    for (i, ch) in name.chars().enumerate() {
        if ch.is_uppercase() && i > 0 {
            out.push('_');
        }
        out.extend(ch.to_lowercase());
    }
    out
}

/// `FlavorsClient`, the client of `Flavors`, and `Flavors::client`.
pub(crate) fn client(c: &Controller) -> TokenStream {
    if !c.client {
        return TokenStream::new();
    }
    let rt = runtime(c.krate());
    let self_ty = &c.self_ty;
    let type_name = shape(self_ty).map(|(name, _)| name).unwrap_or_else(|| "Controller".to_owned());
    let client = format_ident!("{type_name}Client");
    let methods =
        c.operations.iter().filter(|op| op.is_route()).flat_map(|op| methods(&rt, c, &type_name, op));
    let doc = format!(
        "The typed client of [`{type_name}`]: one method per operation, sent through a \
         `microversion_core::client::typed_client::Transport` at its version."
    );
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy)]
        pub struct #client<'c, T: ?::core::marker::Sized>(&'c T);

        impl #self_ty {
            /// The typed client of these operations, sent through `transport`.
            pub fn client<T: #rt::typed_client::Transport + ?::core::marker::Sized>(transport: &T) -> #client<'_, T> {
                #client(transport)
            }
        }

        impl<'c, T: #rt::typed_client::Transport + ?::core::marker::Sized> #client<'c, T> {
            #(#methods)*
        }
    }
}
