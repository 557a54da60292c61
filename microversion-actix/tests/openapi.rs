//! Released versions are frozen: a missing or changed document fails, and
//! only the newest version can be blessed; words alone can be rewritten in
//! every version.
#![cfg(feature = "openapi")]

use microversion_actix::openapi::{ApiDescription, BLESS_DOCUMENTATION, check_released_blessing};
use microversion_actix::{Api, history};

const API: Api = Api::new("compute", history!["2.1" => "Initial.", "2.2" => "More."]);

#[test]
fn only_the_newest_version_can_be_blessed() {
    let dir = std::env::temp_dir().join(format!("microversion-released-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let description = ApiDescription::new(API);

    let report = check_released_blessing(&description, &dir, None).unwrap_err();
    assert!(report.contains("2.1: the released document") && report.contains("cannot be read"), "{report}");
    assert!(
        report.contains("2.2: no committed document") && report.contains("MICROVERSION_BLESS=2.2"),
        "{report}"
    );

    // An old version cannot be blessed.
    let report = check_released_blessing(&description, &dir, Some("2.1")).unwrap_err();
    assert!(report.contains("only the newest declared version, 2.2, can be blessed"), "{report}");
    assert!(!dir.join("2.1.json").exists());

    // The newest can: its copy is written, the old one still fails until a human writes it.
    let report = check_released_blessing(&description, &dir, Some("2.2")).unwrap_err();
    assert!(dir.join("2.2.json").exists() && !report.contains("2.2:"), "{report}");
    let written =
        serde_json::to_string_pretty(&description.document(microversion_actix::Version::lit("2.1"))).unwrap();
    std::fs::write(dir.join("2.1.json"), written).unwrap();
    assert_eq!(check_released_blessing(&description, &dir, None), Ok(()));

    // A changed released contract fails, naming the version and the place.
    let changed = ApiDescription::new(API).with_title("Another title");
    let report = check_released_blessing(&changed, &dir, None).unwrap_err();
    assert!(report.starts_with("2.1: the contract of a released version changed"), "{report}");
    assert!(report.contains("/info/title: was"), "{report}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn documentation_alone_is_rewritten_in_every_version() {
    let dir = std::env::temp_dir().join(format!("microversion-documentation-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let description = ApiDescription::new(API);
    let path = dir.join("2.1.json");
    let write = |document: &serde_json::Value| std::fs::write(&path, document.to_string()).unwrap();
    let read =
        || serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let served = description.document(microversion_actix::Version::lit("2.1"));
    let _ = check_released_blessing(&description, &dir, Some("2.2"));

    // A copy whose words differ is rewritten, a released one included.
    let mut worded = served.clone();
    worded["components"]["headers"]["Vary"]["description"] = serde_json::json!("Older words.");
    write(&worded);
    assert_eq!(check_released_blessing(&description, &dir, Some(BLESS_DOCUMENTATION)), Ok(()));
    assert_eq!(read(), served);

    // A copy that differs in anything else is reported and left as it is.
    let mut retyped = served.clone();
    retyped["components"]["headers"]["Vary"]["schema"]["type"] = serde_json::json!("integer");
    write(&retyped);
    let report = check_released_blessing(&description, &dir, Some(BLESS_DOCUMENTATION)).unwrap_err();
    assert!(report.starts_with("2.1: the contract of a released version changed"), "{report}");
    assert_eq!(read(), retyped);
    let _ = std::fs::remove_dir_all(&dir);
}
