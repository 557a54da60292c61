//! The `VersionedModel` implementation of a model: serialize, parse and
//! describe at a version, each field guarded by its range.

use microversion_core::{Version, VersionRange};
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use super::ast::{Field, Input, Presence};
use super::bounds;
use crate::shared::api::{api_binding, declared_checks};
use crate::shared::names::runtime;
use crate::shared::ranges::{range_tokens, version_tokens};

pub(super) fn model(model: &Input) -> TokenStream {
    let Input { ident, krate, .. } = model;
    let rt = &runtime(krate);
    let (impl_generics, ty_generics, _) = model.generics.split_for_impl();
    let where_clause = bounds::model_where(rt, model);
    let serialize = model.fields.iter().map(|f| serialize_field(rt, f));
    let deserialize = if model.borrows() { refuse_reading(rt, model) } else { read_model(rt, model) };
    let schema = model.fields.iter().map(|f| schema_field(rt, f));
    let additional = model.allow_unknown;
    let changes = changes(rt, model);
    let compiled = (!model.borrows()).then(|| compiled_schemas(rt, model));
    let checks = api_checks(model);
    quote! {
        #[automatically_derived]
        impl #impl_generics #rt::VersionedModel for #ident #ty_generics #where_clause {
            fn serialize_at<__S: #rt::serde::Serializer>(
                &self,
                __version: #rt::Version,
                __serializer: __S,
            ) -> ::core::result::Result<__S::Ok, __S::Error> {
                use #rt::serde::ser::SerializeMap as _;
                let mut __map = __serializer.serialize_map(::core::option::Option::None)?;
                #(#serialize)*
                __map.end()
            }

            fn deserialize_at(
                __version: #rt::Version,
                __value: #rt::serde_json::Value,
                __path: &str,
                __errors: &mut ::std::vec::Vec<#rt::Violation>,
            ) -> ::core::option::Option<Self> {
                #deserialize
            }

            fn json_schema_at(__version: #rt::Version) -> #rt::serde_json::Value {
                let mut __properties = #rt::serde_json::Map::new();
                let mut __required: ::std::vec::Vec<#rt::serde_json::Value> = ::std::vec::Vec::new();
                #(#schema)*
                let mut __schema = #rt::serde_json::json!({
                    "type": "object",
                    "properties": __properties,
                    "additionalProperties": #additional,
                });
                if !__required.is_empty() {
                    __schema["required"] = #rt::serde_json::Value::Array(__required);
                }
                __schema
            }

            fn changes(__out: &mut ::std::vec::Vec<#rt::Version>) {
                #changes
            }
        }

        #compiled

        #checks
    }
}

/// The body of `deserialize_at`: each field read at its range.
fn read_model(rt: &TokenStream, model: &Input) -> TokenStream {
    let read = model.fields.iter().map(|f| read_field(rt, f));
    let names = model.fields.iter().map(|f| &f.ident);
    let locals = model.fields.iter().map(|f| format_ident!("__f_{}", f.ident));
    let deny = (!model.allow_unknown).then(|| quote!(#rt::deny_unknown(__object, __path, __errors);));
    quote! {
        let __before = __errors.len();
        let mut __object = #rt::object_at(__value, __path, __errors)?;
        #(#read)*
        #deny
        if __errors.len() > __before {
            return ::core::option::Option::None;
        }
        ::core::option::Option::Some(Self { #(#names: #locals?),* })
    }
}

/// The body of `deserialize_at` for a model that borrows: there is nothing
/// to borrow from, so it refuses (it is not a `VersionedStruct`, so no
/// extractor reads one; this answers a direct `from_json_at`).
fn refuse_reading(rt: &TokenStream, model: &Input) -> TokenStream {
    let message = format!(
        "`{}` borrows its data, so it is only rendered: it cannot be read from a request",
        model.ident
    );
    quote! {
        let _ = (__version, __value);
        let __path = if __path.is_empty() { "/" } else { __path };
        __errors.push(#rt::Violation::new(__path, "readOnly", #message));
        ::core::option::Option::None
    }
}

/// `VersionedStruct`: the model's schemas compiled once. A model over types
/// keeps them per type, as a `static` in a generic impl is one for all.
fn compiled_schemas(rt: &TokenStream, model: &Input) -> TokenStream {
    let ident = &model.ident;
    let name = ident.to_string();
    let (impl_generics, ty_generics, _) = model.generics.split_for_impl();
    let where_clause = bounds::struct_where(rt, model);
    let cell_ty = quote!(::std::sync::OnceLock<
        ::core::result::Result<#rt::VersionedSchemas, #rt::SchemaError>,
    >);
    let cell = if model.is_generic_over_types() {
        quote! {
            static CELLS: ::std::sync::OnceLock<::std::sync::Mutex<
                ::std::collections::HashMap<::core::any::TypeId, &'static #cell_ty>,
            >> = ::std::sync::OnceLock::new();
            let __cell: &'static #cell_ty = *CELLS
                .get_or_init(::core::default::Default::default)
                .lock()
                .unwrap_or_else(::std::sync::PoisonError::into_inner)
                .entry(::core::any::TypeId::of::<Self>())
                .or_insert_with(|| ::std::boxed::Box::leak(::core::default::Default::default()));
            #rt::model_schemas::<Self>(__cell, #name)
        }
    } else {
        quote! {
            static CELL: #cell_ty = ::std::sync::OnceLock::new();
            #rt::model_schemas::<Self>(&CELL, #name)
        }
    };
    quote! {
        #[automatically_derived]
        impl #impl_generics #rt::VersionedStruct for #ident #ty_generics #where_clause {
            fn compiled_schemas() -> ::core::result::Result<
                &'static #rt::VersionedSchemas,
                &'static #rt::SchemaError,
            > {
                #cell
            }
        }
    }
}

/// On errors: the trait implementations with no behaviour, so that uses of
/// the model report no follow-on errors.
pub(super) fn fallback(model: &Input) -> TokenStream {
    let Input { ident, krate, .. } = model;
    let rt = &runtime(krate);
    let (impl_generics, ty_generics, where_clause) = model.generics.split_for_impl();
    let compiled = (!model.borrows()).then(|| {
        quote! {
            #[automatically_derived]
            impl #impl_generics #rt::VersionedStruct for #ident #ty_generics #where_clause {
                fn compiled_schemas() -> ::core::result::Result<
                    &'static #rt::VersionedSchemas, &'static #rt::SchemaError> { ::core::unreachable!() }
            }
        }
    });
    quote! {
        #[automatically_derived]
        impl #impl_generics #rt::VersionedModel for #ident #ty_generics #where_clause {
            fn serialize_at<__S: #rt::serde::Serializer>(&self, _: #rt::Version, _: __S)
                -> ::core::result::Result<__S::Ok, __S::Error> { ::core::unreachable!() }
            fn deserialize_at(_: #rt::Version, _: #rt::serde_json::Value, _: &str,
                _: &mut ::std::vec::Vec<#rt::Violation>) -> ::core::option::Option<Self> { ::core::unreachable!() }
            fn json_schema_at(_: #rt::Version) -> #rt::serde_json::Value { ::core::unreachable!() }
            fn changes(_: &mut ::std::vec::Vec<#rt::Version>) {}
        }
        #compiled
    }
}

/// `if RANGE.contains(__version) { body }`, or `body` for a field of every version.
fn guarded(rt: &TokenStream, range: Option<VersionRange>, body: TokenStream) -> TokenStream {
    match range {
        Some(range) if range != VersionRange::ANY => {
            let range = range_tokens(rt, range);
            quote!(if #range.contains(__version) { #body })
        }
        _ => body,
    }
}

fn serialize_field(rt: &TokenStream, field: &Field) -> TokenStream {
    let (ident, key) = (&field.ident, &field.key);
    let plain = if field.nested {
        quote!(__map.serialize_entry(#key, &#rt::VersionedModel::at(&self.#ident, __version))?;)
    } else {
        quote!(__map.serialize_entry(#key, &self.#ident)?;)
    };
    let mut body = plain;
    for render in field.renders.iter().rev() {
        let range = range_tokens(rt, render.range.range().unwrap_or(VersionRange::ANY));
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
    if field.skip_none {
        body = quote!(if ::core::option::Option::is_some(&self.#ident) { #body });
    }
    guarded(rt, field.is_bounded().then(|| field.range()), body)
}

fn read_field(rt: &TokenStream, field: &Field) -> TokenStream {
    let (ty, key) = (&field.ty, &field.key);
    let local = format_ident!("__f_{}", field.ident);
    let range = range_tokens(rt, field.range());
    let (presence, absent) = match field.presence() {
        Presence::Required => (quote!(Required), quote!(::core::option::Option::None)),
        Presence::Optional => {
            (quote!(Optional), quote!(::core::option::Option::Some(::core::option::Option::None)))
        }
        Presence::Default => {
            (quote!(Default), quote!(::core::option::Option::Some(::core::default::Default::default())))
        }
    };
    let parse = if field.nested {
        quote_spanned!(ty.span()=> |__v, __p: &str, __e: &mut ::std::vec::Vec<#rt::Violation>| {
            <#ty as #rt::VersionedModel>::deserialize_at(__version, __v, __p, __e)
        })
    } else {
        quote_spanned!(ty.span()=> #rt::parse_plain::<#ty>)
    };
    quote! {
        let #local: ::core::option::Option<#ty> = #rt::read_field(
            &mut __object, #key, #range, #rt::Presence::#presence, __version, __path, __errors,
            #parse, || #absent,
        );
    }
}

fn schema_field(rt: &TokenStream, field: &Field) -> TokenStream {
    let (ty, key) = (&field.ty, &field.key);
    let schema = match (&field.schema, field.nested) {
        (Some(path), _) => quote_spanned!(path.span()=> #path()),
        (None, _) if field.json_schema => quote_spanned!(ty.span()=> #rt::json_schema_of::<#ty>()),
        (None, true) => {
            quote_spanned!(ty.span()=> <#ty as #rt::VersionedModel>::json_schema_at(__version))
        }
        (None, false) => quote_spanned!(ty.span()=> <#ty as #rt::DerivedSchema>::derived_schema()),
    };
    // Where another representation is written, its shape is the function's:
    // any JSON value, unless `schema = ...` says more.
    let mut schema = schema;
    if field.schema.is_none() && !field.json_schema {
        for render in &field.renders {
            let range = range_tokens(rt, render.range.range().unwrap_or(VersionRange::ANY));
            schema = quote!(if #range.contains(__version) { #rt::serde_json::json!({}) } else { #schema });
        }
    }
    // The field's doc comments describe it, unless its schema says more.
    if !field.doc.is_empty() {
        let doc = &field.doc;
        schema = quote! {{
            let mut __field = #schema;
            if let ::core::option::Option::Some(__object) = __field.as_object_mut() {
                __object.entry("description").or_insert_with(|| #doc.into());
            }
            __field
        }};
    }
    let required = (field.presence() == Presence::Required).then(|| quote!(__required.push(#key.into());));
    guarded(
        rt,
        field.is_bounded().then(|| field.range()),
        quote! {
            __properties.insert(#key.into(), #schema);
            #required
        },
    )
}

/// The versions where the model changes: each `since`, the version after
/// each `until`, and those of nested models.
fn changes(rt: &TokenStream, model: &Input) -> TokenStream {
    let mut cuts: Vec<Version> = Vec::new();
    for field in &model.fields {
        for range in field.range.iter().chain(field.renders.iter().map(|r| &r.range)) {
            let Some(range) = range.range() else { continue };
            cuts.extend(range.min());
            cuts.extend(range.max().and_then(Version::successor));
        }
    }
    cuts.sort();
    cuts.dedup();
    let cuts = cuts.into_iter().map(|v| version_tokens(rt, v));
    let nested = model.fields.iter().filter(|f| f.nested).map(|f| {
        let ty = &f.ty;
        quote!(<#ty as #rt::VersionedModel>::changes(__out);)
    });
    quote! {
        __out.extend_from_slice(&[#(#cuts),*]);
        #(#nested)*
    }
}

fn api_checks(model: &Input) -> TokenStream {
    let Some(api) = &model.api else { return TokenStream::new() };
    let rt = &runtime(&model.krate);
    let mut ranges = Vec::new();
    for field in &model.fields {
        if let Some(range) = &field.range {
            ranges.push((range, format!("a version of `{}`", field.ident)));
        }
        for render in &field.renders {
            ranges.push((&render.range, format!("a version of a representation of `{}`", field.ident)));
        }
    }
    let binding = api_binding(rt, api);
    let checks = declared_checks(rt, api, ranges);
    quote! {
        #[doc(hidden)]
        const _: () = {
            #binding
            #(#checks)*
        };
    }
}
