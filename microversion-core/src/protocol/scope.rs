//! The version a request was negotiated at, in scope while a facade calls
//! the service that answers it and while it polls that service's answer:
//! what an extractor, a route or an answer rendered at the version reads
//! when the framework gives it no request to read from (axum's
//! `IntoResponse`), with no allocation on the request's path (a request's
//! extensions cost one). A thread-local set and put back around each call
//! and poll, as a task-local is, without the closure a task-local moves
//! the future through: a service that answers on another task is out of
//! scope (docs/reference.md §16.2).

use std::cell::Cell;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::version::Negotiated;

thread_local! {
    static NEGOTIATED: Cell<Option<Negotiated>> = const { Cell::new(None) };
}

/// `negotiated` in scope on this thread until the `Scope` is dropped, which
/// puts back what was in scope before (on a panic too). It cannot be sent
/// to another thread: held across an `.await`, it would be dropped on
/// another thread, and a `Send` future cannot hold it.
///
/// ```
/// use microversion_core::exchange::Scope;
/// use microversion_core::version::{Negotiated, Version, VersionHeader, VersionSource};
///
/// assert_eq!(Scope::current(), None);
/// let asked = Version::lit("2.27");
/// let scope = Scope::enter(Negotiated { version: asked, source: VersionSource::Explicit, header: VersionHeader::Standard });
/// assert_eq!(Scope::current().map(|n| n.version), Some(Version::lit("2.27")));
/// drop(scope);
/// assert_eq!(Scope::current(), None);
/// ```
///
/// Held across an `.await`, it makes the future not `Send`:
///
/// ```compile_fail
/// # use microversion_core::exchange::Scope;
/// # use microversion_core::version::{Negotiated, Version, VersionHeader, VersionSource};
/// fn spawnable(_: impl std::future::Future + Send) {}
/// let at = Negotiated { version: Version::lit("2.1"), source: VersionSource::Explicit, header: VersionHeader::Standard };
/// spawnable(async move {
///     let _scope = Scope::enter(at);
///     std::future::ready(()).await;
/// });
/// ```
#[must_use = "the version is in scope only while the Scope lives"]
#[derive(Debug)]
pub struct Scope {
    before: Option<Negotiated>,
    this_thread: PhantomData<*const ()>,
}

impl Scope {
    /// Puts `negotiated` in scope.
    #[inline]
    pub fn enter(negotiated: Negotiated) -> Scope {
        Scope { before: NEGOTIATED.replace(Some(negotiated)), this_thread: PhantomData }
    }

    /// What is in scope on this thread, if anything.
    #[inline]
    pub fn current() -> Option<Negotiated> {
        NEGOTIATED.get()
    }
}

impl Drop for Scope {
    #[inline]
    fn drop(&mut self) {
        NEGOTIATED.set(self.before);
    }
}

pin_project_lite::pin_project! {
    /// `inner`, each poll of it with `negotiated` in [`Scope`].
    #[derive(Debug)]
    pub struct Scoped<F> {
        #[pin]
        inner: F,
        negotiated: Negotiated,
    }
}

impl<F> Scoped<F> {
    /// `inner`, to be polled at `negotiated`.
    pub fn new(inner: F, negotiated: Negotiated) -> Scoped<F> {
        Scoped { inner, negotiated }
    }
}

impl<F: Future> Future for Scoped<F> {
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = self.project();
        let _scope = Scope::enter(*this.negotiated);
        this.inner.poll(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::version::{Version, VersionHeader, VersionSource};

    fn at(version: &str) -> Negotiated {
        let version: Version = version.parse().unwrap();
        Negotiated { version, source: VersionSource::Explicit, header: VersionHeader::Standard }
    }

    #[test]
    fn a_scope_puts_back_the_one_it_entered_over() {
        let outer = Scope::enter(at("2.1"));
        {
            let _inner = Scope::enter(at("2.5"));
            assert_eq!(Scope::current(), Some(at("2.5")));
        }
        assert_eq!(Scope::current(), Some(at("2.1")));
        drop(outer);
        assert_eq!(Scope::current(), None);
    }

    #[test]
    fn a_panic_inside_a_scope_leaves_none_behind() {
        let panicked = std::panic::catch_unwind(|| {
            let _scope = Scope::enter(at("2.3"));
            panic!("a handler's panic");
        });
        assert!(panicked.is_err());
        assert_eq!(Scope::current(), None);
    }

    /// A future that reads the scope at each poll, pending once in between.
    struct ReadTwice(Vec<Option<Negotiated>>);

    impl Future for ReadTwice {
        type Output = Vec<Option<Negotiated>>;

        fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
            self.0.push(Scope::current());
            if self.0.len() < 2 {
                cx.waker().wake_by_ref();
                return Poll::Pending;
            }
            Poll::Ready(std::mem::take(&mut self.0))
        }
    }

    #[test]
    fn each_poll_of_a_scoped_future_is_at_its_own_version() {
        let mut cx = Context::from_waker(std::task::Waker::noop());
        let mut old = std::pin::pin!(Scoped::new(ReadTwice(Vec::new()), at("2.2")));
        let mut new = std::pin::pin!(Scoped::new(ReadTwice(Vec::new()), at("2.9")));
        assert!(old.as_mut().poll(&mut cx).is_pending());
        assert!(new.as_mut().poll(&mut cx).is_pending());
        assert_eq!(Scope::current(), None, "nothing in scope between polls");
        assert_eq!(old.as_mut().poll(&mut cx), Poll::Ready(vec![Some(at("2.2")); 2]));
        assert_eq!(new.as_mut().poll(&mut cx), Poll::Ready(vec![Some(at("2.9")); 2]));
    }
}
