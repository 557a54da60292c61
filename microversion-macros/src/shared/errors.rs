//! The error context: every problem is collected, none stops the macro, and
//! each keeps the full token range it is about (`syn::Error::new_spanned`
//! marks first to last token on stable, where `Span::join` is not available).

use std::fmt::Display;

use quote::ToTokens;

/// Collected errors, consumed by [`Errors::finish`]. Dropping a context
/// that was never finished panics (outside an unwinding panic), as serde's
/// `Ctxt` does: a forgotten `finish` would silently lose the user's errors,
/// and `#[must_use]` does not catch a dropped `let` binding.
#[derive(Default)]
pub(crate) struct Errors {
    collected: Option<syn::Error>,
    finished: bool,
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

    /// Every error recorded, as one `syn::Error`, or `Ok` if there is none.
    pub(crate) fn finish(mut self) -> Result<(), syn::Error> {
        self.finished = true;
        self.collected.take().map_or(Ok(()), Err)
    }
}

impl Drop for Errors {
    fn drop(&mut self) {
        if !self.finished && !std::thread::panicking() {
            panic!("the macro dropped its error context without reporting it (call `Errors::finish`)");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Errors;

    #[test]
    #[should_panic(expected = "without reporting it")]
    fn a_forgotten_context_panics() {
        let mut errors = Errors::default();
        errors.at_span(proc_macro2::Span::call_site(), "lost");
    }

    #[test]
    fn a_finished_context_reports_every_error() {
        let mut errors = Errors::default();
        errors.at_span(proc_macro2::Span::call_site(), "one");
        errors.at_span(proc_macro2::Span::call_site(), "two");
        let all: Vec<String> = errors.finish().unwrap_err().into_iter().map(|e| e.to_string()).collect();
        assert_eq!(all, ["one", "two"]);
        assert!(Errors::default().finish().is_ok());
    }
}
