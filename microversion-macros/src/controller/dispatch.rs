//! The code that picks a variant: a `match` on `(major, minor)` with one
//! arm per variant bounded at both ends within one major version (`(2, 2 |
//! 3) =>`, which rustc turns into a jump table), and for the others
//! (open at an end, across majors, or too many versions to list) a decision
//! tree: a binary search over the sorted, disjoint ranges, comparing the
//! version with `Version::new(2, 47)` (one integer comparison: `Version`
//! is ordered by its packed form).

use microversion_core::{Version, VersionRange};
use proc_macro2::{Literal, TokenStream};
use quote::quote;
use syn::Ident;

use super::ast::{Operation, Variant};
use crate::shared::ranges::version_tokens;

/// The version a dispatcher picks by: the local that holds it, and the
/// runtime path that names `Version` in the generated code.
#[derive(Clone, Copy)]
pub(crate) struct Key<'a> {
    pub(crate) version: &'a Ident,
    pub(crate) runtime: &'a TokenStream,
}

impl Key<'_> {
    fn at(&self, version: Version) -> TokenStream {
        version_tokens(self.runtime, version)
    }
}

/// A variant's range in expansion, which runs only on a controller whose
/// ranges are all sound.
pub(crate) fn served(variant: &Variant) -> VersionRange {
    variant.range().unwrap_or(VersionRange::ANY)
}

/// The variants with their index, sorted by range start.
pub(crate) fn sorted(op: &Operation) -> Vec<(usize, &Variant)> {
    let mut variants: Vec<(usize, &Variant)> = op.variants.iter().enumerate().collect();
    variants.sort_by_key(|(_, v)| served(v).min());
    variants
}

/// `log2(n)` comparisons of `key` against versions,
/// then only the bounds of the chosen range that the path to it has not
/// already established; `leaf` writes the call of a variant, `miss` the
/// answer when none serves the version.
pub(crate) fn decision_tree(
    key: Key<'_>,
    variants: &[(usize, &Variant)],
    leaf: &dyn Fn(usize, &Variant) -> TokenStream,
    miss: &TokenStream,
) -> TokenStream {
    table_then_tree(key, variants, &served, leaf, miss)
}

/// The most versions listed in a dispatch `match`: beyond, the variants
/// with the widest ranges are left to the tree.
const MAX_LISTED_VERSIONS: usize = 1024;

/// The `match` of the listable variants, the tree of the others in its `_` arm.
fn table_then_tree(
    key: Key<'_>,
    variants: &[(usize, &Variant)],
    range_of: &dyn Fn(&Variant) -> VersionRange,
    leaf: &dyn Fn(usize, &Variant) -> TokenStream,
    miss: &TokenStream,
) -> TokenStream {
    let mut listed: Vec<(usize, &Variant, TokenStream)> = Vec::new();
    let mut rest: Vec<(usize, &Variant)> = Vec::new();
    let mut by_width: Vec<(usize, &Variant, Option<Bounds>)> =
        variants.iter().map(|(i, v)| (*i, *v, listable(range_of(v)))).collect();
    // Narrow ranges first, so that a wide one is what the limit leaves out.
    by_width.sort_by_key(|(_, _, bounds)| bounds.map_or(usize::MAX, width));
    let mut count = 0;
    for (i, variant, bounds) in by_width {
        match bounds {
            Some(bounds) if count + width(bounds) <= MAX_LISTED_VERSIONS => {
                count += width(bounds);
                listed.push((i, variant, pattern(bounds)));
            }
            _ => rest.push((i, variant)),
        }
    }
    // One listed variant is one comparison either way: the tree reads better.
    if listed.len() < 2 {
        return tree(key, variants, None, None, range_of, leaf, miss);
    }
    rest.sort_by_key(|(_, v)| range_of(v).min());
    listed.sort_by_key(|(_, v, _)| range_of(v).min());
    // The listed versions never reach the tree: a range there may take in
    // the listed ranges that follow it without a gap, so the tree checks no
    // bound against them (and a helper without gaps keeps no miss).
    let listed_ranges: Vec<VersionRange> = listed.iter().map(|(_, v, _)| range_of(v)).collect();
    let widened = |variant: &Variant| {
        let range = range_of(variant);
        let Some(mut max) = range.max() else { return range };
        while let Some(next) = listed_ranges.iter().find(|r| r.min() == max.successor()) {
            max = next.max().unwrap_or(max);
        }
        match range.min() {
            Some(min) => VersionRange::between(min, max),
            None => VersionRange::until(max),
        }
    };
    let arms = listed.iter().map(|(i, variant, pattern)| {
        let body = leaf(*i, variant);
        quote!(#pattern => { #body })
    });
    let others = tree(key, &rest, None, None, &widened, leaf, miss);
    let version = key.version;
    quote! {
        match (#version.major(), #version.minor()) {
            #(#arms)*
            _ => { #others }
        }
    }
}

/// The `(major, minor)` pattern of listable bounds, one literal per minor:
/// `(2, 5)`, `(2, 2 | 3)` (rustc tests range patterns one after another,
/// but makes one jump table of literals).
fn pattern((min, max): Bounds) -> TokenStream {
    let major = Literal::u16_unsuffixed(min.major());
    let minors = (min.minor()..=max.minor()).map(Literal::u16_unsuffixed);
    quote!((#major, #(#minors)|*))
}

/// The first and last version of a range.
type Bounds = (Version, Version);

/// The bounds of a range that can be listed: bounded at both ends within
/// one major version.
fn listable(range: VersionRange) -> Option<Bounds> {
    let (min, max) = (range.min()?, range.max()?);
    (min.major() == max.major()).then_some((min, max))
}

/// How many versions listable bounds cover.
fn width((min, max): Bounds) -> usize {
    usize::from(max.minor() - min.minor()) + 1
}

/// Whether the variants run from the first one's minimum to every later
/// version without a gap: a helper whose first minimum is the API's (a
/// compile-time check) then serves every version it can be called at.
pub(crate) fn without_gaps(variants: &[(usize, &Variant)]) -> bool {
    let ranges: Option<Vec<VersionRange>> = variants.iter().map(|(_, v)| v.range()).collect();
    let Some(ranges) = ranges else { return false };
    let joined = ranges.windows(2).all(|pair| match (pair[0].max(), pair[1].min()) {
        (Some(end), Some(start)) => end.successor() == Some(start),
        _ => false,
    });
    joined
        && ranges.first().is_some_and(|r| r.min().is_some())
        && ranges.last().is_some_and(|r| r.max().is_none())
}

/// The tree of a helper without gaps: the first variant also serves the
/// versions below it (no request can be negotiated there: they are below
/// the API's minimum), so every version has a variant and no miss is
/// written (the `compile_error!` standing for one would stop the build).
pub(crate) fn total_tree(
    key: Key<'_>,
    variants: &[(usize, &Variant)],
    leaf: &dyn Fn(usize, &Variant) -> TokenStream,
) -> TokenStream {
    let first = variants.first().map(|(_, v)| *v as *const Variant);
    let range = move |variant: &Variant| {
        let range = served(variant);
        if Some(variant as *const Variant) == first {
            match range.max() {
                Some(max) => VersionRange::until(max),
                None => VersionRange::ANY,
            }
        } else {
            range
        }
    };
    let never = quote!(::core::compile_error!("a helper without gaps has no version to miss"));
    table_then_tree(key, variants, &range, leaf, &never)
}

/// `at_least`: the key is known to be >= it; `below`: known to be < it.
fn tree(
    key: Key<'_>,
    variants: &[(usize, &Variant)],
    at_least: Option<Version>,
    below: Option<Version>,
    range_of: &dyn Fn(&Variant) -> VersionRange,
    leaf: &dyn Fn(usize, &Variant) -> TokenStream,
    miss: &TokenStream,
) -> TokenStream {
    match variants {
        [] => miss.clone(),
        [(i, variant)] => {
            let range = range_of(variant);
            let min = range.min().filter(|min| at_least.is_none_or(|known| known < *min));
            // Known below the successor of `max` means known at or below `max`.
            let max = range.max().filter(|max| below.is_none_or(|known| Some(known) > max.successor()));
            let version = key.version;
            let check = match (min, max) {
                (Some(min), Some(max)) if min == max => {
                    let only = key.at(min);
                    Some(quote!(#version == #only))
                }
                (Some(min), Some(max)) => {
                    let (min, max) = (key.at(min), key.at(max));
                    Some(quote!((#min..=#max).contains(&#version)))
                }
                (Some(min), None) => {
                    let min = key.at(min);
                    Some(quote!(#version >= #min))
                }
                (None, Some(max)) => {
                    let max = key.at(max);
                    Some(quote!(#version <= #max))
                }
                (None, None) => None,
            };
            let body = leaf(*i, variant);
            match check {
                Some(check) => quote!(if #check { #body } else { #miss }),
                None => body,
            }
        }
        _ => {
            let mid = variants.len() / 2;
            // Only the first range can be open below, so every later one has a minimum.
            let start = range_of(variants[mid].1).min().unwrap_or(Version::new(0, 0));
            let (version, start_at) = (key.version, key.at(start));
            let lower = tree(key, &variants[..mid], at_least, Some(start), range_of, leaf, miss);
            let upper = tree(key, &variants[mid..], Some(start), below, range_of, leaf, miss);
            quote!(if #version < #start_at { #lower } else { #upper })
        }
    }
}
