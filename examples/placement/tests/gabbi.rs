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
//! worse fails the test; the counts are printed per stage. Set
//! `GABBI_FILES=a.yaml,b.yaml` to run some files only, `GABBI_VERBOSE=1`
//! to see every failure, and `GABBI_WRITE_EXPECTED=1` to raise the floor to
//! the counts of a full run.

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

/// A committed floor: `name passed total` per line.
fn expected(file: &str) -> BTreeMap<String, (usize, usize)> {
    let text = std::fs::read_to_string(interop_dir().join(file)).unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let parts: Vec<&str> = l.split_whitespace().collect();
            let [name, passed, total] = parts.as_slice() else { panic!("bad line in {file}: {l}") };
            (name.to_string(), (passed.parse().expect("a count"), total.parse().expect("a count")))
        })
        .collect()
}

#[test]
fn placement_gabbits() {
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
    let databases = tempdir();
    let mut servers = Vec::new();
    let mut args = Vec::new();
    for name in &files {
        let server =
            RunningServer::start(&databases.join(format!("{name}.sqlite"))).expect("a server starts");
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
    let _ = std::fs::remove_dir_all(&databases);
    assert!(ok, "the gabbi runner failed: {output}");
    let results = results(&output);
    let mut regressions = Vec::new();
    for (stage, member, file) in STAGES {
        let expected = expected(file);
        let (mut passed_sum, mut total_sum) = (0, 0);
        eprintln!("{:<45} {:>7} {:>7}", format!("file ({stage})"), "passed", "total");
        for name in files.iter().filter(|n| member(n)) {
            let Some(&(passed, total)) = results.get(name) else {
                regressions.push(format!("{name}: no result"));
                continue;
            };
            passed_sum += passed;
            total_sum += total;
            let floor = expected.get(name).map_or(0, |e| e.0);
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
        eprintln!("{:<45} {passed_sum:>7} {total_sum:>7}", format!("total ({stage})"));
        if std::env::var_os("GABBI_WRITE_EXPECTED").is_some() && only.is_none() {
            let mut text =
                format!("# Placement's gabbi files ({stage}): name, tests passing (the floor), tests.\n");
            for (name, (passed, total)) in results.iter().filter(|(n, _)| member(n)) {
                text.push_str(&format!("{name} {passed} {total}\n"));
            }
            std::fs::write(interop_dir().join(file), text).expect("the floor written");
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

/// Stage 1 once more, on PostgreSQL: a private server (initdb and pg_ctl
/// from the PostgreSQL packages, on a free loopback port, in a temp dir,
/// as an unprivileged user when run as root), a fresh database per file,
/// the same floors. `PG_BINDIR` names the directory of `initdb` and
/// `pg_ctl` (default: the newest `/usr/lib/postgresql/*/bin`, or `PATH`).
#[test]
fn placement_gabbits_postgres() {
    let python = venv_python();
    let dir = gabbits_dir(&python);
    let only: Option<Vec<String>> =
        std::env::var("GABBI_FILES").ok().map(|v| v.split(',').map(str::to_owned).collect());
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("the gabbits directory")
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .filter(|n| in_stage_one(n))
        .filter(|n| only.as_ref().is_none_or(|o| o.contains(n)))
        .collect();
    files.sort();
    let started = Instant::now();
    let pg = postgres_server::PgServer::start();
    let mut servers = Vec::new();
    let mut args = Vec::new();
    for (i, name) in files.iter().enumerate() {
        let url = pg.create_database(&format!("gabbi_{i}"));
        let server = RunningServer::start_at(&url).expect("a server starts on PostgreSQL");
        args.push(format!("{name}={}", server.url));
        servers.push(server);
    }
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
    generation_races(&pg.create_database("races"));
    drop(pg);
    assert!(ok, "the gabbi runner failed: {output}");
    let results = results(&output);
    let expected = expected("expected.txt");
    let mut regressions = Vec::new();
    let (mut passed_sum, mut total_sum) = (0, 0);
    eprintln!("{:<45} {:>7} {:>7}", "file (stage 1 on PostgreSQL)", "passed", "total");
    for name in &files {
        let Some(&(passed, total)) = results.get(name) else {
            regressions.push(format!("{name}: no result"));
            continue;
        };
        passed_sum += passed;
        total_sum += total;
        let floor = expected.get(name).map_or(0, |e| e.0);
        let mark = if passed < floor { "  REGRESSION" } else { "" };
        eprintln!("{name:<45} {passed:>7} {total:>7}{mark}");
        if passed < floor {
            regressions.push(format!("{name}: {passed} passed, the floor is {floor}"));
        }
    }
    eprintln!("{:<45} {passed_sum:>7} {total_sum:>7}", "total (stage 1 on PostgreSQL)");
    eprintln!("in {:.1} s", started.elapsed().as_secs_f64());
    if std::env::var_os("GABBI_VERBOSE").is_some() {
        eprintln!("{output}");
    }
    assert!(regressions.is_empty(), "regressions against the floors:\n{}\n{output}", regressions.join("\n"));
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

mod postgres_server {
    use std::path::{Path, PathBuf};
    use std::process::Command;
    use std::time::Duration;

    use super::run;

    /// A PostgreSQL server of the test's own, stopped and removed on drop.
    pub(crate) struct PgServer {
        dir: PathBuf,
        bindir: PathBuf,
        user: Option<String>,
        port: u16,
    }

    /// The directory of `initdb` and `pg_ctl`.
    fn bindir() -> PathBuf {
        if let Some(dir) = std::env::var_os("PG_BINDIR") {
            return dir.into();
        }
        let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok())
            .filter_map(|e| Some((e.file_name().to_str()?.parse().ok()?, e.path().join("bin"))))
            .filter(|(_, bin): &(u32, PathBuf)| bin.join("initdb").is_file())
            .collect();
        versions.sort();
        if let Some((_, bin)) = versions.pop() {
            return bin;
        }
        let (ok, out) = run(command("sh", &["-c", "command -v initdb"]), Duration::from_secs(10));
        assert!(
            ok,
            "PostgreSQL's initdb is missing (Debian/Ubuntu: apt-get install postgresql; or set PG_BINDIR)"
        );
        Path::new(out.trim()).parent().expect("initdb's directory").to_owned()
    }

    fn command(program: &str, args: &[&str]) -> Command {
        let mut command = Command::new(program);
        command.args(args);
        command
    }

    fn is_root() -> bool {
        let (ok, out) = run(command("id", &["-u"]), Duration::from_secs(10));
        ok && out.trim() == "0"
    }

    /// The unprivileged user to run the server as when root: `postgres` if
    /// the packages made it, else one made here.
    fn server_user() -> String {
        for user in ["postgres", "placement-pg"] {
            if run(command("id", &["-u", user]), Duration::from_secs(10)).0 {
                return user.to_owned();
            }
        }
        let (ok, out) = run(
            command("useradd", &["--system", "--no-create-home", "--shell", "/bin/sh", "placement-pg"]),
            Duration::from_secs(30),
        );
        assert!(ok, "cannot make a user for PostgreSQL: {out}");
        "placement-pg".to_owned()
    }

    impl PgServer {
        fn command(&self, program: &str) -> Command {
            let path = self.bindir.join(program);
            match &self.user {
                Some(user) => {
                    let mut command = Command::new("runuser");
                    command.args(["-u", user, "--"]).arg(path);
                    command
                }
                None => Command::new(path),
            }
        }

        /// initdb in a fresh temp dir, then pg_ctl start on a free port.
        pub(crate) fn start() -> PgServer {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos());
            let dir = std::env::temp_dir().join(format!("placement-pg-{}-{nanos}", std::process::id()));
            std::fs::create_dir_all(&dir).expect("a temp dir");
            let user = is_root().then(server_user);
            if let Some(user) = &user {
                let (ok, out) =
                    run(command("chown", &[user, &dir.to_string_lossy()]), Duration::from_secs(10));
                assert!(ok, "chown: {out}");
            }
            let port = std::net::TcpListener::bind("127.0.0.1:0")
                .and_then(|l| l.local_addr())
                .expect("a free port")
                .port();
            let server = PgServer { dir, bindir: bindir(), user, port };
            let mut initdb = server.command("initdb");
            initdb.arg("-D").arg(server.dir.join("data")).args([
                "-A",
                "trust",
                "-U",
                "placement",
                "--no-locale",
                "-E",
                "UTF8",
                "--no-sync",
            ]);
            let (ok, out) = run(initdb, Duration::from_secs(120));
            assert!(ok, "initdb failed: {out}");
            let mut start = server.command("pg_ctl");
            start
                .arg("-D")
                .arg(server.dir.join("data"))
                .arg("-l")
                .arg(server.dir.join("log"))
                .arg("-o")
                .arg(format!(
                    "-p {} -k {} -c listen_addresses=127.0.0.1 -c max_connections=400 -c fsync=off \
                     -c synchronous_commit=off -c full_page_writes=off",
                    server.port,
                    server.dir.display()
                ))
                .args(["-w", "-t", "60", "start"]);
            let (ok, out) = run(start, Duration::from_secs(90));
            let log = std::fs::read_to_string(server.dir.join("log")).unwrap_or_default();
            assert!(ok, "pg_ctl start failed: {out}\n{log}");
            server
        }

        /// A fresh database; its URL.
        pub(crate) fn create_database(&self, name: &str) -> String {
            let admin = format!("postgres://placement@127.0.0.1:{}/postgres", self.port);
            let mut client =
                postgres::Client::connect(&admin, postgres::NoTls).expect("connects to PostgreSQL");
            client.batch_execute(&format!("CREATE DATABASE {name}")).expect("a database");
            format!("postgres://placement@127.0.0.1:{}/{name}", self.port)
        }
    }

    impl Drop for PgServer {
        fn drop(&mut self) {
            let mut stop = self.command("pg_ctl");
            stop.arg("-D").arg(self.dir.join("data")).args(["-m", "immediate", "-w", "stop"]);
            let _ = run(stop, Duration::from_secs(60));
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

fn tempdir() -> PathBuf {
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("gabbi-db-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a database directory");
    dir
}
