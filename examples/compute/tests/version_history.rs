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
    // What the example does today: it checks extra specs with Nova's
    // validators from 2.86 and refuses access to public flavors from 2.7.
    assert!(
        rendered.contains(
            "| 2.86 | Flavor extra specs are validated: a key Nova knows is checked by its validator"
        )
    );
    assert!(rendered.contains("| 2.7 | Adding a project to the access list of a public flavor answers 409."));
}

/// A version the history says is "outside this example" changes nothing
/// the example's documents show: no operation, parameter, body or status.
#[test]
fn outside_this_example_only_where_the_documents_do_not_change() {
    let description = compute::description(compute::COMPUTE);
    let history = compute::COMPUTE.history();
    for pair in history.windows(2) {
        let (before, version) = (pair[0].version, &pair[1]);
        if version.change.contains("outside this example") {
            assert_eq!(
                description.document(before)["paths"],
                description.document(version.version)["paths"],
                "{} says it is outside this example, yet its document differs from {before}'s",
                version.version
            );
        }
    }
}
