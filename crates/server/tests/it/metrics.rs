//! `GET /metrics` scraped during a real game over real sockets and read by an
//! independent parser, the Prometheus project's own Python client
//! (`prometheus_client.parser`): the moves counter and the latency histograms move
//! with the moves played, the open sockets and live tables are counted, a refused
//! move is counted by its code, and only allowed readers get in.
//!
//! The Python comes from `$QIYUAN_PYTHON`, else the repository's `.venv` (.ci/run
//! creates it with `pip install chess sgfmill prometheus-client`); without either
//! the test fails and says how to make one.

use std::collections::HashMap;

use serde_json::{Value, json};

use crate::common::*;

/// Prometheus's parser over the text: each family's type and its samples.
const PARSE: &str = r#"
import json, sys
from prometheus_client.parser import text_string_to_metric_families
out = []
for family in text_string_to_metric_families(sys.stdin.read()):
    for s in family.samples:
        out.append({"family": family.name, "type": family.type,
                    "name": s.name, "labels": s.labels, "value": s.value})
print(json.dumps(out))
"#;

/// One scrape, parsed: samples by name and labels (`name{k=v,...}`, keys sorted).
struct Scrape {
    samples: HashMap<String, f64>,
    types: HashMap<String, String>,
}

impl Scrape {
    fn get(&self, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
        self.samples.get(&key(name, labels)).copied()
    }

    fn value(&self, name: &str, labels: &[(&str, &str)]) -> f64 {
        self.get(name, labels)
            .unwrap_or_else(|| panic!("no sample {}", key(name, labels)))
    }
}

fn key(name: &str, labels: &[(&str, &str)]) -> String {
    let mut labels: Vec<String> = labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
    labels.sort();
    format!("{name}{{{}}}", labels.join(","))
}

fn parse(text: &str) -> Scrape {
    let out = qiyuan_testkit::run_python("prometheus-client", PARSE, text)
        .unwrap_or_else(|e| panic!("Prometheus's parser refused the scrape: {e}\n{text}"));
    let parsed: Vec<Value> = serde_json::from_str(&out).unwrap();
    let mut scrape = Scrape {
        samples: HashMap::new(),
        types: HashMap::new(),
    };
    for s in parsed {
        let labels: Vec<(String, String)> = s["labels"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
            .collect();
        let labels: Vec<(&str, &str)> = labels
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let name = s["name"].as_str().unwrap();
        scrape
            .samples
            .insert(key(name, &labels), s["value"].as_f64().unwrap());
        scrape.types.insert(
            s["family"].as_str().unwrap().to_string(),
            s["type"].as_str().unwrap().to_string(),
        );
    }
    scrape
}

async fn scrape(server: &TestServer) -> Scrape {
    let r = reqwest::get(format!("{}/metrics", server.base))
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let kind = r.headers()["content-type"].to_str().unwrap().to_string();
    assert!(kind.starts_with("text/plain; version=0.0.4"), "{kind}");
    parse(&r.text().await.unwrap())
}

const TOKEN: &str = "a-metrics-token-for-tests";

async fn metrics_move_with_the_game(backend: Backend) {
    let server = start_with(backend, |c| {
        c.node_name = Some("node-a".into());
        // Loopback is a trusted proxy here, so forwarded addresses count.
        c.trusted_proxies = vec!["127.0.0.1".into()];
        c.metrics_token = Some(TOKEN.into());
    })
    .await;
    let node = ("node", "node-a");
    let before = scrape(&server).await;
    assert_eq!(before.types["qiyuan_moves_accepted"], "counter");
    assert_eq!(before.types["qiyuan_move_broadcast_seconds"], "histogram");
    assert_eq!(before.types["qiyuan_store_commit_seconds"], "histogram");
    assert_eq!(before.types["qiyuan_live_tables"], "gauge");
    assert_eq!(
        before.value("qiyuan_moves_accepted_total", &[node, ("game", "chess")]),
        0.0
    );
    assert_eq!(before.value("qiyuan_live_tables", &[node]), 0.0);
    assert_eq!(before.value("qiyuan_sockets", &[node]), 0.0);

    let a = server.guest().await;
    let b = server.guest().await;
    let (table, mut wa, mut wb) = table_with_game(
        &server,
        &a,
        &b,
        "chess",
        json!({"kind": "fischer", "base": 300_000, "increment": 0}),
    )
    .await;
    let moves = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6"];
    for (ply, action) in moves.iter().enumerate().take(2) {
        let w = if ply % 2 == 0 { &mut wa } else { &mut wb };
        w.ok("move", json!({"table": table, "action": action}))
            .await;
    }
    let during = scrape(&server).await;
    assert_eq!(
        during.value("qiyuan_moves_accepted_total", &[node, ("game", "chess")]),
        2.0,
        "two moves played"
    );
    assert_eq!(
        during.value("qiyuan_moves_accepted_total", &[node, ("game", "xiangqi")]),
        0.0
    );
    assert_eq!(
        during.value("qiyuan_move_broadcast_seconds_count", &[node]),
        2.0
    );
    let inf = ("le", "+Inf");
    assert_eq!(
        during.value("qiyuan_move_broadcast_seconds_bucket", &[node, inf]),
        2.0
    );
    assert!(during.value("qiyuan_move_broadcast_seconds_sum", &[node]) > 0.0);
    // Sitting, readying and the moves were all committed.
    let commits = during.value("qiyuan_store_commit_seconds_count", &[node]);
    assert!(commits >= 2.0 + 4.0, "{commits} commits");
    assert_eq!(during.value("qiyuan_live_tables", &[node]), 1.0);
    assert_eq!(during.value("qiyuan_sockets", &[node]), 2.0);

    // A refused move is an error with its code; it is not a move.
    let illegal_before = during
        .get("qiyuan_errors_total", &[node, ("code", "illegal")])
        .unwrap_or(0.0);
    let e = wa
        .act("move", json!({"table": table, "action": "e2e5"}))
        .await;
    assert_eq!(e["d"]["code"], "illegal", "{e}");
    for (ply, action) in moves.iter().enumerate().skip(2) {
        let w = if ply % 2 == 0 { &mut wa } else { &mut wb };
        w.ok("move", json!({"table": table, "action": action}))
            .await;
    }
    let after = scrape(&server).await;
    assert_eq!(
        after.value("qiyuan_moves_accepted_total", &[node, ("game", "chess")]),
        moves.len() as f64
    );
    assert_eq!(
        after.value("qiyuan_move_broadcast_seconds_count", &[node]),
        moves.len() as f64
    );
    assert!(after.value("qiyuan_store_commit_seconds_count", &[node]) >= commits + 4.0);
    // The group writer wrote those entries in batches of at least one each.
    assert_eq!(after.types["qiyuan_store_batch_size"], "histogram");
    let batches = |m: &Scrape| m.value("qiyuan_store_batch_size_count", &[node]);
    let appends = |m: &Scrape| m.value("qiyuan_store_batch_size_sum", &[node]);
    assert!(batches(&after) >= batches(&during) + 1.0);
    assert!(appends(&after) >= appends(&during) + 4.0);
    assert!(appends(&after) >= batches(&after));
    assert_eq!(
        after.value("qiyuan_store_batch_size_bucket", &[node, inf]),
        batches(&after)
    );
    assert!(
        after.value("qiyuan_store_batch_write_seconds_total", &[node])
            > during.value("qiyuan_store_batch_write_seconds_total", &[node])
    );
    assert!(after.value("qiyuan_errors_total", &[node, ("code", "illegal")]) > illegal_before);
    // Cumulative buckets never fall.
    let mut last = 0.0;
    for le in ["0.00025", "0.001", "0.01", "0.1", "1", "10", "+Inf"] {
        let n = after.value("qiyuan_store_commit_seconds_bucket", &[node, ("le", le)]);
        assert!(n >= last, "bucket {le}: {n} < {last}");
        last = n;
    }

    wb.close().await;
    let mut closed = after.value("qiyuan_sockets", &[node]);
    for _ in 0..100 {
        closed = scrape(&server).await.value("qiyuan_sockets", &[node]);
        if closed == 1.0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(closed, 1.0, "a closed socket is no longer counted");

    // Readers: loopback, or the token from anywhere; not a forwarded stranger.
    let http = reqwest::Client::new();
    let url = format!("{}/metrics", server.base);
    let stranger = http
        .get(&url)
        .header("x-forwarded-for", "203.0.113.7")
        .send()
        .await
        .unwrap();
    assert_eq!(stranger.status(), 403);
    let body: Value = stranger.json().await.unwrap();
    assert_eq!(body["error"]["code"], "forbidden");
    let wrong = http
        .get(&url)
        .header("x-forwarded-for", "203.0.113.7")
        .bearer_auth("not-the-metrics-token")
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), 403);
    let with_token = http
        .get(&url)
        .header("x-forwarded-for", "203.0.113.7")
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(with_token.status(), 200);
    let text = with_token.text().await.unwrap();
    assert!(parse(&text).get("qiyuan_live_tables", &[node]).is_some());
    wa.close().await;
}

both!(metrics_move_with_the_game);

/// Behind a proxy nobody listed in `trusted_proxies`, every request comes from the
/// proxy's (loopback) address: a forwarded one is refused, since its client is
/// unknown; a local scraper, which forwards nothing, still reads.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_undeclared_proxy_does_not_open_the_metrics() {
    let server = start(Backend::Sqlite).await;
    let http = reqwest::Client::new();
    let url = format!("{}/metrics", server.base);
    for header in ["x-forwarded-for", "forwarded"] {
        let value = if header == "forwarded" {
            "for=203.0.113.7"
        } else {
            "203.0.113.7"
        };
        let r = http.get(&url).header(header, value).send().await.unwrap();
        assert_eq!(r.status(), 403, "{header}");
    }
    let local = http.get(&url).send().await.unwrap();
    assert_eq!(local.status(), 200);
    let text = local.text().await.unwrap();
    let host = parse(&text);
    assert_eq!(host.types["qiyuan_sockets"], "gauge");
}
