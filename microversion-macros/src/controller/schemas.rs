//! What a controller's variants declare, as generated code: the functions
//! that hold each variant's compiled request schemas, the documents of its
//! declared answers, and its deprecation, for the routes, introspection and
//! the OpenAPI documents.

use microversion_core::VersionRange;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::Ident;

use super::ast::{Controller, Operation, Schema, SchemaKind, Variant};
use super::dispatch::served;
use crate::shared::names::{self, SchemaTarget, last_segment_span, path_text};
use crate::shared::ranges::range_tokens;

/// The name a schema has in start-up errors and introspection.
pub(super) fn schema_name(schema: &Schema) -> String {
    format!("{}{}", schema.kind.prefix(), path_text(&schema.path))
}

/// A `ResponseDescription`: the status, and the body's document and name.
pub(super) fn response_description(
    rt: &TokenStream,
    status: u16,
    body: Option<(TokenStream, String)>,
) -> TokenStream {
    let (body, name) = match body {
        None => (quote!(::core::option::Option::None), quote!(::core::option::Option::None)),
        Some((document, name)) => {
            (quote!(::core::option::Option::Some(#document)), quote!(::core::option::Option::Some(#name)))
        }
    };
    quote!(#rt::ResponseDescription { status: #status, body: #body, body_name: #name })
}

/// A schema function, a versioned model's `json_schema_at` or a
/// `JsonSchema` type's document as a `SchemaDocument`, spanned at the path
/// so that a wrong one reads there.
pub(super) fn schema_document(rt: &TokenStream, path: &syn::Path, kind: SchemaKind) -> TokenStream {
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
pub(super) fn schema_function(rt: &TokenStream, path: &syn::Path, kind: SchemaKind) -> TokenStream {
    match kind {
        SchemaKind::JsonSchema => quote_spanned!(last_segment_span(path)=>
            #rt::json_schema_of::<#path> as fn() -> #rt::serde_json::Value),
        _ => quote_spanned!(last_segment_span(path)=> #path as fn() -> #rt::serde_json::Value),
    }
}

/// The function holding a variant's compiled schemas of `target`, if it has any.
pub(super) fn schema_fn(
    rt: &TokenStream,
    api: &syn::Path,
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
            let sources = schemas.flat_map(|s| {
                let name = schema_name(s);
                let range = range_tokens(rt, s.range_in(Some(served(variant))).unwrap_or(VersionRange::ANY));
                let schema = schema_function(rt, &s.path, s.kind);
                match (0..variant.changes.len())
                    .any(|j| super::route::band_schema(rt, variant, j, s).is_some())
                {
                    false => vec![quote!(#rt::SchemaSource { name: #name, range: #range, schema: #schema })],
                    // One source per band of the variant's version changes,
                    // each the schema of the type read in it.
                    true => (0..=variant.changes.len())
                        .map(|j| {
                            let (schema, name) = super::route::band_schema(rt, variant, j, s)
                                .unwrap_or_else(|| (schema.clone(), name.clone()));
                            let versions = variant.changes.iter().map(|change| {
                                let c = &change.ty;
                                quote!(<#c as #rt::VersionChange>::VERSION)
                            });
                            let band = quote!(#rt::change_band(&#api, #range, &[#(#versions),*], #j));
                            quote!(#rt::SchemaSource { name: #name, range: #band, schema: #schema })
                        })
                        .collect(),
                }
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
pub(super) fn schema_fns(c: &Controller) -> impl Iterator<Item = Ident> + '_ {
    c.operations.iter().flat_map(|op| {
        op.variants.iter().enumerate().flat_map(move |(i, v)| {
            [SchemaTarget::Body, SchemaTarget::Query]
                .into_iter()
                .filter(move |t| v.schemas_of(*t).next().is_some())
                .map(move |t| names::schemas(&op.name, i, t))
        })
    })
}

/// The `Deprecation` of a `#[deprecated_from]`: from its version to the
/// variant's last, with its dates and links, each spanned at its literal
/// (a `const` panic about one is reported there).
pub(super) fn deprecation_tokens(rt: &TokenStream, variant: &Variant) -> Option<TokenStream> {
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
