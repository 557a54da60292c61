//! `VersionCap`: a deployer cap that can change while serving
//! (docs/reference.md §13.4).

use std::sync::atomic::{AtomicI64, AtomicU32, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::{Api, Version, lifecycle::Timestamp, version::CapError};

/// The served maximum of one API, shared by everything that serves it (the
/// middleware, discovery) and changed while they serve: one atomic load per
/// request.
///
/// [`VersionCap::set`] takes effect at once; [`VersionCap::set_at`] at a
/// given instant, the same on every node of a fleet that reads one clock,
/// so that a client going round the nodes never sees the maximum go back
/// while it is raised. A version the API does not declare, or one below
/// its default version, is refused and leaves the cap as it was.
///
/// ```
/// use microversion_core::{Api, version::CapError, Microversion, Version, VersionCap};
///
/// const API: Api = Api::new("compute", &[
///     Microversion::new("2.1", "Initial version."),
///     Microversion::new("2.2", "Keypairs gain a type."),
///     Microversion::new("2.3", "Servers show their host."),
/// ]);
/// let cap = VersionCap::new(&API.capped_at(Version::lit("2.2")).unwrap());
/// assert_eq!(cap.get(), Version::lit("2.2"));
/// cap.set(Version::lit("2.3")).unwrap();
/// assert_eq!(cap.api().max(), Version::lit("2.3"));
/// assert_eq!(cap.set(Version::lit("2.9")), Err(CapError::NotInHistory(Version::lit("2.9"))));
/// assert_eq!(cap.get(), Version::lit("2.3"));
/// ```
#[derive(Clone, Debug)]
pub struct VersionCap(Arc<Inner>);

#[derive(Debug)]
struct Inner {
    api: Api,
    /// The packed cap in force.
    current: AtomicU32,
    /// A packed cap scheduled for `pending_at`, or 0.
    pending: AtomicU32,
    /// Unix milliseconds at which `pending` takes effect.
    pending_at: AtomicI64,
    /// Writers take it; readers never wait.
    write: Mutex<()>,
}

fn now_millis() -> i64 {
    match SystemTime::now().duration_since(UNIX_EPOCH) {
        Ok(d) => i64::try_from(d.as_millis()).unwrap_or(i64::MAX),
        Err(_) => 0,
    }
}

fn unpack(packed: u32) -> Version {
    Version::new((packed >> 16) as u16, packed as u16)
}

impl VersionCap {
    /// A cap for `api`, starting at its served maximum (its
    /// [`Api::capped_at`] cap, or the newest declared version).
    pub fn new(api: &Api) -> VersionCap {
        VersionCap(Arc::new(Inner {
            api: *api,
            current: AtomicU32::new(api.max().packed()),
            pending: AtomicU32::new(0),
            pending_at: AtomicI64::new(0),
            write: Mutex::new(()),
        }))
    }

    /// The served maximum now.
    #[inline]
    pub fn get(&self) -> Version {
        let pending = self.0.pending.load(Ordering::Acquire);
        if pending != 0 {
            return self.resolve(pending);
        }
        unpack(self.0.current.load(Ordering::Acquire))
    }

    #[cold]
    fn resolve(&self, pending: u32) -> Version {
        if now_millis() < self.0.pending_at.load(Ordering::Acquire) {
            return unpack(self.0.current.load(Ordering::Acquire));
        }
        // Due: make it current, unless a writer is busy (it decides).
        if let Ok(_guard) = self.0.write.try_lock()
            && self.0.pending.load(Ordering::Acquire) == pending
        {
            self.0.current.store(pending, Ordering::Release);
            self.0.pending.store(0, Ordering::Release);
        }
        unpack(pending)
    }

    /// Checks `cap` as [`Api::capped_at`] does.
    fn check(&self, cap: Version) -> Result<(), CapError> {
        self.0.api.capped_at(cap).map(|_| ())
    }

    /// Sets the served maximum at once, cancelling a scheduled change.
    pub fn set(&self, cap: Version) -> Result<(), CapError> {
        self.check(cap)?;
        let _guard = self.0.write.lock().unwrap_or_else(PoisonError::into_inner);
        self.0.current.store(cap.packed(), Ordering::Release);
        self.0.pending.store(0, Ordering::Release);
        Ok(())
    }

    /// Sets the served maximum to `cap` from the instant `at` on (at once if
    /// it has passed), replacing a change scheduled before.
    pub fn set_at(&self, cap: Version, at: Timestamp) -> Result<(), CapError> {
        self.check(cap)?;
        let at_millis = at.unix_seconds().saturating_mul(1000);
        if at_millis <= now_millis() {
            return self.set(cap);
        }
        let _guard = self.0.write.lock().unwrap_or_else(PoisonError::into_inner);
        self.0.pending_at.store(at_millis, Ordering::Release);
        self.0.pending.store(cap.packed(), Ordering::Release);
        Ok(())
    }

    /// The change scheduled by [`VersionCap::set_at`] and not yet in force.
    pub fn scheduled(&self) -> Option<(Version, Timestamp)> {
        let _guard = self.0.write.lock().unwrap_or_else(PoisonError::into_inner);
        let pending = self.0.pending.load(Ordering::Acquire);
        let at = self.0.pending_at.load(Ordering::Acquire);
        (pending != 0 && now_millis() < at).then(|| (unpack(pending), Timestamp::from_unix(at / 1000)))
    }

    /// The API as served now: the declaration with the current cap.
    pub fn api(&self) -> Api {
        let api = self.0.api;
        api.capped_at(self.get()).unwrap_or(api)
    }

    /// The declaration this cap belongs to (with its initial cap).
    pub fn declaration(&self) -> &Api {
        &self.0.api
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Microversion;

    static HISTORY: [Microversion; 4] = [
        Microversion::new("2.1", "a"),
        Microversion::new("2.2", "b"),
        Microversion::new("2.3", "c"),
        Microversion::new("2.60", "d"),
    ];
    const API: Api = Api::new("compute", &HISTORY).with_default_version("2.2");

    #[test]
    fn refused_caps_leave_the_cap_unchanged() {
        let cap = VersionCap::new(&API);
        assert_eq!(cap.get(), Version::new(2, 60));
        assert_eq!(cap.set(Version::new(2, 4)), Err(CapError::NotInHistory(Version::new(2, 4))));
        assert_eq!(
            cap.set(Version::new(2, 1)),
            Err(CapError::BelowDefault { cap: Version::new(2, 1), default: Version::new(2, 2) })
        );
        assert_eq!(cap.get(), Version::new(2, 60));
        cap.set(Version::new(2, 2)).unwrap();
        let shared = cap.clone();
        assert_eq!(shared.get(), Version::new(2, 2), "clones share the value");
        assert_eq!(shared.api().max(), Version::new(2, 2));
        assert_eq!(shared.api().compiled_max(), Version::new(2, 60));
    }

    #[test]
    fn a_scheduled_cap_takes_effect_at_its_instant() {
        let cap = VersionCap::new(&API.capped_at(Version::new(2, 3)).unwrap());
        let later = Timestamp::from_unix(now_millis() / 1000 + 3600);
        cap.set_at(Version::new(2, 60), later).unwrap();
        assert_eq!(cap.get(), Version::new(2, 3));
        assert_eq!(cap.scheduled(), Some((Version::new(2, 60), later)));
        assert!(cap.set_at(Version::new(2, 5), later).is_err());
        assert_eq!(
            cap.scheduled(),
            Some((Version::new(2, 60), later)),
            "a refused change keeps the schedule"
        );
        // An instant already past: at once.
        cap.set_at(Version::new(2, 60), Timestamp::from_unix(0)).unwrap();
        assert_eq!((cap.get(), cap.scheduled()), (Version::new(2, 60), None));
        // Due while serving: the next read sees it, and keeps it.
        cap.set(Version::new(2, 3)).unwrap();
        cap.0.pending_at.store(now_millis() + 1000, Ordering::Release);
        cap.0.pending.store(Version::new(2, 60).packed(), Ordering::Release);
        assert_eq!(cap.get(), Version::new(2, 3));
        cap.0.pending_at.store(now_millis() - 1, Ordering::Release);
        assert_eq!(cap.get(), Version::new(2, 60));
        assert_eq!(cap.0.pending.load(Ordering::Acquire), 0, "made current");
        assert_eq!(cap.get(), Version::new(2, 60));
    }
}
