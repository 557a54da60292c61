//! The compute API described: the committed document of every released
//! version is unchanged, the whole-history document's ranges are the
//! declared ones, and the documents and the reference pages are served as
//! the contract says.

use super::FRAMEWORK;

#[path = "../common/python.rs"]
mod python;

use compute::Version;
use compute::{COMPUTE, RunningServer};
use microversion_core::openapi::{BLESS_VARIABLE, OpenApiVersion, check_released, check_released_as};
use serde_json::Value;

fn get(url: &str, headers: &[(&str, &str)]) -> (u16, Vec<(String, String)>, Value) {
    let mut request = ureq_like::Request::get(url);
    for (name, value) in headers {
        request = request.header(name, value);
    }
    request.send()
}

/// A tiny blocking HTTP/1.1 client over `std::net`, enough for these checks.
mod ureq_like {
    use std::io::{Read, Write};
    use std::net::TcpStream;

    pub(crate) struct Request {
        url: String,
        headers: Vec<(String, String)>,
    }

    impl Request {
        pub(crate) fn get(url: &str) -> Request {
            Request { url: url.to_owned(), headers: Vec::new() }
        }

        pub(crate) fn header(mut self, name: &str, value: &str) -> Request {
            self.headers.push((name.to_owned(), value.to_owned()));
            self
        }

        pub(crate) fn send(self) -> (u16, Vec<(String, String)>, serde_json::Value) {
            let rest = self.url.strip_prefix("http://").expect("an http URL");
            let (host, path) =
                rest.split_once('/').map_or((rest, "/".to_owned()), |(h, p)| (h, format!("/{p}")));
            let mut stream = TcpStream::connect(host).expect("the server is up");
            let mut head = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
            for (name, value) in &self.headers {
                head.push_str(&format!("{name}: {value}\r\n"));
            }
            head.push_str("\r\n");
            stream.write_all(head.as_bytes()).expect("request sent");
            let mut raw = Vec::new();
            stream.read_to_end(&mut raw).expect("response read");
            let text = String::from_utf8_lossy(&raw).into_owned();
            let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
            let mut lines = head.lines();
            let status =
                lines.next().and_then(|l| l.split(' ').nth(1)).and_then(|s| s.parse().ok()).unwrap_or(0);
            let headers = lines
                .filter_map(|l| l.split_once(':'))
                .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
                .collect();
            (status, headers, serde_json::from_str(body).unwrap_or(serde_json::Value::Null))
        }
    }
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
}

#[test]
fn released_versions_are_frozen() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi");
    if let Err(report) = check_released(&compute::description(COMPUTE), dir) {
        panic!("{report}");
    }
}

/// The OpenAPI 3.0.3 copies, frozen beside the 3.1 ones (`openapi/3.0/`),
/// under the same rule: only the newest version can be blessed.
#[test]
fn released_versions_are_frozen_in_openapi_3_0() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/3.0");
    let bless = std::env::var(BLESS_VARIABLE).ok();
    let description = compute::description(COMPUTE);
    if let Err(report) = check_released_as(&description, dir, OpenApiVersion::V3_0, bless.as_deref()) {
        panic!("{report}");
    }
}

/// A change to a frozen document fails saying whether clients survive it:
/// an added operation is compatible, a removed response field breaks.
#[test]
fn a_changed_frozen_document_says_whether_clients_break() {
    let description = compute::description(COMPUTE);
    let dir =
        std::env::temp_dir().join(format!("compute-frozen-{}-{}", FRAMEWORK.name(), std::process::id()));
    let newest = COMPUTE.compiled_max();
    let write = |document: &Value| {
        std::fs::create_dir_all(&dir).expect("a temp dir");
        for version in COMPUTE.history().iter().map(|m| m.version) {
            let text = if version == Version::lit("2.1") {
                document.to_string()
            } else {
                description.document_3_0(version).to_string()
            };
            std::fs::write(dir.join(format!("{version}.json")), text).expect("written");
        }
    };
    let check = || check_released_as(&description, &dir, OpenApiVersion::V3_0, None);
    // The committed 2.1 lacked an operation the server has: compatible.
    let mut fewer = description.document_3_0(Version::lit("2.1"));
    fewer["paths"]["/v2.1/os-keypairs/{name}"].as_object_mut().expect("an item").remove("delete");
    write(&fewer);
    let report = check().expect_err("2.1 changed");
    assert!(
        report.starts_with("2.1: the contract of a released version changed, compatible for clients"),
        "{report}"
    );
    assert!(
        report.contains("compatible: /paths/~1v2.1~1os-keypairs~1{name}/delete: operation added"),
        "{report}"
    );
    assert_eq!(report.lines().count(), 2, "only 2.1 fails: {report}");
    // The committed 2.1 promised a field the server no longer sends: breaking.
    let mut more = description.document_3_0(Version::lit("2.1"));
    let show = "/paths/~1v2.1~1flavors~1{id}/get/responses/200/content/application~1json/schema/properties/flavor/properties";
    more.pointer_mut(show).expect("the flavor's fields")["gone"] = serde_json::json!({"type": "string"});
    write(&more);
    let report = check().expect_err("2.1 changed");
    assert!(report.contains("BREAKING for clients (1 of 1 changes break)"), "{report}");
    assert!(report.contains(&format!("breaking: {show}/gone: field removed")), "{report}");
    // Blessing stays the newest version's only.
    let refused =
        check_released_as(&description, &dir, OpenApiVersion::V3_0, Some("2.1")).expect_err("refused");
    assert!(refused.contains(&format!("only the newest declared version, {newest}")), "{refused}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every operation lists exactly the error statuses it answers, each with
/// the Nova fault schema: never a `4XX` wildcard.
#[test]
fn operations_declare_their_error_statuses() {
    let description = compute::description(COMPUTE);
    let statuses = |doc: &Value, path: &str, method: &str| -> Vec<String> {
        let responses = &doc["paths"][format!("/v2.1{path}")][method]["responses"];
        responses.as_object().map(|r| r.keys().cloned().collect()).unwrap_or_default()
    };
    for version in COMPUTE.history().iter().map(|m| m.version) {
        let doc = description.document(version);
        for (path, item) in doc["paths"].as_object().expect("paths") {
            for (method, operation) in item.as_object().expect("an item") {
                for (status, response) in operation["responses"].as_object().expect("responses") {
                    assert!(status.parse::<u16>().is_ok(), "{version} {method} {path}: {status}");
                    if status.starts_with('4') || status.starts_with('5') {
                        assert_eq!(
                            response["content"]["application/json"]["schema"]["$ref"],
                            "#/components/schemas/Error",
                            "{version} {method} {path} {status}"
                        );
                    }
                }
                // The store may fail under any operation; the version header may be wrong on any.
                let listed = statuses(&doc, path.strip_prefix("/v2.1").unwrap_or(path), method);
                for status in ["400", "406", "500", "503"] {
                    assert!(listed.iter().any(|s| s == status), "{version} {method} {path} lists {status}");
                }
            }
        }
    }
    let at = |v: &str| description.document(v.parse().expect("a version"));
    // A show by id: its own 404; no body, no 408/413/415.
    assert_eq!(statuses(&at("2.1"), "/flavors/{id}", "get"), ["200", "400", "404", "406", "500", "503"]);
    // PUT /flavors/{id} exists from 2.55: 404 at 2.1 (the version a request without a header gets),
    // and the body's statuses.
    assert_eq!(
        statuses(&at("2.55"), "/flavors/{id}", "put"),
        ["200", "400", "404", "406", "408", "413", "415", "500", "503"]
    );
    // Create: the body's statuses, the quota (`_check_key_pair_quotas`) and the conflict.
    assert_eq!(
        statuses(&at("2.2"), "/os-keypairs", "post"),
        ["201", "400", "403", "406", "408", "409", "413", "415", "500", "503"]
    );
    // Path parameters are never empty.
    let show = &at("2.96")["paths"]["/v2.1/flavors/{id}"]["get"];
    assert_eq!(show["parameters"][0]["schema"]["minLength"], 1);
}

/// The ranges Nova's history gives each flavor and keypair operation,
/// written out here, against the whole-history document.
#[test]
fn the_history_document_has_the_declared_ranges() {
    let history = compute::description(COMPUTE).history_document();
    let operation = |path: &str, method: &str| history["paths"][format!("/v2.1{path}")][method].clone();
    let range = |value: &Value| {
        (
            value["x-openstack"]["min-ver"].as_str().map(str::to_owned),
            value["x-openstack"]["max-ver"].as_str().map(str::to_owned),
        )
    };
    let always = (None, None);
    for (path, method) in [
        ("/flavors", "get"),
        ("/flavors", "post"),
        ("/flavors/detail", "get"),
        ("/flavors/{id}", "get"),
        ("/flavors/{id}", "delete"),
        ("/flavors/{id}/os-extra_specs", "get"),
        ("/flavors/{id}/os-extra_specs", "post"),
        ("/flavors/{id}/os-extra_specs/{key}", "get"),
        ("/flavors/{id}/os-extra_specs/{key}", "put"),
        ("/flavors/{id}/os-extra_specs/{key}", "delete"),
        ("/os-keypairs", "get"),
        ("/os-keypairs", "post"),
        ("/os-keypairs/{name}", "get"),
        ("/os-keypairs/{name}", "delete"),
    ] {
        let op = operation(path, method);
        assert!(op.is_object(), "{method} {path} is described");
        assert_eq!(range(&op), always, "{method} {path} exists at every version");
        assert!(op.get("deprecated").is_none(), "{method} {path} is live");
    }
    let update = operation("/flavors/{id}", "put");
    assert_eq!(range(&update), (Some("2.55".into()), None), "PUT /flavors/{{id}} arrived at 2.55");

    // Flavor create bodies: 2.1 to 2.54, then 2.55 with a description.
    let schemas = &history["components"]["schemas"];
    let refs = |container: &str| -> Vec<(Option<String>, Option<String>)> {
        schemas[container]["oneOf"]
            .as_array()
            .expect("a oneOf container")
            .iter()
            .map(|r| {
                let name = r["$ref"].as_str().unwrap_or_default().rsplit('/').next().unwrap_or_default();
                range(&schemas[name])
            })
            .collect()
    };
    assert_eq!(schemas["FlavorsCreateRequest"]["x-openstack"]["discriminator"], "microversion");
    assert_eq!(refs("FlavorsCreateRequest"), [(None, Some("2.54".into())), (Some("2.55".into()), None)]);
    // Keypair create bodies: 2.1, 2.2 to 2.9 (type), 2.10 to 2.91 (user_id), 2.92 (import only).
    assert_eq!(
        refs("OsKeypairsCreateRequest"),
        [
            (None, Some("2.1".into())),
            (Some("2.2".into()), Some("2.9".into())),
            (Some("2.10".into()), Some("2.91".into())),
            (Some("2.92".into()), None)
        ]
    );
    // Keypair create answers 200 at 2.1 and 201 from 2.2; delete 202 then 204.
    let create = operation("/os-keypairs", "post");
    assert_eq!(range(&create["responses"]["200"]), (None, Some("2.1".into())));
    assert_eq!(range(&create["responses"]["201"]), (Some("2.2".into()), None));
    let delete = operation("/os-keypairs/{name}", "delete");
    assert_eq!(range(&delete["responses"]["202"]), (None, Some("2.1".into())));
    assert_eq!(range(&delete["responses"]["204"]), (Some("2.2".into()), None));
    // Flavor views change at 2.55 (description), 2.61 (extra_specs) and 2.75 (swap).
    assert_eq!(
        refs("FlavorsShowResponse"),
        [
            (None, Some("2.54".into())),
            (Some("2.55".into()), Some("2.60".into())),
            (Some("2.61".into()), Some("2.74".into())),
            (Some("2.75".into()), None)
        ]
    );
    // The deprecation of 2.1 to 2.59, with its dates; the per-version documents do not change.
    let deprecations = &history["info"]["x-openstack-deprecations"];
    assert_eq!(deprecations[0]["max-ver"], "2.59", "{deprecations}");
    assert!(
        deprecations[0]["sunset"].as_str().is_some_and(|s| s.starts_with("2027-06-01")),
        "{deprecations}"
    );
    // Query parameters: paging of keypairs from 2.35, user_id from 2.10.
    let parameters = operation("/os-keypairs", "get")["parameters"].clone();
    let parameter =
        |name: &str| parameters.as_array().and_then(|p| p.iter().find(|p| p["name"] == name)).cloned();
    assert_eq!(range(&parameter("limit").expect("limit")), (Some("2.35".into()), None));
    assert_eq!(range(&parameter("user_id").expect("user_id")), (Some("2.10".into()), None));
}

#[test]
fn documents_are_served_per_version_with_etags() {
    let server = RunningServer::start(FRAMEWORK).expect("the server starts");
    let (status, headers, latest) = get(&format!("{}/openapi.json", server.url), &[]);
    assert_eq!(status, 200);
    assert_eq!(latest["info"]["version"], "2.96");
    let etag = header(&headers, "etag").expect("an ETag").to_owned();
    assert!(header(&headers, "cache-control").is_some_and(|c| c.contains("max-age")));
    let (status, _, _) = get(&format!("{}/openapi.json", server.url), &[("If-None-Match", &etag)]);
    assert_eq!(status, 304);

    let (status, _, at_2_61) = get(&format!("{}/openapi.json?version=2.61", server.url), &[]);
    assert_eq!((status, at_2_61["info"]["version"].as_str()), (200, Some("2.61")));
    assert!(at_2_61["paths"]["/v2.1/flavors/{id}"]["put"].is_object(), "PUT exists at 2.61");
    let (_, _, at_2_54) = get(&format!("{}/openapi.json?version=2.54", server.url), &[]);
    assert!(at_2_54["paths"]["/v2.1/flavors/{id}"]["put"].is_null(), "PUT does not exist at 2.54");

    // The same answers as negotiation: 400 for a malformed version, 406 for one not served.
    let (status, headers, fault) = get(&format!("{}/openapi.json?version=2.010", server.url), &[]);
    assert_eq!(status, 400);
    assert_eq!(fault["badRequest"]["code"], 400);
    assert_eq!(header(&headers, "openstack-api-maximum-version"), Some("2.96"));
    let (status, _, fault) = get(&format!("{}/openapi.json?version=3.0", server.url), &[]);
    assert_eq!(status, 406);
    assert_eq!(
        (fault["computeFault"]["min_version"].as_str(), fault["computeFault"]["max_version"].as_str()),
        (Some("2.1"), Some("2.96"))
    );

    let (status, _, history) = get(&format!("{}/openapi-history.json", server.url), &[]);
    assert_eq!((status, history["info"]["version"].as_str()), (200, Some("2.96")));
}

#[test]
fn a_capped_server_describes_the_cap_at_most() {
    let server =
        RunningServer::start_with_cap(FRAMEWORK, Some(Version::lit("2.60"))).expect("the server starts");
    let (_, _, latest) = get(&format!("{}/openapi.json", server.url), &[]);
    assert_eq!(latest["info"]["version"], "2.60");
    let (status, _, _) = get(&format!("{}/openapi.json?version=2.61", server.url), &[]);
    assert_eq!(status, 406);
}

/// A page of the reference, answered 200 as HTML.
fn html_page(url: &str, path: &str) -> String {
    let res = microversion_testkit::http::Request::get(path).send(url);
    assert_eq!(res.status, 200, "{path}: {}", res.describe());
    assert_eq!(res.header("content-type").as_deref(), Some("text/html; charset=utf-8"));
    res.text()
}

/// The reference pages (docs/reference.md §14.8): flavors show their
/// `description` from 2.55 and not at 2.54, with the field's first version;
/// a version of the deprecated range says so; the switcher lists every
/// served version; `/docs` moves to `/docs/`; a version not served is
/// refused as negotiation refuses it.
#[test]
fn reference_pages_follow_the_version() {
    use microversion_testkit::http::Request;
    let server = RunningServer::start(FRAMEWORK).expect("the compute example starts");
    let page = |path: &str| html_page(&server.url, path);
    let (at_2_55, at_2_54) = (page("/docs/2.55"), page("/docs/2.54"));
    let description_row = "<code>flavor.description</code></th><td>string | null</td><td>2.55 – ";
    assert!(at_2_55.contains(description_row), "2.55 shows the flavor description");
    assert!(!at_2_54.contains("<code>flavor.description</code>"), "2.54 does not");
    assert!(at_2_54.contains("<strong>Version 2.54 is deprecated</strong>"), "2.1 to 2.59 are deprecated");
    assert!(!page("/docs/2.60").contains("id=\"deprecation\""), "2.60 is not deprecated");
    let newest = page("/docs/");
    assert!(newest.contains(&format!("reference at {}", COMPUTE.max())));
    assert!(!newest.contains("id=\"deprecation\""), "the newest version is not deprecated");
    for version in COMPUTE.served_versions() {
        assert!(newest.contains(&format!("<option value=\"{version}\"")), "the switcher lists {version}");
    }
    assert_eq!(page("/docs/?version=2.10"), page("/docs/2.10"), "the switcher's form asks ?version=");
    let moved = Request::get("/docs").send(&server.url);
    assert_eq!((moved.status, moved.header("location").as_deref()), (308, Some("docs/")));
    assert_eq!(Request::get("/docs/2.200").send(&server.url).status, 406);
    assert_eq!(Request::get("/docs/two").send(&server.url).status, 400);
}

/// The reference and the documents say what the handlers' and the models'
/// doc comments say, and a query key's type is the one the API reads:
/// `minRam`, `minDisk` and `limit` are integers, no key an array.
#[test]
fn the_reference_reads_the_sources_docs_and_types() {
    use microversion_testkit::http::Request;
    let server = RunningServer::start(FRAMEWORK).expect("the compute example starts");
    let page = Request::get("/docs/2.55").send(&server.url).text();
    assert!(
        page.contains(
            "<p class=\"summary\">Lists the flavors a project can use, by id and name, a page at a time.</p>"
        ),
        "the list's summary is its doc comment's first paragraph"
    );
    assert!(
        page.contains("<p>Reads the query keys <code>minRam</code> (the least memory, MiB)"),
        "and its description"
    );
    for (key, kind) in
        [("minRam", "integer"), ("minDisk", "integer"), ("limit", "integer"), ("marker", "string")]
    {
        let row = format!("<code>{key}</code></th><td>query</td><td>no</td><td>{kind}</td>");
        assert!(page.contains(&row), "{key} reads as {kind}");
    }
    assert!(!page.contains("<td>array of string</td>"), "no query key of the list repeats");
    assert!(
        page.contains("<td>A free-form description of the flavor, or null (from 2.55).</td>"),
        "a field's description is its doc comment"
    );
    let (status, _, document) = get(&format!("{}/openapi.json?version=2.55", server.url), &[]);
    assert_eq!(status, 200);
    let list = &document["paths"]["/v2.1/flavors"]["get"];
    assert_eq!(list["summary"], "Lists the flavors a project can use, by id and name, a page at a time.");
    assert!(list["description"].as_str().is_some_and(|d| d.starts_with("Reads the query keys `minRam`")));
    let parameter = |name: &str| {
        list["parameters"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|p| p["name"] == name)
            .cloned()
            .unwrap_or_default()
    };
    assert_eq!(parameter("minRam")["schema"], serde_json::json!({"type": "integer"}));
    assert_eq!(parameter("limit")["schema"], serde_json::json!({"type": "integer", "minimum": 0}));
    assert_eq!(parameter("minRam")["description"], "The least memory, MiB.");
    let (_, _, history) = get(&format!("{}/openapi-history.json", server.url), &[]);
    let keypairs = &history["paths"]["/v2.1/os-keypairs"]["get"];
    assert_eq!(keypairs["summary"], "Lists the keypairs of a user.");
    // Real examples, the ones tests/examples.rs checks against the service.
    let shown = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/api_samples/flavors/v2.55/flavor-get-resp.json"
    ))
    .expect("the 2.55 example of a flavor");
    let shown: serde_json::Value = serde_json::from_str(&shown).expect("JSON");
    let show = &document["paths"]["/v2.1/flavors/{id}"]["get"];
    assert_eq!(show["responses"]["200"]["content"]["application/json"]["example"], shown);
    assert!(
        page.contains("<summary>Example</summary><pre>{\n  &quot;flavor&quot;: {"),
        "a real example on the page"
    );
    assert!(page.contains("&quot;name&quot;: &quot;m1.tiny&quot;"), "with real values");
    assert!(
        page.contains("The examples below answer <code>GET /v2.1/flavors?limit=2</code>."),
        "and their request"
    );
}

/// `/docs/X.Y/changes` says what X.Y changed against the version before,
/// in the words of the frozen documents' comparison; the version pages
/// link to it and mark what is new.
#[test]
fn each_version_says_what_it_changed() {
    use microversion_testkit::http::Request;
    let server = RunningServer::start(FRAMEWORK).expect("the compute example starts");
    let page = |path: &str| html_page(&server.url, path);
    let at_2_55 = page("/docs/2.55/changes");
    assert!(at_2_55.contains("<h1>What 2.55 changed</h1>"));
    assert!(at_2_55.contains("<h2><code>PUT /v2.1/flavors/{id}</code></h2>"), "the new update");
    assert!(
        at_2_55.contains("<strong>compatible</strong>: response 200 flavor.description: "),
        "the flavor's description is named"
    );
    assert!(at_2_55.contains("request body flavor.description"), "and the create body's");
    let at_2_75 = page("/docs/2.75/changes");
    assert!(at_2_75.contains("<strong>breaking</strong>"), "2.75 refuses what 2.74 accepted");
    let quiet = page("/docs/2.56/changes");
    assert!(quiet.contains("Nothing this service describes changed"), "2.56 is outside this example");
    let reference = page("/docs/2.55");
    assert!(reference.contains("<a href=\"2.55/changes\">What 2.55 changed</a>"));
    assert!(
        reference.contains("<strong class=\"new\">New in 2.55</strong>"),
        "the description is marked new"
    );
    assert!(!page("/docs/2.56").contains("<strong class=\"new\">"), "nothing is new in 2.56");
    let at_2_10 = page("/docs/2.10");
    assert!(
        at_2_10
            .contains("<code>user_id</code> <strong class=\"new\">New in 2.10</strong></th><td>query</td>"),
        "a query parameter is marked new too"
    );
    assert!(
        at_2_10.contains("GET /v2.1/os-keypairs: parameter query user_id added."),
        "and the history says so"
    );
    assert_eq!(Request::get("/docs/2.200/changes").send(&server.url).status, 406);
    assert_eq!(Request::get("/docs/two/changes").send(&server.url).status, 400);
}

/// The reference pages in a real headless Chromium (Debian's `chromium`
/// and `chromium-driver`, which `.ci/run` installs; driven by Selenium):
/// the 2.55 page renders with its landmarks and loads nothing from
/// elsewhere, the switcher moves to 2.54 with the mouse and back from the
/// keyboard, 2.54 has no flavor `description` and says it is deprecated.
/// A screenshot of the 2.55 page is left in the target directory.
#[test]
fn reference_pages_in_a_real_browser() {
    let server = RunningServer::start(FRAMEWORK).expect("the compute example starts");
    let framework = format!("{:?}", FRAMEWORK).to_ascii_lowercase();
    let screenshot =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("reference-2.55-{framework}.png"));
    let screenshot = screenshot.to_str().expect("a UTF-8 path");
    python::run_script_with(
        python::browser_venv_python(),
        "reference_browser.py",
        &[&server.url, screenshot],
    );
    let png = std::fs::read(screenshot).expect("the screenshot was saved");
    assert!(png.starts_with(b"\x89PNG") && png.len() > 10_000, "a PNG of the page: {} bytes", png.len());
}

/// axe-core (the copy `axe-selenium-python` ships), in the same headless
/// Chromium, finds no serious or critical violation on `/docs/`,
/// `/docs/2.55` and `/docs/2.55/changes`.
#[test]
fn reference_pages_pass_axe_core() {
    let server = RunningServer::start(FRAMEWORK).expect("the compute example starts");
    python::run_script_with(python::browser_venv_python(), "reference_axe.py", &[&server.url]);
}
