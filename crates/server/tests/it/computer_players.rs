//! Computer players at chess, xiangqi, Go and Doudizhu tables, over real
//! WebSockets against the real server: `play_computer` starts a game against a
//! built-in engine in one message, and each game is played to its end by a test
//! client making legal moves. The bots resign hopeless positions, answer draw
//! offers by their evaluation, grant takebacks in casual games, and keep within
//! their clock. Every scenario runs on SQLite: the store is not what is tested.
#![cfg(all(
    feature = "chess",
    feature = "xiangqi",
    feature = "go",
    feature = "doudizhu"
))]

use serde_json::{Value, json};

use crate::common::*;

/// The human's action now, if `pick` has one for the state; `None` to wait.
type Pick = fn(&Value, u64) -> Option<String>;

/// Whether `seat` is to act (alone, or among all as in Go's marking).
fn to_act(g: &Value, seat: u64) -> bool {
    g["turn"]["seat"] == seat
        || g["turn"]["all"]
            .as_array()
            .is_some_and(|a| a.contains(&json!(seat)))
}

/// The first legal move of a chess or xiangqi view.
fn first_legal(g: &Value, seat: u64) -> Option<String> {
    if g["turn"]["seat"] != seat {
        return None;
    }
    g["board"]["legal_moves"][0].as_str().map(str::to_string)
}

/// Go: pass while playing, accept the marking once.
fn pass_then_accept(g: &Value, seat: u64) -> Option<String> {
    match g["phase"].as_str() {
        Some("play") if g["turn"]["seat"] == seat => Some("pass".into()),
        Some("marking") if g["board"]["marking"]["accepted"][seat as usize] == false => {
            Some("accept".into())
        }
        _ => None,
    }
}

/// Doudizhu: the first legal action of the seat's own view.
fn first_card(g: &Value, seat: u64) -> Option<String> {
    if g["board"]["to_act"] != seat {
        return None;
    }
    g["board"]["legal"][0].as_str().map(str::to_string)
}

/// Plays for the human at `seat` until the game is over; returns the final
/// state and how many actions the human made.
async fn play_out(ws: &mut Ws, table: &str, seat: u64, pick: Pick) -> (Value, usize) {
    let mut acts = 0;
    loop {
        let st = ws.state().clone();
        if st["status"] == "over" {
            return (st, acts);
        }
        let g = &st["game"];
        match pick(g, seat).filter(|_| to_act(g, seat) || g["board"]["to_act"] == seat) {
            Some(action) => {
                let r = ws
                    .act("move", json!({"table": table, "action": action}))
                    .await;
                assert!(
                    r["t"] == "ack" || r["d"]["code"] == "game_over",
                    "{action} refused: {r}"
                );
                acts += 1;
                assert!(acts < 400, "the game never ended: {}", ws.state());
            }
            None => {
                ws.recv().await;
            }
        }
    }
}

/// The seats' users of a state.
fn users(st: &Value) -> Vec<String> {
    st["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["user"].as_str().unwrap_or_default().to_string())
        .collect()
}

async fn every_game_is_played_to_its_end_against_the_computer() {
    let server = start_with(Backend::Sqlite, |c| c.bot_think_ms = 0).await;
    let human = server.guest().await;
    let mut ws = human.ws().await;

    // The lobby lists each game's levels.
    let games: Value = human.get("/api/games").await.json().await.unwrap();
    let games = games.as_array().cloned().unwrap_or_default();
    for name in ["chess", "xiangqi", "go"] {
        let g = games.iter().find(|g| g["name"] == name).expect(name);
        assert_eq!(
            g["bots"],
            json!(["1", "2", "3", "4", "5", "6", "7", "8"]),
            "{g}"
        );
        assert_eq!(g["bot_levels"][7]["key"], "8", "{g}");
    }

    // Chess: the human plays Black's first legal move each turn; level 4 mates.
    let (t, seat) = play_computer(
        &mut ws,
        json!({"game": "chess", "level": 4, "colour": "black", "time": {"kind": "none"}}),
    )
    .await;
    assert_eq!(seat, 1);
    let st = ws.state().clone();
    assert_eq!(st["status"], "playing", "the game starts at once: {st}");
    assert!(users(&st)[0].starts_with("bot:4-"), "{st}");
    let (end, _) = play_out(&mut ws, &t, seat, first_legal).await;
    let outcome = &end["game"]["outcome"];
    assert_eq!(outcome["results"][0], "win", "the computer wins: {outcome}");

    // Xiangqi: Red's first legal move each turn against level 3.
    let mut ws = human.ws().await;
    let (t, seat) = play_computer(
        &mut ws,
        json!({"game": "xiangqi", "level": "3", "colour": "red", "time": {"kind": "none"}}),
    )
    .await;
    assert_eq!(seat, 0);
    let (end, moves) = play_out(&mut ws, &t, seat, first_legal).await;
    assert!(moves > 0);
    assert!(end["game"]["outcome"].is_object(), "{}", end["game"]);

    // Go 9×9 with two handicap stones and half a point of komi: White, the
    // computer, must play to win; the human passes, level 3 plays until it has
    // won and passes too, and both accept the marking.
    let mut ws = human.ws().await;
    let (t, seat) = play_computer(
        &mut ws,
        json!({"game": "go", "level": 3, "colour": "black",
               "options": {"size": 9, "komi": 0.5, "handicap": 2},
               "time": {"kind": "none"}}),
    )
    .await;
    assert_eq!(seat, 0);
    let (end, _) = play_out(&mut ws, &t, seat, pass_then_accept).await;
    let g = &end["game"];
    assert!(
        g["board"]["result"]
            .as_str()
            .is_some_and(|r| r.starts_with("W+")),
        "{g}"
    );
    assert!(g["board"]["moves"].as_array().unwrap().len() > 4, "{g}");

    // Doudizhu: two computer players at once.
    let mut ws = human.ws().await;
    let (t, seat) = play_computer(
        &mut ws,
        json!({"game": "doudizhu", "level": "strong", "colour": 2, "time": {"kind": "none"}}),
    )
    .await;
    assert_eq!(seat, 2);
    let st = ws.state().clone();
    let u = users(&st);
    assert!(
        u[0].starts_with("bot:strong-") && u[1].starts_with("bot:strong-"),
        "{u:?}"
    );
    let (end, _) = play_out(&mut ws, &t, seat, first_card).await;
    assert!(end["game"]["outcome"].is_object());

    // Refusals: a level the game does not have, a side it does not name.
    let r = ws
        .act("play_computer", json!({"game": "chess", "level": "strong"}))
        .await;
    assert_eq!(r["d"]["code"], "bad_level", "{r}");
    let r = ws
        .act("play_computer", json!({"game": "chess", "colour": "red"}))
        .await;
    assert_eq!(r["d"]["code"], "bad_seat", "{r}");
    let r = ws
        .act("play_computer", json!({"game": "chess", "level": 9}))
        .await;
    assert_eq!(r["d"]["code"], "bad_level", "{r}");
}

/// White: king and queen against a lone king; the computer has Black.
const LOST_FOR_BLACK: &str = "4k3/8/8/8/8/8/1Q6/R3K3 w Q - 0 1";

async fn a_bot_resigns_a_hopeless_position_and_judges_draw_offers() {
    // A draw is offered right after one's own move: the bot's pause leaves time.
    let server = start_with(Backend::Sqlite, |c| c.bot_think_ms = 1_000).await;
    let human = server.guest().await;
    let mut ws = human.ws().await;
    // Lost for the bot: it takes a draw offered after its first move.
    let (t, _) = play_computer(
        &mut ws,
        json!({"game": "chess", "level": 5, "colour": "white", "time": {"kind": "none"},
               "setup": {"position": LOST_FOR_BLACK}}),
    )
    .await;
    ws.ok("move", json!({"table": t, "action": "b2b3"})).await;
    while ws.state()["game"]["turn"]["seat"] != 0 {
        ws.recv().await;
    }
    ws.ok("move", json!({"table": t, "action": "b3b2"})).await;
    ws.ok("draw.offer", json!({"table": t})).await;
    while ws.state()["status"] != "over" {
        ws.recv().await;
    }
    let outcome = &ws.state()["game"]["outcome"];
    assert_eq!(
        outcome["results"],
        json!(["draw", "draw"]),
        "a draw: {outcome}"
    );
    assert_eq!(outcome["reason"], "agreement", "{outcome}");

    // The same position played on: it resigns after four hopeless judgements,
    // long before it could be mated.
    let mut ws = human.ws().await;
    let (t, _) = play_computer(
        &mut ws,
        json!({"game": "chess", "level": 5, "colour": "white", "time": {"kind": "none"},
               "setup": {"position": LOST_FOR_BLACK}}),
    )
    .await;
    // The white king walks away (no position repeats; Black's king is far).
    let shuffle = ["e1f1", "f1g1", "g1h1", "h1h2", "h2h3", "h3h4"];
    let mut i = 0;
    while ws.state()["status"] != "over" {
        if ws.state()["game"]["turn"]["seat"] == 0 {
            ws.ok("move", json!({"table": t, "action": shuffle[i]}))
                .await;
            i += 1;
        } else {
            ws.recv().await;
        }
    }
    let outcome = &ws.state()["game"]["outcome"];
    assert_eq!(outcome["reason"], "resignation", "{outcome}");
    assert_eq!(outcome["results"][0], "win", "{outcome}");
    assert_eq!(i, 4, "it resigned on its fourth move: {outcome}");

    // Winning for the bot (it has a rook, and has judged so on its first move):
    // a draw offer is declined.
    let mut ws = human.ws().await;
    let (t, _) = play_computer(
        &mut ws,
        json!({"game": "chess", "level": 5, "colour": "white", "time": {"kind": "none"},
               "setup": {"position": "4k3/r7/8/8/8/8/8/4K3 b - - 0 1"}}),
    )
    .await;
    while ws.state()["game"]["turn"]["seat"] != 0 {
        ws.recv().await;
    }
    let st = ws.state().clone();
    let legal = st["game"]["board"]["legal_moves"][0]
        .as_str()
        .unwrap()
        .to_string();
    ws.ok("move", json!({"table": t, "action": legal})).await;
    ws.ok("draw.offer", json!({"table": t})).await;
    let declined = ws.event("draw_declined").await;
    assert!(has_event(&declined, "draw_declined"), "{declined}");
    assert_eq!(ws.state()["status"], "playing");
}

async fn a_bot_grants_a_takeback_in_a_casual_game() {
    // A pause long enough for the request to come before the bot's reply.
    let server = start_with(Backend::Sqlite, |c| c.bot_think_ms = 1_500).await;
    let human = server.guest().await;
    let mut ws = human.ws().await;
    let (t, _) = play_computer(
        &mut ws,
        json!({"game": "chess", "level": 1, "colour": "white", "time": {"kind": "none"}}),
    )
    .await;
    ws.ok("move", json!({"table": t, "action": "e2e4"})).await;
    ws.ok("takeback.request", json!({"table": t})).await;
    let back = ws.event("took_back").await;
    assert!(has_event(&back, "took_back"), "{back}");
    while ws.state()["game"]["moves"]
        .as_array()
        .is_some_and(|m| m.first().is_some_and(|m| m["action"] == "e2e4"))
    {
        ws.recv().await;
    }
    assert_eq!(ws.state()["game"]["turn"]["seat"], 0, "White to move again");
}

async fn a_bot_keeps_within_its_clock() {
    let server = start_with(Backend::Sqlite, |c| c.bot_think_ms = 0).await;
    let human = server.guest().await;
    let mut ws = human.ws().await;
    // Level 8 has no cap of its own: only the clock bounds it.
    let (t, _) = play_computer(
        &mut ws,
        json!({"game": "chess", "level": 8, "colour": "black",
               "time": {"kind": "fischer", "base": 6_000, "increment": 0}}),
    )
    .await;
    let mut moves = 0;
    while moves < 10 && ws.state()["status"] == "playing" {
        let st = ws.state().clone();
        match first_legal(&st["game"], 1) {
            Some(m) => {
                ws.ok("move", json!({"table": t, "action": m})).await;
                moves += 1;
            }
            None => {
                ws.recv().await;
            }
        }
    }
    while ws.state()["game"]["turn"]["seat"] != 1 && ws.state()["status"] == "playing" {
        ws.recv().await;
    }
    let st = ws.state().clone();
    let left = st["game"]["clock"]["seats"][0]["main"].as_u64().unwrap();
    assert!(
        left > 3_000,
        "after 10 moves the bot has used less than half its 6 s: {left} ms left, {}",
        st["game"]["clock"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_against_the_computer() {
    every_game_is_played_to_its_end_against_the_computer().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resigning_and_draw_offers() {
    a_bot_resigns_a_hopeless_position_and_judges_draw_offers().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn takebacks() {
    a_bot_grants_a_takeback_in_a_casual_game().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clocks() {
    a_bot_keeps_within_its_clock().await
}

/// Go: a human who passes early and marks every one of the computer's stones
/// dead does not win by it. The computer accepts only a marking its own
/// judgement of life and death accepts: it marks its living stones alive
/// again, and the game ends only on a marking it agrees with.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_go_computer_accepts_no_marking_that_kills_its_living_stones() {
    let server = start_with(Backend::Sqlite, |c| c.bot_think_ms = 0).await;
    let human = server.guest().await;
    let mut ws = human.ws().await;
    let (t, seat) = play_computer(
        &mut ws,
        json!({"game": "go", "level": 2, "colour": "black",
               "options": {"size": 9, "komi": 7.5, "handicap": 0},
               "time": {"kind": "none"}}),
    )
    .await;
    assert_eq!(seat, 0);
    let mut marked_all = 0;
    let mut acts = 0;
    loop {
        let st = ws.state().clone();
        if st["status"] == "over" {
            break;
        }
        let g = &st["game"];
        let board = &g["board"];
        let action = match board["phase"].as_str() {
            // A few stones, then pass at once.
            Some("play") if g["turn"]["seat"] == 0 => Some(
                ["E5", "C3", "G7"]
                    .get(acts)
                    .map_or("pass".to_string(), |m| m.to_string()),
            ),
            Some("marking") if board["marking"]["accepted"][0] == false => {
                // Every white stone dead, then accept.
                let dead: Vec<&str> = board["marking"]["dead"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter_map(|v| v.as_str())
                    .collect();
                let size = 9;
                let rows = board["board"].as_array().unwrap();
                let mut white_alive = None;
                for (r, row) in rows.iter().enumerate() {
                    for (c, ch) in row.as_str().unwrap().chars().enumerate() {
                        let col = "ABCDEFGHJ".as_bytes()[c] as char;
                        let v = format!("{col}{}", size - r);
                        if ch == 'O' && !dead.contains(&v.as_str()) {
                            white_alive = Some(v);
                        }
                    }
                }
                match white_alive {
                    Some(v) => Some(format!("dead {v}")),
                    None => {
                        marked_all += 1;
                        Some("accept".into())
                    }
                }
            }
            _ => None,
        };
        match action {
            Some(a) if acts < 60 => {
                let r = ws.act("move", json!({"table": t, "action": a})).await;
                assert!(
                    r["t"] == "ack"
                        || r["d"]["code"] == "game_over"
                        || r["d"]["code"] == "wrong_phase",
                    "{a} refused: {r}"
                );
                acts += 1;
            }
            Some(_) => break,
            None => {
                ws.recv().await;
            }
        }
    }
    let st = ws.state().clone();
    let result = st["game"]["board"]["result"].as_str().unwrap_or_default();
    assert!(
        marked_all > 0,
        "the human never had every white stone marked dead: {st}"
    );
    assert!(
        !result.starts_with("B+"),
        "the human won by marking the computer's stones dead: {result} {}",
        st["game"]["board"]
    );
}
