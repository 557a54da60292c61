//! Reading a `#[derive(VersionedModel)]` input into the model, reporting
//! every problem at its tokens.

use darling::{FromDeriveInput, FromField, FromMeta};
use syn::LitStr;

use super::{Field, Model, Presence, Render};
use crate::errors::Errors;
use crate::model::RangeLit;
use crate::parse::range_of;

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
#[darling(attributes(versioned))]
struct FieldArgs {
    ident: Option<syn::Ident>,
    ty: syn::Type,
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

pub(super) fn model(input: &syn::DeriveInput, errors: &mut Errors) -> Option<Model> {
    let args = errors.handle(ModelArgs::from_derive_input(input).map_err(syn::Error::from))?;
    if !args.generics.params.is_empty() {
        errors.at(&args.generics, "a versioned model cannot be generic");
    }
    let fields = args.data.take_struct()?.fields;
    let fields = fields.into_iter().filter_map(|f| field(f, errors)).collect();
    Some(Model {
        ident: args.ident,
        krate: args.krate.unwrap_or_else(|| syn::parse_quote!(::microversion_actix)),
        api: args.api,
        allow_unknown: args.allow_unknown,
        fields,
    })
}

fn field(args: FieldArgs, errors: &mut Errors) -> Option<Field> {
    let ident = args.ident?;
    let range = version_range(args.since.as_ref(), args.until.as_ref(), errors);
    let is_option = is_option(&args.ty);
    let presence = match (is_option, args.default) {
        (true, true) => {
            errors.at(&ident, "an `Option` field is already optional: `default` is not needed");
            Presence::Optional
        }
        (true, false) => Presence::Optional,
        (false, true) => Presence::Default,
        (false, false) => Presence::Required,
    };
    if let Some(range) = &range
        && presence == Presence::Required
    {
        errors.at(
            &range.tokens,
            format!(
                "`{ident}` exists only in versions {}, so it needs a value at other versions: \
                 make it an `Option` or add `default`",
                range.range()
            ),
        );
    }
    if args.nested && args.schema.is_some() {
        errors.at(&ident, "a `nested` model describes its own schema: `schema` is not allowed with it");
    }
    let renders: Vec<Render> = args
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
    let served = range.as_ref().map_or(microversion_core::VersionRange::ANY, RangeLit::range);
    for (i, render) in renders.iter().enumerate() {
        if !served.covers(render.range.range()) {
            errors.at(
                &render.range.tokens,
                format!(
                    "this representation covers versions {} but `{ident}` exists only in versions {served}",
                    render.range.range()
                ),
            );
        }
        for other in &renders[i + 1..] {
            if let Some(common) = render.range.range().intersection(other.range.range()) {
                errors
                    .at(&other.range.tokens, format!("two representations of `{ident}` overlap at {common}"));
            }
        }
    }
    let key = args.rename.map_or_else(|| ident.to_string(), |r| r.value());
    Some(Field {
        ident,
        ty: args.ty,
        key,
        range,
        presence,
        nested: args.nested,
        schema: args.schema,
        renders,
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
