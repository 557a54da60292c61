//! What `#[derive(VersionedModel)]` reads from a struct: its fields and the
//! versions that have them.

use microversion_core::VersionRange;

use crate::shared::ranges::RangeLit;

/// A struct read from its derive input.
pub(crate) struct Input {
    pub(crate) ident: syn::Ident,
    /// Its parameters and bounds, carried into every impl.
    pub(crate) generics: syn::Generics,
    pub(crate) krate: syn::Path,
    pub(crate) api: Option<syn::Path>,
    pub(crate) allow_unknown: bool,
    pub(crate) fields: Vec<Field>,
}

impl Input {
    /// A lifetime parameter: the model borrows its data, so it is rendered
    /// and described, never read from a request (which it could not borrow from).
    pub(crate) fn borrows(&self) -> bool {
        self.generics.lifetimes().next().is_some()
    }

    /// A type or const parameter: each instance has its own schemas.
    pub(crate) fn is_generic_over_types(&self) -> bool {
        self.generics.type_params().next().is_some() || self.generics.const_params().next().is_some()
    }
}

/// How a request may leave a field out.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Presence {
    Required,
    Optional,
    Default,
}

/// A field and its versions.
pub(crate) struct Field {
    pub(crate) ident: syn::Ident,
    pub(crate) ty: syn::Type,
    /// The name on the wire.
    pub(crate) key: String,
    /// The versions that have the field; `None` for every version.
    pub(crate) range: Option<RangeLit>,
    /// Its type is an `Option`.
    pub(crate) optional: bool,
    /// `default`: absent means `Default::default()`.
    pub(crate) default: bool,
    /// A model type rendered and parsed at the version too.
    pub(crate) nested: bool,
    /// A function giving the field's JSON Schema, instead of the type's.
    pub(crate) schema: Option<syn::Path>,
    /// `json_schema`: the schema `schemars` derives for the field's type.
    pub(crate) json_schema: bool,
    /// `skip_none`: an `Option` field left out of responses when `None`.
    pub(crate) skip_none: bool,
    /// Other representations in some versions: `render(until = "2.74", with = f)`.
    pub(crate) renders: Vec<Render>,
    /// Its doc comments, the `description` of its schema (empty when none).
    pub(crate) doc: String,
}

impl Field {
    /// The versions that have the field (every version when unsound: its error is reported).
    pub(crate) fn range(&self) -> VersionRange {
        self.range.as_ref().and_then(RangeLit::range).unwrap_or(VersionRange::ANY)
    }

    /// Whether it has a version range of its own.
    pub(crate) fn is_bounded(&self) -> bool {
        self.range.is_some()
    }

    /// How a request may leave it out.
    pub(crate) fn presence(&self) -> Presence {
        match (self.optional, self.default) {
            (true, _) => Presence::Optional,
            (false, true) => Presence::Default,
            (false, false) => Presence::Required,
        }
    }
}

/// A representation used in a range of versions.
pub(crate) struct Render {
    pub(crate) range: RangeLit,
    pub(crate) with: syn::Path,
}
