//! The `VersionedModel` implementation of a model: serialize, parse and
//! describe at a version, each field guarded by its range.

use microversion_core::{Version, VersionRange};
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use super::{Field, Model, Presence};
use crate::expand::{api_binding, declared_checks, range_tokens};

pub(super) fn model(model: &Model) -> TokenStream {
    let Model { ident, krate, .. } = model;
    let private = quote!(#krate::__private);
    let serialize = model.fields.iter().map(|f| serialize_field(krate, f));
    let read = model.fields.iter().map(|f| read_field(krate, f));
    let names = model.fields.iter().map(|f| &f.ident);
    let locals = model.fields.iter().map(|f| format_ident!("__f_{}", f.ident));
    let deny = (!model.allow_unknown).then(|| quote!(#private::deny_unknown(__object, __path, __errors);));
    let schema = model.fields.iter().map(|f| schema_field(krate, f));
    let additional = model.allow_unknown;
    let changes = changes(krate, model);
    let name = ident.to_string();
    let checks = api_checks(model);
    quote! {
        impl #krate::VersionedModel for #ident {
            fn serialize_at<__S: #private::serde::Serializer>(
                &self,
                __version: #krate::Version,
                __serializer: __S,
            ) -> ::core::result::Result<__S::Ok, __S::Error> {
                use #private::serde::ser::SerializeMap as _;
                let mut __map = __serializer.serialize_map(::core::option::Option::None)?;
                #(#serialize)*
                __map.end()
            }

            fn deserialize_at(
                __version: #krate::Version,
                __value: #private::serde_json::Value,
                __path: &str,
                __errors: &mut ::std::vec::Vec<#krate::Violation>,
            ) -> ::core::option::Option<Self> {
                let __before = __errors.len();
                let mut __object = #private::object_at(__value, __path, __errors)?;
                #(#read)*
                #deny
                if __errors.len() > __before {
                    return ::core::option::Option::None;
                }
                ::core::option::Option::Some(Self { #(#names: #locals?),* })
            }

            fn json_schema_at(__version: #krate::Version) -> #private::serde_json::Value {
                let mut __properties = #private::serde_json::Map::new();
                let mut __required: ::std::vec::Vec<#private::serde_json::Value> = ::std::vec::Vec::new();
                #(#schema)*
                let mut __schema = #private::serde_json::json!({
                    "type": "object",
                    "properties": __properties,
                    "additionalProperties": #additional,
                });
                if !__required.is_empty() {
                    __schema["required"] = #private::serde_json::Value::Array(__required);
                }
                __schema
            }

            fn changes(__out: &mut ::std::vec::Vec<#krate::Version>) {
                #changes
            }
        }

        impl #krate::VersionedStruct for #ident {
            fn compiled_schemas() -> ::core::result::Result<
                &'static #krate::VersionedSchemas,
                &'static #krate::SchemaError,
            > {
                static CELL: ::std::sync::OnceLock<
                    ::core::result::Result<#krate::VersionedSchemas, #krate::SchemaError>,
                > = ::std::sync::OnceLock::new();
                #private::model_schemas::<Self>(&CELL, #name)
            }
        }

        #checks
    }
}

/// On errors: the trait implementations with no behaviour, so that uses of
/// the model report no follow-on errors.
pub(super) fn fallback(model: &Model) -> TokenStream {
    let Model { ident, krate, .. } = model;
    let private = quote!(#krate::__private);
    quote! {
        impl #krate::VersionedModel for #ident {
            fn serialize_at<__S: #private::serde::Serializer>(&self, _: #krate::Version, _: __S)
                -> ::core::result::Result<__S::Ok, __S::Error> { ::core::unreachable!() }
            fn deserialize_at(_: #krate::Version, _: #private::serde_json::Value, _: &str,
                _: &mut ::std::vec::Vec<#krate::Violation>) -> ::core::option::Option<Self> { ::core::unreachable!() }
            fn json_schema_at(_: #krate::Version) -> #private::serde_json::Value { ::core::unreachable!() }
            fn changes(_: &mut ::std::vec::Vec<#krate::Version>) {}
        }
        impl #krate::VersionedStruct for #ident {
            fn compiled_schemas() -> ::core::result::Result<
                &'static #krate::VersionedSchemas, &'static #krate::SchemaError> { ::core::unreachable!() }
        }
    }
}

/// `if RANGE.contains(__version) { body }`, or `body` for a field of every version.
fn guarded(krate: &syn::Path, range: Option<VersionRange>, body: TokenStream) -> TokenStream {
    match range {
        Some(range) if range != VersionRange::ANY => {
            let range = range_tokens(krate, range);
            quote!(if #range.contains(__version) { #body })
        }
        _ => body,
    }
}

fn serialize_field(krate: &syn::Path, field: &Field) -> TokenStream {
    let (ident, key) = (&field.ident, &field.key);
    let plain = if field.nested {
        quote!(__map.serialize_entry(#key, &#krate::VersionedModel::at(&self.#ident, __version))?;)
    } else {
        quote!(__map.serialize_entry(#key, &self.#ident)?;)
    };
    let mut body = plain;
    for render in field.renders.iter().rev() {
        let range = range_tokens(krate, render.range.range());
        let with = &render.with;
        let call = quote_spanned!(with.span()=> #with(&self.#ident));
        body = quote! {
            if #range.contains(__version) {
                __map.serialize_entry(#key, &#call)?;
            } else {
                #body
            }
        };
    }
    guarded(krate, field.range.as_ref().map(|r| r.range()), body)
}

fn read_field(krate: &syn::Path, field: &Field) -> TokenStream {
    let private = quote!(#krate::__private);
    let (ty, key) = (&field.ty, &field.key);
    let local = format_ident!("__f_{}", field.ident);
    let range = range_tokens(krate, field.range());
    let (presence, absent) = match field.presence {
        Presence::Required => (quote!(Required), quote!(::core::option::Option::None)),
        Presence::Optional => {
            (quote!(Optional), quote!(::core::option::Option::Some(::core::option::Option::None)))
        }
        Presence::Default => {
            (quote!(Default), quote!(::core::option::Option::Some(::core::default::Default::default())))
        }
    };
    let parse = if field.nested {
        quote_spanned!(ty.span()=> |__v, __p: &str, __e: &mut ::std::vec::Vec<#krate::Violation>| {
            <#ty as #krate::VersionedModel>::deserialize_at(__version, __v, __p, __e)
        })
    } else {
        quote_spanned!(ty.span()=> #private::parse_plain::<#ty>)
    };
    quote! {
        let #local: ::core::option::Option<#ty> = #private::read_field(
            &mut __object, #key, #range, #private::Presence::#presence, __version, __path, __errors,
            #parse, || #absent,
        );
    }
}

fn schema_field(krate: &syn::Path, field: &Field) -> TokenStream {
    let (ty, key) = (&field.ty, &field.key);
    let schema = match (&field.schema, field.nested) {
        (Some(path), _) => quote_spanned!(path.span()=> #path()),
        (None, true) => {
            quote_spanned!(ty.span()=> <#ty as #krate::VersionedModel>::json_schema_at(__version))
        }
        (None, false) => quote_spanned!(ty.span()=> <#ty as #krate::FieldSchema>::field_schema()),
    };
    let required = (field.presence == Presence::Required).then(|| quote!(__required.push(#key.into());));
    guarded(
        krate,
        field.range.as_ref().map(|r| r.range()),
        quote! {
            __properties.insert(#key.into(), #schema);
            #required
        },
    )
}

/// The versions where the model changes: each `since`, each day after an
/// `until` (X.Y's successor is X.(Y+1)), and those of nested models.
fn changes(krate: &syn::Path, model: &Model) -> TokenStream {
    let mut cuts: Vec<Version> = Vec::new();
    for field in &model.fields {
        for range in field.range.iter().chain(field.renders.iter().map(|r| &r.range)) {
            let range = range.range();
            cuts.extend(range.min());
            cuts.extend(range.max().map(|v| match v.minor() {
                u16::MAX => Version::new(v.major().saturating_add(1), 0),
                minor => Version::new(v.major(), minor + 1),
            }));
        }
    }
    cuts.sort();
    cuts.dedup();
    let cuts = cuts.into_iter().map(|v| {
        let (major, minor) = (v.major(), v.minor());
        quote!(#krate::Version::new(#major, #minor))
    });
    let nested = model.fields.iter().filter(|f| f.nested).map(|f| {
        let ty = &f.ty;
        quote!(<#ty as #krate::VersionedModel>::changes(__out);)
    });
    quote! {
        __out.extend_from_slice(&[#(#cuts),*]);
        #(#nested)*
    }
}

fn api_checks(model: &Model) -> TokenStream {
    let Some(api) = &model.api else { return TokenStream::new() };
    let krate = &model.krate;
    let mut ranges = Vec::new();
    for field in &model.fields {
        if let Some(range) = &field.range {
            ranges.push((range, format!("a version of `{}`", field.ident)));
        }
        for render in &field.renders {
            ranges.push((&render.range, format!("a version of a representation of `{}`", field.ident)));
        }
    }
    let binding = api_binding(krate, api);
    let checks = declared_checks(krate, api, ranges);
    quote! {
        #[doc(hidden)]
        const _: () = {
            #binding
            #(#checks)*
        };
    }
}
