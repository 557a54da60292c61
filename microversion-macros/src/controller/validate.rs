//! Validation: every rule that needs the whole controller (overlaps, agreement
//! between variants, schema ranges). Reports every violation it finds.

use quote::ToTokens;

use microversion_core::{Version, VersionRange};

use super::ast::{Controller, Operation, SchemaKind, Variant};
use crate::shared::errors::Errors;
use crate::shared::names::{SchemaTarget, path_text};

pub(crate) fn controller(controller: &Controller, errors: &mut Errors) {
    for op in &controller.operations {
        operation(op, errors);
        for variant in &op.variants {
            deprecation(op, variant, errors);
            query_reading(op, variant, errors);
            changes(op, variant, errors);
            examples(op, variant, errors);
        }
        if controller.full_schema_coverage {
            for variant in op.variants.iter().filter(|v| v.route.is_some()) {
                for target in [SchemaTarget::Body, SchemaTarget::Query] {
                    coverage(op, variant, target, errors);
                }
            }
        }
    }
}

/// A `#[deprecated_from]` names a version its variant serves, on a route:
/// a helper has no answer to carry the headers.
fn deprecation(op: &Operation, variant: &Variant, errors: &mut Errors) {
    let Some(deprecation) = &variant.deprecation else { return };
    let from = &deprecation.from;
    if !op.is_route() {
        errors.at(&from.lit, format!("`{}` is a helper: only a route's variant can be deprecated", op.name));
    } else if let Some(served) = variant.range()
        && !served.contains(from.version)
    {
        errors.at(
            &from.lit,
            format!(
                "`{}` is deprecated from {}, a version this variant does not serve ({served})",
                op.name, from.version
            ),
        );
    }
}

/// A `json_schema = T` written without versions on a variant whose changes
/// upgrade the argument of its reader (`Json`, `Query`) describes that
/// argument: its type reads `T`, so that each band before a change is
/// checked by the type it reads there. A schema of another type would be
/// the head's at every version and refuse the older ones' requests.
fn typed_schema_reads_argument(
    op: &Operation,
    variant: &Variant,
    argument: &syn::Ident,
    errors: &mut Errors,
) {
    let names = super::route::argument_names(&variant.method);
    let typed = super::route::typed_args(&variant.method);
    let Some(ty) = names.iter().zip(&typed).find(|(name, _)| *name == argument).map(|(_, arg)| &*arg.ty)
    else {
        return;
    };
    let reader = |ty: &syn::Type| match ty {
        syn::Type::Path(path) => path.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    };
    let unversioned = variant
        .schemas
        .iter()
        .filter(|s| s.kind == SchemaKind::JsonSchema && s.range.min.is_none() && s.range.max.is_none());
    for schema in unversioned {
        let reader_of_schema = super::route::schema_reader(schema);
        if reader(ty).as_deref() == Some(reader_of_schema) && !super::route::reads_schema_type(ty, schema) {
            errors.at(
                &schema.path,
                format!(
                    "`json_schema = {}` written without versions describes the argument `{argument}` of `{}`, \
                     which a version change upgrades: the argument reads `{}`, not `{reader_of_schema}<{}>`; \
                     name its type, or give the schema versions (`#[schema(json_schema = {}, \"min\", \"max\")]`)",
                    path_text(&schema.path),
                    op.name,
                    readable(ty),
                    path_text(&schema.path),
                    path_text(&schema.path),
                ),
            );
        }
    }
}

/// A variant's `#[example]`s: on a route, each at a version it serves.
fn examples(op: &Operation, variant: &Variant, errors: &mut Errors) {
    for example in &variant.examples {
        if !op.is_route() {
            errors.at(&example.from_literal, format!("`{}` is a helper: only a route has examples", op.name));
        } else if let Some(served) = variant.range()
            && !served.contains(example.from)
        {
            errors.at(
                &example.from_literal,
                format!(
                    "this example of `{}` shows {}, a version this variant does not serve ({served})",
                    op.name, example.from
                ),
            );
        }
    }
}

/// A variant's `#[change]`s: on a route, each change once, each naming
/// arguments the handler has by a plain name (the upgrade replaces it).
fn changes(op: &Operation, variant: &Variant, errors: &mut Errors) {
    let Some(first) = variant.changes.first() else { return };
    if !op.is_route() {
        errors.at(
            &first.ty,
            format!("`{}` is a helper: version changes convert a route's requests and answers", op.name),
        );
        return;
    }
    let names = super::route::argument_names(&variant.method);
    let plain: Vec<String> = names.iter().map(ToString::to_string).filter(|n| !n.starts_with("__")).collect();
    for (i, change) in variant.changes.iter().enumerate() {
        let text = path_text(&change.ty);
        if variant.changes[..i].iter().any(|earlier| path_text(&earlier.ty) == text) {
            errors.at(&change.ty, format!("`{text}` is listed twice on this variant of `{}`", op.name));
        }
        for argument in &change.arguments {
            if !plain.contains(&argument.to_string()) {
                let known = if plain.is_empty() {
                    "it has no argument bound to a plain name".to_owned()
                } else {
                    format!(
                        "its arguments are {}",
                        plain.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
                    )
                };
                errors
                    .at(argument, format!("`{}` has no argument `{argument}` to upgrade: {known}", op.name));
            }
        }
    }
    let mut upgraded: Vec<&syn::Ident> = Vec::new();
    for argument in variant.changes.iter().flat_map(|change| &change.arguments) {
        if plain.contains(&argument.to_string()) && !upgraded.contains(&argument) {
            upgraded.push(argument);
        }
    }
    for argument in upgraded {
        typed_schema_reads_argument(op, variant, argument, errors);
    }
}

/// A variant's query string is read one way at every version: by a
/// `query_json_schema` type's types or as Nova's lists of strings, since its
/// `Query<T>` reads what the schema validated.
fn query_reading(op: &Operation, variant: &Variant, errors: &mut Errors) {
    let mut schemas = variant.schemas_of(SchemaTarget::Query);
    let Some(first) = schemas.next() else { return };
    for other in schemas.filter(|s| s.kind != first.kind) {
        errors.at(
            &other.path,
            format!(
                "`{}` reads its query string by `query_json_schema` types and by `query` functions: \
                 a variant takes one kind (a type reads integers and lists, a function Nova's lists of strings)",
                op.name
            ),
        );
    }
}

/// `full_schema_coverage`: each version of a variant validated by some
/// schema of `target` must be validated by one.
fn coverage(op: &Operation, variant: &Variant, target: SchemaTarget, errors: &mut Errors) {
    if variant.schemas_of(target).next().is_none() {
        return;
    }
    let Some(gaps) = schema_gaps(variant, target) else { return };
    let what = match target {
        SchemaTarget::Body => "schema",
        SchemaTarget::Query => "query schema",
    };
    for gap in gaps {
        let versions = match (gap.min(), gap.max()) {
            (Some(lo), Some(hi)) if lo == hi => format!("version {lo}"),
            _ => format!("versions {gap}"),
        };
        errors.at(
            variant.range_tokens(),
            format!(
                "the controller asks for full schema coverage, but `{}` has no {what} for {versions}",
                op.name
            ),
        );
    }
}

/// The versions of `variant` that none of its schemas of `target` covers;
/// `None` when a range involved is unsound (its error is reported already).
/// A variant without `#[api_version]` is checked from its first schema on:
/// the API's minimum is not known here.
fn schema_gaps(variant: &Variant, target: SchemaTarget) -> Option<Vec<VersionRange>> {
    let served = variant.range()?;
    let mut ranges =
        variant.schemas_of(target).map(|s| s.range_in(Some(served))).collect::<Option<Vec<_>>>()?;
    ranges.sort_by_key(|r| r.min());
    let mut gaps = Vec::new();
    // The first version not yet known to be covered; `None` once covered to the end.
    let mut cursor = served.min().or_else(|| ranges.first().and_then(|r| r.min()));
    for range in &ranges {
        let Some(from) = cursor else { break };
        if let Some(start) = range.min()
            && from < start
        {
            gaps.extend(VersionRange::new(Some(from), start.predecessor()).ok());
        }
        cursor = range.max().and_then(Version::successor).map(|next| next.max(from));
    }
    if let Some(from) = cursor
        && served.max().is_none_or(|end| from <= end)
    {
        gaps.extend(VersionRange::new(Some(from), served.max()).ok());
    }
    Some(gaps)
}

fn operation(op: &Operation, errors: &mut Errors) {
    let first = &op.variants[0];
    for variant in &op.variants[1..] {
        agree_with_first(op, first, variant, errors);
    }
    for (i, a) in op.variants.iter().enumerate() {
        for b in &op.variants[i + 1..] {
            let (Some(ra), Some(rb)) = (a.range(), b.range()) else { continue };
            if let Some(common) = ra.intersection(rb) {
                let name = &op.name;
                errors.at(a.range_tokens(), format!(
                        "variants of `{name}` overlap at {common}: this one serves {ra}, a later one serves {rb}"
                    ));
                errors.at(b.range_tokens(), format!(
                        "variants of `{name}` overlap at {common}: this one serves {rb}, an earlier one serves {ra}"
                    ));
            }
        }
        schemas(op, a, errors);
    }
    if !op.is_route() {
        if let Some((_, span)) = op.missing {
            errors.at_span(
                span,
                "`missing` sets the status of a route; a versioned helper returns an error value instead",
            );
        }
        for variant in op.variants.iter().filter(|v| v.range.is_none()) {
            errors.at(&variant.method.sig.ident, "needs #[api_version]");
        }
    }
}

fn agree_with_first(op: &Operation, first: &Variant, other: &Variant, errors: &mut Errors) {
    let name = &op.name;
    match (&first.route, &other.route) {
        (Some(a), Some(b)) if a.method != b.method || a.path.value() != b.path.value() => errors.at(&b.tokens, format!(
                "variants of `{name}` must share one route: the first is {} {:?}, this one {} {:?}",
                a.method,
                a.path.value(),
                b.method,
                b.path.value()
            )),
        (Some(a), None) => errors.at(&other.method.sig.ident, format!(
                "variants of `{name}` must share one route: the first is {} {:?}, this one has no route attribute",
                a.method,
                a.path.value()
            )),
        (None, Some(b)) => errors.at(&b.tokens, format!(
                "variants of `{name}` must share one route: the first is a helper without route, this one is {} {:?}",
                b.method,
                b.path.value()
            )),
        (None, None) => helper_signatures_agree(name, &first.method, &other.method, errors),
        _ => {}
    }
}

/// One error where a helper variant's signature first departs from the
/// first variant's, at the part that differs: the return type, an
/// argument's type, or else (receiver, `async`, visibility, generics, the
/// number of arguments) the whole signature.
fn helper_signatures_agree(
    name: &syn::Ident,
    first: &syn::ImplItemFn,
    other: &syn::ImplItemFn,
    errors: &mut Errors,
) {
    let (a, b) = (signature(first), signature(other));
    if a == b {
        return;
    }
    let (first_args, other_args) = (argument_types(first), argument_types(other));
    let same_count = first_args.len() == other_args.len();
    let differing =
        first_args.iter().zip(&other_args).enumerate().find(|(_, (x, y))| readable(x) != readable(y));
    if let Some((n, (x, y))) = differing.filter(|_| same_count) {
        let (x, y) = (readable(x), readable(y));
        let message = format!(
            "variants of the helper `{name}` must take the same arguments: argument {} is `{x}` in the first, `{y}` here",
            n + 1
        );
        errors.at(other_args[n], message);
    } else if signature_without_output(first) == signature_without_output(other) {
        let (x, y) = (output(first), output(other));
        let message = format!(
            "variants of the helper `{name}` must return the same type: the first returns `{x}`, this one `{y}`"
        );
        match &other.sig.output {
            syn::ReturnType::Type(_, ty) => errors.at(ty, message),
            syn::ReturnType::Default => errors.at(&other.sig.ident, message),
        }
    } else {
        let message = format!(
            "variants of the helper `{name}` must have the same signature: the first is `{a}`, this one `{b}`"
        );
        errors.at(&other.sig, message);
    }
}

/// The types of a method's arguments, the receiver left out.
fn argument_types(method: &syn::ImplItemFn) -> Vec<&syn::Type> {
    method
        .sig
        .inputs
        .iter()
        .filter_map(|arg| match arg {
            syn::FnArg::Typed(t) => Some(&*t.ty),
            syn::FnArg::Receiver(_) => None,
        })
        .collect()
}

/// A method's return type as written, `()` when it has none.
fn output(method: &syn::ImplItemFn) -> String {
    match &method.sig.output {
        syn::ReturnType::Default => "()".to_owned(),
        syn::ReturnType::Type(_, ty) => readable(ty),
    }
}

/// The signature with parameter names left out, as compared between helper variants.
fn signature(method: &syn::ImplItemFn) -> String {
    let output = match &method.sig.output {
        syn::ReturnType::Default => String::new(),
        syn::ReturnType::Type(_, ty) => format!(" -> {}", readable(ty)),
    };
    format!("{}{output}", signature_without_output(method))
}

/// [`signature`] without the return type.
fn signature_without_output(method: &syn::ImplItemFn) -> String {
    let sig = &method.sig;
    let inputs: Vec<String> = sig
        .inputs
        .iter()
        .map(|arg| match arg {
            syn::FnArg::Receiver(r) => readable(r),
            syn::FnArg::Typed(t) => readable(&t.ty),
        })
        .collect();
    let asyncness = if sig.asyncness.is_some() { "async " } else { "" };
    let generics = readable(&sig.generics);
    format!("{}{asyncness}fn{generics}({})", vis_prefix(&method.vis), inputs.join(", "))
}

/// Tokens as a person writes them: `&self`, `Vec<u8>`, `std::io::Result<()>`
/// (a token stream prints `& self`, `Vec < u8 >`).
fn readable(tokens: &impl ToTokens) -> String {
    let text = tokens.to_token_stream().to_string();
    let mut out = String::with_capacity(text.len());
    for (i, part) in text.split(' ').enumerate() {
        let glue = i == 0
            || out.ends_with(['&', '<', '(', '[', ':', '\''])
            || matches!(part.chars().next(), Some('<' | '>' | ',' | ')' | ']' | ':'))
            || part == "::";
        if !glue {
            out.push(' ');
        }
        out.push_str(part);
    }
    out
}

fn vis_prefix(vis: &syn::Visibility) -> String {
    match vis {
        syn::Visibility::Inherited => String::new(),
        other => format!("{} ", other.to_token_stream()),
    }
}

fn schemas(op: &Operation, variant: &Variant, errors: &mut Errors) {
    if let (None, Some(response)) = (&variant.route, &variant.response) {
        errors.at(
            &response.tokens,
            "#[response] describes what a route answers, so it needs a route attribute",
        );
    }
    if let (None, Some(declared)) = (&variant.route, &variant.errors) {
        errors
            .at(&declared.tokens, "#[errors] describes what a route answers, so it needs a route attribute");
    }
    if variant.route.is_none() {
        for schema in &variant.schemas {
            errors.at(
                &schema.range.tokens,
                "#[schema] validates requests, so it needs a route attribute on the method",
            );
        }
        return;
    }
    if variant.schemas_of(SchemaTarget::Body).count() > 1 {
        for schema in variant.schemas.iter().filter(|s| s.kind == SchemaKind::Model) {
            errors.at(
                &schema.range.tokens,
                "a model schema validates the variant at every version by itself: \
                 it cannot share the variant with other #[schema]s",
            );
        }
    }
    let Some(served) = variant.range() else { return };
    let schemas: Vec<_> =
        variant.schemas.iter().filter_map(|s| s.range_in(Some(served)).map(|range| (s, range))).collect();
    for (i, (a, a_range)) in schemas.iter().enumerate() {
        if !served.covers(*a_range) {
            errors.at(
                &a.range.tokens,
                format!(
                    "this schema covers {a_range} but this variant of `{}` only serves {served}",
                    op.name
                ),
            );
        }
        for (b, b_range) in schemas[i + 1..].iter().filter(|(b, _)| b.target == a.target) {
            if let Some(common) = a_range.intersection(*b_range) {
                for ((this, this_range), (that, that_range)) in
                    [((a, a_range), (b, b_range)), ((b, b_range), (a, a_range))]
                {
                    errors.at(
                        &this.range.tokens,
                        format!(
                            "schemas of `{}` overlap at {common}: `{}` covers {this_range}, `{}` covers {that_range}",
                            op.name,
                            path_text(&this.path),
                            path_text(&that.path),
                        ),
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    fn errors_of(item: proc_macro2::TokenStream) -> Vec<String> {
        let mut errors = crate::shared::errors::Errors::default();
        let item = syn::parse2(item).unwrap();
        let controller = crate::controller::parse::controller(
            quote!(api = API, crate = ::facade),
            item,
            None,
            &mut errors,
        );
        super::controller(&controller, &mut errors);
        match errors.finish() {
            Ok(()) => vec![],
            Err(e) => e.into_iter().map(|e| e.to_string()).collect(),
        }
    }

    #[test]
    fn disjoint_variants_pass() {
        let errs = errors_of(quote! {
            impl C {
                #[get("/x")] #[api_version("2.1", "2.4")] async fn show(&self) -> u8 { 1 }
                #[get("/x")] #[api_version("2.5")] async fn show(&self, q: Query<Q>) -> u8 { 2 }
                #[api_version("2.1", "2.4")] fn helper(&self, a: u8) -> u8 { a }
                #[api_version("2.5")] fn helper(&self, b: u8) -> u8 { b }
                fn plain(&self) {}
            }
        });
        assert_eq!(errs, Vec::<String>::new());
    }

    #[test]
    fn overlaps_are_reported_on_both_variants_in_both_orders() {
        for (first, second) in
            [(quote!("2.2", "2.5"), quote!("2.5", "3.1")), (quote!("2.5", "3.1"), quote!("2.2", "2.5"))]
        {
            let errs = errors_of(quote! {
                impl C {
                    #[get("/")] #[api_version(#first)] fn list(&self) {}
                    #[get("/")] #[api_version(#second)] fn list(&self) {}
                }
            });
            assert_eq!(errs.len(), 2, "{errs:?}");
            assert!(errs.iter().all(|e| e.contains("overlap at 2.5 only")), "{errs:?}");
        }
    }

    #[test]
    fn open_ranges_overlap_whatever_the_order() {
        let errs = errors_of(quote! {
            impl C {
                #[api_version("2.10")] fn h(&self) {}
                #[api_version("2.3")] fn h(&self) {}
                #[api_version("2.1", "2.2")] fn h(&self) {}
            }
        });
        assert_eq!(errs.len(), 2, "{errs:?}");
        assert!(errs[0].contains("overlap at 2.10 and later"), "{errs:?}");
    }

    #[test]
    fn helper_disagreements_name_the_part_that_differs() {
        let errs = errors_of(quote! {
            impl C {
                #[api_version("2.1", "2.4")] fn a(&self, id: u32) -> String { todo!() }
                #[api_version("2.5")] fn a(&self, id: u32) -> Vec<u8> { todo!() }
                #[api_version("2.1", "2.4")] fn b(&self) -> &'static str { "" }
                #[api_version("2.5")] async fn b(&self) -> &'static str { "" }
            }
        });
        assert_eq!(errs.len(), 2, "{errs:?}");
        assert!(
            errs[0].contains("must return the same type: the first returns `String`, this one `Vec<u8>`"),
            "{errs:?}"
        );
        assert!(
            errs[1].contains(
                "the first is `fn(&self) -> &'static str`, this one `async fn(&self) -> &'static str`"
            ),
            "{errs:?}"
        );
    }

    #[test]
    fn disagreements_and_schema_rules() {
        let errs = errors_of(quote! {
            impl C {
                #[get("/a")] #[api_version("2.1", "2.4")] fn r(&self) {}
                #[post("/a")] #[api_version("2.5")] fn r(&self) {}
                #[api_version("2.1", "2.4")] fn h(&self, a: u8) {}
                #[api_version("2.5")] fn h(&self, a: u16) {}
                #[put("/u")] #[api_version("2.1", "2.8")]
                #[schema(a, "2.3", "2.8")] #[schema(b, "2.8")]
                fn u(&self) {}
            }
        });
        let joined = errs.join("\n");
        assert!(
            joined.contains("must share one route: the first is GET \"/a\", this one POST \"/a\""),
            "{joined}"
        );
        assert!(joined.contains("same arguments: argument 1 is `u8` in the first, `u16` here"), "{joined}");
        assert!(
            joined
                .contains("this schema covers 2.8 and later but this variant of `u` only serves 2.1 to 2.8"),
            "{joined}"
        );
        assert_eq!(joined.matches("schemas of `u` overlap at 2.8 only").count(), 2, "{joined}");
    }

    #[test]
    fn query_and_body_schemas_overlap_only_among_themselves() {
        let errs = errors_of(quote! {
            impl C {
                #[get("/a")] #[api_version("2.1")]
                #[schema(body_a, "2.1")] #[schema(query = query_a, "2.1", "2.4")] #[schema(query = query_b, "2.4")]
                fn list(&self) {}
                #[api_version("2.1")] #[schema(query = q, "2.1")] fn helper(&self) {}
                #[get("/b")] #[schema(colour = c, "2.1")] fn other(&self) {}
            }
        });
        let joined = errs.join("\n");
        assert_eq!(joined.matches("schemas of `list` overlap at 2.4 only").count(), 2, "{joined}");
        assert!(!joined.contains("`body_a`"), "{joined}");
        assert!(joined.contains("#[schema] validates requests, so it needs a route attribute"), "{joined}");
        assert!(
            joined.contains("Unknown field: `colour`. Available values: `model`, `json_schema`, `query`"),
            "{joined}"
        );
        assert_eq!(errs.len(), 4, "{joined}");
    }

    #[test]
    fn an_unsound_range_takes_part_in_no_other_check() {
        let errs = errors_of(quote! {
            impl C {
                #[get("/")] #[api_version("3.6", "3.3")] fn list(&self) {}
                #[get("/")] #[api_version("3.O")] fn list(&self) {}
                #[get("/")] #[api_version("2.1")] fn list(&self) {}
            }
        });
        assert_eq!(errs.len(), 2, "{errs:?}");
        assert!(
            errs[0].contains("invalid version \"3.O\"") || errs[1].contains("invalid version \"3.O\""),
            "{errs:?}"
        );
        assert!(
            errs.iter().any(|e| e.contains("minimum version 3.6 is above maximum version 3.3")),
            "{errs:?}"
        );
    }

    #[test]
    fn full_schema_coverage_reports_each_gap() {
        let mut errors = crate::shared::errors::Errors::default();
        let item = syn::parse2(quote! {
            impl C {
                #[put("/a")] #[api_version("2.1")]
                #[schema(a, "2.3", "2.8")] #[schema(b, "2.10", "2.12")]
                fn update(&self) {}
                #[put("/b")] #[api_version("2.1", "2.9")]
                #[schema(a, "2.1", "2.4")] #[schema(b, "2.5", "2.9")]
                fn covered(&self) {}
            }
        })
        .unwrap();
        let controller = crate::controller::parse::controller(
            quote!(api = API, full_schema_coverage, crate = ::facade),
            item,
            None,
            &mut errors,
        );
        super::controller(&controller, &mut errors);
        let messages: Vec<String> = errors.finish().unwrap_err().into_iter().map(|e| e.to_string()).collect();
        let gaps: Vec<&str> = messages.iter().filter_map(|m| m.split("has no schema for ").nth(1)).collect();
        assert_eq!(gaps, ["versions 2.1 to 2.2", "version 2.9", "versions 2.13 and later"]);
    }

    #[test]
    fn literal_and_argument_errors_are_all_reported() {
        let errs = errors_of(quote! {
            impl C {
                #[api_version("2.01")] fn a(&self) {}
                #[api_version("2.5", "2.4")] fn b(&self) {}
                #[api_version("2.1", missing = 405, missing = 404)] #[get("/")] fn c(&self) {}
                #[api_version("2.1", colour = 1)] #[get("/d")] fn d(&self) {}
                #[cfg(test)] #[api_version("2.1")] fn e(&self) {}
            }
        });
        let joined = errs.join("\n");
        assert!(joined.contains("invalid version \"2.01\""), "{joined}");
        assert!(joined.contains("minimum version 2.5 is above maximum version 2.4"), "{joined}");
        assert!(joined.contains("Duplicate field `missing`"), "{joined}");
        assert!(joined.contains("Unknown field: `colour`"), "{joined}");
        assert!(joined.contains("#[cfg] on a versioned method is not supported"), "{joined}");
        assert_eq!(errs.len(), 5, "{joined}");
    }
}
