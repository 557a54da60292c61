//! What `#[controller]` reads from an impl block: operations and their
//! variants, each keeping the tokens it came from for spans.

use microversion_core::{Version, VersionRange};
use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::{Ident, ImplItem, ImplItemFn, LitStr, Path, Type};

use crate::shared::names::SchemaTarget;
use crate::shared::ranges::{RangeLit, VersionLit};

/// A `#[controller]` impl block.
pub(crate) struct Controller {
    /// The controller type (`Flavors`).
    pub(crate) self_ty: Box<Type>,
    /// Path to the `const` API declaration the ranges are checked against.
    pub(crate) api: Path,
    /// Optional path scope all routes live under.
    pub(crate) scope: Option<LitStr>,
    /// The facade crates the routes are registered with: every facade the
    /// calling crate depends on, unless one is named; never empty.
    pub(crate) facades: Vec<Path>,
    /// Items passed through untouched (unversioned methods, consts, types).
    pub(crate) passthrough: Vec<ImplItem>,
    /// The versioned operations, in order of first declaration.
    pub(crate) operations: Vec<Operation>,
    /// `full_schema_coverage`: no version of a schema-validated variant
    /// goes unvalidated.
    pub(crate) full_schema_coverage: bool,
    /// `client`: generate the typed client.
    pub(crate) client: bool,
}

impl Controller {
    /// The first facade: the crate path of what is the same through every
    /// facade (variants, schemas, the route table).
    pub(crate) fn krate(&self) -> &Path {
        &self.facades[0]
    }
}

/// Same-named methods: one route, or one versioned helper.
pub(crate) struct Operation {
    pub(crate) name: Ident,
    pub(crate) variants: Vec<Variant>,
    /// Status when no variant serves the version (404 unless configured).
    pub(crate) missing: Option<(u16, Span)>,
}

impl Operation {
    /// Whether it is a route (its first variant has a route attribute).
    pub(crate) fn is_route(&self) -> bool {
        self.variants[0].route.is_some()
    }
}

/// `#[get("/path")]` and friends.
#[derive(Clone)]
pub(crate) struct Route {
    /// Upper-case HTTP method name.
    pub(crate) method: String,
    pub(crate) path: LitStr,
    /// The attribute's tokens, for errors.
    pub(crate) tokens: TokenStream,
}

/// `#[schema(NAME, "min", "max")]`, `#[schema(query = NAME, ...)]` or
/// `#[schema(model = Type)]`.
pub(crate) struct Schema {
    /// A schema function, or the type of a model or of a `JsonSchema`.
    pub(crate) path: Path,
    pub(crate) range: RangeLit,
    /// The body or the query string.
    pub(crate) target: SchemaTarget,
    /// Where the document comes from.
    pub(crate) kind: SchemaKind,
}

/// Where a schema document comes from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum SchemaKind {
    /// `#[schema(create_v2_1, ...)]`: a function returning it.
    Function,
    /// `#[schema(model = Type)]`: a `VersionedModel`'s, derived at each version.
    Model,
    /// `#[schema(json_schema = Type)]`: a `schemars::JsonSchema` type's.
    JsonSchema,
}

impl SchemaKind {
    /// The word before the type in names and messages (`model Flavor`).
    pub(crate) fn prefix(self) -> &'static str {
        match self {
            SchemaKind::Function => "",
            SchemaKind::Model => "model ",
            SchemaKind::JsonSchema => "json_schema ",
        }
    }
}

impl Schema {
    /// The versions it validates: its own, or all of the variant's for a
    /// model schema written without versions; `None` if either is unsound.
    pub(crate) fn range_in(&self, variant: Option<VersionRange>) -> Option<VersionRange> {
        if self.kind != SchemaKind::Function && self.range.min.is_none() && self.range.max.is_none() {
            variant
        } else {
            self.range.range()
        }
    }
}

/// `#[response(201, model = View)]`: the success status and body a variant
/// declares, for the API's description.
pub(crate) struct Response {
    pub(crate) status: u16,
    /// A schema function, or the type of a model or of a `JsonSchema`.
    pub(crate) body: Option<(Path, SchemaKind)>,
    /// The attribute's tokens, for errors.
    pub(crate) tokens: TokenStream,
}

/// `#[errors(404, 409)]`: the error statuses a variant's own code answers,
/// for the API's description (the framework adds those it answers itself).
pub(crate) struct ErrorStatuses {
    /// Ascending, each once.
    pub(crate) statuses: Vec<u16>,
    /// The attribute's tokens, for errors.
    pub(crate) tokens: TokenStream,
}

/// `#[deprecated_from("2.90", since = "2026-01-01", sunset = "2027-01-01",
/// link = "https://...", sunset_link = "https://...")]`: the variant
/// deprecated from a version to its last (docs/reference.md §13.7).
pub(crate) struct DeprecatedFrom {
    /// The first deprecated version, as a range from it (for the check
    /// that the history declares it).
    pub(crate) from: VersionLit,
    pub(crate) named: RangeLit,
    /// The date of the deprecation, then of the sunset, if any.
    pub(crate) since: LitStr,
    pub(crate) sunset: Option<LitStr>,
    /// Where the deprecation, then the sunset, are explained.
    pub(crate) link: Option<LitStr>,
    pub(crate) sunset_link: Option<LitStr>,
}

/// `#[change(ColorSpelling, body, answer)]`: a version change the variant
/// goes through, the arguments it upgrades and whether it downgrades the
/// answer (docs/reference.md §4.10).
pub(crate) struct ChangeUse {
    /// The change's type.
    pub(crate) ty: Path,
    /// The arguments it upgrades, by the handler's names for them.
    pub(crate) arguments: Vec<Ident>,
    /// Whether it downgrades the answer.
    pub(crate) answer: bool,
    /// `status = 200`: the success status the operation answered before
    /// the change (its downgrade's), for the description and the check of
    /// the answer.
    pub(crate) status: Option<syn::LitInt>,
    /// `doc = "..."`: what the operation said of itself before the change.
    pub(crate) doc: Option<LitStr>,
    /// `errors(404, 503)`: the error statuses it declared before the change.
    pub(crate) errors: Option<Vec<u16>>,
}

impl ChangeUse {
    /// Whether it upgrades the argument named `name`.
    pub(crate) fn upgrades(&self, name: &Ident) -> bool {
        self.arguments.iter().any(|argument| argument == name)
    }
}

/// `#[example("2.55", path = "/flavors/1", request = "file", response =
/// "file")]`: a real request and its answer from a version on, each body a
/// JSON file under the crate's root (docs/reference.md §14.10).
pub(crate) struct Example {
    /// The first version it shows.
    pub(crate) from: Version,
    /// The version's literal, for errors and spans.
    pub(crate) from_literal: LitStr,
    /// The version as a range of one literal, checked against the API's
    /// history with the variant's other versions.
    pub(crate) named: RangeLit,
    /// The request's path and query, as sent.
    pub(crate) path: LitStr,
    /// The request body's file.
    pub(crate) request: Option<LitStr>,
    /// The answer body's file.
    pub(crate) response: Option<LitStr>,
}

/// One method of an operation.
pub(crate) struct Variant {
    /// The method with the framework's attributes removed.
    pub(crate) method: ImplItemFn,
    /// Its versions; `None` when it has a route but no `#[api_version]`
    /// (an unversioned route serving every version).
    pub(crate) range: Option<RangeLit>,
    pub(crate) route: Option<Route>,
    pub(crate) schemas: Vec<Schema>,
    pub(crate) response: Option<Response>,
    pub(crate) errors: Option<ErrorStatuses>,
    pub(crate) deprecation: Option<DeprecatedFrom>,
    /// The version changes it goes through, oldest first.
    pub(crate) changes: Vec<ChangeUse>,
    /// Its examples, oldest first.
    pub(crate) examples: Vec<Example>,
}

impl Variant {
    /// The versions it serves; `None` when its range was unsound (already reported).
    pub(crate) fn range(&self) -> Option<VersionRange> {
        self.range.as_ref().map_or(Some(VersionRange::ANY), RangeLit::range)
    }

    /// What to point an error about this variant's versions at.
    pub(crate) fn range_tokens(&self) -> TokenStream {
        self.range.as_ref().map_or_else(|| self.method.sig.ident.to_token_stream(), |r| r.tokens.clone())
    }

    /// Its schemas of one target.
    pub(crate) fn schemas_of(&self, target: SchemaTarget) -> impl Iterator<Item = &Schema> {
        self.schemas.iter().filter(move |s| s.target == target)
    }
}
