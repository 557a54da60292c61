//! The macros never panic, whatever the input: arbitrary attribute arguments
//! and arbitrary (parseable) impl blocks and structs, built from a small
//! alphabet of the pieces users write (valid and invalid version strings,
//! the keys the macros know, `=`, `,`, integers, paths, nested groups), go
//! through parse, validate and expand. The result is always a
//! `compile_error!` expansion or one that parses as a `syn::File`. A panic
//! (the error context's "dropped without `finish`" detector included) fails
//! the property with the input that caused it.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};

use proc_macro2::TokenStream;
use proptest::prelude::*;

/// Cases per property; each runs the whole macro once.
const CASES: u32 = 2_000;

/// Pieces of attribute arguments: literals, keys, punctuation, paths.
const PIECES: &[&str] = &[
    // Version strings, valid and not.
    r#""2.1""#,
    r#""2.5""#,
    r#""2.96""#,
    r#""2.0""#,
    r#""2.01""#,
    r#""1.65535""#,
    r#""2.65536""#,
    r#""latest""#,
    r#""""#,
    r#""x.y""#,
    r#""3""#,
    r#"" 2.1""#,
    // Paths as strings, routes.
    r#""/servers""#,
    r#""/{id}""#,
    r#""/{id}/{id}""#,
    r#""::microversion_actix""#,
    // Keys the macros know, and others.
    "missing",
    "model",
    "query",
    "crate",
    "api",
    "scope",
    "since",
    "until",
    "rename",
    "nested",
    "default",
    "schema",
    "render",
    "with",
    "full_schema_coverage",
    "allow_unknown",
    "COMPUTE",
    "dummy",
    "true",
    "false",
    "self",
    "_",
    // Punctuation.
    "=",
    "=",
    ",",
    ",",
    "::",
    "#",
    "-",
    ";",
    // Integers and floats.
    "0",
    "2",
    "65536",
    "2.1",
    "1e3",
    // Paths.
    "a::b",
    "::microversion_actix",
    "crate::schemas::s",
    "Vec<u8>",
    // Byte and char literals.
    "b\"2.1\"",
    "'x'",
];

/// Argument lists that the macros accept, so that generated inputs also
/// reach validation and expansion of well-formed declarations.
const CONTROLLER_ARGS: &[&str] = &[
    r#"api = COMPUTE"#,
    r#"api = COMPUTE, scope = "/servers""#,
    r#"api = COMPUTE, scope = "/servers", crate = ::microversion_actix"#,
    r#"api = crate::COMPUTE, full_schema_coverage"#,
];
/// `#[change(...)]` on a variant: well-formed, and each mistake the parser reads.
const CHANGE_ARGS: &[&str] = &[
    "Renamed, body, answer",
    "Renamed, answer, status = 200, doc = \"before\", errors(404)",
    "Renamed, nothing_named_so",
    "Renamed",
    "Renamed, answer, status = 99",
    "Renamed, errors(7), doc = 3",
    "a::b::C, body, body",
];
/// `#[version_change(...)]` on a struct.
const VERSION_CHANGE_ARGS: &[&str] = &[
    r#"api = API, "2.5""#,
    r#"api = API, "2.5", field(View::name, renamed_from = "title"), member(Kind::New, didnt_exist)"#,
    r#"api = API, "x.y""#,
    r#""2.5""#,
    r#"api = API"#,
    r#"api = API, "2.5", field(name, didnt_exist)"#,
    r#"api = API, "2.5", field(View::<u8>::name, had_type = 3), member(Kind::New), other(1)"#,
    r#"crate = ::microversion_axum, api = API, "2.5""#,
];
const ROUTE_ARGS: &[&str] = &[r#""/""#, r#""/{id}""#, r#""/detail""#];
const VERSION_ARGS: &[&str] = &[
    r#""2.1""#,
    r#""2.1", "2.4""#,
    r#""2.5""#,
    r#""2.5", "2.96""#,
    r#""2.3", "2.2""#,
    r#""2.1", missing = "2.3""#,
];
const SCHEMA_ARGS: &[&str] = &[
    r#"dummy"#,
    r#"dummy, "2.3""#,
    r#"dummy, "2.3", "2.8""#,
    r#"query = dummy"#,
    r#"model = Flavor, "2.1""#,
];
const MODEL_ARGS: &[&str] =
    &[r#"api = COMPUTE"#, r#"api = COMPUTE, allow_unknown"#, r#"crate = ::microversion_actix"#];
const FIELD_ARGS: &[&str] = &[
    r#"since = "2.55""#,
    r#"until = "2.74""#,
    r#"since = "2.3", until = "2.2""#,
    r#"since = "2.61", default"#,
    r#"rename = "OS-FLV-EXT-DATA:ephemeral""#,
    r#"render(until = "2.74", with = swap)"#,
    r#"render(since = "2.5", with = a::b), render(until = "2.9", with = c)"#,
    "nested",
    "schema = s",
];

/// Random tokens of the alphabet, with at most one level of nested groups.
fn random_tokens() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(PIECES).prop_map(str::to_owned);
    let group = (prop::sample::select(&["(", "[", "{"][..]), prop::collection::vec(piece.clone(), 0..6))
        .prop_map(|(open, inner)| {
            let close = match open {
                "(" => ")",
                "[" => "]",
                _ => "}",
            };
            format!("{open}{}{close}", inner.join(" "))
        });
    let named_group = (prop::sample::select(&["render", "query", "model", "with"][..]), group.clone())
        .prop_map(|(name, group)| format!("{name}{group}"));
    let token = prop_oneof![8 => piece, 1 => group, 1 => named_group];
    prop::collection::vec(token, 0..10).prop_map(|tokens| tokens.join(" "))
}

/// Arguments of one attribute: often a well-formed list, else random tokens.
fn args(valid: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(valid).prop_map(str::to_owned),
        1 => random_tokens(),
    ]
}

/// One attribute of a controller method (or of another impl item).
fn method_attr() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => (prop::sample::select(&["get", "post", "put", "patch", "delete", "head"][..]), args(ROUTE_ARGS))
            .prop_map(|(method, args)| format!("#[{method}({args})]")),
        1 => Just("#[get]".to_owned()),
        4 => args(VERSION_ARGS).prop_map(|args| format!("#[api_version({args})]")),
        1 => Just("#[api_version]".to_owned()),
        1 => Just(r#"#[api_version = "2.1"]"#.to_owned()),
        2 => args(SCHEMA_ARGS).prop_map(|args| format!("#[schema({args})]")),
        2 => args(CHANGE_ARGS).prop_map(|args| format!("#[change({args})]")),
        1 => Just("#[cfg(test)]".to_owned()),
        1 => Just(r#"#[doc = "A variant."]"#.to_owned()),
        1 => random_tokens().prop_map(|args| format!("#[controller({args})]")),
    ]
}

/// One impl item: mostly same-named methods, some other items.
fn impl_item() -> impl Strategy<Value = String> {
    let method = (
        prop::collection::vec(method_attr(), 0..5),
        any::<bool>(),
        prop::sample::select(&["list", "list", "show", "helper", "r#type"][..]),
        prop::sample::select(&["", "&self", "&self, ", "self, ", "&mut self, "][..]),
        prop::sample::select(&["", "id: Path<String>", "body: Json<Value>", "(a, b): (u8, u8)"][..]),
        prop::sample::select(
            &["", " -> Json<Value>", " -> impl Responder", " -> Result<String, ApiError>"][..],
        ),
    )
        .prop_map(|(attrs, is_async, name, receiver, param, ret)| {
            let asyncness = if is_async { "async " } else { "" };
            format!("{} {asyncness}fn {name}({receiver}{param}){ret} {{ todo!() }}", attrs.join(" "))
        });
    let other = (
        prop::collection::vec(method_attr(), 0..2),
        prop::sample::select(&["const X: u8 = 1;", "type T = u8;"][..]),
    )
        .prop_map(|(attrs, item)| format!("{} {item}", attrs.join(" ")));
    prop_oneof![6 => method, 1 => other]
}

/// A parseable impl block, the argument list of `#[controller(...)]` apart.
fn impl_block() -> impl Strategy<Value = String> {
    (
        prop::sample::select(
            &["impl Servers", "impl Servers", "impl<T> Servers<T>", "impl Handler for Servers"][..],
        ),
        prop::collection::vec(impl_item(), 0..7),
    )
        .prop_map(|(head, items)| format!("{head} {{ {} }}", items.join(" ")))
}

/// A parseable derive input: mostly named structs with versioned fields.
fn derive_input() -> impl Strategy<Value = String> {
    let field_attr = prop_oneof![
        4 => args(FIELD_ARGS).prop_map(|args| format!("#[versioned({args})]")),
        1 => Just("#[versioned]".to_owned()),
        1 => Just(r#"#[serde(rename = "x")]"#.to_owned()),
    ];
    let field = (
        prop::collection::vec(field_attr, 0..3),
        prop::sample::select(&["id", "name", "swap", "links", "id", "r#type"][..]),
        prop::sample::select(
            &["String", "u64", "Option<String>", "Vec<Link>", "BTreeMap<String, String>"][..],
        ),
    )
        .prop_map(|(attrs, name, ty)| format!("{} {name}: {ty},", attrs.join(" ")));
    let struct_attr = prop_oneof![
        3 => args(MODEL_ARGS).prop_map(|args| format!("#[versioned({args})]")),
        1 => Just(String::new()),
    ];
    (
        prop::collection::vec(struct_attr, 0..3),
        prop::sample::select(
            &["struct Flavor", "struct Flavor", "struct Flavor<T>", "enum Flavor", "union Flavor"][..],
        ),
        prop::collection::vec(field, 0..6),
        prop::sample::select(&[false, false, false, true][..]),
    )
        .prop_map(|(attrs, head, fields, tuple)| {
            let body = if tuple {
                "(String, u64);".to_owned()
            } else if head.starts_with("enum") {
                "{ A, B(u8) }".to_owned()
            } else {
                format!("{{ {} }}", fields.join(" "))
            };
            format!("{} {head} {body}", attrs.join(" "))
        })
}

/// What the outcomes were, to show that both kinds are reached.
static CONTROLLER_ERRORS: AtomicUsize = AtomicUsize::new(0);
static CONTROLLER_EXPANSIONS: AtomicUsize = AtomicUsize::new(0);
static DERIVE_ERRORS: AtomicUsize = AtomicUsize::new(0);
static DERIVE_EXPANSIONS: AtomicUsize = AtomicUsize::new(0);
static CHANGE_ERRORS: AtomicUsize = AtomicUsize::new(0);
static CHANGE_EXPANSIONS: AtomicUsize = AtomicUsize::new(0);

fn tokens(text: &str) -> TokenStream {
    text.parse().unwrap_or_else(|e| panic!("the generator wrote tokens that do not lex ({e}): {text}"))
}

/// Whether `output` reports errors through `compile_error!`.
fn has_compile_error(output: &TokenStream) -> bool {
    fn walk(stream: TokenStream) -> bool {
        stream.into_iter().any(|tree| match tree {
            proc_macro2::TokenTree::Ident(ident) => ident == "compile_error",
            proc_macro2::TokenTree::Group(group) => walk(group.stream()),
            _ => false,
        })
    }
    walk(output.clone())
}

/// Runs `macro_fn`, failing with `input` shown on a panic or on an output
/// that is neither a `compile_error!` expansion nor a Rust file; counts the
/// outcome in `errors` or `expansions`.
fn check(
    input: &str,
    errors: &AtomicUsize,
    expansions: &AtomicUsize,
    macro_fn: impl FnOnce() -> TokenStream,
) -> Result<(), TestCaseError> {
    let output = match catch_unwind(AssertUnwindSafe(macro_fn)) {
        Ok(output) => output,
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a non-string panic".to_owned());
            return Err(TestCaseError::fail(format!("the macro panicked ({message}) on:\n{input}")));
        }
    };
    let parses = syn::parse2::<syn::File>(output.clone()).is_ok();
    if has_compile_error(&output) {
        errors.fetch_add(1, Ordering::Relaxed);
        Ok(())
    } else if parses {
        expansions.fetch_add(1, Ordering::Relaxed);
        Ok(())
    } else {
        Err(TestCaseError::fail(format!(
            "the expansion is neither compile_error! nor a Rust file:\n{output}\non:\n{input}"
        )))
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: CASES, failure_persistence: None, ..ProptestConfig::default() })]

    /// `#[controller(args)] impl ...`: parse, validate and expand never panic.
    #[test]
    fn controller_never_panics(args in args(CONTROLLER_ARGS), item in impl_block()) {
        let input = format!("#[controller({args})]\n{item}");
        let (args, item) = (tokens(&args), tokens(&item));
        check(&input, &CONTROLLER_ERRORS, &CONTROLLER_EXPANSIONS, || crate::controller::expand(args, item, Some("actix")))?;
    }

    /// `#[version_change(args)] struct ...`: parse, check and expand never panic.
    #[test]
    fn version_change_never_panics(
        args in args(VERSION_CHANGE_ARGS),
        item in prop::sample::select(&["/// Renamed.\nstruct Renamed;", "struct G<T>(T);", "enum E {}", "fn f() {}"][..]),
    ) {
        let input = format!("#[version_change({args})]\n{item}");
        let (args, item) = (tokens(&args), tokens(item));
        check(&input, &CHANGE_ERRORS, &CHANGE_EXPANSIONS, || crate::change::expand(args, item, Some("actix")))?;
    }

    /// `#[derive(VersionedModel)]`: parse, validate and expand never panic.
    #[test]
    fn derive_never_panics(input in derive_input()) {
        let stream = tokens(&input);
        check(&input, &DERIVE_ERRORS, &DERIVE_EXPANSIONS, || crate::versioned_model::derive(stream, Some("actix")))?;
    }
}

/// The generators reach both outcomes: inputs the macros reject with
/// `compile_error!` and inputs they expand cleanly (so expansion itself is
/// exercised, not only the error paths). Runs its own small sample.
#[test]
fn generators_reach_errors_and_clean_expansions() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    let mut runner = TestRunner::deterministic();
    let (mut controller, mut derive) = ([0usize; 2], [0usize; 2]);
    for _ in 0..400 {
        let args = args(CONTROLLER_ARGS).new_tree(&mut runner).unwrap().current();
        let item = impl_block().new_tree(&mut runner).unwrap().current();
        let out = crate::controller::expand(tokens(&args), tokens(&item), Some("actix"));
        controller[usize::from(!has_compile_error(&out))] += 1;
        let input = derive_input().new_tree(&mut runner).unwrap().current();
        let out = crate::versioned_model::derive(tokens(&input), Some("actix"));
        derive[usize::from(!has_compile_error(&out))] += 1;
    }
    println!(
        "controller: {} rejected, {} expanded; derive: {} rejected, {} expanded",
        controller[0], controller[1], derive[0], derive[1]
    );
    assert!(controller.iter().all(|&n| n > 0), "controller outcomes (rejected, expanded): {controller:?}");
    assert!(derive.iter().all(|&n| n > 0), "derive outcomes (rejected, expanded): {derive:?}");
}

/// The property sees a panic, the error context's own detector included,
/// and names the input.
#[test]
fn a_panic_is_reported_with_its_input() {
    let (errors, expansions) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let dropped = check("the input", &errors, &expansions, || {
        let mut context = crate::shared::errors::Errors::default();
        context.at_span(proc_macro2::Span::call_site(), "lost");
        TokenStream::new()
    });
    let message = format!("{:?}", dropped.expect_err("a dropped context is a failure"));
    assert!(message.contains("without reporting it") && message.contains("the input"), "{message}");
    let garbage = check("the input", &errors, &expansions, || quote::quote!(fn {}));
    assert!(garbage.is_err(), "an expansion that is not Rust is a failure");
    assert!(check("x", &errors, &expansions, || quote::quote!(compile_error! { "e" })).is_ok());
    assert!(
        check("x", &errors, &expansions, || quote::quote!(
            struct S;
        ))
        .is_ok()
    );
}
