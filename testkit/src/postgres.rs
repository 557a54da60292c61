//! A PostgreSQL server of a test's own: `initdb` and `pg_ctl` from the
//! PostgreSQL packages (`PG_BINDIR`, else the newest
//! `/usr/lib/postgresql/*/bin`, else `PATH`), on a free loopback port, in a
//! temp dir, as an unprivileged user when run as root; stopped and removed
//! on drop. PostgreSQL missing is a failure, not a skip: `.ci/run`
//! installs it.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::python;

/// Runs `command`, killing it after `timeout`; gives (success, output).
fn run(command: Command, timeout: Duration) -> (bool, String) {
    let shown = format!("{command:?}");
    let run = python::run(command, timeout).unwrap_or_else(|e| panic!("cannot start {shown}: {e}"));
    (run.ok(), run.output)
}

/// The server's superuser, who connects without a password over loopback.
const SUPERUSER: &str = "microversion";

/// A PostgreSQL server of the test's own, stopped and removed on drop.
pub struct PgServer {
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
    for user in ["postgres", "microversion-pg"] {
        if run(command("id", &["-u", user]), Duration::from_secs(10)).0 {
            return user.to_owned();
        }
    }
    let (ok, out) = run(
        command("useradd", &["--system", "--no-create-home", "--shell", "/bin/sh", "microversion-pg"]),
        Duration::from_secs(30),
    );
    assert!(ok, "cannot make a user for PostgreSQL: {out}");
    "microversion-pg".to_owned()
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
    pub fn start() -> PgServer {
        let nanos =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let dir = std::env::temp_dir().join(format!("microversion-pg-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temp dir");
        let user = is_root().then(server_user);
        if let Some(user) = &user {
            let (ok, out) = run(command("chown", &[user, &dir.to_string_lossy()]), Duration::from_secs(10));
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
            SUPERUSER,
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

    /// Stops the server at once (`pg_ctl stop -m immediate`), as a crash
    /// or a lost database host would: its clients' connections are cut.
    pub fn stop(&self) {
        let mut stop = self.command("pg_ctl");
        stop.arg("-D").arg(self.dir.join("data")).args(["-m", "immediate", "-w", "stop"]);
        let (ok, out) = run(stop, Duration::from_secs(60));
        assert!(ok, "pg_ctl stop failed: {out}");
    }

    /// A fresh database; its URL.
    pub fn create_database(&self, name: &str) -> String {
        let admin = format!("postgres://{SUPERUSER}@127.0.0.1:{}/postgres", self.port);
        let mut create = Command::new(self.bindir.join("psql"));
        create.args(["-q", "-v", "ON_ERROR_STOP=1", &admin, "-c", &format!("CREATE DATABASE \"{name}\"")]);
        let (ok, out) = run(create, Duration::from_secs(60));
        assert!(ok, "CREATE DATABASE {name} failed: {out}");
        format!("postgres://{SUPERUSER}@127.0.0.1:{}/{name}", self.port)
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
