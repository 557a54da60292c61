//! The error context: every problem is collected, none stops the macro, and
//! each keeps the full token range it is about (`syn::Error::new_spanned`
//! marks first to last token on stable, where `Span::join` is not available).

use std::fmt::Display;

use quote::ToTokens;

/// Collected errors. Consumed by [`Errors::finish`]; `#[must_use]` so that a
/// forgotten context, which would lose the user's errors, is a warning.
#[must_use = "errors must be reported with `finish`"]
#[derive(Default)]
pub(crate) struct Errors {
    collected: Option<syn::Error>,
}

impl Errors {
    /// An error about `tokens`, pointing at all of them.
    pub(crate) fn at(&mut self, tokens: impl ToTokens, message: impl Display) {
        self.push(syn::Error::new_spanned(tokens, message));
    }

    /// An error at one token.
    pub(crate) fn at_span(&mut self, span: proc_macro2::Span, message: impl Display) {
        self.push(syn::Error::new(span, message));
    }

    pub(crate) fn push(&mut self, error: impl Into<syn::Error>) {
        let error = error.into();
        match &mut self.collected {
            Some(all) => all.combine(error),
            None => self.collected = Some(error),
        }
    }

    /// The value of `result`, or `None` after recording its error.
    pub(crate) fn handle<T, E: Into<syn::Error>>(&mut self, result: Result<T, E>) -> Option<T> {
        result.map_err(|e| self.push(e)).ok()
    }

    pub(crate) fn finish(self) -> Result<(), syn::Error> {
        self.collected.map_or(Ok(()), Err)
    }
}
