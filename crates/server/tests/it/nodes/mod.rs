//! Several nodes in one test process, shared by the multi-node tests: one
//! installation (a fresh PostgreSQL schema and a Redis key prefix) and its
//! nodes on loopback ports.

use std::process::{Child, Command};

use qiyuan_server::bench::Client;
use qiyuan_server::{Config, Running};
use qiyuan_testkit::db::{postgres_url, redis_url, unique};
use qiyuan_testkit::process::{self, qiyuan_bin};
use serde_json::Value;

/// One installation: a database schema and a Redis prefix shared by its nodes.
pub struct Site {
    pub database: String,
    pub prefix: String,
    pub dir: tempfile::TempDir,
}

impl Site {
    pub fn new(name: &str) -> Site {
        let id = unique(name);
        Site {
            database: format!("{}?schema={id}", postgres_url()),
            prefix: format!("{id}:"),
            dir: tempfile::tempdir().unwrap(),
        }
    }

    pub fn config(&self, node: &str) -> Config {
        let mut config = Config {
            listen: "127.0.0.1:0".parse().unwrap(),
            data_dir: self.dir.path().to_path_buf(),
            database: Some(self.database.clone()),
            max_sockets_per_address: 0,
            ..Config::default()
        };
        config.cluster.redis = Some(redis_url());
        config.cluster.node_id = Some(node.to_string());
        config.cluster.prefix = self.prefix.clone();
        config
    }

    /// A node in this process.
    pub async fn node(&self, name: &str) -> Node {
        self.node_with(name, |_| {}).await
    }

    /// A node in this process, its configuration changed by `tweak`.
    pub async fn node_with(&self, name: &str, tweak: impl FnOnce(&mut Config)) -> Node {
        let mut config = self.config(name);
        tweak(&mut config);
        let running = qiyuan_server::start(config).await.unwrap_or_else(|e| {
            panic!("node {name} did not start (PostgreSQL and Redis up?): {e:#}")
        });
        Node {
            base: format!("http://{}", running.addr),
            running: Some(running),
        }
    }
}

pub struct Node {
    pub base: String,
    pub running: Option<Running>,
}

impl Node {
    pub async fn stop(mut self) {
        if let Some(r) = self.running.take() {
            let _ = r.shutdown().await;
        }
    }
}

/// The same account on another node (sessions are in the shared database).
pub fn at(client: &Client, node: &str) -> Client {
    Client {
        base: node.to_string(),
        ..client.clone()
    }
}

/// The actions of the moves in a table's state, in order.
pub fn moves_in(state: &Value) -> Vec<String> {
    state["game"]["moves"]
        .as_array()
        .map(|ms| {
            ms.iter()
                .map(|m| m["action"].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// `qiyuan serve` as node `node` of `site` on `port` (with Redis at `redis`),
/// not yet started.
pub fn serve_command(site: &Site, node: &str, port: u16, redis: &str) -> Command {
    let mut cmd = process::serve_command(qiyuan_bin(), port, site.dir.path());
    cmd.args(["--database", &site.database])
        .args(["--redis", redis, "--node-id", node])
        .args(["--redis-prefix", &site.prefix])
        .args(["--max-sockets-per-address", "0"]);
    cmd
}

/// A node as a real `qiyuan serve` process.
pub fn serve(site: &Site, node: &str, port: u16) -> Child {
    serve_command(site, node, port, &redis_url())
        .spawn()
        .expect("qiyuan serve starts")
}

/// Sends `signal` (`STOP`, `CONT`, `TERM`, ...) to a process.
pub fn signal(pid: u32, signal: &str) {
    let ok = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(pid.to_string())
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    assert!(ok, "kill -{signal} {pid}");
}
