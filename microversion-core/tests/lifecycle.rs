//! A version's life in the declaration: deprecation, sunset, retirement and
//! the cap, at each boundary date and version (docs/reference.md §13).

use microversion_core::{
    Api, Deprecation, Microversion, NegotiationError, Version, VersionCap, discovery::VersionList,
    lifecycle::RetireError, lifecycle::Timestamp, lifecycle::VersionStatus, version::CapError,
    version::VersionHeader, version::VersionSource,
};

static HISTORY: [Microversion; 6] = [
    Microversion::new("2.1", "a"),
    Microversion::new("2.2", "b"),
    Microversion::new("2.10", "c"),
    Microversion::new("2.59", "d"),
    Microversion::new("2.60", "e"),
    Microversion::new("2.61", "f"),
];

const SINCE: &str = "2026-01-01";
const SUNSET: &str = "2026-07-01T12:00:00Z";

const API: Api = Api::new("compute", &HISTORY)
    .with_legacy_headers(&["X-OpenStack-Nova-API-Version"])
    .with_deprecation(
        Deprecation::versions("2.1", "2.2")
            .since(SINCE)
            .sunset(SUNSET)
            .link("https://docs.example/migrate")
            .sunset_link("https://docs.example/sunset"),
    )
    .with_deprecation(Deprecation::versions("2.10", "2.59").since("2026-03-01").sunset("2026-09-01"));

fn v(text: &str) -> Version {
    text.parse().unwrap()
}

fn t(text: &str) -> Timestamp {
    Timestamp::parse(text).unwrap()
}

fn second_before(at: Timestamp) -> Timestamp {
    Timestamp::from_unix(at.unix_seconds() - 1)
}

#[test]
fn each_version_finds_its_own_deprecation() {
    let first = API.deprecation_for(v("2.1")).unwrap();
    assert_eq!(API.deprecation_for(v("2.2")), Some(first));
    assert_eq!(first.deprecated_since(), t(SINCE));
    let second = API.deprecation_for(v("2.10")).unwrap();
    assert_eq!(API.deprecation_for(v("2.59")), Some(second));
    assert_eq!(second.sunset_date(), Some(t("2026-09-01")));
    assert_eq!(API.deprecation_for(v("2.60")), None, "the first version after the range");
    assert_eq!(API.deprecation_for(v("2.61")), None);
    assert_eq!(API.deprecations().len(), 2);
    assert_eq!(
        first.headers(),
        [
            ("Deprecation", "@1767225600".to_owned()),
            ("Sunset", "Wed, 01 Jul 2026 12:00:00 GMT".to_owned()),
            (
                "Link",
                "<https://docs.example/migrate>; rel=\"deprecation\", <https://docs.example/sunset>; rel=\"sunset\""
                    .to_owned()
            ),
        ]
    );
    assert_eq!(second.headers().len(), 2, "no link, no Link header");
}

#[test]
fn retirement_waits_for_the_sunset_to_the_second() {
    let sunset = t(SUNSET);
    assert_eq!(
        API.retire_below_at(v("2.10"), second_before(sunset)).unwrap_err(),
        RetireError::BeforeSunset { version: v("2.1"), sunset }
    );
    let retired = API.retire_below_at(v("2.10"), sunset).unwrap();
    assert_eq!((retired.min(), retired.compiled_min()), (v("2.10"), v("2.1")));
    assert_eq!(retired.default_version(), v("2.10"), "asking for nothing gets the new minimum");
    assert_eq!(retired.id(), "v2.1", "the id stays");
    // 2.10 to 2.59 have their own, later sunset.
    let second = t("2026-09-01");
    assert_eq!(
        API.retire_below_at(v("2.60"), sunset).unwrap_err(),
        RetireError::BeforeSunset { version: v("2.10"), sunset: second }
    );
    assert!(API.retire_below_at(v("2.60"), second_before(second)).is_err());
    assert_eq!(API.retire_below_at(v("2.60"), second).unwrap().min(), v("2.60"));
    // Below 2.61 would retire 2.60, which has no sunset.
    assert_eq!(
        API.retire_below_at(v("2.61"), t("2030-01-01")).unwrap_err(),
        RetireError::NoSunset(v("2.60"))
    );
    assert_eq!(API.retire_below_at(v("2.3"), sunset).unwrap_err(), RetireError::NotInHistory(v("2.3")));
    let capped = API.capped_at(v("2.2")).unwrap();
    assert_eq!(
        capped.retire_below_at(v("2.10"), sunset).unwrap_err(),
        RetireError::AboveMax { below: v("2.10"), max: v("2.2") }
    );
    // Retiring nothing (below the first version) is allowed and changes nothing.
    assert_eq!(API.retire_below_at(v("2.1"), t("2000-01-01")).unwrap().min(), v("2.1"));
    // A cap below the new minimum is refused.
    assert_eq!(
        retired.capped_at(v("2.2")).unwrap_err(),
        CapError::BelowDefault { cap: v("2.2"), default: v("2.10") }
    );
}

#[test]
fn retired_versions_answer_406_naming_the_sunset_and_the_oldest_version() {
    let retired = API.retire_below_at(v("2.10"), t("2026-08-01")).unwrap();
    let err = retired.negotiate([("OpenStack-API-Version", "compute 2.2")]).unwrap_err();
    assert_eq!(err.status(), 406);
    assert_eq!(
        err,
        NegotiationError::Retired { requested: v("2.2"), sunset: t(SUNSET), min: v("2.10"), max: v("2.61") }
    );
    assert_eq!(
        err.to_string(),
        "Version 2.2 was retired after its sunset on 2026-07-01T12:00:00Z. \
         The oldest version served is 2.10; maximum is 2.61."
    );
    let legacy = retired.negotiate([("X-OpenStack-Nova-API-Version", "2.1")]).unwrap_err();
    assert!(matches!(legacy, NegotiationError::Retired { .. }));
    // Undeclared versions below the minimum stay plain 406s.
    let undeclared = retired.negotiate([("OpenStack-API-Version", "compute 2.3")]).unwrap_err();
    assert!(matches!(undeclared, NegotiationError::NotAcceptable { .. }), "{undeclared:?}");
    assert_eq!(undeclared.min(), v("2.10"));
    // The boundary version and the default.
    let at_min = retired.negotiate([("OpenStack-API-Version", "compute 2.10")]).unwrap();
    assert_eq!(at_min.version, v("2.10"));
    let none: [(&str, &str); 0] = [];
    let default = retired.negotiate(none).unwrap();
    assert_eq!(
        (default.version, default.source, default.header),
        (v("2.10"), VersionSource::Default, VersionHeader::None)
    );
    assert!(!retired.serves(v("2.2")) && retired.serves(v("2.10")));
    assert_eq!(retired.served_versions().next(), Some(v("2.10")));
}

#[test]
fn the_header_that_chose_the_version_is_recorded() {
    let standard = API.negotiate([("OpenStack-API-Version", "compute latest")]).unwrap();
    assert_eq!((standard.source, standard.header), (VersionSource::Latest, VersionHeader::Standard));
    let legacy = API.negotiate([("X-OpenStack-Nova-API-Version", "2.2")]).unwrap();
    assert_eq!((legacy.source, legacy.header), (VersionSource::Explicit, VersionHeader::Legacy));
    let both =
        API.negotiate([("X-OpenStack-Nova-API-Version", "2.2"), ("OpenStack-API-Version", "compute 2.10")]);
    assert_eq!(both.unwrap().header, VersionHeader::Standard);
    let other_service = API.negotiate([("OpenStack-API-Version", "volume 3.1")]).unwrap();
    assert_eq!(other_service.header, VersionHeader::None);
    assert_eq!(VersionHeader::Legacy.as_str(), "legacy");
}

#[test]
fn discovery_announces_the_next_minimum_and_the_status() {
    let (next, not_before) = API.next_min_version().unwrap();
    assert_eq!((next, not_before), (v("2.10"), t(SUNSET)));
    let doc = serde_json::to_value(VersionList::new(&[API], "http://h")).unwrap();
    let entry = &doc["versions"][0];
    assert_eq!(entry["min_version"], "2.1");
    assert_eq!(entry["next_min_version"], "2.10");
    assert_eq!(entry["not_before"], "2026-07-01T12:00:00Z");
    // After retiring 2.1 and 2.2, the next planned minimum is 2.60.
    let retired = API.retire_below_at(v("2.10"), t("2026-08-01")).unwrap();
    assert_eq!(retired.next_min_version(), Some((v("2.60"), t("2026-09-01"))));
    let doc = serde_json::to_value(retired.version_document("http://h")).unwrap();
    assert_eq!((&doc["min_version"], &doc["next_min_version"]), (&"2.10".into(), &"2.60".into()));
    assert_eq!(doc["not_before"], "2026-09-01");
    // Without a sunset, or with the range not holding the minimum, nothing is announced.
    const NO_SUNSET: Api =
        Api::new("compute", &HISTORY).with_deprecation(Deprecation::versions("2.1", "2.2").since(SINCE));
    assert_eq!(NO_SUNSET.next_min_version(), None);
    let doc = serde_json::to_value(NO_SUNSET.version_document("http://h")).unwrap();
    assert!(doc.get("next_min_version").is_none() && doc.get("not_before").is_none());
    const LATER: Api = Api::new("compute", &HISTORY)
        .with_deprecation(Deprecation::versions("2.10", "2.59").since(SINCE).sunset("2026-09-01"));
    assert_eq!(LATER.next_min_version(), None);
    // The whole API: DEPRECATED from its date on, to the second.
    const OLD: Api = Api::new("compute", &HISTORY)
        .with_deprecation(Deprecation::whole_api().since("2026-01-01T00:00:00Z"));
    assert_eq!(OLD.status_at(second_before(t(SINCE))), VersionStatus::Current);
    assert_eq!(OLD.status_at(t(SINCE)), VersionStatus::Deprecated);
    assert_eq!(API.status_at(t("2030-01-01")), VersionStatus::Current, "ranges leave the status");
    assert_eq!(OLD.deprecation_for(v("2.61")).unwrap().versions_covered(), None);
}

#[test]
fn rendered_history_marks_deprecated_versions() {
    let md = API.history_markdown();
    assert!(md.contains("| 2.2 | b (deprecated since 2026-01-01, sunset 2026-07-01T12:00:00Z) |"), "{md}");
    assert!(md.contains("| 2.60 | e |"), "{md}");
}

#[test]
fn a_cap_handle_negotiates_at_its_current_value() {
    let cap = VersionCap::new(&API.capped_at(v("2.59")).unwrap());
    let latest = [("OpenStack-API-Version", "compute latest")];
    assert_eq!(API.negotiate_up_to(latest, cap.get()).unwrap().version, v("2.59"));
    let err = API.negotiate_up_to([("OpenStack-API-Version", "compute 2.60")], cap.get()).unwrap_err();
    assert_eq!((err.status(), err.max()), (406, v("2.59")));
    cap.set(v("2.61")).unwrap();
    assert_eq!(API.negotiate_up_to(latest, cap.get()).unwrap().version, v("2.61"));
    assert_eq!(cap.set(v("2.3")), Err(CapError::NotInHistory(v("2.3"))));
    assert_eq!(cap.get(), v("2.61"));
}

#[test]
#[should_panic(expected = "two deprecated ranges overlap")]
fn overlapping_deprecated_ranges_are_refused() {
    let _ = Api::new("compute", &HISTORY)
        .with_deprecation(Deprecation::versions("2.1", "2.10").since(SINCE))
        .with_deprecation(Deprecation::versions("2.10", "2.59").since(SINCE));
}

#[test]
#[should_panic(expected = "start and end at versions of the history")]
fn a_deprecated_range_must_name_declared_versions() {
    let _ = Api::new("compute", &HISTORY).with_deprecation(Deprecation::versions("2.1", "2.3").since(SINCE));
}

#[test]
#[should_panic(expected = "the whole API can be deprecated once only")]
fn the_whole_api_is_deprecated_once() {
    let _ = Api::new("compute", &HISTORY)
        .with_deprecation(Deprecation::whole_api().since(SINCE))
        .with_deprecation(Deprecation::whole_api().since(SINCE));
}

#[test]
#[should_panic(expected = "a link must be printable ASCII")]
fn a_link_must_fit_in_a_link_header() {
    let _ = Deprecation::whole_api().since(SINCE).link("https://docs.example/a b");
}
