//! The where-clauses of a generic model's impls: the struct's own, and for
//! each field whose type names a type parameter, the bounds of what the
//! expansion does with that field (as serde_derive infers them), so that a
//! `Page<T>` needs no bounds written by hand.

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;

use super::ast::{Field, Input, Presence};

/// The where-clause of the `VersionedModel` impl.
pub(super) fn model_where(rt: &TokenStream, model: &Input) -> Option<syn::WhereClause> {
    let params: Vec<&syn::Ident> = model.generics.type_params().map(|p| &p.ident).collect();
    let predicates = model
        .fields
        .iter()
        .filter(|f| !params.is_empty() && names_any(f.ty.to_token_stream(), &params))
        .flat_map(|f| field_bounds(rt, f, !model.borrows()));
    with_predicates(&model.generics, predicates)
}

/// The where-clause of the `VersionedStruct` impl: the model's, and
/// `'static` for a model over types, whose schemas are kept per type.
pub(super) fn struct_where(rt: &TokenStream, model: &Input) -> Option<syn::WhereClause> {
    let (_, ty_generics, _) = model.generics.split_for_impl();
    let ident = &model.ident;
    let mut clause = model_where(rt, model);
    if model.is_generic_over_types() {
        let predicate: syn::WherePredicate = syn::parse_quote!(#ident #ty_generics: 'static);
        clause.get_or_insert_with(empty_where).predicates.push(predicate);
    }
    clause
}

/// The bounds a field's type needs: to serialize it, parse it (`reads`)
/// and describe it.
fn field_bounds(rt: &TokenStream, field: &Field, reads: bool) -> Vec<syn::WherePredicate> {
    let ty = &field.ty;
    if field.nested {
        return vec![syn::parse_quote!(#ty: #rt::VersionedModel)];
    }
    let mut bounds: Vec<syn::WherePredicate> = vec![syn::parse_quote!(#ty: #rt::serde::Serialize)];
    if reads {
        bounds.push(syn::parse_quote!(#ty: #rt::serde::de::DeserializeOwned));
        if field.presence() == Presence::Default {
            bounds.push(syn::parse_quote!(#ty: ::core::default::Default));
        }
    }
    // `schema = f` needs nothing of the type; `json_schema`'s bound
    // (`schemars::JsonSchema`) is the struct's to write.
    if field.schema.is_none() && !field.json_schema {
        bounds.push(syn::parse_quote!(#ty: #rt::DerivedSchema));
    }
    bounds
}

fn with_predicates(
    generics: &syn::Generics,
    predicates: impl IntoIterator<Item = syn::WherePredicate>,
) -> Option<syn::WhereClause> {
    let mut clause = generics.where_clause.clone();
    for predicate in predicates {
        clause.get_or_insert_with(empty_where).predicates.push(predicate);
    }
    clause
}

fn empty_where() -> syn::WhereClause {
    syn::WhereClause { where_token: Default::default(), predicates: Default::default() }
}

/// Whether `tokens` name one of `params` anywhere, groups included.
fn names_any(tokens: TokenStream, params: &[&syn::Ident]) -> bool {
    tokens.into_iter().any(|token| match token {
        TokenTree::Ident(ident) => params.iter().any(|p| **p == ident),
        TokenTree::Group(group) => names_any(group.stream(), params),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::*;
    use crate::shared::errors::Errors;

    fn model(input: syn::DeriveInput) -> Input {
        let mut errors = Errors::default();
        let model = super::super::parse::input(&input, Some("actix"), &mut errors).expect("parses");
        errors.finish().expect("no errors");
        model
    }

    fn text(clause: Option<syn::WhereClause>) -> String {
        clause.map(|c| c.to_token_stream().to_string()).unwrap_or_default()
    }

    #[test]
    fn only_fields_naming_a_type_parameter_are_bounded() {
        let rt = quote!(rt);
        let page = model(syn::parse_quote! {
            struct Page<T: Clone> where T: Send {
                #[versioned(nested)]
                items: Vec<T>,
                next: Option<String>,
                #[versioned(since = "2.3", default)]
                marker: Option<T>,
            }
        });
        let clause = text(model_where(&rt, &page));
        assert!(clause.starts_with("where T : Send , Vec < T > : rt :: VersionedModel"), "{clause}");
        assert!(clause.contains("Option < T > : rt :: serde :: de :: DeserializeOwned"), "{clause}");
        assert!(!clause.contains("Option < String >"), "{clause}");
        assert!(text(struct_where(&rt, &page)).ends_with("Page < T > : 'static"));
    }

    #[test]
    fn a_model_that_borrows_needs_no_bound_for_reading() {
        let rt = quote!(rt);
        let summary = model(syn::parse_quote! {
            struct Summary<'a, T> { name: &'a str, #[versioned(schema = s)] value: &'a T }
        });
        assert_eq!(text(model_where(&rt, &summary)), "where & 'a T : rt :: serde :: Serialize");
        let plain = model(syn::parse_quote!(
            struct Plain<'a> {
                name: &'a str,
            }
        ));
        assert!(model_where(&rt, &plain).is_none());
    }
}
