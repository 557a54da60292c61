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
    let names = super::route::argument_names(&variant.method);
    for (arg, name) in super::route::typed_args(&variant.method).into_iter().zip(names) {
        // A pattern's `__a1` is the client's `arg1`.
        let name = match name.to_string().strip_prefix("__a") {
            Some(nth) => format_ident!("arg{nth}"),
            None => name,
        };
        // What the argument's type must be able to do is asked at the
        // handler's type, so that a type that cannot is an error there.
        let at = arg.ty.span();
        match carried(&arg.ty) {
            Some(Carried::Path(ty)) => {
                // A tuple is one parameter per element, each its `Display`.
                let segments = match &ty {
                    Type::Tuple(tuple) => {
                        let index = (0..tuple.elems.len()).map(syn::Index::from);
                        quote_spanned!(at=> ::std::vec![#(::std::string::ToString::to_string(&#name.#index)),*])
                    }
                    _ => quote_spanned!(at=> ::std::vec![::std::string::ToString::to_string(&#name)]),
                };
                request.params.push(quote!(#name: #ty));
                request.path_args = Some(segments);
            }
            Some(Carried::Query(ty)) => {
                request.params.push(quote!(#name: &#ty));
                request.query = Some(quote_spanned!(at=> #rt::typed_client::query_of(#name)?));
            }
            Some(Carried::Pairs) => {
                request.params.push(quote!(#name: &[(&str, &str)]));
                request.query = Some(quote!(#rt::typed_client::query_pairs(#name)));
            }
            Some(Carried::Body(ty)) => {
                request.params.push(quote!(#name: &#ty));
                request.body = Some(
                    quote_spanned!(at=> ::core::option::Option::Some(#rt::typed_client::body_of(#name)?)),
                );
            }
            None => {}
        }
    }
    request
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
    groups
        .into_iter()
        .map(|(name, group)| {
            let first = group[0];
            let Some(route) = &first.route else { return quote!() };
            let Request { params, path_args, query, body } = request(rt, first);
            let model = model(first);
            let template = format!("{}{}", c.scope.as_ref().map(|s| s.value()).unwrap_or_default(), route.path.value());
            let method = &route.method;
            let operation = format!("{type_name}::{}", op.name);
            let ranges = group.iter().map(|v| range_tokens(rt, served(v)));
            let shown: Vec<String> = group.iter().map(|v| served(v).to_string()).collect();
            // The handler's own doc comment first (of the first documented
            // variant of the group), then where and when it is served.
            let handler_doc = group.iter().map(|v| crate::shared::docs::doc_text(&v.method.attrs)).find(|d| !d.is_empty());
            let served_at = format!("`{method} {template}`, served at {}.", shown.join(", "));
            let doc = match handler_doc {
                Some(handler_doc) => format!("{handler_doc}\n\n{served_at}"),
                None => served_at,
            };
            let not_served =
                format!("{operation} does not exist at this client's version; it is served at {}", shown.join(", "));
            let ranges: Vec<TokenStream> = ranges.collect();
            // A version that is a type is checked at compile time, the
            // error shown at the handler the operation comes from and
            // naming the check after the operation (an inline `const`
            // block would be named `{closure#0}::{constant#0}`).
            let check = format_ident!("{}_IS_SERVED", name.to_string().to_uppercase(), span = first.method.sig.ident.span());
            let version_check = quote_spanned! {first.method.sig.ident.span()=>
                #[doc(hidden)]
                const #check: () = {
                    if let ::core::option::Option::Some(version) = <T as #rt::typed_client::Transport>::FIXED {
                        ::core::assert!(#rt::typed_client::served_at(&[#(#ranges),*], version), #not_served);
                    }
                };
            };
            let use_check = quote_spanned!(first.method.sig.ident.span()=> let () = Self::#check;);
            let path_args = path_args.unwrap_or_else(|| quote!(::std::vec::Vec::new()));
            let query = query.unwrap_or_else(|| quote!(::std::string::String::new()));
            let body = body.unwrap_or_else(|| quote!(::core::option::Option::None));
            quote! {
                #version_check

                #[doc = #doc]
                pub async fn #name(&self, #(#params),*) -> ::core::result::Result<#rt::typed_client::Rendered<#model>, #rt::typed_client::CallError> {
                    #use_check
                    let call = #rt::typed_client::Call {
                        operation: #operation,
                        method: #method,
                        path: #rt::typed_client::fill_path(#template, &#path_args)?,
                        query: #query,
                        body: #body,
                    };
                    #rt::typed_client::send(self.0, &[#(#ranges),*], call).await
                }
            }
        })
        .collect()
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
