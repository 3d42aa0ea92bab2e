//! Doudizhu deals are secret hand after hand, and spectators write nothing.
//!
//! The attack this reproduces: after hand 1 of a table ends, a client fetches
//! everything it can (records, the command log, the game API, the lobby, a
//! spectator's sync) and tries to compute hand 2's deal — as it could when each
//! record named its seed and every hand's seed was one SplitMix64 step from the
//! table's. Now every hand deals from a fresh 256-bit secret of the operating
//! system's random source, kept in the store only: nothing fetchable names it,
//! the old derivation from anything published gives nothing, and a restart in
//! the middle of hand 2 deals the same cards again.

use std::collections::BTreeSet;

use qiyuan_doudizhu::Deal;
use qiyuan_game::Secret;
use serde_json::{Value, json};

use crate::common::*;

fn deal_cards(deal: &Deal) -> [BTreeSet<String>; 3] {
    deal.hands
        .map(|h| cards(&serde_json::to_value(h).expect("a hand serialises")))
}

/// Every key and every string or number in a JSON value.
fn atoms(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Number(n) => out.push(n.to_string()),
        Value::Array(a) => a.iter().for_each(|x| atoms(x, out)),
        Value::Object(o) => {
            for (k, x) in o {
                out.push(k.clone());
                atoms(x, out);
            }
        }
        _ => {}
    }
}

/// The secrets the store holds for table `t`, in the order the hands started.
async fn stored_secrets(server: &TestServer, t: &str) -> Vec<Secret> {
    let app = &server.running.as_ref().expect("running").app;
    let log = app.store.log(t, 0).await.expect("the stored log");
    log.iter()
        .filter_map(|e| {
            let entry: Value = serde_json::from_str(&e.entry).ok()?;
            let hex = entry["deal"].as_str()?;
            Some(Secret::from_hex(hex).expect("a stored secret reads"))
        })
        .collect()
}

/// The three seats' sockets, watching table `t`, caught up to version `v`.
async fn catch_all(ws: &mut [Ws], v: u64) {
    for w in ws.iter_mut() {
        w.catch_up(v).await;
    }
}

/// Each seat's hand as its own socket shows it now.
fn own_hands(ws: &[Ws]) -> [BTreeSet<String>; 3] {
    [0, 1, 2].map(|i| cards(&ws[i].state()["game"]["board"]["hand"]))
}

/// Everything an outsider can fetch about table `t` over HTTP and WebSocket,
/// as (where, body) pairs.
async fn fetch_everything(
    server: &TestServer,
    t: &str,
    players: &[Client],
) -> Vec<(String, String)> {
    let outsider = server.guest().await;
    let mut out = Vec::new();
    let profiles = players.iter().map(|p| format!("/api/user/{}", p.name));
    for path in profiles.chain([
        format!("/api/game/{t}"),
        format!("/api/game/{t}-2"),
        format!("/api/game/{t}/log"),
        format!("/api/game/{t}/log?after=0"),
        format!("/game/{t}.json"),
        format!("/game/{t}-2.json"),
        format!("/game/{t}-3.json"),
        "/api/lobby/doudizhu".to_string(),
        "/api/health".to_string(),
    ]) {
        let resp = outsider.get(&path).await;
        let status = resp.status();
        out.push((format!("{path} ({status})"), resp.text().await.unwrap()));
    }
    let mut w = outsider.ws().await;
    w.send("watch", json!({"table": t, "since": 0})).await;
    let sync = w.expect("sync").await;
    out.push(("a spectator's sync".into(), sync.to_string()));
    out
}

/// The deal that the old derivation (a record's seed, SplitMix64 to the next
/// hand) would give from a number `n` a client saw: both as a hand seed and as
/// the table seed.
fn legacy_guesses(n: u64) -> Vec<Deal> {
    fn splitmix(x: u64) -> u64 {
        let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    let mut out = vec![Deal::from_seed(n), Deal::from_seed(splitmix(n ^ 2))];
    // n as hand 1's seed: invert nothing, just try the neighbours a careless
    // scheme would use.
    out.push(Deal::from_seed(n.wrapping_add(1)));
    out
}

async fn hand_two_cannot_be_computed(backend: Backend) {
    // Players may be away for a minute (the restart below) without losing.
    let mut server = start_with(backend, |c| c.escape_grace_secs = Some(60.0)).await;
    let mut players = [
        server.guest().await,
        server.guest().await,
        server.guest().await,
    ];
    let mut ws = Vec::new();
    for p in &players {
        ws.push(p.ws().await);
    }
    let t = ws[0]
        .create(json!({"game": "doudizhu", "seat": 0, "time": {"kind": "none"}}))
        .await;
    for (seat, w) in ws.iter_mut().enumerate().skip(1) {
        w.ok("sit", json!({"table": t, "seat": seat})).await;
    }
    let mut v = 0;
    for w in ws.iter_mut() {
        v = w.ok("ready", json!({"table": t})).await["d"]["v"]
            .as_u64()
            .unwrap();
    }
    catch_all(&mut ws, v).await;
    let hand1 = own_hands(&ws);
    assert!(hand1.iter().all(|h| h.len() == 17), "{hand1:?}");

    // Hand 1: two seats pass, the third bids 3 (every seat has acted), and the
    // landlord resigns.
    for _ in 0..2 {
        let seat = ws[0].state()["game"]["board"]["to_act"].as_u64().unwrap() as usize;
        let v = ws[seat]
            .ok("move", json!({"table": t, "action": "pass"}))
            .await["d"]["v"]
            .as_u64()
            .unwrap();
        catch_all(&mut ws, v).await;
    }
    let landlord = ws[0].state()["game"]["board"]["to_act"].as_u64().unwrap() as usize;
    let v = ws[landlord]
        .ok("move", json!({"table": t, "action": "bid 3"}))
        .await["d"]["v"]
        .as_u64()
        .unwrap();
    catch_all(&mut ws, v).await;
    let v = ws[landlord].ok("resign", json!({"table": t})).await["d"]["v"]
        .as_u64()
        .unwrap();
    catch_all(&mut ws, v).await;
    assert_eq!(ws[0].state()["status"], "over");
    assert_eq!(ws[0].state()["game"]["outcome"]["reason"], "resignation");

    // Hand 1's record shows its deal, the cards, and no seed.
    let record = players[0].get(&format!("/game/{t}.json")).await;
    assert_eq!(record.status(), 200);
    let record: Value = record.json().await.unwrap();
    for seat in 0..3 {
        assert_eq!(
            cards(&record["deal"]["hands"][seat]),
            hand1[seat],
            "the record shows seat {seat}'s cards as dealt"
        );
    }
    assert!(record.get("seed").is_none(), "a seed in {record}");

    // Hand 2.
    let mut v = 0;
    for w in ws.iter_mut() {
        v = w.ok("ready", json!({"table": t})).await["d"]["v"]
            .as_u64()
            .unwrap();
    }
    catch_all(&mut ws, v).await;
    assert_eq!(ws[0].state()["game"]["number"], 2);
    let hand2 = own_hands(&ws);
    assert!(hand2.iter().all(|h| h.len() == 17), "{hand2:?}");
    assert_ne!(hand1, hand2, "the deals differ");

    // The store keeps one secret per hand; the second deals hand 2.
    let secrets = stored_secrets(&server, &t).await;
    assert_eq!(secrets.len(), 2, "one secret per hand");
    assert_ne!(secrets[0], secrets[1]);
    assert_eq!(deal_cards(&Deal::from_secret(&secrets[0], 0)), hand1);
    assert_eq!(deal_cards(&Deal::from_secret(&secrets[1], 0)), hand2);

    // The attack: everything fetchable, searched for the secrets, for any seed,
    // and for a number from which the old derivation deals hand 2.
    let fetched = fetch_everything(&server, &t, &players).await;
    let mut numbers = BTreeSet::new();
    for (what, body) in &fetched {
        for secret in &secrets {
            assert!(
                !body.to_lowercase().contains(&secret.to_hex()),
                "{what} shows a deal secret"
            );
        }
        let lower = body.to_lowercase();
        for word in ["seed", "secret", "\"deal\":"] {
            // `deal` is the finished hand's record field; a stored log entry
            // would carry it next to `command`.
            if word == "\"deal\":" && what.starts_with(&format!("/game/{t}.json")) {
                continue;
            }
            assert!(!lower.contains(word), "{what} mentions {word}: {body}");
        }
        // Hand 2's cards appear nowhere an outsider can read (its own view has
        // none of them while the hand goes on).
        if let Ok(json) = serde_json::from_str::<Value>(body) {
            let mut seen = Vec::new();
            atoms(&json, &mut seen);
            for atom in &seen {
                if let Ok(n) = atom.parse::<u64>() {
                    numbers.insert(n);
                }
            }
            if !what.starts_with(&format!("/game/{t}.json")) {
                let seen: BTreeSet<&String> = seen.iter().collect();
                let shown: Vec<&&String> = seen
                    .iter()
                    .filter(|a| hand2.iter().any(|h| h.contains(a.as_str())) && a.len() == 2)
                    .collect();
                assert!(shown.is_empty(), "{what} shows hand 2's cards {shown:?}");
            }
        }
    }
    assert!(numbers.len() > 10, "the fetches returned data: {numbers:?}");
    let hand2_deal: [BTreeSet<String>; 3] = hand2.clone();
    for n in &numbers {
        for guess in legacy_guesses(*n) {
            assert_ne!(
                deal_cards(&guess),
                hand2_deal,
                "hand 2 computed from the published number {n}"
            );
        }
    }
    let live = players[0].get(&format!("/game/{t}-2.json")).await;
    assert_eq!(live.status(), 403, "hand 2's record waits for its end");

    // A restart in the middle of hand 2: the same cards again, and play goes on.
    let to_act = ws[0].state()["game"]["board"]["to_act"].as_u64().unwrap() as usize;
    for w in ws.drain(..) {
        w.close().await;
    }
    server.restart().await;
    for p in players.iter_mut() {
        p.follow(&server);
    }
    for p in &players {
        let mut w = p.ws().await;
        w.send("watch", json!({"table": t})).await;
        w.expect("sync").await;
        ws.push(w);
    }
    assert_eq!(
        own_hands(&ws),
        hand2,
        "the hand goes on with the same cards"
    );
    assert_eq!(
        ws[0].state()["game"]["board"]["to_act"].as_u64().unwrap() as usize,
        to_act
    );
    ws[to_act]
        .ok("move", json!({"table": t, "action": "bid 1"}))
        .await;
    assert_eq!(stored_secrets(&server, &t).await, secrets, "no new secret");
}

/// 200 watch/unwatch cycles by a stranger leave someone else's game as it was:
/// no log entry, no new version; the spectator is still shown live.
async fn spectators_write_nothing(backend: Backend) {
    let server = start(backend).await;
    let a = server.guest().await;
    let b = server.guest().await;
    let time = json!({"kind": "fischer", "base": 300_000, "increment": 0});
    let (t, mut wa, mut wb) = table_with_game(&server, &a, &b, "chess", time).await;
    let v = wa.ok("move", json!({"table": t, "action": "e2e4"})).await["d"]["v"]
        .as_u64()
        .unwrap();
    wb.catch_up(v).await;
    let log_len = |body: Value| body["entries"].as_array().map_or(0, Vec::len);
    let before = log_len(
        a.get(&format!("/api/game/{t}/log"))
            .await
            .json()
            .await
            .unwrap(),
    );
    assert_eq!(before as u64, v);

    let stranger = server.guest().await;
    let mut ws = stranger.ws().await;
    for i in 0..200 {
        ws.send("watch", json!({"table": t})).await;
        let sync = ws.expect("sync").await;
        assert_eq!(sync["d"]["v"], v, "cycle {i}: watching moved the version");
        if i == 0 {
            let listed = &sync["d"]["state"]["spectators"];
            assert_eq!(listed, &json!([stranger.name]), "shown live: {sync}");
        }
        ws.ok("unwatch", json!({"table": t})).await;
    }
    // Leaving as a spectator, and a socket that closes while watching, write
    // nothing either.
    ws.send("watch", json!({"table": t})).await;
    ws.expect("sync").await;
    ws.ok("leave", json!({"table": t})).await;
    ws.send("watch", json!({"table": t})).await;
    ws.expect("sync").await;
    ws.close().await;
    let mut ws = stranger.ws().await;
    ws.send("watch", json!({"table": t})).await;
    ws.expect("sync").await;

    let after = log_len(
        a.get(&format!("/api/game/{t}/log"))
            .await
            .json()
            .await
            .unwrap(),
    );
    assert_eq!(after, before, "watching added log entries");
    let game: Value = a.get(&format!("/api/game/{t}")).await.json().await.unwrap();
    assert_eq!(game["state"]["version"], v, "{game}");
    let app = &server.running.as_ref().unwrap().app;
    assert_eq!(app.store.log(&t, 0).await.unwrap().len() as u64, v);
    // The players saw spectators come and go without a version gap, and the game
    // goes on.
    let r = wb.ok("move", json!({"table": t, "action": "e7e5"})).await;
    assert_eq!(r["d"]["v"], v + 1);
    let by_stranger = |m: &Value| {
        m["d"]["events"]
            .as_array()
            .is_some_and(|es| es.iter().any(|e| e["user"] == stranger.name.as_str()))
    };
    while wa.seen.iter().filter(|m| by_stranger(m)).count() < 400 {
        wa.recv().await;
    }
    for m in wa.seen.iter().filter(|m| by_stranger(m)) {
        assert_eq!(m["d"]["from"], m["d"]["v"], "a live-only batch: {m}");
        assert_eq!(m["d"]["v"], v, "{m}");
    }
}

both!(hand_two_cannot_be_computed, spectators_write_nothing);
