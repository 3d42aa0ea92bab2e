//! berserk (the Python client of Lichess's API), unchanged but for its base
//! URL, calls every endpoint docs/api.md lists: the test reads the endpoint
//! tables of docs/api.md and checks that each was answered (a success; the
//! bot API's claim-victory is refused by design in the script) among the HTTP
//! requests berserk made, then checks what the answers said.

use serde_json::{Value, json};

use crate::api::token;
use crate::common::{self, Backend};

const SCRIPT: &str = include_str!("lichess_tools/berserk_calls.py");

/// The endpoints of docs/api.md's tables, as (method, path template); the
/// bot API's row (`/api/bot/game/…`) stands for the board API's game rows.
fn documented() -> Vec<(String, String)> {
    let doc = std::fs::read_to_string(qiyuan_testkit::fs::workspace().join("docs/api.md"))
        .expect("docs/api.md");
    let mut out = Vec::new();
    let mut bot_rows = false;
    for line in doc.lines() {
        let Some(cell) = line
            .strip_prefix("| `")
            .and_then(|rest| rest.split_once("` |"))
            .map(|(cell, _)| cell.replace("\\|", "|"))
        else {
            continue;
        };
        if cell.starts_with("/api/bot/game/") {
            bot_rows = true;
            continue;
        }
        let Some((method, path)) = cell.split_once(' ') else {
            continue;
        };
        if ["GET", "POST", "DELETE", "PUT"].contains(&method) {
            out.push((method.to_string(), path.to_string()));
        }
    }
    assert!(bot_rows, "docs/api.md lists the bot API's game routes");
    let bot: Vec<_> = out
        .iter()
        .filter(|(_, p)| p.starts_with("/api/board/game/"))
        .map(|(m, p)| (m.clone(), p.replacen("/api/board/", "/api/bot/", 1)))
        .collect();
    out.extend(bot);
    out
}

/// Whether `path` is one of `template`'s (`{id}`: any segment; `{yes|no}`:
/// one of those; a trailing `/`, which berserk adds to claim-victory, aside).
fn matches(template: &str, path: &str) -> bool {
    let path = path.strip_suffix('/').unwrap_or(path);
    let (t, p): (Vec<_>, Vec<_>) = (template.split('/').collect(), path.split('/').collect());
    t.len() == p.len()
        && t.iter().zip(&p).all(|(t, p)| {
            match t.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
                Some(alts) if alts.contains('|') => alts.split('|').any(|a| a == *p),
                Some(_) => !p.is_empty(),
                None => t == p,
            }
        })
}

async fn berserk_calls_every_endpoint(backend: Backend) {
    let s = common::start_with(backend, |c| {
        c.api.keepalive_secs = 0.5;
        c.escape_grace_secs = Some(3.0);
        c.bot_think_ms = 50;
    })
    .await;
    let alice_c = s.register("alice").await;
    let player = "board:play challenge:read challenge:write preference:read email:read";
    let alice = token(&alice_c, player).await;
    let bob = token(&s.register("bob").await, player).await;
    let bot = "bot:play challenge:read challenge:write";
    let robo = token(&s.register("robo").await, bot).await;
    let rival = token(&s.register("rival").await, bot).await;
    let input = json!({
        "base": s.base, "alice": alice.token, "alice_session": alice_c.token,
        "bob": bob.token, "robo": robo.token, "rival": rival.token,
    })
    .to_string();
    let out = tokio::task::spawn_blocking(move || {
        qiyuan_testkit::run_python("berserk and python-chess", SCRIPT, &input)
    })
    .await
    .unwrap()
    .unwrap_or_else(|e| panic!("the berserk script failed: {e}"));
    let r: Value = serde_json::from_str(out.trim()).unwrap();
    let calls: Vec<(String, String, u64)> = r["calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let c = c.as_array().unwrap();
            let text = |i: usize| c[i].as_str().unwrap().to_string();
            (text(0), text(1), c[2].as_u64().unwrap())
        })
        .collect();

    // Every documented endpoint was called, and answered.
    let endpoints = documented();
    assert!(endpoints.len() >= 40, "{endpoints:?}");
    let mut missing = Vec::new();
    for (method, template) in &endpoints {
        let refused_by_design = template == "/api/bot/game/{id}/claim-victory";
        let answered = calls.iter().any(|(m, p, status)| {
            m == method
                && matches(template, p)
                && (*status < 300 || (refused_by_design && *status == 400))
        });
        if !answered {
            missing.push(format!("{method} {template}"));
        }
    }
    assert!(
        missing.is_empty(),
        "not answered: {missing:?}\ncalls: {calls:?}"
    );
    // Nothing berserk asked was a path we do not have.
    for (m, p, status) in &calls {
        assert_ne!(*status, 405, "{m} {p}");
        assert!(*status < 500, "{m} {p}: {status}");
    }

    let seen = &r["seen"];
    let game = seen["game"].as_str().unwrap();
    // Tokens.
    assert!(seen["token_list"].as_u64().unwrap() >= 2);
    let tested = seen["tested"].as_object().unwrap();
    assert_eq!(tested.len(), 3);
    assert_eq!(tested[&alice.token]["userId"], "alice");
    assert_eq!(
        tested.values().filter(|v| v.is_null()).count(),
        2,
        "{tested:?}"
    );
    // Accounts and users.
    assert_eq!(seen["account"], "alice");
    assert_eq!(seen["preferences"], true);
    assert_eq!(seen["email"], Value::Null);
    assert_eq!(seen["kid"], false);
    assert_eq!(seen["public"], "bob");
    assert_eq!(seen["users_by_ids"], json!(["alice", "bob"]));
    assert_eq!(seen["online_bots"], json!(["robo"]));
    assert_eq!(seen["mine"], true);
    let status = seen["status"].as_array().unwrap();
    assert_eq!(status.len(), 2, "{status:?}");
    for (who, s) in ["alice", "bob"].iter().zip(status) {
        assert_eq!(s["id"], *who);
        assert_eq!(s["online"], true, "{s}");
        assert_eq!(s["playing"], true, "{s}");
        assert_eq!(s["playingId"], game, "{s}");
    }
    // The draw offered on alice's own turn reached bob with her move only.
    assert_eq!(seen["own_turn_offer_before_move"], false);
    assert_eq!(seen["chat"], json!([{"user": "alice", "text": "have fun"}]));
    let current = seen["current"].as_array().unwrap();
    assert_eq!(current.len(), 1);
    assert_eq!(
        (&current[0]["id"], &current[0]["status"]),
        (&json!(game), &json!("started"))
    );
    assert_eq!(seen["claim_too_soon"], 400);
    assert_eq!(seen["end"]["status"], "draw", "{}", seen["end"]);
    assert_eq!(seen["end"]["moves"], "e2e4 e7e5 g1f3 b8c6 f1b5 g8f6");
    // The spectator's stream: the game, its moves, the game again after the
    // takeback, and at its end.
    let watched = seen["watched"].as_array().unwrap();
    let first = &watched[0];
    assert_eq!(first["id"], game);
    assert_eq!(first["status"], json!({"id": 20, "name": "started"}));
    assert_eq!(first["players"]["white"]["user"]["name"], "alice");
    assert_eq!(first["players"]["black"]["user"]["id"], "bob");
    assert_eq!(first["variant"]["key"], "standard");
    let lm: Vec<&str> = watched.iter().filter_map(|l| l["lm"].as_str()).collect();
    assert_eq!(
        lm,
        ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f1b5", "g8f6"],
        "{watched:?}"
    );
    let retaken = watched.iter().filter(|l| l["turns"] == 4).count();
    assert_eq!(retaken, 1, "the game again after the takeback: {watched:?}");
    let last = watched.last().unwrap();
    assert_eq!(last["status"], json!({"id": 34, "name": "draw"}), "{last}");
    let e4 = watched.iter().find(|l| l["lm"] == "e2e4").unwrap();
    assert_eq!(e4["fen"], "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b");
    assert!(e4["wc"].as_u64().unwrap() <= 300);
    // Exports.
    assert_eq!(seen["export_json"]["id"], game);
    assert_eq!(seen["export_json"]["status"], "draw");
    assert!(
        seen["export_pgn"]
            .as_str()
            .unwrap()
            .contains("[Result \"1/2-1/2\"]")
    );
    assert!(seen["by_player"].as_array().unwrap().contains(&json!(game)));
    assert_eq!(seen["games_by_ids"], json!([game]));
    assert_eq!(seen["games_by_ids_pgn"].as_array().unwrap().len(), 1);
    assert_eq!(seen["last"][0]["id"], game);
    assert_eq!(seen["last"][0]["status"], "draw");
    // Bob left: alice was told, and claimed the win.
    let gone = seen["gone"].as_array().unwrap();
    assert!(gone.iter().any(|g| g["gone"] == true), "{gone:?}");
    // Bots.
    assert_eq!(
        seen["bot_chat"],
        json!([{"user": "robo", "text": "good luck"}])
    );
    assert_eq!(seen["bot_claim_too_soon"], 400);
    let history = seen["history"].as_array().unwrap();
    assert_eq!(history.len(), 1, "{history:?}");
    assert_eq!(history[0]["name"], "Blitz");
    assert_eq!(history[0]["points"].as_array().unwrap().len(), 1);
    let events: Vec<&str> = seen["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    for kind in ["challenge", "challengeDeclined", "gameStart", "gameFinish"] {
        assert!(events.contains(&kind), "{kind} in {events:?}");
    }
}

both!(berserk_calls_every_endpoint);

#[test]
fn templates_match_paths() {
    assert!(matches(
        "/api/board/game/{id}/draw/{yes|no}",
        "/api/board/game/x/draw/no"
    ));
    assert!(!matches(
        "/api/board/game/{id}/draw/{yes|no}",
        "/api/board/game/x/draw/maybe"
    ));
    assert!(matches("/api/user/{name}", "/api/user/alice"));
    assert!(!matches("/api/user/{name}", "/api/user/alice/current-game"));
    assert!(matches(
        "/api/board/game/{id}/claim-victory",
        "/api/board/game/x/claim-victory/"
    ));
}
