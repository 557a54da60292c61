//! Parsing: syn tokens into the controller's [`ast`](super::ast). Every
//! problem is collected, none stops the parse, so the user sees all of them
//! in one compile.

use darling::FromMeta;
use darling::ast::NestedMeta;
use microversion_core::Version;
use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprLit, ImplItem, ImplItemFn, ItemImpl, Lit, LitStr, Token};

use super::ast::{
    ChangeUse, Controller, DeprecatedFrom, ErrorStatuses, Example, Operation, Response, Route, Schema,
    SchemaKind, Variant,
};
use crate::shared::errors::Errors;
use crate::shared::names::{SchemaTarget, facade_crates};
use crate::shared::ranges::{RangeLit, VersionLit, range_of};

/// `#[controller(api = COMPUTE, scope = "/flavors", crate = ::microversion_actix)]`;
/// bare words name the facades among several (`axum`, or `actix, axum` to
/// register with both), read before these.
#[derive(FromMeta)]
struct ControllerArgs {
    api: syn::Path,
    #[darling(default)]
    scope: Option<LitStr>,
    #[darling(default, rename = "crate")]
    krate: Option<syn::Path>,
    /// Every version of a schema-validated variant must have a schema.
    #[darling(default)]
    full_schema_coverage: bool,
    /// Generate the typed client (`FlavorsClient`).
    #[darling(default)]
    client: bool,
}

/// The flags of [`ControllerArgs`]: every other bare word names a facade.
const FLAGS: [&str; 2] = ["full_schema_coverage", "client"];

/// The bare words that name facades (`axum` in `#[controller(api = A,
/// axum)]`, `actix, axum` for both), taken out of `metas`; a word named
/// twice is an error.
fn facade_words(metas: &mut Vec<NestedMeta>, errors: &mut Errors) -> Vec<syn::Ident> {
    let mut words: Vec<syn::Ident> = Vec::new();
    metas.retain(|meta| {
        let NestedMeta::Meta(syn::Meta::Path(path)) = meta else { return true };
        let Some(ident) = path.get_ident().filter(|i| !FLAGS.contains(&i.to_string().as_str())) else {
            return true;
        };
        if words.contains(ident) {
            errors.at(ident, format!("the facade `{ident}` is named twice"));
        } else {
            words.push(ident.clone());
        }
        false
    });
    words
}

/// The HTTP method attributes a variant may carry.
const ROUTE_ATTRS: [&str; 6] = ["get", "post", "put", "patch", "delete", "head"];

/// Reads a controller impl. On errors still returns what it could read, so
/// that expansion can emit the items the user expects.
pub(crate) fn controller(
    args: TokenStream,
    item: ItemImpl,
    default_facade: Option<&str>,
    errors: &mut Errors,
) -> Controller {
    let mut words = Vec::new();
    let args = NestedMeta::parse_meta_list(args).map_err(darling::Error::from).and_then(|mut metas| {
        words = facade_words(&mut metas, errors);
        ControllerArgs::from_list(&metas)
    });
    let args = errors.handle(args);
    if !item.generics.params.is_empty() {
        errors.at(&item.generics, "a #[controller] impl cannot be generic");
    }
    if let Some((_, path, _)) = &item.trait_ {
        errors.at(path, "#[controller] goes on an inherent impl, not a trait impl");
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
                        op.variants.push(*variant);
                    }
                    None => operations.push(Operation { name, variants: vec![*variant], missing }),
                }
            }
            Method::Plain(plain) => passthrough.push(ImplItem::Fn(*plain)),
        }
    }

    let (api, scope, krate, full_schema_coverage, client) = match args {
        Some(a) => (a.api, a.scope, a.krate, a.full_schema_coverage, a.client),
        None => (syn::parse_quote!(__missing_api), None, None, false, false),
    };
    let facades = match krate {
        Some(krate) => {
            for word in &words {
                errors.at(word, "`crate = ...` names the facade: name it there or by words, not both");
            }
            vec![krate]
        }
        None => match facade_crates(&words, default_facade) {
            Ok(facades) => facades,
            Err(message) => {
                errors.at_span(Span::call_site(), message);
                vec![syn::parse_quote!(::microversion_core)]
            }
        },
    };
    Controller {
        self_ty: item.self_ty,
        api,
        scope,
        facades,
        passthrough,
        operations,
        full_schema_coverage,
        client,
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

fn reject_framework_attrs(attrs: &[Attribute], errors: &mut Errors) {
    for attr in attrs {
        if attr.path().is_ident("api_version") || attr.path().is_ident("schema") {
            errors.at(attr, "this attribute only applies to methods");
        }
    }
}

fn merge_missing(into: &mut Option<(u16, Span)>, new: Option<(u16, Span)>, errors: &mut Errors) {
    match (into.as_ref(), new) {
        (Some((a, _)), Some((b, span))) if *a != b => errors
            .at_span(span, format!("`missing` is {a} on another variant of this operation; use one status")),
        (None, Some(new)) => *into = Some(new),
        _ => {}
    }
}

/// A method of the impl, read.
enum Method {
    /// It carries framework attributes: a variant, and its `missing` status if set.
    Versioned(Box<Variant>, Option<(u16, Span)>),
    /// An ordinary method, passed through.
    Plain(Box<ImplItemFn>),
}

/// Splits a method's attributes into the framework's and the rest.
fn variant(mut method: ImplItemFn, errors: &mut Errors) -> Method {
    let mut range: Option<RangeLit> = None;
    let mut missing = None;
    let mut route: Option<Route> = None;
    let mut schemas = Vec::new();
    let mut response: Option<Response> = None;
    let mut declared: Option<ErrorStatuses> = None;
    let mut deprecation: Option<DeprecatedFrom> = None;
    let mut changes = Vec::new();
    let mut examples: Vec<Example> = Vec::new();
    let mut kept = Vec::new();
    for attr in std::mem::take(&mut method.attrs) {
        let path = attr.path();
        if path.is_ident("api_version") {
            if range.is_some() {
                errors.at(&attr, "duplicate #[api_version] on one method");
                continue;
            }
            let (parsed, status) = api_version_attr(&attr, errors);
            range = Some(parsed);
            missing = status;
        } else if path.is_ident("response") {
            if response.is_some() {
                errors.at(&attr, "duplicate #[response] on one method");
                continue;
            }
            response = response_attr(&attr, errors);
        } else if path.is_ident("errors") {
            if declared.is_some() {
                errors.at(&attr, "duplicate #[errors] on one method: list every status in one");
                continue;
            }
            declared = error_statuses_attr(&attr, errors);
        } else if path.is_ident("deprecated_from") {
            if deprecation.is_some() {
                errors.at(&attr, "duplicate #[deprecated_from] on one method");
                continue;
            }
            deprecation = deprecated_from_attr(&attr, errors);
        } else if path.is_ident("change") {
            if let Some(change) = change_attr(&attr, errors) {
                changes.push(change);
            }
        } else if path.is_ident("example") {
            if let Some(example) = example_attr(&attr, errors) {
                match examples.iter().find(|e| e.from == example.from) {
                    Some(_) => {
                        errors.at(&example.from_literal, "two #[example]s of one variant at one version")
                    }
                    None => examples.push(example),
                }
            }
        } else if path.is_ident("schema") {
            if let Some(schema) = schema_attr(&attr, errors) {
                schemas.push(schema);
            }
        } else if let Some(method_name) = ROUTE_ATTRS.iter().find(|m| path.is_ident(m)) {
            let parsed = attr.parse_args::<LitStr>();
            match (errors.handle(parsed), &route) {
                (Some(_), Some(_)) => errors.at(&attr, "a variant has exactly one route attribute"),
                (Some(path), None) => {
                    route = Some(Route {
                        method: method_name.to_uppercase(),
                        path,
                        tokens: attr.to_token_stream(),
                    })
                }
                (None, _) => {}
            }
        } else {
            kept.push(attr);
        }
    }
    let framework = range.is_some()
        || !schemas.is_empty()
        || route.is_some()
        || response.is_some()
        || declared.is_some()
        || deprecation.is_some()
        || !changes.is_empty()
        || !examples.is_empty();
    if framework {
        for attr in kept.iter().filter(|a| a.path().is_ident("cfg")) {
            errors.at(
                attr,
                "#[cfg] on a versioned method is not supported: the dispatch table must be the same in \
                 every build; put the #[cfg] inside the method body or on the whole impl",
            );
        }
        kept.retain(|a| !a.path().is_ident("cfg"));
    }
    method.attrs = kept;
    if !framework {
        return Method::Plain(Box::new(method));
    }
    Method::Versioned(
        Box::new(Variant {
            method,
            range,
            route,
            schemas,
            response,
            errors: declared,
            deprecation,
            changes,
            examples: sorted_examples(examples),
        }),
        missing,
    )
}

fn sorted_examples(mut examples: Vec<Example>) -> Vec<Example> {
    examples.sort_by_key(|e| e.from);
    examples
}

/// `#[example("2.55", path = "/flavors/1", request = "file", response = "file")]`.
fn example_attr(attr: &Attribute, errors: &mut Errors) -> Option<Example> {
    const FORM: &str = "#[example] needs the first version it shows and the request's path, e.g. \
                        #[example(\"2.55\", path = \"/flavors/1\", response = \"examples/flavor-show.json\")]";
    let args = errors.handle(attr.parse_args_with(Punctuated::<Expr, Token![,]>::parse_terminated))?;
    let mut args = args.into_iter();
    let Some(Expr::Lit(ExprLit { lit: Lit::Str(from_literal), .. })) = args.next() else {
        errors.at(attr, FORM);
        return None;
    };
    let from = match from_literal.value().parse::<Version>() {
        Ok(from) => from,
        Err(e) => {
            errors.at(&from_literal, format!("invalid version {:?}: {e}", from_literal.value()));
            return None;
        }
    };
    let (mut path, mut request, mut response) = (None, None, None);
    for arg in args {
        let Expr::Assign(assign) = &arg else {
            errors.at(&arg, "expected `path = \"...\"`, `request = \"file\"` or `response = \"file\"`");
            continue;
        };
        let slot = match () {
            _ if is_key(&assign.left, "path") => &mut path,
            _ if is_key(&assign.left, "request") => &mut request,
            _ if is_key(&assign.left, "response") => &mut response,
            _ => {
                errors.at(&assign.left, "an #[example] takes `path`, `request` and `response`");
                continue;
            }
        };
        match (&*assign.right, slot.is_some()) {
            (Expr::Lit(ExprLit { lit: Lit::Str(text), .. }), false) => *slot = Some(text.clone()),
            (_, true) => errors.at(&assign.left, "named twice in this #[example]"),
            (other, false) => errors.at(other, "expected a string"),
        }
    }
    let Some(path) = path else {
        errors.at(attr, FORM);
        return None;
    };
    if !path.value().starts_with('/') {
        errors.at(&path, "an example's path starts with `/`: the request's path and query, as sent");
    }
    let named = RangeLit {
        min: Some(VersionLit { version: from, lit: from_literal.clone() }),
        max: None,
        tokens: from_literal.to_token_stream(),
        sound: true,
    };
    Some(Example { from, from_literal, named, path, request, response })
}

/// `#[api_version("2.1")]`, `#[api_version("2.1", "2.4")]`, optionally `missing = 405`.
fn api_version_attr(attr: &Attribute, errors: &mut Errors) -> (RangeLit, Option<(u16, Span)>) {
    let mut versions = Vec::new();
    let mut missing = None;
    let args = attr.parse_args_with(Punctuated::<Expr, Token![,]>::parse_terminated);
    let Some(args) = errors.handle(args) else {
        let mut range = RangeLit::open(attr.to_token_stream());
        range.sound = false;
        return (range, None);
    };
    for arg in &args {
        match arg {
            Expr::Lit(ExprLit { lit: Lit::Str(lit), .. }) if missing.is_none() => versions.push(lit.clone()),
            Expr::Assign(assign) if is_key(&assign.left, "missing") => {
                if missing.is_some() {
                    errors.at(&assign.left, "Duplicate field `missing`");
                    continue;
                }
                missing = errors.handle(status_literal(&assign.right)).map(|s| (s, assign.right.span()));
            }
            Expr::Assign(assign) => errors.at(
                &assign.left,
                format!("Unknown field: `{}`. Available values: `missing`", expr_name(&assign.left)),
            ),
            other => errors
                .at(other, "expected version strings such as \"2.1\", then optionally `missing = STATUS`"),
        }
    }
    if versions.is_empty() {
        errors.at(attr, "#[api_version] needs a minimum version, e.g. #[api_version(\"2.1\")]");
    }
    if versions.len() > 2 {
        errors.at(&versions[2], "#[api_version] takes a minimum and an optional maximum version");
    }
    let mut range = range_literals(&versions, attr.to_token_stream(), errors);
    range.sound &= (1..=2).contains(&versions.len());
    (range, missing)
}

/// `#[deprecated_from("2.90", since = "2026-01-01")]`, optionally with
/// `sunset`, `link` and `sunset_link`: the version and the dates are read
/// here, each error at its literal (a link is checked by `Deprecation::link`
/// at compile time).
fn deprecated_from_attr(attr: &Attribute, errors: &mut Errors) -> Option<DeprecatedFrom> {
    const KEYS: &str = "`since`, `sunset`, `link`, `sunset_link`";
    let args = errors.handle(attr.parse_args_with(Punctuated::<Expr, Token![,]>::parse_terminated))?;
    let mut from = None;
    let (mut since, mut sunset, mut link, mut sunset_link) = (None, None, None, None);
    for arg in &args {
        match arg {
            Expr::Lit(ExprLit { lit: Lit::Str(lit), .. }) if from.is_none() => match lit.value().parse() {
                Ok(version) => from = Some(VersionLit { version, lit: lit.clone() }),
                Err(e) => errors.at(lit, format!("invalid version {:?}: {e}", lit.value())),
            },
            Expr::Assign(assign) => {
                let slot = match expr_name(&assign.left).as_str() {
                    "since" => &mut since,
                    "sunset" => &mut sunset,
                    "link" => &mut link,
                    "sunset_link" => &mut sunset_link,
                    other => {
                        errors
                            .at(&assign.left, format!("Unknown field: `{other}`. Available values: {KEYS}"));
                        continue;
                    }
                };
                match &*assign.right {
                    Expr::Lit(ExprLit { lit: Lit::Str(lit), .. }) if slot.is_none() => {
                        *slot = Some(lit.clone())
                    }
                    Expr::Lit(ExprLit { lit: Lit::Str(_), .. }) => {
                        errors.at(&assign.left, format!("Duplicate field `{}`", expr_name(&assign.left)))
                    }
                    other => errors.at(other, "expected a string literal"),
                }
            }
            other => errors.at(
                other,
                format!("expected the first deprecated version, such as \"2.90\", then {KEYS} = \"...\""),
            ),
        }
    }
    let Some(from) = from else {
        errors.at(attr, "#[deprecated_from] needs the first deprecated version, e.g. #[deprecated_from(\"2.90\", since = \"2026-01-01\")]");
        return None;
    };
    let Some(since) = since else {
        errors.at(attr, "#[deprecated_from] needs the date of the deprecation: since = \"YYYY-MM-DD\"");
        return None;
    };
    let date = |lit: &LitStr, errors: &mut Errors| match microversion_core::lifecycle::Timestamp::parse(
        &lit.value(),
    ) {
        Ok(at) => Some(at),
        Err(e) => {
            errors.at(lit, format!("invalid date {:?}: {}", lit.value(), e.message()));
            None
        }
    };
    let since_at = date(&since, errors);
    let sunset_at = sunset.as_ref().and_then(|lit| date(lit, errors));
    if let (Some(since_at), Some(sunset_at), Some(lit)) = (since_at, sunset_at, &sunset)
        && !since_at.le(sunset_at)
    {
        errors.at(lit, "the sunset must not come before the deprecation");
    }
    let named =
        RangeLit { min: Some(from.clone()), max: None, tokens: from.lit.to_token_stream(), sound: true };
    Some(DeprecatedFrom { from, named, since, sunset, link, sunset_link })
}

/// `#[change(ColorSpelling, body, answer)]`: the change's type, then the
/// arguments it upgrades by name, `answer` when it downgrades the answer,
/// and optionally `status = 200`, `doc = "..."` and `errors(404, 503)`: the
/// success status, the doc and the error statuses the operation had before
/// the change.
fn change_attr(attr: &Attribute, errors: &mut Errors) -> Option<ChangeUse> {
    let args = errors.handle(attr.parse_args_with(Punctuated::<Expr, Token![,]>::parse_terminated))?;
    let mut args = args.into_iter();
    let ty = match args.next() {
        Some(Expr::Path(p)) => p.path,
        _ => {
            errors.at(
                attr,
                "#[change] needs a version change and what it converts, e.g. #[change(ColorSpelling, body, answer)]",
            );
            return None;
        }
    };
    let (mut arguments, mut answer, mut status, mut doc, mut declared) =
        (Vec::new(), false, None, None, None);
    for arg in args {
        match &arg {
            Expr::Path(p) => match p.path.get_ident() {
                Some(word) if word == "answer" && !answer => answer = true,
                Some(word) if word == "answer" || arguments.contains(word) => {
                    errors.at(word, format!("`{word}` is named twice in this #[change]"))
                }
                Some(word) => arguments.push(word.clone()),
                None => errors.at(&arg, "expected the name of an argument the change upgrades, or `answer`"),
            },
            Expr::Assign(assign) if is_key(&assign.left, "status") && status.is_none() => match &*assign.right {
                Expr::Lit(ExprLit { lit: Lit::Int(int), .. })
                    if int.base10_parse::<u16>().is_ok_and(|s| (100..400).contains(&s)) =>
                {
                    status = Some(int.clone())
                }
                other => errors.at(other, "`status` is the success status before the change, e.g. `status = 200`"),
            },
            Expr::Assign(assign) if is_key(&assign.left, "doc") && doc.is_none() => match &*assign.right {
                Expr::Lit(ExprLit { lit: Lit::Str(text), .. }) => doc = Some(text.clone()),
                other => errors.at(other, "`doc` is what the operation said of itself before the change, a string"),
            },
            Expr::Call(call) if matches!(&*call.func, Expr::Path(p) if p.path.is_ident("errors")) && declared.is_none() => {
                let mut statuses = Vec::new();
                for status in &call.args {
                    match status {
                        Expr::Lit(ExprLit { lit: Lit::Int(int), .. })
                            if int.base10_parse::<u16>().is_ok_and(|s| (400..600).contains(&s)) =>
                        {
                            statuses.extend(int.base10_parse::<u16>().ok())
                        }
                        other => errors.at(other, "each status of `errors(...)` is an error status from 400 to 599"),
                    }
                }
                statuses.sort_unstable();
                statuses.dedup();
                declared = Some(statuses);
            }
            Expr::Assign(assign) => errors.at(
                &assign.left,
                format!(
                    "Unknown or duplicate field: `{}`. Available values: `status`, `doc`, `errors(...)`",
                    expr_name(&assign.left)
                ),
            ),
            other => errors.at(other, "expected the name of an argument the change upgrades, `answer`, `status = N` or `doc = \"...\"`"),
        }
    }
    if arguments.is_empty() && !answer {
        errors.at(
            attr,
            "#[change] names what the change converts: the arguments it upgrades (`body`) and `answer` \
             when it downgrades the answer",
        );
    }
    if let Some(status) = &status
        && !answer
    {
        errors.at(
            status,
            "`status` is the answer's before the change: the change downgrades the answer (`answer`)",
        );
    }
    Some(ChangeUse { ty, arguments, answer, status, doc, errors: declared })
}

/// `#[response(201)]`, `#[response(200, model = View)]` or `#[response(200, schema_fn)]`.
fn response_attr(attr: &Attribute, errors: &mut Errors) -> Option<Response> {
    let args = errors.handle(attr.parse_args_with(Punctuated::<Expr, Token![,]>::parse_terminated))?;
    let mut args = args.into_iter();
    let Some(first) = args.next() else {
        errors.at(
            attr,
            "#[response] needs a success status, e.g. #[response(201)] or #[response(200, model = View)]",
        );
        return None;
    };
    let status = match &first {
        Expr::Lit(ExprLit { lit: Lit::Int(int), .. }) => {
            int.base10_parse::<u16>().ok().filter(|s| (100..400).contains(s))
        }
        _ => None,
    };
    let Some(status) = status else {
        errors.at(&first, "the first argument of #[response] is a success status from 100 to 399, e.g. 201");
        return None;
    };
    let body = match args.next() {
        None => None,
        Some(Expr::Path(p)) => Some((p.path, SchemaKind::Function)),
        Some(Expr::Assign(assign)) if is_key(&assign.left, "json_schema") => match *assign.right {
            Expr::Path(p) => Some((p.path, SchemaKind::JsonSchema)),
            other => {
                errors.at(
                    &other,
                    "expected a `schemars::JsonSchema` type, e.g. #[response(200, json_schema = ServerView)]",
                );
                return None;
            }
        },
        Some(Expr::Assign(assign)) if is_key(&assign.left, "model") => match *assign.right {
            Expr::Path(p) => Some((p.path, SchemaKind::Model)),
            other => {
                errors.at(
                    &other,
                    "expected a `VersionedModel` type, e.g. #[response(200, model = FlavorView)]",
                );
                return None;
            }
        },
        Some(other) => {
            errors.at(&other, "expected the body: a schema function, `model = Type` or `json_schema = Type`");
            return None;
        }
    };
    if let Some(extra) = args.next() {
        errors.at(&extra, "#[response] takes a status and at most one body");
    }
    Some(Response { status, body, tokens: attr.to_token_stream() })
}

/// `#[errors(404, 409)]`: error statuses from 400 to 599, each once.
fn error_statuses_attr(attr: &Attribute, errors: &mut Errors) -> Option<ErrorStatuses> {
    let args = errors.handle(attr.parse_args_with(Punctuated::<Expr, Token![,]>::parse_terminated))?;
    if args.is_empty() {
        errors.at(attr, "#[errors] lists the error statuses the method answers, e.g. #[errors(404, 409)]");
        return None;
    }
    let mut statuses = Vec::new();
    for arg in &args {
        let status = match arg {
            Expr::Lit(ExprLit { lit: Lit::Int(int), .. }) => {
                int.base10_parse::<u16>().ok().filter(|s| (400..600).contains(s))
            }
            _ => None,
        };
        match status {
            None => errors.at(arg, "each argument of #[errors] is an error status from 400 to 599, e.g. 404"),
            Some(status) if statuses.contains(&status) => {
                errors.at(arg, format!("{status} is already listed in this #[errors]"));
            }
            Some(status) => statuses.push(status),
        }
    }
    statuses.sort_unstable();
    Some(ErrorStatuses { statuses, tokens: attr.to_token_stream() })
}

/// The keys of `#[schema(key = Path)]`: what the path is, and what to say
/// when it is not a path.
const SCHEMA_KEYS: [(&str, SchemaTarget, SchemaKind, &str); 4] = [
    (
        "model",
        SchemaTarget::Body,
        SchemaKind::Model,
        "expected a `VersionedModel` type, e.g. #[schema(model = FlavorCreate)]",
    ),
    (
        "json_schema",
        SchemaTarget::Body,
        SchemaKind::JsonSchema,
        "expected a `schemars::JsonSchema` type, e.g. #[schema(json_schema = CreateServer)]",
    ),
    (
        "query",
        SchemaTarget::Query,
        SchemaKind::Function,
        "expected the path of a query schema function, e.g. #[schema(query = list_query, \"2.1\")]",
    ),
    (
        "query_json_schema",
        SchemaTarget::Query,
        SchemaKind::JsonSchema,
        "expected a `schemars::JsonSchema` type, e.g. #[schema(query_json_schema = ListQuery)]",
    ),
];

/// `#[schema(path::to::schema, "2.3", "2.8")]`, `#[schema(query = path, ...)]`,
/// `#[schema(model = Type)]`, `#[schema(json_schema = Type)]` or
/// `#[schema(query_json_schema = Type)]`.
fn schema_attr(attr: &Attribute, errors: &mut Errors) -> Option<Schema> {
    let parsed = attr.parse_args_with(Punctuated::<Expr, Token![,]>::parse_terminated);
    let args = errors.handle(parsed)?;
    let mut args = args.into_iter();
    let (path, target, kind) = match args.next() {
        Some(Expr::Path(p)) => (p.path, SchemaTarget::Body, SchemaKind::Function),
        Some(Expr::Assign(assign)) => {
            let Some(&(_, target, kind, expected)) =
                SCHEMA_KEYS.iter().find(|(key, ..)| is_key(&assign.left, key))
            else {
                errors.at(
                    &assign.left,
                    format!(
                        "Unknown field: `{}`. Available values: `model`, `json_schema`, `query`, `query_json_schema`",
                        expr_name(&assign.left)
                    ),
                );
                return None;
            };
            match *assign.right {
                Expr::Path(p) => (p.path, target, kind),
                other => {
                    errors.at(&other, expected);
                    return None;
                }
            }
        }
        Some(other) => {
            errors.at(
                &other,
                "expected the path of a schema function, `query = function`, `model = Type`, \
                 `json_schema = Type` or `query_json_schema = Type`, first",
            );
            return None;
        }
        None => {
            errors.at(
                attr,
                "#[schema] needs a schema and a minimum version, e.g. #[schema(create_v2_1, \"2.1\")]",
            );
            return None;
        }
    };
    let mut versions = Vec::new();
    for arg in args {
        match arg {
            Expr::Lit(ExprLit { lit: Lit::Str(lit), .. }) => versions.push(lit),
            Expr::Assign(assign) => {
                errors.at(&assign.left, format!("Unknown field: `{}`", expr_name(&assign.left)))
            }
            other => errors.at(&other, "expected a version string such as \"2.1\""),
        }
    }
    if versions.is_empty() && kind == SchemaKind::Function {
        errors.at(attr, "#[schema] needs a minimum version after the schema");
    }
    if versions.len() > 2 {
        errors.at(&versions[2], "#[schema] takes a minimum and an optional maximum version");
    }
    let mut range = range_literals(&versions, attr.to_token_stream(), errors);
    range.sound &= versions.len() <= 2;
    Some(Schema { path, range, target, kind })
}

fn range_literals(lits: &[LitStr], tokens: TokenStream, errors: &mut Errors) -> RangeLit {
    range_of(lits.first(), lits.get(1), tokens, errors, |lo, hi| {
        format!("minimum version {lo} is above maximum version {hi}")
    })
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

fn status_literal(expr: &Expr) -> syn::Result<u16> {
    if let Expr::Lit(ExprLit { lit: Lit::Int(int), .. }) = expr
        && let Ok(status) = int.base10_parse::<u16>()
        && (400..600).contains(&status)
    {
        return Ok(status);
    }
    Err(syn::Error::new_spanned(
        expr,
        "`missing` is an HTTP error status from 400 to 599, e.g. `missing = 405`",
    ))
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
