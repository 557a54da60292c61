//! The decision tree that picks a variant: a binary search over the sorted,
//! disjoint ranges, comparing the packed version with integer literals.

use microversion_core::{Version, VersionRange};
use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::Ident;

use super::ast::{Operation, Variant};

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

/// `log2(n)` comparisons of `key` (the packed version) against literals,
/// then only the bounds of the chosen range that the path to it has not
/// already established; `leaf` writes the call of a variant, `miss` the
/// answer when none serves the version.
pub(crate) fn decision_tree(
    key: &Ident,
    variants: &[(usize, &Variant)],
    leaf: &dyn Fn(usize, &Variant) -> TokenStream,
    miss: &TokenStream,
) -> TokenStream {
    tree(key, variants, None, None, &served, leaf, miss)
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
    key: &Ident,
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
    tree(key, variants, None, None, &range, leaf, &never)
}

/// `at_least`: the key is known to be >= it; `below`: known to be < it.
fn tree(
    key: &Ident,
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
            let check = match (min, max) {
                (Some(min), Some(max)) if min == max => {
                    let only = packed_literal(min);
                    Some(quote!(#key == #only))
                }
                (Some(min), Some(max)) => {
                    let (min, max) = (packed_literal(min), packed_literal(max));
                    Some(quote!((#min..=#max).contains(&#key)))
                }
                (Some(min), None) => {
                    let min = packed_literal(min);
                    Some(quote!(#key >= #min))
                }
                (None, Some(max)) => {
                    let max = packed_literal(max);
                    Some(quote!(#key <= #max))
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
            let packed = packed_literal(start);
            let lower = tree(key, &variants[..mid], at_least, Some(start), range_of, leaf, miss);
            let upper = tree(key, &variants[mid..], Some(start), below, range_of, leaf, miss);
            quote!(if #key < #packed { #lower } else { #upper })
        }
    }
}

/// `0x0002_0005_u32` for 2.5: the packed version, readable in expansions.
fn packed_literal(v: Version) -> syn::LitInt {
    syn::LitInt::new(&format!("0x{:04x}_{:04x}_u32", v.major(), v.minor()), Span::call_site())
}
