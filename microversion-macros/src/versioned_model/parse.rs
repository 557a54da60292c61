//! Reading a `#[derive(VersionedModel)]` input into the [`ast`](super::ast):
//! the attribute syntax and the version literals. The rules between fields
//! and versions are checked afterwards, in [`validate`](super::validate).

use darling::{FromDeriveInput, FromField, FromMeta};
use syn::LitStr;

use super::ast::{Field, Input, Render};
use crate::shared::errors::Errors;
use crate::shared::names::{NO_FACADE, facade_crates};
use crate::shared::ranges::{RangeLit, range_of};

#[derive(FromDeriveInput)]
#[darling(attributes(versioned), supports(struct_named))]
struct ModelArgs {
    ident: syn::Ident,
    generics: syn::Generics,
    data: darling::ast::Data<(), FieldArgs>,
    #[darling(default)]
    api: Option<syn::Path>,
    #[darling(default, rename = "crate")]
    krate: Option<syn::Path>,
    #[darling(default)]
    allow_unknown: bool,
}

#[derive(FromField)]
#[darling(attributes(versioned), forward_attrs(doc))]
struct FieldArgs {
    ident: Option<syn::Ident>,
    ty: syn::Type,
    attrs: Vec<syn::Attribute>,
    #[darling(default)]
    since: Option<LitStr>,
    #[darling(default)]
    until: Option<LitStr>,
    #[darling(default)]
    rename: Option<LitStr>,
    #[darling(default)]
    nested: bool,
    #[darling(default)]
    default: bool,
    #[darling(default)]
    schema: Option<syn::Path>,
    #[darling(default)]
    json_schema: bool,
    #[darling(default)]
    skip_none: bool,
    #[darling(multiple)]
    render: Vec<RenderArgs>,
}

#[derive(FromMeta)]
struct RenderArgs {
    #[darling(default)]
    since: Option<LitStr>,
    #[darling(default)]
    until: Option<LitStr>,
    with: syn::Path,
}

pub(super) fn input(
    input: &syn::DeriveInput,
    default_facade: Option<&str>,
    errors: &mut Errors,
) -> Option<Input> {
    let args = errors.handle(ModelArgs::from_derive_input(input).map_err(syn::Error::from))?;
    let fields = args.data.take_struct()?.fields;
    let fields = fields.into_iter().filter_map(|f| field(f, errors)).collect();
    Some(Input {
        ident: args.ident,
        generics: args.generics,
        krate: match (args.krate, default_facade) {
            (Some(krate), _) => krate,
            (None, Some(word)) => facade_crates(&[], Some(word)).ok()?.remove(0),
            (None, None) => {
                errors.at_span(proc_macro2::Span::call_site(), NO_FACADE);
                return None;
            }
        },
        api: args.api,
        allow_unknown: args.allow_unknown,
        fields,
    })
}

fn field(args: FieldArgs, errors: &mut Errors) -> Option<Field> {
    let ident = args.ident?;
    let range = version_range(args.since.as_ref(), args.until.as_ref(), errors);
    let renders = args
        .render
        .into_iter()
        .filter_map(|r| match version_range(r.since.as_ref(), r.until.as_ref(), errors) {
            Some(range) => Some(Render { range, with: r.with }),
            None => {
                errors.at(&r.with, "`render` needs `since`, `until` or both");
                None
            }
        })
        .collect();
    let key = args.rename.map_or_else(|| ident.to_string(), |r| r.value());
    Some(Field {
        ident,
        optional: is_option(&args.ty),
        ty: args.ty,
        key,
        range,
        default: args.default,
        nested: args.nested,
        schema: args.schema,
        json_schema: args.json_schema,
        skip_none: args.skip_none,
        renders,
        doc: crate::shared::docs::doc_text(&args.attrs),
    })
}

/// `since`/`until` literals into a range; `None` when neither is given.
fn version_range(since: Option<&LitStr>, until: Option<&LitStr>, errors: &mut Errors) -> Option<RangeLit> {
    if since.is_none() && until.is_none() {
        return None;
    }
    let tokens = quote::quote!(#since #until);
    Some(range_of(since, until, tokens, errors, |lo, hi| format!("`since` {lo} is after `until` {hi}")))
}

fn is_option(ty: &syn::Type) -> bool {
    matches!(ty, syn::Type::Path(p) if p.qself.is_none()
        && p.path.segments.last().is_some_and(|s| s.ident == "Option"))
}
