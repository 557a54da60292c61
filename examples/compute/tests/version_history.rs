//! `docs/compute-versions.md` is generated from the example's declaration;
//! this fails when it is stale. Regenerate with
//! `UPDATE_HISTORY=1 cargo test -p microversion-example-compute --test version_history`.

#[test]
fn rendered_history_is_current() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/compute-versions.md");
    let rendered = compute::COMPUTE.history_markdown();
    if std::env::var_os("UPDATE_HISTORY").is_some() {
        std::fs::write(&path, &rendered).expect("docs/ is writable");
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == rendered,
        "{} is stale: regenerate it with UPDATE_HISTORY=1 cargo test -p microversion-example-compute --test version_history",
        path.display()
    );
    assert!(rendered.contains("| 2.55 | Flavors have a `description`"));
    assert_eq!(rendered.lines().filter(|l| l.starts_with("| 2.")).count(), 96);
}
