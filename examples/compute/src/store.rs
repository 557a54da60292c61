//! In-memory state: flavors and keypairs, as a Nova database would hold them.

use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard};

/// The user every request acts as: this example has no authentication.
pub(crate) const DEFAULT_USER: &str = "demo";

/// A flavor as stored (Nova's `flavors` table).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Flavor {
    pub id: String,
    pub name: String,
    pub ram: u64,
    pub vcpus: u64,
    pub disk: u64,
    pub ephemeral: u64,
    pub swap: u64,
    pub rxtx_factor: f64,
    pub is_public: bool,
    pub description: Option<String>,
    pub extra_specs: BTreeMap<String, String>,
}

/// The two kinds of keypair Nova knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum KeyType {
    Ssh,
    X509,
}

impl KeyType {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            KeyType::Ssh => "ssh",
            KeyType::X509 => "x509",
        }
    }
}

/// A keypair as stored (Nova's `key_pairs` table).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Keypair {
    pub id: u64,
    pub name: String,
    pub user_id: String,
    pub public_key: String,
    pub fingerprint: String,
    pub key_type: KeyType,
    pub created_at: String,
}

/// The whole state, shared by every worker.
#[derive(Default)]
pub struct Store {
    flavors: Mutex<BTreeMap<String, Flavor>>,
    /// Keyed by (user id, name): names are unique per user.
    keypairs: Mutex<BTreeMap<(String, String), Keypair>>,
}

/// Why an insert was refused.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Conflict {
    Id,
    Name,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panicking handler cannot leave a half-written map: every update is one insert or remove.
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Store {
    /// The state a fresh server starts with: devstack's m1 flavors, no keypairs.
    pub fn with_default_flavors() -> Store {
        let store = Store::default();
        for (id, name, ram, vcpus, disk) in [
            ("1", "m1.tiny", 512, 1, 1),
            ("2", "m1.small", 2048, 1, 20),
            ("3", "m1.medium", 4096, 2, 40),
            ("4", "m1.large", 8192, 4, 80),
            ("5", "m1.xlarge", 16384, 8, 160),
        ] {
            let flavor = Flavor {
                id: id.into(),
                name: name.into(),
                ram,
                vcpus,
                disk,
                ephemeral: 0,
                swap: 0,
                rxtx_factor: 1.0,
                is_public: true,
                description: None,
                extra_specs: BTreeMap::new(),
            };
            lock(&store.flavors).insert(flavor.id.clone(), flavor);
        }
        store
    }

    pub(crate) fn flavors(&self) -> Vec<Flavor> {
        lock(&self.flavors).values().cloned().collect()
    }

    pub(crate) fn flavor(&self, id: &str) -> Option<Flavor> {
        lock(&self.flavors).get(id).cloned()
    }

    pub(crate) fn insert_flavor(&self, flavor: Flavor) -> Result<(), Conflict> {
        let mut flavors = lock(&self.flavors);
        if flavors.contains_key(&flavor.id) {
            return Err(Conflict::Id);
        }
        if flavors.values().any(|f| f.name == flavor.name) {
            return Err(Conflict::Name);
        }
        flavors.insert(flavor.id.clone(), flavor);
        Ok(())
    }

    /// Applies `change` to the flavor `id` and returns the result.
    pub(crate) fn update_flavor(&self, id: &str, change: impl FnOnce(&mut Flavor)) -> Option<Flavor> {
        let mut flavors = lock(&self.flavors);
        let flavor = flavors.get_mut(id)?;
        change(flavor);
        Some(flavor.clone())
    }

    pub(crate) fn remove_flavor(&self, id: &str) -> bool {
        lock(&self.flavors).remove(id).is_some()
    }

    /// The keypairs of `user_id`, ordered by name.
    pub(crate) fn keypairs(&self, user_id: &str) -> Vec<Keypair> {
        lock(&self.keypairs).values().filter(|k| k.user_id == user_id).cloned().collect()
    }

    pub(crate) fn keypair(&self, user_id: &str, name: &str) -> Option<Keypair> {
        lock(&self.keypairs).get(&(user_id.to_owned(), name.to_owned())).cloned()
    }

    /// Stores a new keypair, giving it the next id.
    pub(crate) fn insert_keypair(&self, mut keypair: Keypair) -> Result<Keypair, Conflict> {
        let mut keypairs = lock(&self.keypairs);
        let key = (keypair.user_id.clone(), keypair.name.clone());
        if keypairs.contains_key(&key) {
            return Err(Conflict::Name);
        }
        keypair.id = keypairs.values().map(|k| k.id).max().unwrap_or(0) + 1;
        keypairs.insert(key, keypair.clone());
        Ok(keypair)
    }

    pub(crate) fn remove_keypair(&self, user_id: &str, name: &str) -> bool {
        lock(&self.keypairs).remove(&(user_id.to_owned(), name.to_owned())).is_some()
    }
}
