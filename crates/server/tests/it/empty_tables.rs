//! A table nobody sits at or watches, with no game running, closes after
//! `empty_table_secs` and leaves the lobby; one where a player still sits (gone
//! from it, perhaps coming back) waits for `idle_table_secs`. Before, every
//! finished game's table stayed in memory for the ten idle minutes: at 9,000
//! bench games, 15,348 live tables after 50 s and 22 MB more a second
//! (docs/benchmarks.md, session 13).

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::*;

async fn listed(client: &Client, table: &str) -> bool {
    let page: Value = client.get("/api/lobby/chess").await.json().await.unwrap();
    page.as_array()
        .expect("a lobby page")
        .iter()
        .any(|t| t["id"] == table)
}

#[tokio::test]
async fn an_empty_table_closes_soon_and_a_seated_one_waits() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let server = start_with(backend, |c| {
            c.empty_table_secs = 0.5;
            c.idle_table_secs = 600.0;
            // An absent player's seat is freed after this, between games.
            c.escape_grace_secs = Some(600.0);
        })
        .await;
        let a = server.guest().await;
        let b = server.guest().await;
        let (mut wa, mut wb) = (a.ws().await, b.ws().await);
        let quick = json!({"game": "chess", "seat": 0,
            "time": {"kind": "fischer", "base": 60_000, "increment": 0}});

        // A game played to its end, then both players stand up and stop watching.
        let emptied = wa.create(quick.clone()).await;
        wb.ok("sit", json!({"table": emptied, "seat": 1})).await;
        wa.ok("ready", json!({"table": emptied})).await;
        wb.ok("ready", json!({"table": emptied})).await;
        wa.ok("move", json!({"table": emptied, "action": "e2e4"}))
            .await;
        wb.ok("resign", json!({"table": emptied})).await;
        // A table whose creator sits on, with no socket there any more.
        let seated = wa.create(quick).await;
        assert!(listed(&a, &emptied).await && listed(&a, &seated).await);
        for w in [&mut wa, &mut wb] {
            w.ok("leave", json!({"table": emptied})).await;
            w.ok("unwatch", json!({"table": emptied})).await;
        }
        wa.ok("unwatch", json!({"table": seated})).await;
        let emptied_at = Instant::now();
        while listed(&a, &emptied).await {
            assert!(
                emptied_at.elapsed() < Duration::from_secs(5),
                "the empty table is still open after {:?}",
                emptied_at.elapsed()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(
            emptied_at.elapsed() >= Duration::from_millis(400),
            "closed after {:?}, before its grace",
            emptied_at.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(1500)).await;
        assert!(
            listed(&a, &seated).await,
            "a table with a seated player closed"
        );
        // The finished game's record outlives its table.
        let game = a.get(&format!("/api/game/{emptied}")).await;
        assert!(game.status().is_success(), "{}", game.status());
        drop((wa, wb));
    }
}
