//! `#[version_change(api = API, "1.4", ...)]`: a type made a change of an
//! API at one version of its history (docs/reference.md §4.10). Its version
//! must be declared by the API, and every field and member it declares
//! must exist: each is a compile error at its literal otherwise.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::punctuated::Punctuated;
use syn::{Expr, ExprLit, Lit, LitStr, Token};

use crate::shared::api::{api_binding, declared_checks};
use crate::shared::docs::doc_text;
use crate::shared::errors::Errors;
use crate::shared::names::{NO_FACADE, facade_crates, path_text, runtime};
use crate::shared::ranges::{RangeLit, VersionLit, version_tokens};

/// What a change declares, as written (a generic type with its arguments,
/// `KeypairView::<Nothing>::key_type`, so that the field can be looked up).
enum Declaration {
    /// `field(Type::field, ...)`.
    Field { ty: syn::Path, field: syn::Ident, kind: FieldChange },
    /// `member(Enum::Member, didnt_exist)`.
    Member { ty: syn::Path, member: syn::Ident },
}

enum FieldChange {
    Added,
    Renamed(LitStr),
    Retyped(LitStr),
}

const FIELD_FORMS: &str = "`field(Type::field, didnt_exist)`, `field(Type::field, renamed_from = \"old\")` or \
                           `field(Type::field, had_type = \"string\")`";

/// The expansion of `#[version_change(args)] item`, served by
/// `default_facade` unless `crate = ...` names one.
pub(crate) fn expand(args: TokenStream, item: TokenStream, default_facade: Option<&str>) -> TokenStream {
    let item: syn::ItemStruct = match syn::parse2(item) {
        Ok(item) => item,
        Err(e) => {
            return syn::Error::new(e.span(), "#[version_change] goes on a struct: the change's own type")
                .to_compile_error();
        }
    };
    let mut errors = Errors::default();
    if !item.generics.params.is_empty() {
        errors.at(&item.generics, "a version change is a plain type, without generics");
    }
    let parsed = syn::parse::Parser::parse2(Punctuated::<Expr, Token![,]>::parse_terminated, args);
    let args = errors.handle(parsed).unwrap_or_default();
    let (mut api, mut krate, mut version, mut declared) = (None, None, None::<VersionLit>, Vec::new());
    for arg in &args {
        match ungroup(arg) {
            Expr::Lit(ExprLit { lit: Lit::Str(lit), .. }) if version.is_none() => match lit.value().parse() {
                Ok(parsed) => version = Some(VersionLit { version: parsed, lit: lit.clone() }),
                Err(e) => errors.at(lit, format!("invalid version {:?}: {e}", lit.value())),
            },
            Expr::Assign(assign) => match (&*assign.left, &*assign.right) {
                (Expr::Path(key), Expr::Path(value)) if key.path.is_ident("api") => {
                    api = Some(value.path.clone())
                }
                (Expr::Path(key), Expr::Path(value))
                    if key.path.segments.len() == 1 && key.path.segments[0].ident == "crate" =>
                {
                    krate = Some(value.path.clone())
                }
                _ => errors.at(&assign.left, "expected `api = API` or `crate = path::to::facade`"),
            },
            Expr::Call(call) => {
                if let Some(declaration) = declaration(call, &mut errors) {
                    declared.push(declaration);
                }
            }
            other => errors.at(
                other,
                format!(
                    "expected `api = API`, the change's version (\"1.4\"), {FIELD_FORMS} or \
                     `member(Enum::Member, didnt_exist)`"
                ),
            ),
        }
    }
    let Some(api) = api else {
        errors.at_span(Span::call_site(), "#[version_change] needs the API it changes: `api = API`");
        return finish(errors, item, TokenStream::new());
    };
    let Some(version) = version else {
        errors.at_span(
            Span::call_site(),
            "#[version_change] needs the version that made the change, e.g. #[version_change(api = API, \"1.4\")]",
        );
        return finish(errors, item, TokenStream::new());
    };
    let krate = match krate {
        Some(krate) => krate,
        None => match facade_crates(&[], default_facade) {
            Ok(mut facades) => facades.remove(0),
            Err(_) => {
                errors.at_span(Span::call_site(), NO_FACADE);
                return finish(errors, item, TokenStream::new());
            }
        },
    };
    let rt = runtime(&krate);
    let name = &item.ident;
    let binding = api_binding(&rt, &api);
    let named = RangeLit {
        min: Some(version.clone()),
        max: None,
        tokens: version.lit.to_token_stream(),
        sound: true,
    };
    let checks = declared_checks(&rt, &api, [(&named, format!("the version change `{name}`"))]);
    let at = version_tokens(&rt, version.version);
    let description = doc_text(&item.attrs);
    let declares = declared.iter().map(|d| declared_tokens(&rt, d));
    let exists = declared.iter().map(existence_check);
    let expansion = quote! {
        #[automatically_derived]
        impl #rt::VersionChange for #name {
            const VERSION: #rt::Version = #at;
            const DESCRIPTION: &'static str = #description;
            const DECLARES: &'static [#rt::Declared] = &[#(#declares),*];
        }
        const _: () = {
            #binding
            #(#checks)*
        };
        #(
            #[allow(dead_code, clippy::all)]
            const _: () = { #exists };
        )*
    };
    finish(errors, item, expansion)
}

/// `expr` without the invisible group a `macro_rules!` fragment
/// (`$version:literal`) arrives in.
fn ungroup(expr: &Expr) -> &Expr {
    match expr {
        Expr::Group(group) => ungroup(&group.expr),
        other => other,
    }
}

fn finish(errors: Errors, item: syn::ItemStruct, expansion: TokenStream) -> TokenStream {
    match errors.finish() {
        Ok(()) => quote!(#item #expansion),
        Err(e) => {
            let e = e.to_compile_error();
            quote!(#e #item)
        }
    }
}

/// `field(Type::field, ...)` or `member(Enum::Member, didnt_exist)`.
fn declaration(call: &syn::ExprCall, errors: &mut Errors) -> Option<Declaration> {
    let kind = match &*call.func {
        Expr::Path(p) if p.path.is_ident("field") => "field",
        Expr::Path(p) if p.path.is_ident("member") => "member",
        other => {
            errors.at(other, format!("expected {FIELD_FORMS} or `member(Enum::Member, didnt_exist)`"));
            return None;
        }
    };
    let mut args = call.args.iter();
    let Some(Expr::Path(target)) =
        args.next().filter(|a| matches!(a, Expr::Path(p) if p.path.segments.len() > 1))
    else {
        errors.at(call, format!("`{kind}(...)` names its {kind} first, after its type: `Type::{kind}`"));
        return None;
    };
    let mut ty = target.path.clone();
    let last = ty.segments.pop()?.into_value().ident;
    ty.segments.pop_punct();
    let what = args.next();
    if let Some(extra) = args.next() {
        errors.at(extra, format!("`{kind}(...)` takes its {kind} and one change"));
    }
    let didnt_exist =
        |expr: Option<&Expr>| matches!(expr, Some(Expr::Path(p)) if p.path.is_ident("didnt_exist"));
    if kind == "member" {
        if !didnt_exist(what) {
            errors.at(call, "a member is declared new: `member(Enum::Member, didnt_exist)`");
            return None;
        }
        return Some(Declaration::Member { ty, member: last });
    }
    let change = match what {
        Some(expr) if didnt_exist(Some(expr)) => FieldChange::Added,
        Some(Expr::Assign(assign)) => match (&*assign.left, &*assign.right) {
            (Expr::Path(key), Expr::Lit(ExprLit { lit: Lit::Str(lit), .. }))
                if key.path.is_ident("renamed_from") =>
            {
                FieldChange::Renamed(lit.clone())
            }
            (Expr::Path(key), Expr::Lit(ExprLit { lit: Lit::Str(lit), .. }))
                if key.path.is_ident("had_type") =>
            {
                FieldChange::Retyped(lit.clone())
            }
            _ => {
                errors.at(assign, format!("expected {FIELD_FORMS}"));
                return None;
            }
        },
        _ => {
            errors.at(call, format!("expected {FIELD_FORMS}"));
            return None;
        }
    };
    Some(Declaration::Field { ty, field: last, kind: change })
}

/// A type's name as the reference shows it: its path without generic
/// arguments (`KeypairView` for `KeypairView::<Nothing>`).
fn type_name(ty: &syn::Path) -> String {
    let mut bare = ty.clone();
    for segment in &mut bare.segments {
        segment.arguments = syn::PathArguments::None;
    }
    path_text(&bare)
}

fn declared_tokens(rt: &TokenStream, declaration: &Declaration) -> TokenStream {
    match declaration {
        Declaration::Field { ty, field, kind } => {
            let (ty, field) = (type_name(ty), field.to_string());
            match kind {
                FieldChange::Added => quote!(#rt::Declared::FieldAdded { ty: #ty, field: #field }),
                FieldChange::Renamed(from) => {
                    quote!(#rt::Declared::FieldRenamed { ty: #ty, field: #field, from: #from })
                }
                FieldChange::Retyped(was) => {
                    quote!(#rt::Declared::FieldRetyped { ty: #ty, field: #field, was: #was })
                }
            }
        }
        Declaration::Member { ty, member } => {
            let (ty, member) = (type_name(ty), member.to_string());
            quote!(#rt::Declared::MemberAdded { ty: #ty, member: #member })
        }
    }
}

/// A function that compiles only if the declared field or member exists:
/// rustc's own error (`no field `colour` on type `Widget``) at its name.
fn existence_check(declaration: &Declaration) -> TokenStream {
    match declaration {
        Declaration::Field { ty, field, .. } => {
            quote_spanned!(field.span()=> fn __mv_declared(__value: &#ty) { let _ = &__value.#field; })
        }
        Declaration::Member { ty, member } => quote_spanned! {member.span()=>
            fn __mv_declared(__value: ::core::option::Option<&#ty>) {
                if let ::core::option::Option::Some(#ty::#member { .. }) = __value {}
            }
        },
    }
}
