//! Hidden hands stay hidden: three players and a spectator play and watch a whole
//! hand of Doudizhu over real WebSockets against the real server, and no message
//! any socket receives before the end holds a card of another player's hand. At
//! the end every socket sees the hands revealed, as each owner last saw its own.

use std::collections::HashSet;

use serde_json::{Value, json};

use crate::common::*;

/// Every string in a JSON value, split into words (a hand may be written as one
/// string of space-separated cards as well as a list).
fn words(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => {
            out.extend(
                s.split(|c: char| c.is_whitespace() || c == ',')
                    .filter(|w| !w.is_empty())
                    .map(str::to_string),
            );
        }
        Value::Array(a) => a.iter().for_each(|x| words(x, out)),
        Value::Object(o) => {
            for (k, x) in o {
                out.push(k.clone());
                words(x, out);
            }
        }
        _ => {}
    }
}

/// A suited card is written rank then suit (`Th`); jokers (`B`, `R`) are shown
/// only by rank anyway, and a joker played reveals no more than its rank.
fn suited(card: &str) -> bool {
    card.len() == 2
}

async fn doudizhu_hand_keeps_hands_hidden(backend: Backend) {
    let server = start(backend).await;
    let players = [
        server.guest().await,
        server.guest().await,
        server.guest().await,
    ];
    let watcher = server.guest().await;
    let mut ws = Vec::new();
    for p in &players {
        ws.push(p.ws().await);
    }
    let t = ws[0]
        .create(json!({"game": "doudizhu", "seat": 0, "time": {"kind": "none"}}))
        .await;
    let mut wc = watcher.ws().await;
    wc.send("watch", json!({"table": t})).await;
    wc.expect("sync").await;
    for (seat, w) in ws.iter_mut().enumerate().skip(1) {
        w.send("watch", json!({"table": t})).await;
        w.expect("sync").await;
        w.ok("sit", json!({"table": t, "seat": seat})).await;
    }
    let mut v = 0;
    for w in ws.iter_mut() {
        let r = w.ok("ready", json!({"table": t})).await;
        v = r["d"]["v"].as_u64().unwrap();
    }
    for w in ws.iter_mut().chain(std::iter::once(&mut wc)) {
        w.catch_up(v).await;
    }

    // Each seat's cards as its owner sees them, gathered over every deal (a deal
    // passed out by everyone is dealt again).
    let mut hidden: [HashSet<String>; 3] = Default::default();
    let mut bottom: HashSet<String> = HashSet::new();
    let mut turns = 0;
    let end_v = loop {
        for (seat, w) in ws.iter().enumerate() {
            let board = &w.state()["game"]["board"];
            assert_eq!(w.state()["you"], seat, "each socket sees from its seat");
            if board["phase"] == "bidding" {
                hidden[seat].extend(cards(&board["hand"]));
            }
        }
        let board = wc.state()["game"]["board"].clone();
        bottom.extend(cards(&board["bottom"]));
        if wc.state()["status"] == "over" {
            break wc.state()["version"].as_u64().unwrap();
        }
        assert!(turns < 500, "the hand never ended");
        turns += 1;
        let seat = board["to_act"].as_u64().expect("someone to act") as usize;
        let own = &ws[seat].state()["game"]["board"];
        let legal: Vec<&str> = own["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        assert!(!legal.is_empty(), "seat {seat} to act has actions: {own}");
        // Bid the lowest bid there is (1, then 2, then 3 ends it); in play, the
        // first legal play, which leads or follows with the fewest cards.
        let action = if own["phase"] == "bidding" {
            legal
                .iter()
                .find(|a| a.starts_with("bid"))
                .unwrap_or(&legal[0])
        } else {
            &legal[0]
        }
        .to_string();
        let r = ws[seat]
            .ok("move", json!({"table": t, "action": action}))
            .await;
        let v = r["d"]["v"].as_u64().unwrap();
        for w in ws.iter_mut().chain(std::iter::once(&mut wc)) {
            w.catch_up(v).await;
        }
    };
    assert!(turns > 3, "a whole hand was played ({turns} turns)");
    for h in &hidden {
        assert!(h.len() >= 17, "every hand was seen by its owner: {h:?}");
    }

    // The check: every message before the batch that ended the hand.
    let check = |who: &str, seen: &[Value], forbidden: &HashSet<String>, own: Option<usize>| {
        let mut n = 0;
        for m in seen {
            if m["d"]["state"]["version"].as_u64().unwrap_or(0) >= end_v {
                break;
            }
            n += 1;
            let mut ws_words = Vec::new();
            words(m, &mut ws_words);
            for w in &ws_words {
                assert!(
                    !forbidden.contains(w),
                    "{who} received {w}, another player's card, before the end: {m}"
                );
            }
            let board = &m["d"]["state"]["game"]["board"];
            assert!(board["hands"].is_null(), "{who}: hands before the end: {m}");
            match own {
                Some(_) => {}
                None => assert!(board["hand"].is_null(), "{who} got a hand: {m}"),
            }
        }
        assert!(n > 10, "{who} saw the game ({n} messages)");
    };
    for (seat, w) in ws.iter().enumerate() {
        let forbidden: HashSet<String> = (0..3)
            .filter(|&s| s != seat)
            .flat_map(|s| hidden[s].iter().cloned())
            .filter(|c| suited(c) && !bottom.contains(c))
            .collect();
        assert!(forbidden.len() >= 30, "{forbidden:?}");
        check(&format!("seat {seat}"), &w.seen, &forbidden, Some(seat));
    }
    let all: HashSet<String> = hidden
        .iter()
        .flatten()
        .filter(|c| suited(c) && !bottom.contains(*c))
        .cloned()
        .collect();
    check("the spectator", &wc.seen, &all, None);

    // The end reveals every hand's remaining cards, the same to everyone, and as
    // each owner last held them.
    let revealed = wc.state()["game"]["board"]["hands"].clone();
    assert!(revealed.is_array(), "hands revealed at the end");
    for (seat, w) in ws.iter().enumerate() {
        let board = &w.state()["game"]["board"];
        assert_eq!(board["hands"], revealed, "seat {seat} sees the same reveal");
        assert_eq!(
            cards(&board["hand"]),
            cards(&revealed[seat]),
            "seat {seat}'s revealed hand is its own last hand"
        );
    }
    let outcome = &wc.state()["game"]["outcome"];
    assert_eq!(outcome["reason"], "hand_emptied", "{outcome}");
    let points: i64 = outcome["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_i64().unwrap())
        .sum();
    assert_eq!(points, 0, "Doudizhu scores sum to zero: {outcome}");
    assert!(
        revealed
            .as_array()
            .unwrap()
            .iter()
            .any(|h| cards(h).is_empty()),
        "someone emptied a hand: {revealed}"
    );
    // The record, once finished, keeps the full deal.
    let record = watcher.get(&format!("/game/{t}.json")).await;
    assert_eq!(record.status(), 200);
    let record = record.text().await.unwrap();
    let mut record_words = Vec::new();
    words(&serde_json::from_str(&record).unwrap(), &mut record_words);
    let record_words: HashSet<String> = record_words.into_iter().collect();
    assert!(
        hidden.iter().flatten().all(|c| record_words.contains(c)),
        "the record keeps the whole deal: {record}"
    );
}

/// While a hand is played, the HTTP views of it (the game API and the live
/// record) hold no hand either.
async fn doudizhu_http_views_hide_hands(backend: Backend) {
    let server = start(backend).await;
    let players = [
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
    let mut all = HashSet::new();
    for w in ws.iter_mut() {
        w.catch_up(v).await;
        all.extend(cards(&w.state()["game"]["board"]["hand"]));
    }
    assert_eq!(all.len(), 51);
    let outsider = server.guest().await;
    // The command log must not carry the deal's seed either: with it anyone could
    // deal the hands again.
    let log: Value = outsider
        .get(&format!("/api/game/{t}/log"))
        .await
        .json()
        .await
        .unwrap();
    let mut log_words = Vec::new();
    words(&log, &mut log_words);
    assert!(
        !log_words.iter().any(|w| w.eq_ignore_ascii_case("seed")),
        "the log shows the deal's seed: {log}"
    );
    for path in [format!("/api/game/{t}"), format!("/game/{t}.json")] {
        let resp = outsider.get(&path).await;
        let status = resp.status();
        let body = resp.text().await.unwrap();
        if status != 200 {
            continue;
        }
        let Ok(json) = serde_json::from_str::<Value>(&body) else {
            continue;
        };
        let mut seen = Vec::new();
        words(&json, &mut seen);
        let leaked: Vec<&String> = seen.iter().filter(|w| all.contains(*w)).collect();
        assert!(
            leaked.is_empty(),
            "{path} shows a spectator cards of a live hand: {leaked:?}"
        );
    }
}

both!(
    doudizhu_hand_keeps_hands_hidden,
    doudizhu_http_views_hide_hands
);
