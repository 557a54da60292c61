//! The text of an item's doc comments (`///` and `#[doc = "..."]`), as the
//! described API shows it: each line without the one space `///` leaves,
//! the whole trimmed. What a controller's operations and a versioned
//! model's fields say of themselves (docs/reference.md §14.1).

use syn::{Attribute, Expr, ExprLit, Lit, Meta};

/// The doc comments of `attrs` as one text, empty when there are none.
/// A `#[doc = ...]` that is not a string literal (a macro call) is skipped.
pub(crate) fn doc_text(attrs: &[Attribute]) -> String {
    let lines: Vec<String> = attrs
        .iter()
        .filter(|attr| attr.path().is_ident("doc"))
        .filter_map(|attr| match &attr.meta {
            Meta::NameValue(pair) => match &pair.value {
                Expr::Lit(ExprLit { lit: Lit::Str(text), .. }) => Some(text.value()),
                _ => None,
            },
            _ => None,
        })
        .flat_map(|text| text.split('\n').map(str::to_owned).collect::<Vec<_>>())
        .map(|line| line.strip_prefix(' ').map(str::to_owned).unwrap_or(line))
        .collect();
    lines.join("\n").trim().to_owned()
}

#[cfg(test)]
mod tests {
    use super::doc_text;

    #[test]
    fn doc_comments_are_read_as_rustdoc_reads_them() {
        let method: syn::ImplItemFn = syn::parse_quote! {
            /// Lists the flavors.
            ///
            /// Reads `minRam`:  the least memory.
            #[doc = "More."]
            #[inline]
            fn list() {}
        };
        assert_eq!(
            doc_text(&method.attrs),
            "Lists the flavors.\n\nReads `minRam`:  the least memory.\nMore."
        );
        let bare: syn::ImplItemFn = syn::parse_quote!(
            fn list() {}
        );
        assert_eq!(doc_text(&bare.attrs), "");
    }
}
