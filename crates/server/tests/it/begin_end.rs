//! A game's beginning and end reach the store through the group writer
//! (issue 48) over real sockets: on SQLite the table's row, the game's row
//! and its end are writes of the writer's batches (`/metrics`'
//! `qiyuan_store_jobs_total`; PostgreSQL writes them on its pool), and each
//! is stored, on both stores,
//! by the time its call is answered (the game's row when the second player's
//! readiness is acknowledged, its end when the resignation is).

use serde_json::{Value, json};

use crate::common::*;

/// The writes other than log appends the store's group writer has made.
async fn writer_jobs(client: &Client) -> f64 {
    let name = "qiyuan_store_jobs_total";
    let text = client.get("/metrics").await.text().await.unwrap();
    text.lines()
        .find(|l| l.starts_with(name) && l[name.len()..].starts_with('{'))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in /metrics"))
}

/// The stored game of table `id`, as `GET /api/game/{id}` shows it.
async fn stored(client: &Client, id: &str) -> Value {
    let game: Value = client
        .get(&format!("/api/game/{id}"))
        .await
        .json()
        .await
        .unwrap();
    game["stored"].clone()
}

async fn a_games_beginning_and_end_go_through_the_group_writer(backend: Backend) {
    let server = start(backend).await;
    let a = server.guest().await;
    let b = server.guest().await;
    let jobs = writer_jobs(&a).await;
    // SQLite's writer makes every write; PostgreSQL writes these on its pool.
    let each = match backend {
        Backend::Sqlite => 1.0,
        Backend::Postgres => 0.0,
    };
    let mut wa = a.ws().await;
    let mut wb = b.ws().await;
    let table = wa
        .create(json!({"game": "chess", "time": blitz(), "seat": 0}))
        .await;
    // The table's row.
    assert_eq!(writer_jobs(&a).await - jobs, each, "{backend:?}: the table");
    wa.event("sat").await;
    wb.send("watch", json!({"table": table})).await;
    wb.expect("sync").await;
    wb.ok("sit", json!({"table": table, "seat": 1})).await;
    wa.ok("ready", json!({"table": table})).await;
    assert_eq!(stored(&a, &table).await, Value::Null, "no game yet");
    wb.ok("ready", json!({"table": table})).await;
    // Stored by the time the readiness that started it is acknowledged.
    let game = stored(&a, &table).await;
    assert_eq!(game["status"], "live", "{game}");
    assert_eq!(game["players"].as_array().unwrap().len(), 2, "{game}");
    assert_eq!(
        writer_jobs(&a).await - jobs,
        2.0 * each,
        "{backend:?}: the game's row"
    );
    wa.ok("move", json!({"table": table, "action": "e2e4"}))
        .await;
    wb.ok("resign", json!({"table": table})).await;
    // Its end is stored by the time the resignation is acknowledged.
    let game = stored(&a, &table).await;
    assert_eq!(game["status"], "finished", "{game}");
    assert!(game["result"].is_object(), "{game}");
    assert_eq!(
        writer_jobs(&a).await - jobs,
        3.0 * each,
        "{backend:?}: the game's end"
    );
}

crate::both!(a_games_beginning_and_end_go_through_the_group_writer);
