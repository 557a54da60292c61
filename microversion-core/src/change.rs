//! Version changes (docs/reference.md §4.10, guide chapter 22): an
//! operation written once, at the head of its history, serves the versions
//! before each change through that change's typed upgrade of the request
//! and downgrade of the answer, as Stripe and Cadwyn do.
//!
//! A change is a type of its own, declared at one version of the API's
//! history with `#[version_change]` (which checks that the history declares
//! the version, and that every field and member it names exists):
//!
//! ```ignore
//! /// Widgets' `colour` is spelled `color`.
//! #[version_change(api = SHOP, "1.4", field(Widget::color, renamed_from = "colour"))]
//! struct ColorSpelling;
//! ```
//!
//! It converts what it changed, by type: [`Upgrade`] a request argument
//! from the type it had before the change to the type it has from it,
//! [`Downgrade`] an answer the other way. A controller variant lists the
//! changes it goes through, oldest first, and which of its arguments and
//! whether its answer each converts:
//! `#[change(ColorSpelling, body, answer)]`. A request at a version before
//! a change is read as the type before it, upgraded change by change to
//! the head's types, handled once, and its answer downgraded back, newest
//! change first. Everything is typed: a chain whose types do not meet does
//! not compile.

use crate::{Api, Version, VersionRange};

/// A change of an API at one version of its history. Implemented by
/// `#[version_change]`.
pub trait VersionChange: 'static {
    /// The version that made the change: the first one that has it.
    const VERSION: Version;
    /// What the change did, from its doc comment: shown in its version's
    /// entry of the reference's changes page.
    const DESCRIPTION: &'static str;
    /// What it declares changed: fields, members.
    const DECLARES: &'static [Declared] = &[];
}

/// Converts a request argument from the type it had before the change
/// (`Before`) to the type `After` it has from the change on.
#[cfg(feature = "portable")]
#[cfg_attr(docsrs, doc(cfg(feature = "portable")))]
#[diagnostic::on_unimplemented(
    message = "the version change `{Self}` does not upgrade an argument to `{After}`",
    label = "named in `#[change]` for an argument of type `{After}` from this change on",
    note = "implement `Upgrade<{After}>` for `{Self}`: its `Before` is the argument's type before the change"
)]
pub trait Upgrade<After>: VersionChange {
    /// The argument's type at the versions before the change.
    type Before;

    /// The argument as the change's version reads it; an error is the
    /// request's answer (in the API's format, at its version).
    fn upgrade(before: Self::Before) -> Result<After, crate::portable::ApiError>;
}

/// Converts an answer from the type `After` it has from the change on to
/// the type it had before it (`Before`): body, status, headers and errors,
/// as the answer's type carries them ([`Answer`](crate::portable::Answer),
/// `Result<_, ApiError>`).
#[cfg(feature = "portable")]
#[cfg_attr(docsrs, doc(cfg(feature = "portable")))]
#[diagnostic::on_unimplemented(
    message = "the version change `{Self}` does not downgrade an answer of type `{After}`",
    label = "named in `#[change(..., answer)]` for an answer of type `{After}` from this change on",
    note = "implement `Downgrade<{After}>` for `{Self}`: its `Before` is the answer's type before the change"
)]
pub trait Downgrade<After>: VersionChange {
    /// The answer's type at the versions before the change.
    type Before;

    /// The answer as the versions before the change wrote it.
    fn downgrade(after: After) -> Self::Before;
}

/// A list of version changes, newest first (`(Newest, (Older, ()))`), that
/// upgrade an argument from the type it had before the oldest (`Oldest`)
/// to `After`, the type it has from the newest: each change's `Before` is
/// the `After` of the one before it, or the list does not compile.
#[cfg(feature = "portable")]
#[cfg_attr(docsrs, doc(cfg(feature = "portable")))]
pub trait Upgrades<After> {
    /// The argument's type before the oldest change.
    type Oldest;

    /// The argument upgraded through every change, oldest first.
    fn upgrade(oldest: Self::Oldest) -> Result<After, crate::portable::ApiError>;
}

#[cfg(feature = "portable")]
impl<After> Upgrades<After> for () {
    type Oldest = After;

    fn upgrade(oldest: After) -> Result<After, crate::portable::ApiError> {
        Ok(oldest)
    }
}

#[cfg(feature = "portable")]
impl<C: Upgrade<After>, Older: Upgrades<C::Before>, After> Upgrades<After> for (C, Older) {
    type Oldest = Older::Oldest;

    fn upgrade(oldest: Older::Oldest) -> Result<After, crate::portable::ApiError> {
        C::upgrade(Older::upgrade(oldest)?)
    }
}

/// A list of version changes, newest first (`(Newest, (Older, ()))`), that
/// downgrade an answer from `After`, its type from the newest, to the
/// type it had before the oldest (`Oldest`).
#[cfg(feature = "portable")]
#[cfg_attr(docsrs, doc(cfg(feature = "portable")))]
pub trait Downgrades<After> {
    /// The answer's type before the oldest change.
    type Oldest;

    /// The answer downgraded through every change, newest first.
    fn downgrade(after: After) -> Self::Oldest;
}

#[cfg(feature = "portable")]
impl<After> Downgrades<After> for () {
    type Oldest = After;

    fn downgrade(after: After) -> After {
        after
    }
}

#[cfg(feature = "portable")]
impl<C: Downgrade<After>, Older: Downgrades<C::Before>, After> Downgrades<After> for (C, Older) {
    type Oldest = Older::Oldest;

    fn downgrade(after: After) -> Older::Oldest {
        Older::downgrade(C::downgrade(after))
    }
}

/// The JSON Schema a route's argument reads or its answer writes, derived
/// from its type: how a variant with version changes is documented and
/// checked at the versions before each change. A `#[schema(json_schema =
/// T)]` written without versions describes the head's `Json<T>` (or
/// `Query<T>`); before a change that upgrades that argument, the versions
/// read the type the argument had there, and their schema is that type's
/// (docs/reference.md §4.10). The same for a `#[response(N, json_schema =
/// T)]` and the answer's type before each change that downgrades it.
#[cfg(feature = "portable")]
#[cfg_attr(docsrs, doc(cfg(feature = "portable")))]
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no JSON Schema of its own to describe the versions before a version change",
    label = "a `json_schema = ...` schema or response here is derived from this type before each change",
    note = "a body `Json<T>`, a query `Query<T>` or an answer `Answer<T>` has one when `T: schemars::JsonSchema`; \
            else give a request schema versions (`#[schema(json_schema = Old, \"1.0\", \"1.3\")]`), \
            or describe an answer with a schema function (`#[response(201, shown_v1)]`)"
)]
pub trait TypedSchema {
    /// The document.
    fn typed_schema() -> serde_json::Value;
}

// Reported as the missing `TypedSchema`, in its words, not as rustc's
// list of every `JsonSchema` type.
#[cfg(feature = "portable")]
#[diagnostic::do_not_recommend]
impl<T: schemars::JsonSchema> TypedSchema for crate::portable::Json<T> {
    fn typed_schema() -> serde_json::Value {
        crate::schema::json_schema_of::<T>()
    }
}

#[cfg(feature = "portable")]
#[diagnostic::do_not_recommend]
impl<T: schemars::JsonSchema> TypedSchema for crate::portable::Query<T> {
    fn typed_schema() -> serde_json::Value {
        crate::schema::json_schema_of::<T>()
    }
}

#[cfg(feature = "portable")]
#[diagnostic::do_not_recommend]
impl<T: schemars::JsonSchema> TypedSchema for crate::portable::Answer<T> {
    fn typed_schema() -> serde_json::Value {
        crate::schema::json_schema_of::<T>()
    }
}

#[cfg(feature = "portable")]
#[diagnostic::do_not_recommend]
impl<T: TypedSchema, E> TypedSchema for Result<T, E> {
    fn typed_schema() -> serde_json::Value {
        T::typed_schema()
    }
}

/// What a change declares, for the reference: the Rust names of what it
/// touched, checked to exist when it is declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Declared {
    /// `field(Type::field, didnt_exist)`: the field arrived with the change.
    FieldAdded {
        /// The type that has the field.
        ty: &'static str,
        /// The field.
        field: &'static str,
    },
    /// `field(Type::field, renamed_from = "old")`: the field had another name before it.
    FieldRenamed {
        /// The type that has the field.
        ty: &'static str,
        /// The field, as it is named from the change.
        field: &'static str,
        /// Its name before the change.
        from: &'static str,
    },
    /// `field(Type::field, had_type = "string")`: the field had another type before it.
    FieldRetyped {
        /// The type that has the field.
        ty: &'static str,
        /// The field.
        field: &'static str,
        /// Its type before the change, as the reference says it.
        was: &'static str,
    },
    /// `member(Enum::Member, didnt_exist)`: the member arrived with the change.
    MemberAdded {
        /// The enum.
        ty: &'static str,
        /// The member.
        member: &'static str,
    },
}

impl std::fmt::Display for Declared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Declared::FieldAdded { ty, field } => write!(f, "`{ty}::{field}` is new"),
            Declared::FieldRenamed { ty, field, from } => write!(f, "`{ty}::{field}` was `{from}` before"),
            Declared::FieldRetyped { ty, field, was } => write!(f, "`{ty}::{field}` was {was} before"),
            Declared::MemberAdded { ty, member } => write!(f, "`{ty}::{member}` is new"),
        }
    }
}

impl Declared {
    /// Whether `self` and `other` claim one same thing: the same field new,
    /// renamed from one same name or retyped from one same type, or the
    /// same member new. Claims of different kinds are two claims: a field
    /// new at one version may be renamed at a later one.
    ///
    /// ```
    /// use microversion_core::change::Declared;
    ///
    /// let renamed = |from| Declared::FieldRenamed { ty: "Widget", field: "color", from };
    /// assert!(renamed("colour").same_claim(&renamed("colour")));
    /// // Renamed twice, from two names: two claims.
    /// assert!(!renamed("colour").same_claim(&renamed("hue")));
    /// let added = Declared::FieldAdded { ty: "Widget", field: "color" };
    /// assert!(!added.same_claim(&renamed("colour")));
    /// let retyped = |was| Declared::FieldRetyped { ty: "Widget", field: "size", was };
    /// assert!(retyped("an integer").same_claim(&retyped("an integer")));
    /// assert!(!retyped("an integer").same_claim(&retyped("a string")));
    /// let satin = Declared::MemberAdded { ty: "Finish", member: "Satin" };
    /// assert!(satin.same_claim(&satin));
    /// assert!(!satin.same_claim(&Declared::MemberAdded { ty: "Finish", member: "Gloss" }));
    ///
    /// use microversion_core::change::claim_alike;
    /// assert!(claim_alike(&[added, satin], &[satin]));
    /// assert!(!claim_alike(&[added], &[satin, renamed("colour")]));
    /// ```
    pub const fn same_claim(&self, other: &Declared) -> bool {
        match (*self, *other) {
            (Declared::FieldAdded { ty: a, field: f }, Declared::FieldAdded { ty: b, field: g })
            | (Declared::MemberAdded { ty: a, member: f }, Declared::MemberAdded { ty: b, member: g }) => {
                same_text(a, b) && same_text(f, g)
            }
            (
                Declared::FieldRenamed { ty: a, field: f, from: x },
                Declared::FieldRenamed { ty: b, field: g, from: y },
            )
            | (
                Declared::FieldRetyped { ty: a, field: f, was: x },
                Declared::FieldRetyped { ty: b, field: g, was: y },
            ) => same_text(a, b) && same_text(f, g) && same_text(x, y),
            _ => false,
        }
    }
}

/// Whether two changes' declarations claim one same thing, which only one
/// change can: `#[controller]` checks every two changes it names at
/// compile time (docs/reference.md §4.10).
#[doc(hidden)]
pub const fn claim_alike(a: &[Declared], b: &[Declared]) -> bool {
    let mut i = 0;
    while i < a.len() {
        let mut j = 0;
        while j < b.len() {
            if a[i].same_claim(&b[j]) {
                return true;
            }
            j += 1;
        }
        i += 1;
    }
    false
}

const fn same_text(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// A change as an operation's variant lists it, for the reference and the
/// documents: its version, its name and what it says.
#[derive(Clone, Copy, Debug)]
pub struct ChangeNote {
    /// The change's type name (`ColorSpelling`).
    pub name: &'static str,
    /// Its version.
    pub version: Version,
    /// Its doc comment.
    pub description: &'static str,
    /// What it declares.
    pub declares: &'static [Declared],
}

impl ChangeNote {
    /// The note of change `C`.
    pub const fn of<C: VersionChange>(name: &'static str) -> ChangeNote {
        ChangeNote { name, version: C::VERSION, description: C::DESCRIPTION, declares: C::DECLARES }
    }
}

/// The versions of band `j` of a variant that serves `variant` and goes
/// through changes at `changes` (strictly ascending, each inside it and
/// after its first, as `#[controller]` checks): from the variant's first
/// version (band 0) or change `j - 1`'s, to the version `api` declares
/// before change `j` (or the variant's last, for the head's band). How the
/// description of an operation lists a variant with changes: one entry per
/// band, each with its own status and doc.
#[doc(hidden)]
pub const fn band(api: &Api, variant: VersionRange, changes: &[Version], j: usize) -> VersionRange {
    let min = if j == 0 { variant.min() } else { Some(changes[j - 1]) };
    let max = if j == changes.len() {
        variant.max()
    } else {
        match api.position(changes[j]) {
            Some(at) if at > 0 => Some(api.history()[at - 1].version),
            // Refused where the variant lists its changes, at the change.
            _ => return variant,
        }
    };
    match VersionRange::new(min, max) {
        Ok(range) => range,
        // Changes out of order or outside the variant: refused where the
        // variant lists them, at the change; described whole meanwhile.
        Err(_) => variant,
    }
}
