//! A real nginx for tests: its own configuration in a directory of the
//! test's, on free loopback ports, in the foreground as a single process,
//! killed (and its directory removed) when dropped. nginx missing is a
//! failure, not a skip: `.ci/run` installs it.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long nginx may take to start listening.
const START_TIMEOUT: Duration = Duration::from_secs(30);

/// A free port on 127.0.0.1.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

/// The nginx binary of this machine.
pub fn binary() -> PathBuf {
    ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx", "/usr/local/bin/nginx"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.is_file())
        .or_else(|| {
            let paths = std::env::var_os("PATH")?;
            std::env::split_paths(&paths).map(|d| d.join("nginx")).find(|p| p.is_file())
        })
        .unwrap_or_else(|| {
            panic!(
                "nginx is not installed: these tests need a real proxy. Install it with \
                 `apt-get install nginx-light` (or `nginx`); .ci/run does so when it is missing."
            )
        })
}

/// An nginx process, killed and its directory removed when dropped.
pub struct Nginx {
    child: Child,
    dir: PathBuf,
}

impl Nginx {
    /// Starts nginx in `dir` (created) with `http` as the body of its `http`
    /// block, after the temp paths and logs that keep it inside `dir`; the
    /// configuration is checked with `nginx -t` first, and the call returns
    /// once this nginx has bound its ports (it writes its pid file only
    /// then: a port another test's process took makes it exit, rather than
    /// the test talking to that process) and every port of `ports` answers.
    pub fn start(dir: &Path, http: &str, ports: &[u16]) -> Nginx {
        std::fs::create_dir_all(dir.join("temp")).expect("the nginx directory");
        let d = dir.display();
        let config = format!(
            "daemon off;
master_process off;
worker_processes 1;
pid {d}/nginx.pid;
error_log {d}/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log {d}/access.log;
    client_body_temp_path {d}/temp/body;
    proxy_temp_path {d}/temp/proxy;
    fastcgi_temp_path {d}/temp/fastcgi;
    uwsgi_temp_path {d}/temp/uwsgi;
    scgi_temp_path {d}/temp/scgi;
{http}}}
"
        );
        let conf = dir.join("nginx.conf");
        std::fs::write(&conf, config).expect("the nginx configuration");
        let command = |extra: &[&str]| {
            let mut command = Command::new(binary());
            command.args(extra).arg("-p").arg(dir).arg("-e").arg(dir.join("error.log")).arg("-c").arg(&conf);
            command
        };
        let check = command(&["-t"]).output().expect("nginx -t runs");
        assert!(
            check.status.success(),
            "nginx rejects the test configuration:\n{}",
            String::from_utf8_lossy(&check.stderr)
        );
        let child = command(&[])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("nginx starts");
        let mut nginx = Nginx { child, dir: dir.to_owned() };
        nginx.wait_bound();
        for port in ports {
            nginx.wait_listening(*port);
        }
        nginx
    }

    /// Waits for the pid file naming this process, written once every
    /// listening socket is bound.
    fn wait_bound(&mut self) {
        let own = self.child.id().to_string();
        let deadline = Instant::now() + START_TIMEOUT;
        while std::fs::read_to_string(self.dir.join("nginx.pid")).map_or(true, |pid| pid.trim() != own) {
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("nginx exited ({status}):\n{}", self.log("error.log"));
            }
            assert!(Instant::now() < deadline, "nginx bound no port:\n{}", self.log("error.log"));
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn wait_listening(&mut self, port: u16) {
        let addr: SocketAddr = ([127, 0, 0, 1], port).into();
        let deadline = Instant::now() + START_TIMEOUT;
        while TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_err() {
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("nginx exited ({status}):\n{}", self.log("error.log"));
            }
            assert!(
                Instant::now() < deadline,
                "nginx is not listening on {port}:\n{}",
                self.log("error.log")
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A log file of its directory (`error.log`, `access.log`).
    pub fn log(&self, name: &str) -> String {
        std::fs::read_to_string(self.dir.join(name)).unwrap_or_default()
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A port another process holds is never taken for this nginx's: the
    /// start fails, naming nginx's own complaint.
    #[test]
    fn a_port_taken_by_another_process_fails_the_start() {
        let taken = TcpListener::bind("127.0.0.1:0").expect("a port");
        let port = taken.local_addr().expect("its address").port();
        let dir = std::env::temp_dir().join(format!("testkit-nginx-taken-{}", std::process::id()));
        let http = format!("    server {{ listen 127.0.0.1:{port}; return 204; }}\n");
        let started = std::panic::catch_unwind(|| Nginx::start(&dir, &http, &[port]));
        let _ = std::fs::remove_dir_all(&dir);
        let message = started.err().and_then(|e| e.downcast::<String>().ok()).expect("the start fails");
        assert!(message.contains("nginx exited") && message.contains("Address already in use"), "{message}");
    }
}
