//! Expansion: the model into Rust. Each operation becomes one dispatcher that
//! picks its variant with a few comparisons (a binary search over the sorted,
//! disjoint ranges); routes become one actix handler each.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::{FnArg, Ident, ImplItemFn};

use microversion_core::{Version, VersionRange};

use crate::model::{Controller, Operation, Route, Variant};

/// The typed binding the API checks use: a wrong path is one type error,
/// and the checks cannot add follow-on errors.
pub(crate) fn api_binding(krate: &syn::Path, api: &syn::Path) -> TokenStream {
    quote_spanned!(api.span_ident()=> const __MV_API: &#krate::Api = &#api;)
}

pub(crate) fn controller(c: &Controller) -> TokenStream {
    let Controller { self_ty, krate, passthrough, .. } = c;
    let mut items = Vec::new();
    let mut checks = Vec::new();
    for op in &c.operations {
        for (i, variant) in op.variants.iter().enumerate() {
            items.push(renamed_variant(op, i, variant));
            if !variant.schemas.is_empty() {
                items.push(schema_fn(krate, op, i, variant));
            }
            checks.extend(api_checks(c, op, variant));
        }
        items.push(if is_route(op) { route_handler(krate, op) } else { helper_dispatcher(krate, op) });
    }
    let api_type_check = api_binding(krate, &c.api);
    let register = register_impl(c);
    let introspection = controller_impl(c);
    quote! {
        impl #self_ty {
            #(#passthrough)*
            #(#items)*
        }
        #register
        #introspection
        #[doc(hidden)]
        const _: () = {
            #api_type_check
            #(#checks)*
        };
    }
}

/// What still compiles when the model has errors: the untouched items, one
/// stub per helper and empty registrations, so no follow-on errors appear.
pub(crate) fn fallback(c: &Controller) -> TokenStream {
    let Controller { self_ty, krate, passthrough, .. } = c;
    let stubs = c.operations.iter().filter(|op| !is_route(op)).map(|op| {
        let sig = dispatcher_signature(krate, op);
        let vis = &op.variants[0].method.vis;
        quote!(#vis #sig { ::core::unreachable!() })
    });
    let stub_controller = quote! {
        impl #krate::Controller for #self_ty {
            const OPERATIONS: &'static [#krate::Operation] = &[];
            fn check_schemas() -> ::core::result::Result<(), #krate::__private::SchemaCheckError> {
                ::core::result::Result::Ok(())
            }
        }
        impl #krate::__private::actix_web::dev::HttpServiceFactory for #self_ty {
            fn register(self, _: &mut #krate::__private::actix_web::dev::AppService) {}
        }
    };
    quote! {
        impl #self_ty {
            #(#passthrough)*
            #(#stubs)*
        }
        #stub_controller
    }
}

trait SpanIdent {
    fn span_ident(&self) -> Span;
}

impl SpanIdent for syn::Path {
    fn span_ident(&self) -> Span {
        self.segments.last().map_or_else(Span::call_site, |s| s.ident.span())
    }
}

fn is_route(op: &Operation) -> bool {
    op.variants[0].route.is_some()
}

fn variant_ident(op: &Operation, i: usize) -> Ident {
    format_ident!("__mv_{}_v{}", op.name, i)
}

fn renamed_variant(op: &Operation, i: usize, variant: &Variant) -> TokenStream {
    let mut method = variant.method.clone();
    method.sig.ident = variant_ident(op, i);
    method.vis = syn::Visibility::Inherited;
    quote! {
        #[doc(hidden)]
        #[allow(clippy::unused_async, dead_code)]
        #method
    }
}

pub(crate) fn range_tokens(krate: &syn::Path, range: VersionRange) -> TokenStream {
    let v = |v: Version| {
        let (major, minor) = (v.major(), v.minor());
        quote!(#krate::Version::new(#major, #minor))
    };
    match (range.min(), range.max()) {
        (Some(lo), Some(hi)) => {
            let (lo, hi) = (v(lo), v(hi));
            quote!(#krate::VersionRange::between(#lo, #hi))
        }
        (Some(lo), None) => {
            let lo = v(lo);
            quote!(#krate::VersionRange::from(#lo))
        }
        (None, Some(hi)) => {
            let hi = v(hi);
            quote!(#krate::VersionRange::until(#hi))
        }
        (None, None) => quote!(#krate::VersionRange::ANY),
    }
}

/// Compile-time checks that each named version lies in the API declaration;
/// the `const` panic is reported at the literal.
fn api_checks(c: &Controller, op: &Operation, variant: &Variant) -> Vec<TokenStream> {
    let mut ranges: Vec<(&crate::model::RangeLit, String)> = Vec::new();
    if let Some(range) = &variant.range {
        ranges.push((range, format!("a version of `{}`", op.name)));
    }
    for schema in &variant.schemas {
        ranges.push((&schema.range, format!("a version of the schema `{}`", schema.path.to_token_stream())));
    }
    declared_checks(&c.krate, &c.api, ranges)
}

/// `assert!`s, each spanned at its literal, that every version named by
/// `ranges` is declared by `api` (a `const __MV_API` bound beforehand).
pub(crate) fn declared_checks<'a>(
    krate: &syn::Path,
    api: &syn::Path,
    ranges: impl IntoIterator<Item = (&'a crate::model::RangeLit, String)>,
) -> Vec<TokenStream> {
    let api_name = api.to_token_stream().to_string().replace(' ', "");
    let mut checks = Vec::new();
    for (range, what) in ranges {
        for lit in range.min.iter().chain(&range.max) {
            let version = range_tokens(krate, VersionRange::only(lit.version));
            let message = format!(
                "{what}, {}, is outside the versions declared by `{api_name}`: declare it in its version history first",
                lit.version
            );
            checks.push(quote_spanned! {lit.lit.span()=>
                ::core::assert!(__MV_API.declares(#version), #message);
            });
        }
    }
    checks
}

/// The variants sorted by range start, for the binary search.
fn sorted(op: &Operation) -> Vec<(usize, &Variant)> {
    let mut variants: Vec<(usize, &Variant)> = op.variants.iter().enumerate().collect();
    variants.sort_by_key(|(_, v)| v.range().min());
    variants
}

/// A decision tree over sorted disjoint ranges: `log2(n)` comparisons of the
/// packed version (`key`) against integer literals, then only the bounds of
/// the chosen range that the path to it has not already established.
fn decision_tree(
    key: &Ident,
    variants: &[(usize, &Variant)],
    leaf: &dyn Fn(usize, &Variant) -> TokenStream,
    miss: &TokenStream,
) -> TokenStream {
    tree(key, variants, None, None, leaf, miss)
}

/// `at_least`: the key is known to be >= it; `below`: known to be < it.
fn tree(
    key: &Ident,
    variants: &[(usize, &Variant)],
    at_least: Option<Version>,
    below: Option<Version>,
    leaf: &dyn Fn(usize, &Variant) -> TokenStream,
    miss: &TokenStream,
) -> TokenStream {
    match variants {
        [] => miss.clone(),
        [(i, variant)] => {
            let range = variant.range();
            let min = range.min().filter(|min| at_least.is_none_or(|known| known < *min));
            let max = range.max().filter(|max| below.is_none_or(|known| known > successor(*max)));
            let check = match (min, max) {
                (Some(min), Some(max)) if min == max => {
                    let only = packed_literal(min);
                    Some(quote!(#key == #only))
                }
                (Some(min), Some(max)) => {
                    let (min, max) = (packed_literal(min), packed_literal(max));
                    Some(quote!((#min..=#max).contains(&#key)))
                }
                (Some(min), None) => {
                    let min = packed_literal(min);
                    Some(quote!(#key >= #min))
                }
                (None, Some(max)) => {
                    let max = packed_literal(max);
                    Some(quote!(#key <= #max))
                }
                (None, None) => None,
            };
            let body = leaf(*i, variant);
            match check {
                Some(check) => quote!(if #check { #body } else { #miss }),
                None => body,
            }
        }
        _ => {
            let mid = variants.len() / 2;
            // Only the first range can be open below, so every later one has a minimum.
            let start = variants[mid].1.range().min().unwrap_or(Version::new(0, 0));
            let packed = packed_literal(start);
            let lower = tree(key, &variants[..mid], at_least, Some(start), leaf, miss);
            let upper = tree(key, &variants[mid..], Some(start), below, leaf, miss);
            quote!(if #key < #packed { #lower } else { #upper })
        }
    }
}

/// `0x0002_0005_u32` for 2.5: the packed version, readable in expansions.
fn packed_literal(v: Version) -> syn::LitInt {
    syn::LitInt::new(&format!("0x{:04x}_{:04x}_u32", v.major(), v.minor()), Span::call_site())
}

/// The version right after `v`: X.Y is followed by X.(Y+1).
fn successor(v: Version) -> Version {
    match v.minor() {
        u16::MAX => Version::new(v.major().saturating_add(1), 0),
        minor => Version::new(v.major(), minor + 1),
    }
}

fn has_receiver(method: &ImplItemFn) -> bool {
    matches!(method.sig.inputs.first(), Some(FnArg::Receiver(_)))
}

fn typed_args(method: &ImplItemFn) -> Vec<&syn::PatType> {
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

fn route_handler_ident(op: &Operation) -> Ident {
    format_ident!("__mv_route_{}", op.name)
}

fn route_handler(krate: &syn::Path, op: &Operation) -> TokenStream {
    let handler = route_handler_ident(op);
    let version = format_ident!("__version");
    let status = op.missing.map_or(404, |(s, _)| s);
    let private = quote!(#krate::__private);
    let miss = quote!(::core::result::Result::Err(#private::missing(#version, #status)));
    let leaf = |i: usize, variant: &Variant| {
        let method = variant_ident(op, i);
        let args = typed_args(&variant.method);
        let names: Vec<Ident> = (0..args.len()).map(|n| format_ident!("__a{}", n)).collect();
        let types = args.iter().map(|a| {
            let ty = &a.ty;
            quote_spanned!(ty_span(ty)=> #ty)
        });
        let extract = if args.is_empty() {
            quote!()
        } else {
            quote! {
                let (#(#names,)*) = <(#(#types,)*) as #private::actix_web::FromRequest>::from_request(
                    &__req, &mut __payload,
                ).await.map_err(::core::convert::Into::<#private::actix_web::Error>::into)?;
            }
        };
        let validate = if variant.schemas.is_empty() {
            quote!()
        } else {
            let schemas = format_ident!("__mv_schemas_{}_v{}", op.name, i);
            quote!(#private::validate_body(&__req, &mut __payload, #version, Self::#schemas()).await?;)
        };
        let call = if has_receiver(&variant.method) {
            quote!(#private::controller::<Self>(&__req)?.#method(#(#names),*))
        } else {
            quote!(Self::#method(#(#names),*))
        };
        let call = if variant.method.sig.asyncness.is_some() { quote!(#call.await) } else { call };
        // A return type that is no Responder is reported on that type.
        let respond = match &variant.method.sig.output {
            syn::ReturnType::Type(_, ty) => quote_spanned!(ty_span(ty)=> #private::respond(__out, &__req)),
            syn::ReturnType::Default => quote!(#private::respond(__out, &__req)),
        };
        quote! {
            #validate
            #extract
            let __out = #call;
            ::core::result::Result::Ok(#respond)
        }
    };
    let key = format_ident!("__key");
    let tree = decision_tree(&key, &sorted(op), &leaf, &miss);
    quote! {
        #[doc(hidden)]
        async fn #handler(
            __req: #private::actix_web::HttpRequest,
            __payload: #private::actix_web::web::Payload,
        ) -> ::core::result::Result<#private::actix_web::HttpResponse, #private::actix_web::Error> {
            #[allow(unused_mut, unused_variables)]
            let mut __payload = __payload.into_inner();
            let #version: #krate::Version = #private::negotiated(&__req).await?;
            let #key: u32 = #version.packed();
            #tree
        }
    }
}

fn ty_span(ty: &syn::Type) -> Span {
    ty.to_token_stream().into_iter().next().map_or_else(Span::call_site, |t| t.span())
}

/// The helper's public signature: the first variant's, with the version first
/// and the result wrapped in `Result<_, UnservedVersion>`.
fn dispatcher_signature(krate: &syn::Path, op: &Operation) -> TokenStream {
    let first = &op.variants[0].method.sig;
    let name = &op.name;
    let asyncness = &first.asyncness;
    let (generics, where_clause) = (&first.generics, &first.generics.where_clause);
    let receiver = first.inputs.iter().find_map(|a| match a {
        FnArg::Receiver(r) => Some(quote!(#r,)),
        FnArg::Typed(_) => None,
    });
    let args = typed_args(&op.variants[0].method).into_iter().enumerate().map(|(n, a)| {
        let (ident, ty) = (format_ident!("__a{}", n), &a.ty);
        quote!(#ident: #ty)
    });
    let output = match &first.output {
        syn::ReturnType::Default => quote!(()),
        syn::ReturnType::Type(_, ty) => ty.to_token_stream(),
    };
    quote! {
        #asyncness fn #name #generics(
            #receiver
            __version: impl ::core::convert::Into<#krate::Version>,
            #(#args),*
        ) -> ::core::result::Result<#output, #krate::UnservedVersion> #where_clause
    }
}

fn helper_dispatcher(krate: &syn::Path, op: &Operation) -> TokenStream {
    let sig = dispatcher_signature(krate, op);
    let vis = &op.variants[0].method.vis;
    let version = format_ident!("__version");
    let name = op.name.to_string();
    let miss = quote! {
        ::core::result::Result::Err(#krate::UnservedVersion { operation: #name, version: #version })
    };
    let leaf = |i: usize, variant: &Variant| {
        let method = variant_ident(op, i);
        let names = (0..typed_args(&variant.method).len()).map(|n| format_ident!("__a{}", n));
        let call = if has_receiver(&variant.method) {
            quote!(self.#method(#(#names),*))
        } else {
            quote!(Self::#method(#(#names),*))
        };
        let call = if variant.method.sig.asyncness.is_some() { quote!(#call.await) } else { call };
        quote!(::core::result::Result::Ok(#call))
    };
    let key = format_ident!("__key");
    let tree = decision_tree(&key, &sorted(op), &leaf, &miss);
    let doc = format!("Dispatches to the variant of `{name}` that serves the given version.");
    quote! {
        #[doc = #doc]
        #vis #sig {
            let #version: #krate::Version = ::core::convert::Into::into(#version);
            let #key: u32 = #version.packed();
            #tree
        }
    }
}

fn schema_fn(krate: &syn::Path, op: &Operation, i: usize, variant: &Variant) -> TokenStream {
    let ident = format_ident!("__mv_schemas_{}_v{}", op.name, i);
    let private = quote!(#krate::__private);
    let lazy = match variant.schemas.iter().find(|s| s.model) {
        Some(model) => {
            let ty = &model.path;
            let name = format!("model {}", ty.to_token_stream().to_string().replace(' ', ""));
            let range = range_tokens(krate, model.range_in(variant.range()));
            let compile = quote_spanned!(ty.span_ident()=> #krate::compile_model_schemas::<#ty>(#name));
            quote!(#private::LazySchemas::model::<#ty>(#range, || #compile))
        }
        None => {
            let sources = variant.schemas.iter().map(|s| {
                let path = &s.path;
                let name = path.to_token_stream().to_string().replace(' ', "");
                let range = range_tokens(krate, s.range.range());
                let schema = quote_spanned!(path.span_ident()=> #path as fn() -> #private::serde_json::Value);
                quote!(#krate::SchemaSource { name: #name, range: #range, schema: #schema })
            });
            quote! {
                #private::LazySchemas::new(#krate::VersionRange::ANY, || {
                    #krate::VersionedSchemas::compile(&[#(#sources),*])
                })
            }
        }
    };
    quote! {
        #[doc(hidden)]
        fn #ident() -> &'static #private::LazySchemas {
            static SCHEMAS: #private::LazySchemas = #lazy;
            &SCHEMAS
        }
    }
}

/// Routes grouped by path: actix matches one resource per path, so every
/// method of a path must live in the same resource.
fn routes_by_path(c: &Controller) -> Vec<(String, Vec<(&Route, &Operation)>)> {
    let mut grouped: Vec<(String, Vec<(&Route, &Operation)>)> = Vec::new();
    for op in &c.operations {
        let Some(route) = op.variants[0].route.as_ref() else { continue };
        match grouped.iter_mut().find(|(path, _)| *path == route.path.value()) {
            Some((_, ops)) => ops.push((route, op)),
            None => grouped.push((route.path.value(), vec![(route, op)])),
        }
    }
    grouped
}

fn register_impl(c: &Controller) -> TokenStream {
    let Controller { self_ty, krate, .. } = c;
    let web = quote!(#krate::__private::actix_web::web);
    let resources = routes_by_path(c).into_iter().map(|(path, ops)| {
        let routes = ops.iter().map(|(route, op)| {
            let method = Ident::new(&route.method, Span::call_site());
            let handler = route_handler_ident(op);
            quote!(.route(#web::route().method(#krate::__private::actix_web::http::Method::#method).to(Self::#handler)))
        });
        quote!(#web::resource(#path).app_data(__data.clone()) #(#routes)*)
    });
    let schema_checks = schema_fns(c).map(|ident| quote!(Self::#ident().check_at_startup();));
    let body = match &c.scope {
        Some(scope) => quote! {
            let __scope = #web::scope(#scope) #(.service(#resources))*;
            #krate::__private::actix_web::dev::HttpServiceFactory::register(__scope, __config);
        },
        None => quote! {
            #(#krate::__private::actix_web::dev::HttpServiceFactory::register(#resources, __config);)*
        },
    };
    quote! {
        impl #krate::__private::actix_web::dev::HttpServiceFactory for #self_ty {
            fn register(self, __config: &mut #krate::__private::actix_web::dev::AppService) {
                // Invalid schemas stop the server at start-up, never mid-traffic.
                #(#schema_checks)*
                #[allow(unused_variables)]
                let __data = #web::Data::new(self);
                #body
            }
        }
    }
}

fn schema_fns(c: &Controller) -> impl Iterator<Item = Ident> + '_ {
    c.operations.iter().flat_map(|op| {
        op.variants
            .iter()
            .enumerate()
            .filter(|(_, v)| !v.schemas.is_empty())
            .map(move |(i, _)| format_ident!("__mv_schemas_{}_v{}", op.name, i))
    })
}

fn controller_impl(c: &Controller) -> TokenStream {
    let Controller { self_ty, krate, .. } = c;
    let operations = c.operations.iter().map(|op| {
        let name = op.name.to_string();
        let route = op.variants[0].route.as_ref();
        let method = route.map_or(quote!(::core::option::Option::None), |r| {
            let m = &r.method;
            quote!(::core::option::Option::Some(#m))
        });
        let path = route.map_or(quote!(::core::option::Option::None), |r| {
            let full =
                format!("{}{}", c.scope.as_ref().map(|s| s.value()).unwrap_or_default(), r.path.value());
            quote!(::core::option::Option::Some(#full))
        });
        let variants = sorted(op).into_iter().map(|(_, v)| {
            let range = range_tokens(krate, v.range());
            let schemas = v.schemas.iter().map(|s| {
                let path = s.path.to_token_stream().to_string().replace(' ', "");
                let name = if s.model { format!("model {path}") } else { path };
                let range = range_tokens(krate, s.range_in(v.range()));
                quote!((#name, #range))
            });
            quote!(#krate::OperationVariant { range: #range, schemas: &[#(#schemas),*] })
        });
        let status = op.missing.map_or(404, |(s, _)| s);
        quote! {
            #krate::Operation {
                name: #name,
                http_method: #method,
                path: #path,
                variants: &[#(#variants),*],
                missing_status: #status,
            }
        }
    });
    let checks = schema_fns(c).map(|ident| quote!(Self::#ident().check()?;));
    quote! {
        impl #krate::Controller for #self_ty {
            const OPERATIONS: &'static [#krate::Operation] = &[#(#operations),*];
            fn check_schemas() -> ::core::result::Result<(), #krate::__private::SchemaCheckError> {
                #(#checks)*
                ::core::result::Result::Ok(())
            }
        }
    }
}
