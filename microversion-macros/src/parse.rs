//! Parsing: syn tokens into the model. Every problem is collected, none stops
//! the parse, so the user sees all of them in one compile.

use darling::FromMeta;
use darling::ast::NestedMeta;
use microversion_core::Version;
use proc_macro2::{Span, TokenStream};
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprLit, ImplItem, ImplItemFn, ItemImpl, Lit, LitStr, Token};

use crate::model::{Controller, Operation, RangeLit, Route, Schema, Variant, VersionLit};

/// `#[controller(api = COMPUTE, scope = "/flavors", crate = "::microversion_actix")]`
#[derive(FromMeta)]
struct ControllerArgs {
    api: syn::Path,
    #[darling(default)]
    scope: Option<LitStr>,
    #[darling(default, rename = "crate")]
    krate: Option<syn::Path>,
}

/// The HTTP method attributes a variant may carry.
const ROUTE_ATTRS: [&str; 6] = ["get", "post", "put", "patch", "delete", "head"];

/// Reads a controller impl. On errors still returns what it could read, so
/// that expansion can emit the items the user expects.
pub(crate) fn controller(
    args: TokenStream,
    item: ItemImpl,
    errors: &mut darling::error::Accumulator,
) -> Controller {
    let args = NestedMeta::parse_meta_list(args)
        .map_err(darling::Error::from)
        .and_then(|metas| ControllerArgs::from_list(&metas));
    let args = errors.handle(args);
    if !item.generics.params.is_empty() {
        errors
            .push(darling::Error::custom("a #[controller] impl cannot be generic").with_span(&item.generics));
    }
    if let Some((_, path, _)) = &item.trait_ {
        errors.push(
            darling::Error::custom("#[controller] goes on an inherent impl, not a trait impl")
                .with_span(path),
        );
    }

    let mut passthrough = Vec::new();
    let mut operations: Vec<Operation> = Vec::new();
    for impl_item in item.items {
        let ImplItem::Fn(method) = impl_item else {
            reject_framework_attrs(other_attrs(&impl_item), errors);
            passthrough.push(impl_item);
            continue;
        };
        match variant(method, errors) {
            Method::Versioned(variant, missing) => {
                let name = variant.method.sig.ident.clone();
                match operations.iter_mut().find(|op| op.name == name) {
                    Some(op) => {
                        merge_missing(&mut op.missing, missing, errors);
                        op.variants.push(variant);
                    }
                    None => operations.push(Operation { name, variants: vec![variant], missing }),
                }
            }
            Method::Plain(plain) => passthrough.push(ImplItem::Fn(plain)),
        }
    }

    let (api, scope, krate) = match args {
        Some(a) => (a.api, a.scope, a.krate),
        None => (syn::parse_quote!(__missing_api), None, None),
    };
    Controller {
        self_ty: item.self_ty,
        api,
        scope,
        krate: krate.unwrap_or_else(|| syn::parse_quote!(::microversion_actix)),
        passthrough,
        operations,
    }
}

fn other_attrs(item: &ImplItem) -> &[Attribute] {
    match item {
        ImplItem::Const(c) => &c.attrs,
        ImplItem::Type(t) => &t.attrs,
        ImplItem::Macro(m) => &m.attrs,
        _ => &[],
    }
}

fn reject_framework_attrs(attrs: &[Attribute], errors: &mut darling::error::Accumulator) {
    for attr in attrs {
        if attr.path().is_ident("api_version") || attr.path().is_ident("schema") {
            errors.push(darling::Error::custom("this attribute only applies to methods").with_span(attr));
        }
    }
}

fn merge_missing(
    into: &mut Option<(u16, Span)>,
    new: Option<(u16, Span)>,
    errors: &mut darling::error::Accumulator,
) {
    match (into.as_ref(), new) {
        (Some((a, _)), Some((b, span))) if *a != b => errors.push(
            darling::Error::custom(format!(
                "`missing` is {a} on another variant of this operation; use one status"
            ))
            .with_span(&span),
        ),
        (None, Some(new)) => *into = Some(new),
        _ => {}
    }
}

/// A method of the impl, read.
enum Method {
    /// It carries framework attributes: a variant, and its `missing` status if set.
    Versioned(Variant, Option<(u16, Span)>),
    /// An ordinary method, passed through.
    Plain(ImplItemFn),
}

/// Splits a method's attributes into the framework's and the rest.
fn variant(mut method: ImplItemFn, errors: &mut darling::error::Accumulator) -> Method {
    let mut range: Option<RangeLit> = None;
    let mut missing = None;
    let mut route: Option<Route> = None;
    let mut schemas = Vec::new();
    let mut kept = Vec::new();
    for attr in std::mem::take(&mut method.attrs) {
        let path = attr.path();
        if path.is_ident("api_version") {
            if range.is_some() {
                errors
                    .push(darling::Error::custom("duplicate #[api_version] on one method").with_span(&attr));
                continue;
            }
            let (parsed, status) = api_version_attr(&attr, errors);
            range = Some(parsed);
            missing = status;
        } else if path.is_ident("schema") {
            if let Some(schema) = schema_attr(&attr, errors) {
                schemas.push(schema);
            }
        } else if let Some(method_name) = ROUTE_ATTRS.iter().find(|m| path.is_ident(m)) {
            let parsed = attr.parse_args::<LitStr>().map_err(darling::Error::from);
            match (errors.handle(parsed), &route) {
                (Some(_), Some(_)) => errors.push(
                    darling::Error::custom("a variant has exactly one route attribute").with_span(&attr),
                ),
                (Some(path), None) => {
                    route = Some(Route { method: method_name.to_uppercase(), path, span: attr.span() })
                }
                (None, _) => {}
            }
        } else {
            kept.push(attr);
        }
    }
    let framework = range.is_some() || !schemas.is_empty() || route.is_some();
    if framework {
        for attr in kept.iter().filter(|a| a.path().is_ident("cfg")) {
            errors.push(cfg_error(attr));
        }
        kept.retain(|a| !a.path().is_ident("cfg"));
    }
    method.attrs = kept;
    if !framework {
        return Method::Plain(method);
    }
    Method::Versioned(Variant { method, range, route, schemas }, missing)
}

fn cfg_error(attr: &Attribute) -> darling::Error {
    darling::Error::custom(
        "#[cfg] on a versioned method is not supported: the dispatch table must be the same in every \
         build; put the #[cfg] inside the method body or on the whole impl",
    )
    .with_span(attr)
}

/// `#[api_version("2.1")]`, `#[api_version("2.1", "2.4")]`, optionally `missing = 405`.
fn api_version_attr(
    attr: &Attribute,
    errors: &mut darling::error::Accumulator,
) -> (RangeLit, Option<(u16, Span)>) {
    let mut versions = Vec::new();
    let mut missing = None;
    let args = attr.parse_args_with(Punctuated::<Expr, Token![,]>::parse_terminated);
    let Some(args) = errors.handle(args.map_err(darling::Error::from)) else {
        return (RangeLit { min: None, max: None, span: attr.span() }, None);
    };
    for arg in &args {
        match arg {
            Expr::Lit(ExprLit { lit: Lit::Str(lit), .. }) if missing.is_none() => versions.push(lit.clone()),
            Expr::Assign(assign) if is_key(&assign.left, "missing") => {
                if missing.is_some() {
                    errors.push(darling::Error::duplicate_field("missing").with_span(&assign.left));
                    continue;
                }
                missing = errors.handle(status_literal(&assign.right)).map(|s| (s, assign.right.span()));
            }
            Expr::Assign(assign) => errors.push(
                darling::Error::unknown_field_with_alts(&expr_name(&assign.left), &["missing"])
                    .with_span(&assign.left),
            ),
            other => errors.push(
                darling::Error::custom(
                    "expected version strings such as \"2.1\", then optionally `missing = STATUS`",
                )
                .with_span(other),
            ),
        }
    }
    if versions.is_empty() {
        errors.push(
            darling::Error::custom("#[api_version] needs a minimum version, e.g. #[api_version(\"2.1\")]")
                .with_span(attr),
        );
    }
    if versions.len() > 2 {
        errors.push(
            darling::Error::custom("#[api_version] takes a minimum and an optional maximum version")
                .with_span(&versions[2]),
        );
    }
    (range_literals(&versions, attr.span(), errors), missing)
}

/// `#[schema(path::to::schema, "2.3", "2.8")]`.
fn schema_attr(attr: &Attribute, errors: &mut darling::error::Accumulator) -> Option<Schema> {
    let parsed = attr.parse_args_with(Punctuated::<Expr, Token![,]>::parse_terminated);
    let args = errors.handle(parsed.map_err(darling::Error::from))?;
    let mut args = args.into_iter();
    let path = match args.next() {
        Some(Expr::Path(p)) => p.path,
        Some(other) => {
            errors.push(
                darling::Error::custom("expected the path of a schema function first").with_span(&other),
            );
            return None;
        }
        None => {
            errors.push(
                darling::Error::custom(
                    "#[schema] needs a schema and a minimum version, e.g. #[schema(create_v2_1, \"2.1\")]",
                )
                .with_span(attr),
            );
            return None;
        }
    };
    let mut versions = Vec::new();
    for arg in args {
        match arg {
            Expr::Lit(ExprLit { lit: Lit::Str(lit), .. }) => versions.push(lit),
            Expr::Assign(assign) => {
                errors.push(darling::Error::unknown_field(&expr_name(&assign.left)).with_span(&assign.left))
            }
            other => errors
                .push(darling::Error::custom("expected a version string such as \"2.1\"").with_span(&other)),
        }
    }
    if versions.is_empty() {
        errors.push(
            darling::Error::custom("#[schema] needs a minimum version after the schema").with_span(attr),
        );
    }
    if versions.len() > 2 {
        errors.push(
            darling::Error::custom("#[schema] takes a minimum and an optional maximum version")
                .with_span(&versions[2]),
        );
    }
    Some(Schema { path, range: range_literals(&versions, attr.span(), errors) })
}

fn range_literals(lits: &[LitStr], span: Span, errors: &mut darling::error::Accumulator) -> RangeLit {
    let version = |lit: Option<&LitStr>, errors: &mut darling::error::Accumulator| {
        let lit = lit?;
        match lit.value().parse::<Version>() {
            Ok(version) => Some(VersionLit { version, lit: lit.clone() }),
            Err(e) => {
                errors.push(
                    darling::Error::custom(format!("invalid version {:?}: {e}", lit.value())).with_span(lit),
                );
                None
            }
        }
    };
    let min = version(lits.first(), errors);
    let max = version(lits.get(1), errors);
    if let (Some(lo), Some(hi)) = (&min, &max)
        && hi.version < lo.version
    {
        errors.push(
            darling::Error::custom(format!(
                "minimum version {} is above maximum version {}",
                lo.version, hi.version
            ))
            .with_span(&hi.lit),
        );
        return RangeLit { min: None, max: None, span };
    }
    RangeLit { min, max, span }
}

fn is_key(expr: &Expr, key: &str) -> bool {
    matches!(expr, Expr::Path(p) if p.path.is_ident(key))
}

fn expr_name(expr: &Expr) -> String {
    match expr {
        Expr::Path(p) => p.path.get_ident().map(ToString::to_string).unwrap_or_else(|| "?".into()),
        _ => "?".into(),
    }
}

fn status_literal(expr: &Expr) -> darling::Result<u16> {
    if let Expr::Lit(ExprLit { lit: Lit::Int(int), .. }) = expr
        && let Ok(status) = int.base10_parse::<u16>()
        && (400..600).contains(&status)
    {
        return Ok(status);
    }
    Err(darling::Error::custom("`missing` is an HTTP error status from 400 to 599, e.g. `missing = 405`")
        .with_span(expr))
}

/// Parses standalone attribute arguments only to report them (used by the
/// `#[api_version]`/`#[schema]` entry points outside a controller).
pub(crate) fn outside_controller(name: &str, attr: TokenStream) -> syn::Error {
    let span = Punctuated::<Expr, Token![,]>::parse_terminated
        .parse2(attr)
        .ok()
        .and_then(|args| args.first().map(Spanned::span))
        .unwrap_or_else(Span::call_site);
    syn::Error::new(
        span,
        format!("#[{name}] is only valid on a method inside an impl marked #[controller(api = ...)]"),
    )
}
