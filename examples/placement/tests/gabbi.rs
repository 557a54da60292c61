//! Placement's own gabbi tests (from the `openstack-placement` wheel,
//! unmodified) against this example, each file against a fresh server and
//! database.
//!
//! A virtual environment with gabbi (`interop/requirements.txt`) and the
//! Placement wheel without its dependencies (`interop/requirements-no-deps.txt`)
//! is made once under the cargo target directory and reused while neither
//! file changes. `python3` with `venv` and access to PyPI are required.
//!
//! `interop/expected.txt` (stage 1: everything but the allocation
//! candidates family) and `interop/expected-stage2.txt` (stage 2: that
//! family) are the floors: per file, how many tests pass. A file doing
//! worse fails the test; the counts are printed per stage. The floors
//! cannot vanish: a missing floor file, or a file run with no line in its
//! floor file, fails the test. Set `GABBI_FILES=a.yaml,b.yaml` to run some
//! files only, `GABBI_VERBOSE=1` to see every failure, and
//! `GABBI_WRITE_EXPECTED=1` to raise the floors to the counts of a full
//! run (and add the lines of new files): it refuses, naming the floor file,
//! to lower any.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use microversion_testkit::python;
use placement::RunningServer;

const RUN_TIMEOUT: Duration = Duration::from_secs(900);

/// The allocation candidates family, stage 2.
const CANDIDATE_PREFIXES: [&str; 4] =
    ["allocation-candidates", "granular", "same-subtree", "shared-resources"];

/// Not run: policy and RBAC, CORS and keystone authentication (no keystone
/// here).
fn excluded(name: &str) -> bool {
    !name.ends_with(".yaml")
        || name.contains("-rbac")
        || name.contains("-policy")
        || ["cors.yaml", "non-cors.yaml", "confirm-auth.yaml"].contains(&name)
}

/// Stage 1: everything but the excluded files and the allocation
/// candidates family.
fn in_stage_one(name: &str) -> bool {
    !excluded(name) && !CANDIDATE_PREFIXES.iter().any(|p| name.starts_with(p))
}

/// Stage 2: the allocation candidates family.
fn in_stage_two(name: &str) -> bool {
    !excluded(name) && CANDIDATE_PREFIXES.iter().any(|p| name.starts_with(p))
}

/// Whether a file belongs to a stage.
type Member = fn(&str) -> bool;

/// The stages: name, membership, floor file.
const STAGES: [(&str, Member, &str); 2] =
    [("stage 1", in_stage_one, "expected.txt"), ("stage 2", in_stage_two, "expected-stage2.txt")];

fn interop_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("interop")
}

/// Runs `command`, killing it after `timeout`; gives (success, output).
fn run(command: Command, timeout: Duration) -> (bool, String) {
    let shown = format!("{command:?}");
    let run = python::run(command, timeout).unwrap_or_else(|e| panic!("cannot start {shown}: {e}"));
    (run.ok(), run.output)
}

/// Makes (or reuses) the venv of gabbi and Placement's wheel and returns its python.
fn venv_python() -> PathBuf {
    let requirements = [
        (interop_dir().join("requirements.txt"), false),
        (interop_dir().join("requirements-no-deps.txt"), true),
    ];
    python::venv(Path::new(env!("CARGO_TARGET_TMPDIR")), "gabbi-venv", &requirements)
        .unwrap_or_else(|message| panic!("{message}"))
}

/// Per gabbi file: tests passing (the floor, or a run's count) and tests.
type Counts = BTreeMap<String, (usize, usize)>;

/// A committed floor file, `name passed total` per line. A missing or
/// unreadable file is a failure: a floor that is not there holds nothing.
fn expected(file: &str) -> Counts {
    let path = interop_dir().join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "the floor file {} cannot be read ({e}): the floors of the gabbi files are committed \
             there; restore it (git checkout) rather than run without floors",
            path.display()
        )
    });
    parse_floors(file, &text).unwrap_or_else(|message| panic!("{message}"))
}

/// The lines of floor file `file`.
fn parse_floors(file: &str, text: &str) -> Result<Counts, String> {
    let mut floors = Counts::new();
    for line in text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
        let parts: Vec<&str> = line.split_whitespace().collect();
        let [name, passed, total] = parts.as_slice() else {
            return Err(format!("{file}: a line is not `name passed total`: {line}"));
        };
        let (Ok(passed), Ok(total)) = (passed.parse(), total.parse()) else {
            return Err(format!("{file}: a count is not a number: {line}"));
        };
        if floors.insert(name.to_string(), (passed, total)).is_some() {
            return Err(format!("{file}: {name} has two lines"));
        }
    }
    Ok(floors)
}

/// The floor of gabbi file `name` in floor file `file`: a file run without
/// a line there is a failure, never a floor of 0.
fn floor_of(file: &str, floors: &Counts, name: &str) -> Result<usize, String> {
    floors.get(name).map(|&(passed, _)| passed).ok_or_else(|| {
        format!(
            "{name}: no floor in interop/{file}; add the line `{name} PASSED TOTAL` \
             (GABBI_WRITE_EXPECTED=1 adds it from a full run)"
        )
    })
}

/// The floors once raised to a run's `results` (the files of the stage
/// only): a file doing better raises its floor, a new file gets its line,
/// a file not run keeps its line. Lowering a floor is refused, naming
/// `file` and every file that would go down.
fn raised_floors(file: &str, floors: &Counts, results: &Counts) -> Result<Counts, String> {
    let lowered: Vec<String> = results
        .iter()
        .filter_map(|(name, &(passed, _))| {
            let &(floor, _) = floors.get(name)?;
            (passed < floor).then(|| format!("{name}: {passed} passed, the floor is {floor}"))
        })
        .collect();
    if !lowered.is_empty() {
        return Err(format!(
            "GABBI_WRITE_EXPECTED: refusing to lower floors in interop/{file} (floors only go up; \
             fix the regression, or edit the file by hand and say why in the commit):\n{}",
            lowered.join("\n")
        ));
    }
    let mut raised = floors.clone();
    raised.extend(results.iter().map(|(name, counts)| (name.clone(), *counts)));
    Ok(raised)
}

/// Floor file `file` as written by `GABBI_WRITE_EXPECTED`.
fn floors_text(stage: &str, floors: &Counts) -> String {
    let mut text = format!("# Placement's gabbi files ({stage}): name, tests passing (the floor), tests.\n");
    for (name, (passed, total)) in floors {
        text.push_str(&format!("{name} {passed} {total}\n"));
    }
    text
}

#[test]
fn floors_cannot_vanish() {
    let floors = parse_floors("f.txt", "# comment\na.yaml 3 4\nb.yaml 2 2\n").expect("floors");
    assert_eq!(floor_of("f.txt", &floors, "a.yaml"), Ok(3));
    let missing = floor_of("f.txt", &floors, "c.yaml").expect_err("no floor for a new file");
    assert!(missing.contains("c.yaml") && missing.contains("interop/f.txt"), "{missing}");
    assert!(parse_floors("f.txt", "a.yaml 3\n").is_err(), "a short line");
    assert!(parse_floors("f.txt", "a.yaml x 4\n").is_err(), "a count that is not one");
    assert!(parse_floors("f.txt", "a.yaml 3 4\na.yaml 2 4\n").is_err(), "a file twice");

    // Raising: better counts raise, new files are added, files not run stay.
    let results: Counts = [("a.yaml".to_owned(), (4, 4)), ("c.yaml".to_owned(), (1, 5))].into();
    let raised = raised_floors("f.txt", &floors, &results).expect("raised");
    assert_eq!(raised["a.yaml"], (4, 4));
    assert_eq!(raised["b.yaml"], (2, 2));
    assert_eq!(raised["c.yaml"], (1, 5));
    // Lowering any is refused, naming the floor file and the gabbi file.
    let results: Counts = [("a.yaml".to_owned(), (4, 4)), ("b.yaml".to_owned(), (1, 2))].into();
    let refused = raised_floors("f.txt", &floors, &results).expect_err("a lower floor");
    assert!(
        refused.contains("interop/f.txt") && refused.contains("b.yaml: 1 passed, the floor is 2"),
        "{refused}"
    );

    // The committed floor files are there and readable.
    for (stage, _, file) in STAGES {
        assert!(!expected(file).is_empty(), "{stage}: {file} has no floors");
    }
    let text = floors_text("stage 1", &floors);
    assert_eq!(parse_floors("f.txt", &text).expect("written floors read back"), floors);
}

#[test]
fn placement_gabbits() {
    let databases = tempdir();
    run_stages("SQLite", true, |name, _| {
        RunningServer::start(&databases.join(format!("{name}.sqlite"))).expect("a server starts")
    });
    let _ = std::fs::remove_dir_all(&databases);
}

/// Both stages once more, on PostgreSQL: a private server (initdb and
/// pg_ctl from the PostgreSQL packages, on a free loopback port, in a temp
/// dir, as an unprivileged user when run as root), a fresh database per
/// file, the same floors. `PG_BINDIR` names the directory of `initdb` and
/// `pg_ctl` (default: the newest `/usr/lib/postgresql/*/bin`, or `PATH`).
#[test]
fn placement_gabbits_postgres() {
    let pg = microversion_testkit::postgres::PgServer::start();
    run_stages("PostgreSQL", false, |_, i| {
        let url = pg.create_database(&format!("gabbi_{i}"));
        RunningServer::start_at(&url).expect("a server starts on PostgreSQL")
    });
    generation_races(&pg.create_database("races"));
}

/// Runs the files of both stages (or `GABBI_FILES`), each against its own
/// server from `start(name, index)`, and checks each stage against its
/// floors; `may_write` lets `GABBI_WRITE_EXPECTED` raise them.
fn run_stages(backend: &str, may_write: bool, start: impl Fn(&str, usize) -> RunningServer) {
    let python = venv_python();
    let dir = gabbits_dir(&python);
    let only: Option<Vec<String>> =
        std::env::var("GABBI_FILES").ok().map(|v| v.split(',').map(str::to_owned).collect());
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("the gabbits directory")
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .filter(|n| in_stage_one(n) || in_stage_two(n))
        .filter(|n| only.as_ref().is_none_or(|o| o.contains(n)))
        .collect();
    files.sort();
    if only.is_none() {
        for (stage, member, file) in STAGES {
            for name in expected(file).keys() {
                assert!(
                    files.contains(name) && member(name),
                    "{name} is in {file} but not among the {stage} gabbits"
                );
            }
        }
    }
    let mut servers = Vec::new();
    let mut args = Vec::new();
    for (i, name) in files.iter().enumerate() {
        let server = start(name, i);
        args.push(format!("{name}={}", server.url));
        servers.push(server);
    }
    let started = Instant::now();
    let mut command = Command::new(&python);
    command
        .arg(interop_dir().join("run_gabbits.py"))
        .args(&args)
        .current_dir(interop_dir())
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .env("NO_PROXY", "127.0.0.1,localhost")
        .env("no_proxy", "127.0.0.1,localhost");
    let (ok, output) = run(command, RUN_TIMEOUT);
    drop(servers);
    assert!(ok, "the gabbi runner failed: {output}");
    let results = results(&output);
    let mut regressions = Vec::new();
    let asked_to_write = may_write && std::env::var_os("GABBI_WRITE_EXPECTED").is_some();
    let writing = asked_to_write && only.is_none();
    if asked_to_write && only.is_some() {
        eprintln!("GABBI_WRITE_EXPECTED: nothing written, GABBI_FILES runs only some files");
    }
    for (stage, member, file) in STAGES {
        let expected = expected(file);
        let (mut passed_sum, mut total_sum) = (0, 0);
        eprintln!("{:<45} {:>7} {:>7}", format!("file ({stage} on {backend})"), "passed", "total");
        for name in files.iter().filter(|n| member(n)) {
            let Some(&(passed, total)) = results.get(name) else {
                regressions.push(format!("{name}: no result"));
                continue;
            };
            passed_sum += passed;
            total_sum += total;
            let floor = match floor_of(file, &expected, name) {
                Ok(floor) => floor,
                Err(message) => {
                    eprintln!("{name:<45} {passed:>7} {total:>7}  NO FLOOR");
                    if !writing {
                        regressions.push(message);
                    }
                    continue;
                }
            };
            let mark = if passed < floor {
                "  REGRESSION"
            } else if passed > floor {
                "  (improved)"
            } else {
                ""
            };
            eprintln!("{name:<45} {passed:>7} {total:>7}{mark}");
            if passed < floor {
                regressions.push(format!("{name}: {passed} passed, the floor is {floor}"));
            }
        }
        eprintln!("{:<45} {passed_sum:>7} {total_sum:>7}", format!("total ({stage} on {backend})"));
        if writing {
            let run: Counts =
                results.iter().filter(|(n, _)| member(n)).map(|(n, c)| (n.clone(), *c)).collect();
            let raised = raised_floors(file, &expected, &run).unwrap_or_else(|message| panic!("{message}"));
            std::fs::write(interop_dir().join(file), floors_text(stage, &raised)).expect("the floor written");
        }
    }
    eprintln!("in {:.1} s", started.elapsed().as_secs_f64());
    if std::env::var_os("GABBI_VERBOSE").is_some() {
        eprintln!("{output}");
    }
    assert!(regressions.is_empty(), "regressions against the floors:\n{}\n{output}", regressions.join("\n"));
}

/// The `RESULT name passed total` lines of the runner's output.
fn results(output: &str) -> BTreeMap<String, (usize, usize)> {
    let mut results = BTreeMap::new();
    for line in output.lines() {
        if let Some(rest) = line.strip_prefix("RESULT ") {
            let parts: Vec<&str> = rest.split_whitespace().collect();
            if let [name, passed, total] = parts.as_slice() {
                results.insert(
                    name.to_string(),
                    (passed.parse::<usize>().unwrap(), total.parse::<usize>().unwrap()),
                );
            }
        }
    }
    results
}

/// The gabbits directory of the installed wheel.
fn gabbits_dir(python: &Path) -> PathBuf {
    let mut command = Command::new(python);
    command.args(["-c", "import importlib.util, os; print(os.path.join(list(importlib.util.find_spec('placement').submodule_search_locations)[0], 'tests', 'functional', 'gabbits'))"]);
    let (ok, dir) = run(command, Duration::from_secs(60));
    assert!(ok, "cannot find the gabbits: {dir}");
    PathBuf::from(dir.trim())
}

/// Concurrent writers of one provider on PostgreSQL, each holding the
/// generation it read: one wins, every other gets 409
/// `placement.concurrent_update`, and nothing is lost (the generation moved
/// once per win).
fn generation_races(url: &str) {
    use microversion_testkit::http::Request;
    let server = RunningServer::start_at(url).expect("a server starts on PostgreSQL");
    let base = server.url.clone();
    let rp = "7a7a7a7a-0000-4000-8000-000000000001";
    let version = ("OpenStack-API-Version", "placement 1.39");
    let res = Request::new("POST", "/resource_providers")
        .header(version.0, version.1)
        .json(&serde_json::json!({"name": "race", "uuid": rp}))
        .send(&base);
    assert_eq!(res.status, 200, "{}", res.describe());
    let mut wins = 0;
    for round in 0..10 {
        let generation = round;
        let statuses: Vec<(u16, serde_json::Value)> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..8)
                .map(|i| {
                    let base = &base;
                    scope.spawn(move || {
                        let body = serde_json::json!({
                            "resource_provider_generation": generation,
                            "inventories": {"VCPU": {"total": 10 + i}},
                        });
                        let res = Request::new("PUT", &format!("/resource_providers/{rp}/inventories"))
                            .header(version.0, version.1)
                            .json(&body)
                            .send(base);
                        let body = if res.body.is_empty() { serde_json::Value::Null } else { res.json() };
                        (res.status, body)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("a writer")).collect()
        });
        let won: Vec<_> = statuses.iter().filter(|(s, _)| *s == 200).collect();
        assert_eq!(won.len(), 1, "round {round}: one writer wins: {statuses:?}");
        for (status, body) in statuses.iter().filter(|(s, _)| *s != 200) {
            assert_eq!(*status, 409, "round {round}: {body}");
            assert_eq!(body["errors"][0]["code"], "placement.concurrent_update", "round {round}: {body}");
        }
        wins += 1;
        let res = Request::get(&format!("/resource_providers/{rp}/inventories"))
            .header(version.0, version.1)
            .send(&base);
        let body = res.json();
        assert_eq!(body["resource_provider_generation"], wins, "round {round}: {body}");
        assert_eq!(
            body["inventories"]["VCPU"]["total"], won[0].1["inventories"]["VCPU"]["total"],
            "the winner's write"
        );
    }
}

fn tempdir() -> PathBuf {
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("gabbi-db-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a database directory");
    dir
}
