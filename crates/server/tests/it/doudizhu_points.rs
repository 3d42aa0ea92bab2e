//! Doudizhu points (积分) for life, through the real server on both backends: the
//! hands a registered player plays add up across hands and tables on their
//! profile (`doudizhu_points {points, title, hands}`) and on the leaderboard
//! (`/api/leaderboard/doudizhu`); bots keep none; an escaping farmer pays as the
//! hand scored it and the partner, whose result is void, keeps their total; a
//! hand from a chosen deal keeps nothing, and every other hand is dealt afresh.
#![cfg(feature = "doudizhu")]

use qiyuan_doudizhu::titles::title;
use serde_json::{Value, json};

use crate::common::*;

/// The seat's action from its own view, if it is its turn: the highest bid while
/// bidding (three humans who all pass would redeal for ever), else the first
/// legal action.
fn first_legal(st: &Value, seat: u64) -> Option<String> {
    let board = &st["game"]["board"];
    if st["status"] != "playing" || board["to_act"] != seat {
        return None;
    }
    let legal = board["legal"].as_array()?;
    let pick = if board["phase"] == "bidding" {
        legal.last()
    } else {
        legal.first()
    };
    pick?.as_str().map(str::to_string)
}

/// The seat each socket's user holds in the current game.
fn seat_of(st: &Value, name: &str) -> Option<u64> {
    st["game"]["players"]
        .as_array()?
        .iter()
        .position(|p| p == name)
        .map(|i| i as u64)
}

/// Plays first legal actions for the humans (`names[i]` on `ws[i]`) until `stop`
/// holds for the state, the bots playing their own seats; returns that state.
async fn drive(ws: &mut [Ws], names: &[&str], table: &str, stop: impl Fn(&Value) -> bool) -> Value {
    let mut turns = 0;
    loop {
        let st = ws[0].state().clone();
        if stop(&st) {
            return st;
        }
        turns += 1;
        assert!(
            turns < 400,
            "the hand went on too long: {}",
            st["game"]["moves"].as_array().map_or(0, Vec::len)
        );
        let to_act = st["game"]["board"]["to_act"].as_u64();
        let mover = (0..ws.len()).find(|&i| to_act.is_some() && seat_of(&st, names[i]) == to_act);
        match mover {
            Some(i) => {
                let seat = to_act.unwrap();
                let action = first_legal(ws[i].state(), seat)
                    .or_else(|| first_legal(&st, seat))
                    .expect("a legal action");
                let r = ws[i]
                    .ok("move", json!({"table": table, "action": action}))
                    .await;
                let v = r["d"]["v"].as_u64().unwrap();
                for w in ws.iter_mut() {
                    w.catch_up(v).await;
                }
            }
            None => {
                ws[0].recv().await;
                let v = ws[0].state()["version"].as_u64().unwrap();
                for w in ws[1..].iter_mut() {
                    w.catch_up(v).await;
                }
            }
        }
    }
}

fn points_of(outcome: &Value) -> Vec<i64> {
    outcome["points"]
        .as_array()
        .unwrap_or_else(|| panic!("points in {outcome}"))
        .iter()
        .map(|p| p.as_i64().unwrap())
        .collect()
}

/// The deal (every hand and the bottom) of a finished hand, from its record.
async fn deal_of(client: &Client, game: &str) -> Value {
    let resp = client.get(&format!("/game/{game}.json")).await;
    assert_eq!(resp.status(), 200, "the record of {game}");
    let record: Value = resp.json().await.unwrap();
    assert!(record["deal"].is_object(), "{record}");
    record["deal"].clone()
}

/// `(points, title, hands)` from a profile, checking the title is the points'.
async fn profile_points(client: &Client, name: &str) -> (i64, String, i64) {
    let resp = client.get(&format!("/api/user/{name}")).await;
    assert_eq!(resp.status(), 200, "the profile of {name}");
    let p: Value = resp.json().await.unwrap();
    let block = &p["doudizhu_points"];
    let points = block["points"].as_i64().unwrap_or_else(|| panic!("{p}"));
    let t = block["title"].as_str().unwrap().to_string();
    assert_eq!(t, title(points), "{name}: {block}");
    (points, t, block["hands"].as_i64().unwrap())
}

async fn leaderboard(client: &Client, limit: u32) -> Vec<(String, i64, String, i64)> {
    let resp = client
        .get(&format!("/api/leaderboard/doudizhu?limit={limit}"))
        .await;
    assert_eq!(resp.status(), 200);
    let b: Value = resp.json().await.unwrap();
    assert_eq!(b["game"], "doudizhu", "{b}");
    b["players"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(i, p)| {
            assert_eq!(p["rank"], i + 1, "{b}");
            (
                p["user"].as_str().unwrap().to_string(),
                p["points"].as_i64().unwrap(),
                p["title"].as_str().unwrap().to_string(),
                p["hands"].as_i64().unwrap(),
            )
        })
        .collect()
}

/// One registered player and two bots play two hands at one table and one at
/// another: the profile holds the sum of the player's points and three hands;
/// the leaderboard holds the player alone (bots and the idle account keep none).
async fn points_add_up_across_hands_and_tables(backend: Backend) {
    let server = start_with(backend, |c| c.bot_think_ms = 0).await;
    let human = server.register("zhang").await;
    let idle = server.register("idle").await;
    assert_eq!(profile_points(&idle, "idle").await, (0, title(0).into(), 0));
    let guest = server.guest().await;
    let gp: Value = guest
        .get(&format!("/api/user/{}", guest.name))
        .await
        .json()
        .await
        .unwrap();
    assert!(
        gp.get("doudizhu_points").is_none(),
        "guests keep none: {gp}"
    );
    let mut ws = vec![human.ws().await];
    let mut total = 0;
    for table in 0..2 {
        let t = ws[0]
            .create(json!({"game": "doudizhu", "seat": 0, "time": {"kind": "none"}}))
            .await;
        ws[0]
            .ok("add_bot", json!({"table": t, "seat": 1, "level": "strong"}))
            .await;
        ws[0]
            .ok("add_bot", json!({"table": t, "seat": 2, "level": "basic"}))
            .await;
        ws[0].ok("ready", json!({"table": t})).await;
        let hands = if table == 0 { 2 } else { 1 };
        for hand in 0..hands {
            if hand > 0 {
                ws[0].ok("rematch", json!({"table": t})).await;
                while ws[0].state()["status"] != "playing" {
                    ws[0].recv().await;
                }
            }
            let end = drive(&mut ws, &["zhang"], &t, |st| st["status"] == "over").await;
            let outcome = &end["game"]["outcome"];
            assert_eq!(outcome["reason"], "hand_emptied", "{end}");
            let seat = seat_of(&end, "zhang").unwrap() as usize;
            let points = points_of(outcome);
            assert_ne!(points[seat], 0, "{outcome}");
            total += points[seat];
            let (p, _, n) = profile_points(&human, "zhang").await;
            assert_eq!(p, total, "after {outcome}");
            assert_eq!(n, (table * 2 + hand + 1) as i64);
        }
        if table == 0 {
            // Each hand is dealt afresh: the rematch's deal is another.
            let first = deal_of(&human, &t).await;
            let second = deal_of(&human, &format!("{t}-2")).await;
            assert_ne!(first, second, "a rematch dealt the same cards");
        }
    }
    let (p, t, n) = profile_points(&human, "zhang").await;
    assert_eq!((p, n), (total, 3));
    assert_eq!(
        leaderboard(&idle, 10).await,
        vec![("zhang".to_string(), total, t, 3)],
        "bots and the idle account are not on it"
    );
    assert_eq!(profile_points(&idle, "idle").await.2, 0);
    // A game that keeps no points has no leaderboard; a limit of 0 is refused.
    assert_eq!(human.get("/api/leaderboard/chess").await.status(), 404);
    assert_eq!(
        human
            .get("/api/leaderboard/doudizhu?limit=0")
            .await
            .status(),
        400
    );
}

/// Three registered players play a hand out, then a farmer escapes the next:
/// the escaper pays two units to the landlord, as the hand scored it, and the
/// partner's void result leaves their points and hands as they were.
async fn an_escaping_farmer_pays_and_the_partner_keeps_their_total(backend: Backend) {
    let server = start(backend).await;
    let names = ["li_si", "wang_wu", "zhao_liu"];
    let mut clients = Vec::new();
    for n in names {
        clients.push(server.register(n).await);
    }
    let mut ws = Vec::new();
    for c in &clients {
        ws.push(c.ws().await);
    }
    let t = ws[0]
        .create(json!({"game": "doudizhu", "seat": 0, "time": {"kind": "none"}}))
        .await;
    for (i, w) in ws.iter_mut().enumerate().skip(1) {
        w.send("watch", json!({"table": t})).await;
        w.expect("sync").await;
        w.ok("sit", json!({"table": t, "seat": i})).await;
    }
    let mut v = 0;
    for w in ws.iter_mut() {
        v = w.ok("ready", json!({"table": t})).await["d"]["v"]
            .as_u64()
            .unwrap();
    }
    for w in ws.iter_mut() {
        w.catch_up(v).await;
    }
    let end = drive(&mut ws, &names, &t, |st| st["status"] == "over").await;
    let first = points_of(&end["game"]["outcome"]);
    let mut totals = std::collections::HashMap::new();
    for n in names {
        let seat = seat_of(&end, n).unwrap() as usize;
        totals.insert(n, first[seat]);
        assert_eq!(
            profile_points(&clients[0], n).await,
            (first[seat], title(first[seat]).into(), 1)
        );
    }

    // The next hand, until every seat has acted (before that, leaving aborts it).
    for w in ws.iter_mut() {
        w.ok("rematch", json!({"table": t})).await;
    }
    while ws[0].state()["status"] != "playing" {
        ws[0].recv().await;
    }
    let v = ws[0].state()["version"].as_u64().unwrap();
    for w in ws[1..].iter_mut() {
        w.catch_up(v).await;
    }
    let st = drive(&mut ws, &names, &t, |st| {
        st["status"] != "playing"
            || st["game"]["moves"]
                .as_array()
                .is_some_and(|ms| (0..3).all(|s| ms.iter().any(|m| m["seat"] == s)))
                && !st["game"]["board"]["landlord"].is_null()
    })
    .await;
    assert_eq!(st["status"], "playing", "{st}");
    let landlord = st["game"]["board"]["landlord"].as_u64().unwrap() as usize;
    let seat_name = |s: usize| st["game"]["players"][s].as_str().unwrap().to_string();
    let escaper_seat = (landlord + 1) % 3;
    let partner_seat = (landlord + 2) % 3;
    let escaper = seat_name(escaper_seat);
    let i = names.iter().position(|n| *n == escaper).unwrap();
    ws[i].ok("leave", json!({"table": t})).await;
    let other = (i + 1) % 3;
    let ended = ws[other].event("ended").await;
    let outcome = &ended["d"]["state"]["game"]["outcome"];
    assert_eq!(outcome["reason"], "escape", "{ended}");
    let points = points_of(outcome);
    assert!(points[escaper_seat] < 0, "{outcome}");
    assert_eq!(points[landlord], -points[escaper_seat], "{outcome}");
    assert_eq!(points[partner_seat], 0, "{outcome}");
    assert_eq!(outcome["results"][partner_seat], "void", "{outcome}");

    let lord = seat_name(landlord);
    let partner = seat_name(partner_seat);
    let expect = |n: &str, diff: i64, hands: i64| (totals[n] + diff, hands);
    let got = |(p, _, h): (i64, String, i64)| (p, h);
    assert_eq!(
        got(profile_points(&clients[0], &escaper).await),
        expect(&escaper, points[escaper_seat], 2)
    );
    assert_eq!(
        got(profile_points(&clients[0], &lord).await),
        expect(&lord, points[landlord], 2)
    );
    assert_eq!(
        got(profile_points(&clients[0], &partner).await),
        expect(&partner, 0, 1),
        "the partner's void hand does not count"
    );
    // The leaderboard orders them by points.
    let board = leaderboard(&clients[0], 3).await;
    assert_eq!(board.len(), 3);
    assert!(board.windows(2).all(|w| w[0].1 >= w[1].1), "{board:?}");
    for (user, p, t, _) in &board {
        assert_eq!(*t, title(*p), "{user}");
    }
    assert_eq!(leaderboard(&clients[0], 1).await.len(), 1);
}

/// A hand dealt from a chosen deal (读入: `seed N`, or the deals written out)
/// is practice: it changes nobody's points, hands or place on the leaderboard,
/// whatever its settings say; a rematch at such a table deals the chosen deal
/// again (it was chosen to be played), still for nothing.
async fn a_chosen_deal_changes_nobodys_points(backend: Backend) {
    let server = start_with(backend, |c| c.bot_think_ms = 0).await;
    let human = server.register("chosen").await;
    let rival = server.register("rival").await;
    let mut ws = vec![human.ws().await];
    let explicit = "33334444555566667/77788889999TTTTJJ/JJQQQQKKKKAAAA222/2BR";
    for position in ["seed 42", explicit] {
        let t = ws[0]
            .create(
                json!({"game": "doudizhu", "seat": 0, "time": {"kind": "none"},
                           "setup": {"position": position}}),
            )
            .await;
        ws[0]
            .ok("add_bot", json!({"table": t, "seat": 1, "level": "basic"}))
            .await;
        ws[0]
            .ok("add_bot", json!({"table": t, "seat": 2, "level": "basic"}))
            .await;
        ws[0].ok("ready", json!({"table": t})).await;
        for hand in 0..2 {
            if hand > 0 {
                ws[0].ok("rematch", json!({"table": t})).await;
                while ws[0].state()["status"] != "playing" {
                    ws[0].recv().await;
                }
            }
            let end = drive(&mut ws, &["chosen"], &t, |st| st["status"] == "over").await;
            let outcome = &end["game"]["outcome"];
            assert_eq!(outcome["reason"], "hand_emptied", "{end}");
            // The hand scored itself as usual; nothing of it was kept.
            let seat = seat_of(&end, "chosen").unwrap() as usize;
            assert_ne!(points_of(outcome)[seat], 0, "{outcome}");
            assert_eq!(
                profile_points(&rival, "chosen").await,
                (0, title(0).into(), 0),
                "{position}, hand {hand}: {outcome}"
            );
            assert_eq!(leaderboard(&rival, 10).await, vec![], "{position}");
        }
        assert_eq!(
            deal_of(&human, &t).await,
            deal_of(&human, &format!("{t}-2")).await,
            "{position}: a rematch deals the chosen deal again"
        );
        ws[0].ok("leave", json!({"table": t})).await;
    }
}

both!(
    a_chosen_deal_changes_nobodys_points,
    points_add_up_across_hands_and_tables,
    an_escaping_farmer_pays_and_the_partner_keeps_their_total,
);
