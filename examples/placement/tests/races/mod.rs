//! What the race tests share (`claim_orders`, `reshape_orders`,
//! `consumer_updated_at`): requests at a version, two sent at once, a
//! database of their own, and PostgreSQL's count of deadlocks.

#![allow(dead_code, unreachable_pub)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use microversion_testkit::http::{Request, Response};
use serde_json::Value;

/// Requests at one version (`placement 1.30`).
#[derive(Clone, Copy, Debug)]
pub struct At(pub &'static str);

impl At {
    /// `method path`, with `body` as JSON.
    pub fn send(self, url: &str, method: &str, path: &str, body: Option<&Value>) -> Response {
        let request = Request::new(method, path).header("OpenStack-API-Version", self.0);
        match body {
            Some(body) => request.json(body),
            None => request,
        }
        .send(url)
    }

    /// Both requests at once, released together by a barrier; their
    /// answers, in order.
    pub fn at_once(self, url: &str, requests: [(&str, String, Option<Value>); 2]) -> Vec<Response> {
        let together = std::sync::Barrier::new(2);
        std::thread::scope(|scope| {
            let sent = requests.each_ref().map(|(method, path, body)| {
                let together = &together;
                scope.spawn(move || {
                    together.wait();
                    self.send(url, method, path, body.as_ref())
                })
            });
            sent.into_iter().map(|request| request.join().expect("a request")).collect()
        })
    }
}

/// A new SQLite database file for `test`'s `name`, under the tests' temp dir.
pub fn temp_database(test: &str, name: &str) -> PathBuf {
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{test}-{name}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    dir.join("placement.sqlite")
}

/// The deadlocks PostgreSQL counted in the database at `url`. A server
/// process reports its counts when it is idle, within about ten seconds:
/// this waits that long for any to show.
pub fn deadlocks(url: &str) -> i64 {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    runtime.block_on(async {
        use sqlx::Connection;
        let until = Instant::now() + Duration::from_secs(12);
        loop {
            let mut connection = sqlx::PgConnection::connect(url).await.expect("a connection");
            let count: i64 = sqlx::query_scalar(
                "SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()",
            )
            .fetch_one(&mut connection)
            .await
            .expect("the count of deadlocks");
            if count > 0 || Instant::now() >= until {
                return count;
            }
            drop(connection);
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    })
}
