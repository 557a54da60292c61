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
        PgServer::start_with_max_connections(400)
    }

    /// [`PgServer::start`] with at most `max` connections at once (a
    /// crowded server, three of them kept for the superuser).
    pub fn start_with_max_connections(max: u32) -> PgServer {
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
        server.pg_ctl_start(max);
        server
    }

    /// `pg_ctl start` with this server's options, waiting until it accepts
    /// connections. Without `fsync` (the machine does not crash under a
    /// test), but every commit reaches the operating system before it is
    /// acknowledged (`synchronous_commit` stays on), so that a server
    /// stopped at once (`-m immediate`, as a crash of its process) keeps
    /// every commit it acknowledged.
    fn pg_ctl_start(&self, max_connections: u32) {
        let mut start = self.command("pg_ctl");
        start
            .arg("-D")
            .arg(self.dir.join("data"))
            .arg("-l")
            .arg(self.dir.join("log"))
            .arg("-o")
            .arg(format!(
                "-p {} -k {} -c listen_addresses=127.0.0.1 -c max_connections={max_connections} -c fsync=off \
                 -c full_page_writes=off",
                self.port,
                self.dir.display()
            ))
            .args(["-w", "-t", "60", "start"]);
        let (ok, out) = run(start, Duration::from_secs(90));
        let log = std::fs::read_to_string(self.dir.join("log")).unwrap_or_default();
        assert!(ok, "pg_ctl start failed: {out}\n{log}");
    }

    /// `pg_ctl restart -m mode` (`fast`: sessions ended and a checkpoint;
    /// `immediate`: as a crash, recovered at start), waiting until it
    /// accepts connections again.
    pub fn restart(&self, mode: &str) {
        let mut restart = self.command("pg_ctl");
        restart
            .arg("-D")
            .arg(self.dir.join("data"))
            .arg("-l")
            .arg(self.dir.join("log"))
            .args(["-m", mode, "-w", "-t", "60", "restart"]);
        let (ok, out) = run(restart, Duration::from_secs(90));
        assert!(ok, "pg_ctl restart -m {mode} failed: {out}");
    }

    /// Starts the server again after [`PgServer::stop`], on its port, with
    /// at most `max_connections`.
    pub fn start_again(&self, max_connections: u32) {
        self.pg_ctl_start(max_connections);
    }

    /// Stops the server at once (`pg_ctl stop -m immediate`), as a crash
    /// or a lost database host would: its clients' connections are cut.
    pub fn stop(&self) {
        let mut stop = self.command("pg_ctl");
        stop.arg("-D").arg(self.dir.join("data")).args(["-m", "immediate", "-w", "stop"]);
        let (ok, out) = run(stop, Duration::from_secs(60));
        assert!(ok, "pg_ctl stop failed: {out}");
    }

    /// The server's port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// An idle `psql` session on `url`, open when this returns and closed
    /// when dropped; `None` when the server refuses it (full).
    pub fn session(&self, url: &str) -> Option<Session> {
        use std::io::{BufRead, Write};
        let mut child = Command::new(self.bindir.join("psql"))
            .args(["-q", "-X", url])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("psql starts");
        let mut input = child.stdin.take().expect("psql's stdin");
        let _ = writeln!(input, "\\echo ready");
        let mut line = String::new();
        if let Some(stdout) = child.stdout.take() {
            let _ = std::io::BufReader::new(stdout).read_line(&mut line);
        }
        let session = Session { child, _input: input };
        (line.trim() == "ready").then_some(session)
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

/// An idle `psql` session: one of the server's connections, held until dropped.
pub struct Session {
    child: std::process::Child,
    /// Its input, open: the session lasts while it does.
    _input: std::process::ChildStdin,
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
