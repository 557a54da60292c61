//! The compute example server:
//! `cargo run --example compute [-- --framework actix|axum] [--listen HOST:PORT] [--cap X.Y] [--public-url URL]
//! [--trust-proxies all|IP,IP] [--body-timeout SECONDS] [--database PATH] [--cap-file PATH]
//! [--retire-below X.Y] [--metrics-listen HOST:PORT] [--pin-versions] [--keypair-quota N]`, and its API's
//! description: `cargo run --example compute -- openapi [--version X.Y | --history | --out DIR] [--openapi 3.0]`.

use std::net::{IpAddr, TcpListener};
use std::time::Duration;

use compute::{PublicUrl, Settings, Version};

const DEFAULT_LISTEN: &str = "127.0.0.1:8774";
const DEFAULT_DATABASE: &str = "compute.sqlite3";
const USAGE: &str =
    "usage: compute [--framework actix|axum] [--listen HOST:PORT] [--cap X.Y] [--public-url URL]
               [--trust-proxies all|IP,IP] [--body-timeout SECONDS] [--database PATH|URL]
               [--cap-file PATH] [--retire-below X.Y] [--metrics-listen HOST:PORT] [--pin-versions]
               [--keypair-quota N]
  --framework      the web framework that serves the API: actix (actix-web, the default) or axum;
                   the same controllers and the same answers on either
  --listen         address to serve on (default 127.0.0.1:8774)
  --cap            serve at most this version, below the compiled maximum (rolling upgrades)
  --public-url     build links under this URL (https://cloud.example/compute), whatever the request
  --trust-proxies  read Forwarded / X-Forwarded-Host / X-Forwarded-Proto from these peers
                   (`all`, or a comma-separated list of IP addresses); ignored by default
  --body-timeout   how long a request body may take to arrive (default 30)
  --database       a PostgreSQL URL, postgres://USER@HOST[:PORT]/DBNAME, shared by a fleet's nodes,
                   or a SQLite file (default compute.sqlite3, made on first start)
  --cap-file       a file holding the cap (`2.60`, or `2.96 at 2026-12-01T12:00:00Z`), reloaded on SIGHUP
  --retire-below   answer 406 to the versions below this one (after their sunset)
  --metrics-listen serve per-version request counts at http://HOST:PORT/metrics (Prometheus text)
  --pin-versions   pin each X-Auth-Token to the served maximum at its first request naming no
                   version; its later requests naming none keep that version
  --keypair-quota  the most keypairs a user holds (default 100, Nova's; -1 for no limit)";

/// Also the `compute-node` binary's entry point (`node.rs`), for tests that
/// start whole processes.
pub(crate) fn main() -> std::io::Result<()> {
    if std::env::args().nth(1).as_deref() == Some("openapi") {
        return openapi(std::env::args().skip(2));
    }
    let mut args = std::env::args().skip(1);
    let mut listen = DEFAULT_LISTEN.to_owned();
    let mut settings = Settings::default();
    let (mut public_url, mut trust) = (None, None);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--framework" => {
                let name = args.next().ok_or_else(|| usage("--framework needs actix or axum"))?;
                settings.framework = name.parse().map_err(|e: String| usage(&format!("--framework: {e}")))?;
            }
            "--listen" => listen = args.next().ok_or_else(|| usage("--listen needs HOST:PORT"))?,
            "--cap" => {
                let text = args.next().ok_or_else(|| usage("--cap needs a version such as 2.60"))?;
                let version: Version = text.parse().map_err(|e| usage(&format!("--cap {text:?}: {e}")))?;
                compute::COMPUTE.capped_at(version).map_err(|e| usage(&e.to_string()))?;
                settings.cap = Some(version);
            }
            "--public-url" => {
                let text = args.next().ok_or_else(|| usage("--public-url needs a URL"))?;
                public_url = Some(PublicUrl::fixed(&text).map_err(|e| usage(&e.to_string()))?);
            }
            "--trust-proxies" => {
                let text = args.next().ok_or_else(|| usage("--trust-proxies needs `all` or IP,IP"))?;
                trust = Some(trusted_proxies(&text)?);
            }
            "--body-timeout" => {
                let text = args.next().ok_or_else(|| usage("--body-timeout needs seconds"))?;
                let seconds: f64 = text.parse().map_err(|_| usage(&format!("--body-timeout {text:?}")))?;
                let timeout =
                    Duration::try_from_secs_f64(seconds).ok().filter(|t| !t.is_zero()).ok_or_else(|| {
                        usage(&format!("--body-timeout {text:?}: a positive number of seconds"))
                    })?;
                settings.body_timeout = Some(timeout);
            }
            "--database" => {
                let database = args.next().ok_or_else(|| usage("--database needs a path or a URL"))?;
                settings.database = Some(database);
            }
            "--cap-file" => {
                let path = args.next().ok_or_else(|| usage("--cap-file needs a path"))?;
                settings.cap_file = Some(path.into());
            }
            "--retire-below" => {
                let text = args.next().ok_or_else(|| usage("--retire-below needs a version such as 2.60"))?;
                let version: Version =
                    text.parse().map_err(|e| usage(&format!("--retire-below {text:?}: {e}")))?;
                settings.retire_below = Some(version);
            }
            "--metrics-listen" => {
                let text = args.next().ok_or_else(|| usage("--metrics-listen needs HOST:PORT"))?;
                let addr = text.parse().map_err(|e| usage(&format!("--metrics-listen {text:?}: {e}")))?;
                settings.metrics_listen = Some(addr);
            }
            "--pin-versions" => settings.pin_versions = true,
            "--keypair-quota" => {
                let text = args.next().ok_or_else(|| usage("--keypair-quota needs a number, or -1"))?;
                let quota = text.parse().ok().filter(|q: &i64| *q >= -1);
                settings.keypair_quota =
                    Some(quota.ok_or_else(|| usage(&format!("--keypair-quota {text:?}: a number, or -1")))?);
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            other => return Err(usage(&format!("unknown argument {other:?}"))),
        }
    }
    settings.public_url = match (public_url, trust) {
        (Some(_), Some(_)) => return Err(usage("--public-url and --trust-proxies exclude each other")),
        (Some(url), None) | (None, Some(url)) => url,
        (None, None) => PublicUrl::from_request(),
    };
    settings.database.get_or_insert_with(|| DEFAULT_DATABASE.into());
    let listener = TcpListener::bind(&listen)?;
    let url = format!("http://{}", listener.local_addr()?);
    // Before the line that says it listens, which tests wait for.
    println!("served by {}", settings.framework.name());
    println!("compute API listening on {url}");
    println!("try:");
    println!("  curl -s {url}/");
    println!("  curl -s -H 'OpenStack-API-Version: compute 2.61' {url}/v2.1/flavors/detail");
    println!("  curl -s -i -H 'OpenStack-API-Version: compute 3.0' {url}/v2.1/flavors");
    println!("the API reference, a page per version: {url}/docs/");
    if let Some(cap) = settings.cap {
        println!("serving at most version {cap} (compiled maximum {})", compute::COMPUTE.compiled_max());
    }
    println!("links: {:?}", settings.public_url);
    compute::run(listener, settings)
}

/// `all`, or IP addresses separated by commas.
fn trusted_proxies(text: &str) -> std::io::Result<PublicUrl> {
    if text.trim() == "all" {
        return Ok(PublicUrl::trust_all_proxies());
    }
    let proxies = text
        .split(',')
        .map(|ip| ip.trim().parse::<IpAddr>().map_err(|e| usage(&format!("--trust-proxies {ip:?}: {e}"))))
        .collect::<std::io::Result<Vec<_>>>()?;
    Ok(PublicUrl::trust_proxies(proxies))
}

fn usage(message: &str) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("{message}\n{USAGE}"))
}

const OPENAPI_USAGE: &str =
    "usage: compute openapi [--version X.Y | --history | --out DIR] [--openapi 3.1|3.0]
  (nothing)   print the OpenAPI document of the newest version
  --version   print the document of this version
  --history   print the whole history in OpenStack's encoding (x-openstack min-ver/max-ver; 3.1 only)
  --out       write every version's document (and, in 3.1, the history) into DIR
  --openapi   the OpenAPI version of the documents: 3.1 (the default) or 3.0 (3.0.3: the same
              contract where 3.0 can say it, loosened where it cannot, noted in x-openapi-3.1)";

/// `compute openapi ...`: the API's OpenAPI documents, on stdout or in files.
fn openapi(args: impl Iterator<Item = String>) -> std::io::Result<()> {
    let description = compute::description(compute::COMPUTE);
    // `--openapi 3.0` anywhere among the arguments; the rest as before.
    let mut rest = Vec::new();
    let mut v3_0 = false;
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        if arg == "--openapi" {
            match args.next().as_deref() {
                Some("3.0" | "3.0.3") => v3_0 = true,
                Some("3.1" | "3.1.0") => v3_0 = false,
                other => return Err(openapi_usage(&format!("--openapi {other:?}: 3.1 or 3.0"))),
            }
        } else {
            rest.push(arg);
        }
    }
    let document = |version: Version| {
        if v3_0 { description.document_3_0(version) } else { description.document(version) }
    };
    // A reader that stops early (`| head`) ends the output, not in a panic.
    let print = |document: serde_json::Value| {
        use std::io::Write as _;
        let text = serde_json::to_string_pretty(&document).unwrap_or_default();
        match writeln!(std::io::stdout().lock(), "{text}") {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            written => written,
        }
    };
    let mut args = rest.into_iter();
    match (args.next().as_deref(), args.next(), args.next()) {
        (None, _, _) => print(document(compute::COMPUTE.max())),
        (Some("--version"), Some(text), None) => {
            let version: Version =
                text.parse().map_err(|e| openapi_usage(&format!("--version {text:?}: {e}")))?;
            if !compute::COMPUTE.serves(version) {
                return Err(openapi_usage(&format!("version {version} is not a served version")));
            }
            print(document(version))
        }
        (Some("--history"), None, None) if v3_0 => {
            Err(openapi_usage("--history is OpenStack's encoding of a 3.1 document; it has no 3.0 form"))
        }
        (Some("--history"), None, None) => print(description.history_document()),
        (Some("--out"), Some(dir), None) => {
            std::fs::create_dir_all(&dir)?;
            for version in description.versions() {
                let text = serde_json::to_string_pretty(&document(version)).unwrap_or_default();
                std::fs::write(std::path::Path::new(&dir).join(format!("{version}.json")), text + "\n")?;
            }
            if v3_0 {
                return Ok(());
            }
            let history = serde_json::to_string_pretty(&description.history_document()).unwrap_or_default();
            std::fs::write(std::path::Path::new(&dir).join("history.json"), history + "\n")
        }
        (Some("-h" | "--help"), _, _) => {
            println!("{OPENAPI_USAGE}");
            Ok(())
        }
        (Some(other), _, _) => Err(openapi_usage(&format!("unexpected argument {other:?}"))),
    }
}

fn openapi_usage(message: &str) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("{message}\n{OPENAPI_USAGE}"))
}
