//! Every way a chess game ends, against rated, casual and loaded-position (读入)
//! games through the real server: ratings move, and the game counts as rated,
//! only for a rated game from the standard position. The attack this reproduces:
//! a claimed draw (threefold, fifty moves) in a casual game or from a loaded
//! position used to count as rated and move both ratings. And the caps on one
//! person's tables: those nobody plays at, and those held at once of any kind.

use std::collections::HashMap;

use qiyuan_chess::{ChessGame, ChessOptions};
use qiyuan_game::{Game, Seat, Setup, Turn};
use serde_json::{Value, json};

use crate::common::*;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[derive(Debug, Clone)]
enum Finish {
    /// The moves end the game by the rules.
    Moves,
    /// Black resigns.
    Resign,
    /// The server flags White.
    Timeout,
    /// White offers a draw after its move; Black accepts.
    Agreement,
    /// The side to move claims.
    Claim(&'static str),
    /// White aborts before anyone moved.
    Abort,
    /// White's socket goes and does not come back.
    Escape,
}

struct Case {
    name: &'static str,
    moves: Vec<String>,
    finish: Finish,
    reason: &'static str,
    /// Played under the tables' default chess rules (a threefold repetition draws by
    /// itself); the other cases use FIDE's claim rule, so that a claim is a claim.
    automatic: bool,
}

/// The chess options of a case, as the rules crate and as the table take them.
fn rules(automatic: bool) -> (ChessOptions, Value) {
    if automatic {
        (ChessOptions::default(), json!({}))
    } else {
        (ChessOptions::fide(), json!({"repetition": "claim"}))
    }
}

fn moves(list: &[&str]) -> Vec<String> {
    list.iter().map(|m| m.to_string()).collect()
}

/// Plays `moves` on the chess rules from the start, returning the game.
fn play(moves: &[String], automatic: bool) -> ChessGame {
    let mut g = ChessGame::new(&rules(automatic).0, &Setup::Standard).unwrap();
    for m in moves {
        let Turn::Seat(s) = g.turn() else {
            panic!("over before {m}")
        };
        g.act(s, m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    g
}

/// A position's identity for repetition (the FEN without its move counters).
fn key(g: &ChessGame) -> String {
    g.fen().split(' ').take(4).collect::<Vec<_>>().join(" ")
}

/// 100 plies from the start with no pawn move and no capture, never repeating a
/// position three times: the fifty-move rule may be claimed after them.
fn fifty_quiet_moves() -> Vec<String> {
    let mut g = ChessGame::new(&ChessOptions::fide(), &Setup::Standard).unwrap();
    let mut seen: HashMap<String, u32> = HashMap::from([(key(&g), 1)]);
    let mut out = Vec::new();
    while out.len() < 100 {
        let Turn::Seat(s) = g.turn() else {
            panic!("the game ended")
        };
        let mut best: Option<(u32, String, ChessGame)> = None;
        for m in g.legal_actions(s) {
            let mut next = g.clone();
            let fx = next.act(s, &m).unwrap();
            let piece = fx.display.starts_with(|c: char| c.is_ascii_uppercase());
            // No check either, so that the other side always has a quiet reply.
            if fx.capture || fx.check || !piece || next.outcome().is_some() {
                continue;
            }
            let n = seen.get(&key(&next)).copied().unwrap_or(0);
            if best.as_ref().is_none_or(|(b, _, _)| n < *b) {
                best = Some((n, m, next));
            }
        }
        let (n, m, next) = best.expect("a quiet move");
        assert!(n < 2, "no quiet move avoids a threefold repetition");
        g = next;
        *seen.entry(key(&g)).or_insert(0) += 1;
        out.push(m);
    }
    assert!(
        g.claims(Seat((out.len() % 2) as u8))
            .contains(&qiyuan_game::Claim::FiftyMoves)
    );
    out
}

/// A game from the start that ends by insufficient material: seeded playouts
/// that capture whenever they can.
fn insufficient_material_game() -> Vec<String> {
    for seed in 1..10_000u64 {
        let mut rng = qiyuan_doudizhu::rng::SplitMix64::new(seed);
        let mut g = ChessGame::new(&Default::default(), &Setup::Standard).unwrap();
        let mut out = Vec::new();
        while let Turn::Seat(s) = g.turn() {
            if out.len() > 400 {
                break;
            }
            let legal = g.legal_actions(s);
            let captures: Vec<&String> = legal
                .iter()
                .filter(|m| g.clone().act(s, m).unwrap().capture)
                .collect();
            let pick = if captures.is_empty() {
                legal[rng.below(legal.len() as u64) as usize].clone()
            } else {
                captures[rng.below(captures.len() as u64) as usize].clone()
            };
            g.act(s, &pick).unwrap();
            out.push(pick);
        }
        if g.outcome()
            .is_some_and(|o| o.reason == qiyuan_game::EndReason::InsufficientMaterial)
        {
            return out;
        }
    }
    panic!("no playout ended by insufficient material")
}

fn cases() -> Vec<Case> {
    let knights = moves(&[
        "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
    ]);
    // Sam Loyd's ten-move stalemate.
    let stalemate = moves(&[
        "e2e3", "a7a5", "d1h5", "a8a6", "h5a5", "h7h5", "h2h4", "a6h6", "a5c7", "f7f6", "c7d7",
        "e8f7", "d7b7", "d8d3", "b7b8", "d3h7", "b8c8", "f7g6", "c8e6",
    ]);
    let cases = vec![
        Case {
            name: "checkmate",
            moves: moves(&["f2f3", "e7e5", "g2g4", "d8h4"]),
            finish: Finish::Moves,
            reason: "checkmate",
            automatic: false,
        },
        Case {
            name: "resignation",
            moves: moves(&["e2e4", "e7e5"]),
            finish: Finish::Resign,
            reason: "resignation",
            automatic: false,
        },
        Case {
            name: "timeout",
            moves: moves(&["e2e4", "e7e5"]),
            finish: Finish::Timeout,
            reason: "timeout",
            automatic: false,
        },
        Case {
            name: "agreement",
            moves: moves(&["e2e4", "e7e5", "g1f3"]),
            finish: Finish::Agreement,
            reason: "agreement",
            automatic: false,
        },
        Case {
            name: "threefold",
            moves: knights.clone(),
            finish: Finish::Claim("threefold_repetition"),
            reason: "threefold_repetition",
            automatic: false,
        },
        Case {
            name: "automatic threefold",
            moves: knights,
            finish: Finish::Moves,
            reason: "threefold_repetition",
            automatic: true,
        },
        Case {
            name: "fifty moves",
            moves: fifty_quiet_moves(),
            finish: Finish::Claim("fifty_moves"),
            reason: "fifty_moves",
            automatic: false,
        },
        Case {
            name: "stalemate",
            moves: stalemate,
            finish: Finish::Moves,
            reason: "stalemate",
            automatic: false,
        },
        Case {
            name: "insufficient material",
            moves: insufficient_material_game(),
            finish: Finish::Moves,
            reason: "insufficient_material",
            automatic: false,
        },
        Case {
            name: "abort",
            moves: Vec::new(),
            finish: Finish::Abort,
            reason: "aborted",
            automatic: false,
        },
        Case {
            name: "escape",
            moves: moves(&["d2d4", "d7d5"]),
            finish: Finish::Escape,
            reason: "escape",
            automatic: false,
        },
    ];
    // The rules agree with each sequence before the server sees it.
    for c in &cases {
        let g = play(&c.moves, c.automatic);
        if matches!(c.finish, Finish::Moves) {
            let reason = serde_json::to_value(g.outcome().expect("ended").reason).unwrap();
            assert_eq!(reason, c.reason, "{}", c.name);
        } else {
            assert!(g.outcome().is_none(), "{} ends early", c.name);
        }
    }
    cases
}

/// Games each account has had rated, over every pool.
async fn rated_games(c: &Client) -> i64 {
    let me: Value = c.get("/api/account/me").await.json().await.unwrap();
    me["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["games"].as_i64().unwrap())
        .sum()
}

/// Plays `case` at a new table of the given kind; returns the `ended` event and
/// the table id.
async fn play_case(
    a: &Client,
    b: &Client,
    case: &Case,
    rated: bool,
    loaded: bool,
) -> (Value, String) {
    let time = match case.finish {
        Finish::Timeout => json!({"kind": "fischer", "base": 1500, "increment": 0}),
        _ => json!({"kind": "fischer", "base": 600_000, "increment": 0}),
    };
    let mut create = json!({"game": "chess", "time": time, "seat": 0, "rated": rated,
                            "options": rules(case.automatic).1});
    if loaded {
        // The standard position itself, loaded: still a loaded game.
        create["setup"] = json!({"position": START});
    }
    let mut wa = a.ws().await;
    let mut wb = b.ws().await;
    let t = wa.create(create).await;
    wb.ok("sit", json!({"table": t, "seat": 1})).await;
    wa.ok("ready", json!({"table": t})).await;
    wb.ok("ready", json!({"table": t})).await;
    let mut last = Value::Null;
    for (i, m) in case.moves.iter().enumerate() {
        let w = if i % 2 == 0 { &mut wa } else { &mut wb };
        last = w.ok("move", json!({"table": t, "action": m})).await;
    }
    let seat_to_move = case.moves.len() % 2;
    let ended_by = |v: &Value| has_event(v, "ended");
    let end = match &case.finish {
        Finish::Moves => {
            assert_eq!(last["t"], "ack");
            None
        }
        Finish::Resign => {
            wb.ok("resign", json!({"table": t})).await;
            None
        }
        Finish::Timeout => None,
        Finish::Agreement => {
            wa.ok("draw.offer", json!({"table": t})).await;
            wb.ok("draw.accept", json!({"table": t})).await;
            None
        }
        Finish::Claim(claim) => {
            let w = if seat_to_move == 0 { &mut wa } else { &mut wb };
            w.ok("claim", json!({"table": t, "claim": claim})).await;
            None
        }
        Finish::Abort => {
            wa.ok("abort", json!({"table": t})).await;
            None
        }
        Finish::Escape => {
            wa.close().await;
            Some(wb.event("ended").await)
        }
    };
    let end = match end {
        Some(e) => e,
        None => {
            // Black's socket sees every batch; find the one that ended the game.
            match wb.seen.iter().find(|m| ended_by(m)).cloned() {
                Some(e) => e,
                None => wb.event("ended").await,
            }
        }
    };
    (end, t)
}

async fn every_end_is_rated_only_when_rated_from_the_start(backend: Backend) {
    let server = start(backend).await;
    let a = server.register("endsWhite").await;
    let b = server.register("endsBlack").await;
    for case in cases() {
        for (kind, rated, loaded) in [
            ("rated", true, false),
            ("casual", false, false),
            ("loaded", true, true),
        ] {
            let what = format!("{kind} game ended by {}", case.name);
            let before = (rated_games(&a).await, rated_games(&b).await);
            let (end, t) = play_case(&a, &b, &case, rated, loaded).await;
            let ended = end["d"]["events"]
                .as_array()
                .unwrap()
                .iter()
                .find(|e| e["type"] == "ended")
                .cloned()
                .unwrap();
            assert_eq!(ended["outcome"]["reason"], case.reason, "{what}: {end}");
            let counts = rated && !loaded && case.reason != "aborted";
            assert_eq!(ended["rated"], counts, "{what}: {end}");
            assert_eq!(
                end["d"]["ratings"].is_array(),
                counts,
                "{what}: rating changes {end}"
            );
            let after = (rated_games(&a).await, rated_games(&b).await);
            let n = i64::from(counts);
            assert_eq!(after, (before.0 + n, before.1 + n), "{what}: rating rows");
            let game: Value = a.get(&format!("/api/game/{t}")).await.json().await.unwrap();
            assert_eq!(
                game["stored"]["rated"],
                rated && !loaded,
                "{what}: the stored game says whether it counted: {game}"
            );
            let state_rated = &end["d"]["state"]["game"]["rated"];
            assert_eq!(state_rated, &json!(counts), "{what}");
            if kind == "rated" && counts {
                let diff = end["d"]["ratings"][0]["diff"].as_i64().unwrap();
                let reason = case.reason;
                if matches!(
                    reason,
                    "agreement"
                        | "threefold_repetition"
                        | "fifty_moves"
                        | "stalemate"
                        | "insufficient_material"
                ) {
                    assert!(
                        diff.abs() < 85,
                        "{what}: a draw between equals moved {diff}"
                    );
                }
            }
        }
    }
}

/// `create` with a seat the game does not have creates no table: nothing in the
/// lobby, nothing stored.
async fn refused_create_leaves_nothing(backend: Backend) {
    let server = start(backend).await;
    let a = server.guest().await;
    let mut wa = a.ws().await;
    for (game, seat) in [("chess", 2), ("doudizhu", 3), ("go", 7)] {
        let r = wa
            .act(
                "create",
                json!({"game": game, "seat": seat, "time": {"kind": "none"}}),
            )
            .await;
        assert_eq!(r["t"], "error", "{r}");
        assert_eq!(r["d"]["code"], "no_such_seat", "{r}");
        let lobby = a
            .get(&format!("/api/lobby/{game}"))
            .await
            .text()
            .await
            .unwrap();
        assert!(
            !lobby.contains("\"invite\""),
            "an orphan table in the {game} lobby: {lobby}"
        );
    }
    let app = &server.running.as_ref().unwrap().app;
    assert!(app.tables.is_empty(), "no live table");
    assert!(
        app.store.open_tables().await.unwrap().is_empty(),
        "no stored table"
    );
    // Over HTTP too.
    let resp = a
        .http
        .post(format!("{}/api/tables", a.base))
        .bearer_auth(&a.token)
        .json(&json!({"game": "chess", "seat": 5}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 400);
    assert!(app.store.open_tables().await.unwrap().is_empty());
}

/// One user may keep only so many open tables where no game is being played (5
/// by default); a table where a game starts frees its place.
async fn open_tables_per_user_are_capped(backend: Backend) {
    let server = start(backend).await;
    let a = server.guest().await;
    let b = server.guest().await;
    let mut wa = a.ws().await;
    let mut tables = Vec::new();
    for _ in 0..5 {
        tables.push(
            wa.create(json!({"game": "chess", "seat": 0, "time": {"kind": "none"}}))
                .await,
        );
    }
    let r = wa
        .act("create", json!({"game": "chess", "time": {"kind": "none"}}))
        .await;
    assert_eq!(r["d"]["code"], "too_many_tables", "{r}");
    let resp = a
        .http
        .post(format!("{}/api/tables", a.base))
        .bearer_auth(&a.token)
        .json(&json!({"game": "go"}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 429);
    let app = &server.running.as_ref().unwrap().app;
    assert_eq!(app.tables.len(), 5, "the refused creations made nothing");
    // Someone else is not held back.
    let mut wb = b.ws().await;
    wb.create(json!({"game": "chess", "time": {"kind": "none"}}))
        .await;
    // A game at one of them frees a place.
    wb.ok("sit", json!({"table": tables[0], "seat": 1})).await;
    wa.ok("ready", json!({"table": tables[0]})).await;
    wb.ok("ready", json!({"table": tables[0]})).await;
    wa.event("started").await;
    wa.create(json!({"game": "chess", "time": {"kind": "none"}}))
        .await;
    let r = wa
        .act("create", json!({"game": "chess", "time": {"kind": "none"}}))
        .await;
    assert_eq!(r["d"]["code"], "too_many_tables", "{r}");
    // A burst of creations at once cannot pass the cap either.
    let c = server.guest().await;
    let mut sockets = Vec::new();
    for _ in 0..10 {
        sockets.push(c.ws().await);
    }
    let results = futures_util::future::join_all(
        sockets
            .iter_mut()
            .map(|w| w.act("create", json!({"game": "chess", "time": {"kind": "none"}}))),
    )
    .await;
    let made = results.iter().filter(|r| r["t"] == "ack").count();
    assert_eq!(made, 5, "{results:?}");
}

/// The cap is a setting; 0 means none.
async fn the_table_cap_is_configurable(backend: Backend) {
    let server = start_with(backend, |c| c.max_idle_tables_per_user = 0).await;
    let a = server.guest().await;
    let mut wa = a.ws().await;
    for _ in 0..8 {
        wa.create(json!({"game": "go", "time": {"kind": "none"}}))
            .await;
    }
    let server = start_with(backend, |c| c.max_idle_tables_per_user = 1).await;
    let a = server.guest().await;
    let mut wa = a.ws().await;
    wa.create(json!({"game": "go", "time": {"kind": "none"}}))
        .await;
    let r = wa
        .act("create", json!({"game": "go", "time": {"kind": "none"}}))
        .await;
    assert_eq!(r["d"]["code"], "too_many_tables", "{r}");
}

/// The table a `play_computer`, `hotseat` or `create` acknowledged.
fn table_of(ack: &Value) -> String {
    ack["d"]["table"].as_str().expect("a table").to_string()
}

/// One person holds at most `max_tables_per_user` live tables at once (10 by
/// default), whatever kinds they mix: public and private games against the
/// computer, the API's AI challenge, hot-seat, a table they opened, a seat at
/// someone else's. Every way to one more is refused with `too_many_tables`
/// (`429` over HTTP) and makes nothing; a burst cannot pass the cap; leaving a
/// table or a game's end frees its place, and a rematch needs one; games
/// against the computer are not in the lobby.
async fn one_person_holds_at_most_the_cap_of_tables(backend: Backend) {
    let server = start_with(backend, |c| c.bot_think_ms = 0).await;
    let app = server.running.as_ref().unwrap().app.clone();
    assert_eq!(app.config.max_tables_per_user, 10, "the documented default");
    let g = server.guest().await;
    let host = server.guest().await;
    let mut wg = g.ws().await;
    let mut wh = host.ws().await;
    let none = json!({"kind": "none"});
    let computer = |private: bool| json!({"game": "chess", "level": 1, "colour": 0, "time": none, "private": private});
    let ai = || {
        g.http
            .post(format!("{}/api/challenge/ai", g.base))
            .bearer_auth(&g.token)
            .form(&[("level", "1")])
            .send()
    };
    let mut against_computer = Vec::new();
    for private in [false, false, true, true] {
        against_computer.push(table_of(&wg.ok("play_computer", computer(private)).await));
    }
    let r = ai().await.unwrap();
    assert_eq!(r.status(), 200);
    let game: Value = r.json().await.unwrap();
    against_computer.push(game["id"].as_str().unwrap().to_string());
    wg.ok("hotseat", json!({"game": "xiangqi"})).await;
    wg.ok(
        "hotseat",
        json!({"game": "go", "options": {"size": 9, "komi": 7.5, "handicap": 0}}),
    )
    .await;
    wg.create(json!({"game": "chess", "seat": 0, "time": none}))
        .await;
    wg.create(json!({"game": "xiangqi", "time": none})).await;
    let theirs = wh
        .create(json!({"game": "chess", "seat": 0, "time": none}))
        .await;
    let other = wh
        .create(json!({"game": "go", "seat": 0, "time": none}))
        .await;
    wg.ok("sit", json!({"table": theirs, "seat": 1})).await;
    assert_eq!(app.tables.tables_held_by(&g.name), 10);

    // Every way to an eleventh is refused, and makes nothing.
    let made = app.tables.len();
    let refused = |r: &Value| assert_eq!(r["d"]["code"], "too_many_tables", "{r}");
    refused(&wg.act("play_computer", computer(false)).await);
    refused(&wg.act("play_computer", computer(true)).await);
    refused(&wg.act("hotseat", json!({"game": "chess"})).await);
    refused(
        &wg.act("create", json!({"game": "chess", "time": none}))
            .await,
    );
    refused(&wg.act("sit", json!({"table": other, "seat": 1})).await);
    let seek = json!({"game": "chess", "rated": false,
                      "time": {"kind": "fischer", "base": 60_000, "increment": 0}});
    refused(&wg.act("seek", seek).await);
    let r = g
        .http
        .post(format!("{}/api/tables", g.base))
        .bearer_auth(&g.token)
        .json(&json!({"game": "go"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 429);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"]["code"], "too_many_tables", "{body}");
    assert_eq!(ai().await.unwrap().status(), 429);
    assert_eq!(app.tables.len(), made, "the refusals made nothing");
    assert_eq!(app.tables.tables_held_by(&g.name), 10);
    // Someone else is not held back.
    wh.ok("play_computer", computer(false)).await;
    // Leaving a table frees its place, for one more.
    wg.ok("leave", json!({"table": theirs})).await;
    wg.ok("play_computer", computer(false)).await;
    refused(&wg.act("play_computer", computer(false)).await);
    // So does a game's end (a finished game's table one sits on at holds
    // nothing); asking for the next game there is one more again.
    let first = against_computer[0].clone();
    wg.ok("resign", json!({"table": first})).await;
    assert_eq!(app.tables.tables_held_by(&g.name), 9);
    wg.ok("play_computer", computer(true)).await;
    refused(&wg.act("rematch", json!({"table": first})).await);
    refused(&wg.act("ready", json!({"table": first})).await);
    assert_eq!(app.tables.tables_held_by(&g.name), 10);
    // Games against the computer are not in the lobby; a table people can
    // join is.
    let lobby = g.get("/api/lobby/chess").await.text().await.unwrap();
    assert!(lobby.contains(&theirs), "{lobby}");
    for id in &against_computer {
        assert!(!lobby.contains(id.as_str()), "{id}: {lobby}");
    }

    // A burst of twelve at once from another person: ten are made.
    let c = server.guest().await;
    let mut sockets = Vec::new();
    for _ in 0..12 {
        sockets.push(c.ws().await);
    }
    let results = futures_util::future::join_all(
        sockets
            .iter_mut()
            .map(|w| w.act("play_computer", computer(false))),
    )
    .await;
    let acks = results.iter().filter(|r| r["t"] == "ack").count();
    assert_eq!(acks, 10, "{results:?}");
    for r in results.iter().filter(|r| r["t"] != "ack") {
        refused(r);
    }
    assert_eq!(app.tables.tables_held_by(&c.name), 10);
}

/// The cap on tables held is a setting; 0 means none.
async fn the_cap_on_tables_held_is_configurable(backend: Backend) {
    let server = start_with(backend, |c| {
        c.max_tables_per_user = 2;
        c.bot_think_ms = 0;
    })
    .await;
    let g = server.guest().await;
    let mut wg = g.ws().await;
    wg.ok("hotseat", json!({"game": "chess"})).await;
    wg.ok("hotseat", json!({"game": "chess"})).await;
    let r = wg.act("hotseat", json!({"game": "chess"})).await;
    assert_eq!(r["d"]["code"], "too_many_tables", "{r}");
    let server = start_with(backend, |c| c.max_tables_per_user = 0).await;
    let g = server.guest().await;
    let mut wg = g.ws().await;
    for _ in 0..12 {
        wg.ok("hotseat", json!({"game": "chess"})).await;
    }
}

both!(
    one_person_holds_at_most_the_cap_of_tables,
    the_cap_on_tables_held_is_configurable,
    every_end_is_rated_only_when_rated_from_the_start,
    refused_create_leaves_nothing,
    open_tables_per_user_are_capped,
    the_table_cap_is_configurable
);
