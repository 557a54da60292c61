//! Every file of every seed directory of the fuzz targets
//! (`fuzz/seeds/<target>/`) replayed through the property that target runs
//! (`microversion_testkit::fuzz`), so that the seeds and the cases the
//! fuzzer once found are checked by every `cargo test`.

use std::path::{Path, PathBuf};

use microversion_testkit::fuzz::{Checked, TARGETS};

fn seeds_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/seeds")
}

/// The files of one seed directory, sorted, for stable messages.
fn seeds_of(target: &str) -> Vec<PathBuf> {
    let dir = seeds_dir().join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a readable directory entry").path())
        .collect();
    files.sort();
    files
}

/// Each seed directory belongs to a target, and each target has seeds: a
/// renamed target or directory cannot leave seeds unreplayed.
#[test]
fn every_seed_directory_has_a_target() {
    let mut dirs: Vec<String> = std::fs::read_dir(seeds_dir())
        .expect("fuzz/seeds")
        .map(|entry| entry.expect("a readable directory entry").file_name().to_string_lossy().into_owned())
        .collect();
    dirs.sort();
    let mut targets: Vec<String> = TARGETS.iter().map(|(name, _)| (*name).to_owned()).collect();
    targets.sort();
    assert_eq!(dirs, targets);
}

/// Every target declared in `fuzz/Cargo.toml` is one of [`TARGETS`].
#[test]
fn every_fuzz_binary_has_a_property() {
    let manifest = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/Cargo.toml"))
        .expect("fuzz/Cargo.toml");
    let bins: Vec<&str> = manifest
        .lines()
        .filter_map(|line| line.strip_prefix("name = \"")?.strip_suffix('"'))
        .filter(|name| *name != "microversion-fuzz")
        .collect();
    assert_eq!(bins.len(), TARGETS.len(), "{bins:?}");
    for (name, _) in TARGETS {
        assert!(bins.contains(&name), "no [[bin]] {name} in fuzz/Cargo.toml");
    }
}

fn replay(target: &str) {
    let (_, property) = TARGETS.iter().find(|(name, _)| *name == target).expect("a target");
    let seeds = seeds_of(target);
    assert!(seeds.len() >= 5, "expected the seed corpus of {target}, found {}", seeds.len());
    for seed in &seeds {
        let bytes = std::fs::read(seed).unwrap_or_else(|e| panic!("{}: {e}", seed.display()));
        // A seed the target would skip checks nothing: every one must be a case.
        match property(&bytes) {
            Ok(Checked::Held) => {}
            Ok(Checked::NotACase) => panic!("{} is not a {target} case", seed.display()),
            Err(broken) => panic!("{}: {broken}", seed.display()),
        }
    }
    println!("{target}: {} seeds replayed", seeds.len());
}

#[test]
fn negotiate_seeds_hold() {
    replay("negotiate");
}

#[test]
fn schema_body_seeds_hold() {
    replay("schema_body");
}

#[test]
fn compute_service_seeds_hold() {
    replay("compute_service");
}
