//! External engines as computer players, over real WebSockets against the real
//! server: Debian's Stockfish plays chess, Fairy-Stockfish xiangqi (UCI,
//! `UCI_Variant xiangqi`) and GNU Go 9×9 Go (GTP), each game to its end against a
//! test client making legal moves; Stockfish's process is killed mid-game, is
//! started again, and the game goes on. The engines' answers are counted, so a
//! move the built-in player made in their place would show.
#![cfg(all(feature = "chess", feature = "xiangqi", feature = "go"))]

use qiyuan_server::Config;
use serde_json::{Value, json};

use crate::common::*;

const ENGINES: &str = r#"
[[engines]]
name = "stockfish"
path = "/usr/games/stockfish"
protocol = "uci"
games = ["chess"]
options = { Threads = 1, Hash = 16 }
movetime_ms = 50
processes = 1

[[engines]]
name = "fairy"
path = "/usr/games/fairy-stockfish"
protocol = "uci"
games = ["xiangqi"]
options = { Threads = 1, Hash = 16 }
movetime_ms = 50
processes = 1

[[engines]]
name = "gnugo"
path = "/usr/games/gnugo"
args = ["--mode", "gtp", "--level", "1", "--chinese-rules"]
protocol = "gtp"
games = ["go"]
movetime_ms = 2000
processes = 1
"#;

async fn server() -> TestServer {
    start_with(Backend::Sqlite, |c| {
        c.bot_think_ms = 0;
        c.engines = Config::parse(ENGINES).unwrap().engines;
    })
    .await
}

fn engines(server: &TestServer) -> &qiyuan_server::engines::Engines {
    &server.running.as_ref().unwrap().app.engines
}

/// The actions of `seat` in the game's move list.
fn moves_by(st: &Value, seat: u64) -> usize {
    st["game"]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["seat"] == seat)
        .count()
}

/// Plays the first legal move for `seat` whenever it is its turn, until the
/// game is over or `until` holds; returns the latest state.
async fn play_first_legal(
    ws: &mut Ws,
    t: &str,
    seat: u64,
    until: impl Fn(&Value) -> bool,
) -> Value {
    let mut n = 0;
    loop {
        let st = ws.state().clone();
        if st["status"] == "over" || until(&st) {
            return st;
        }
        let g = &st["game"];
        match g["board"]["legal_moves"][0].as_str() {
            Some(m) if g["turn"]["seat"] == seat => {
                ws.ok("move", json!({"table": t, "action": m})).await;
                n += 1;
                assert!(n < 300, "the game never ended");
            }
            _ => {
                ws.recv().await;
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stockfish_killed_mid_game_is_restarted_and_the_game_goes_on() {
    let server = server().await;
    let games: Value = server
        .guest()
        .await
        .get("/api/games")
        .await
        .json()
        .await
        .unwrap();
    let chess = games
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "chess")
        .unwrap();
    assert_eq!(chess["bots"][8], "stockfish", "{chess}");
    assert_eq!(chess["bot_levels"][8]["engine"], "stockfish");

    let human = server.guest().await;
    let mut ws = human.ws().await;
    let (t, seat) = play_computer(
        &mut ws,
        json!({"game": "chess", "level": "stockfish", "colour": "black", "time": {"kind": "none"}}),
    )
    .await;
    assert_eq!(seat, 1);
    let st = play_first_legal(&mut ws, &t, seat, |st| moves_by(st, 0) >= 3).await;
    assert_eq!(st["status"], "playing", "{st}");
    let served = engines(&server).served("stockfish");
    assert_eq!(served, 3, "Stockfish made White's three moves");
    let pids = engines(&server).pids("stockfish");
    assert_eq!(pids.len(), 1, "one process: {pids:?}");
    let killed = std::process::Command::new("kill")
        .args(["-KILL", &pids[0].to_string()])
        .status()
        .unwrap();
    assert!(killed.success());

    let end = play_first_legal(&mut ws, &t, seat, |_| false).await;
    let outcome = &end["game"]["outcome"];
    assert_eq!(outcome["results"][0], "win", "Stockfish wins: {outcome}");
    let white = moves_by(&end, 0) as u64;
    assert!(white > 3, "the game went on after the kill");
    assert_eq!(
        engines(&server).served("stockfish"),
        white,
        "Stockfish, restarted, made every White move"
    );
    let now = engines(&server).pids("stockfish");
    assert_eq!(now.len(), 1, "{now:?}");
    assert_ne!(now[0], pids[0], "a new process");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fairy_stockfish_plays_xiangqi_to_the_end() {
    let server = server().await;
    let human = server.guest().await;
    let mut ws = human.ws().await;
    let (t, seat) = play_computer(
        &mut ws,
        json!({"game": "xiangqi", "level": "fairy", "colour": "red", "time": {"kind": "none"}}),
    )
    .await;
    let end = play_first_legal(&mut ws, &t, seat, |_| false).await;
    let outcome = &end["game"]["outcome"];
    assert_eq!(
        outcome["results"][1], "win",
        "Fairy-Stockfish wins: {outcome}"
    );
    assert_eq!(
        engines(&server).served("fairy") as usize,
        moves_by(&end, 1),
        "every Black move was Fairy-Stockfish's, in its coordinates"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gnu_go_plays_nine_by_nine_to_the_count() {
    let server = server().await;
    let human = server.guest().await;
    let mut ws = human.ws().await;
    // Two handicap stones and half a point of komi: White must play to win.
    let (t, seat) = play_computer(
        &mut ws,
        json!({"game": "go", "level": "gnugo", "colour": "black", "time": {"kind": "none"},
               "options": {"size": 9, "komi": 0.5, "handicap": 2}}),
    )
    .await;
    assert_eq!(seat, 0);
    let mut passes = 0;
    let end = loop {
        let st = ws.state().clone();
        if st["status"] == "over" {
            break st;
        }
        let g = &st["game"];
        let action = match g["phase"].as_str() {
            Some("play") if g["turn"]["seat"] == 0 => Some("pass"),
            Some("marking") if g["board"]["marking"]["accepted"][0] == false => Some("accept"),
            _ => None,
        };
        match action {
            Some(a) => {
                ws.ok("move", json!({"table": t, "action": a})).await;
                passes += 1;
                assert!(passes < 200, "the game never ended");
            }
            None => {
                ws.recv().await;
            }
        }
    };
    let g = &end["game"];
    assert!(
        g["board"]["result"]
            .as_str()
            .is_some_and(|r| r.starts_with("W+")),
        "GNU Go wins: {g}"
    );
    // GNU Go's moves in play (the marking's acceptance is the built-in player's).
    let white_moves = g["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["seat"] == 1 && m["action"] != "accept")
        .count();
    assert!(white_moves > 3, "{g}");
    assert_eq!(engines(&server).served("gnugo") as usize, white_moves);
}

/// An engine that never answers (`sleep` speaks no UCI): each move waits at most
/// its start-up time, then the game's built-in player moves instead, and after
/// one failed start the engine is left alone, so the next moves are prompt.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_that_never_answers_is_stood_in_for() {
    let server = start_with(Backend::Sqlite, |c| {
        c.bot_think_ms = 0;
        c.engines = Config::parse(
            r#"
            [[engines]]
            name = "mute"
            path = "/bin/sleep"
            args = ["600"]
            protocol = "uci"
            games = ["chess"]
            startup_ms = 300
            movetime_ms = 100
            "#,
        )
        .unwrap()
        .engines;
    })
    .await;
    let human = server.guest().await;
    let mut ws = human.ws().await;
    let started = std::time::Instant::now();
    let (t, seat) = play_computer(
        &mut ws,
        json!({"game": "chess", "level": "mute", "colour": "black",
               "time": {"kind": "fischer", "base": 30_000, "increment": 0}}),
    )
    .await;
    let st = play_first_legal(&mut ws, &t, seat, |st| moves_by(st, 0) >= 3).await;
    assert_eq!(st["status"], "playing", "{st}");
    assert_eq!(moves_by(&st, 0), 3, "White moved three times");
    assert_eq!(
        engines(&server).served("mute"),
        0,
        "the engine answered nothing"
    );
    assert!(engines(&server).pids("mute").is_empty());
    // The built-in player thinks within its clock: 30 s / 30 at most a move.
    assert!(
        started.elapsed() < std::time::Duration::from_secs(8),
        "{:?}",
        started.elapsed()
    );
}

/// UCCI against a real UCCI engine: Fairy-Stockfish speaks UCCI when it is
/// greeted with `ucci` (xiangqi, ICCS coordinates with ranks 0–9). No Debian
/// package speaks only UCCI (ElephantEye is not packaged).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fairy_stockfish_speaks_ucci() {
    let server = start_with(Backend::Sqlite, |c| {
        c.bot_think_ms = 0;
        c.engines = Config::parse(
            r#"
            [[engines]]
            name = "fairy_ucci"
            path = "/usr/games/fairy-stockfish"
            protocol = "ucci"
            games = ["xiangqi"]
            movetime_ms = 50
            processes = 1
            "#,
        )
        .unwrap()
        .engines;
    })
    .await;
    let human = server.guest().await;
    let mut ws = human.ws().await;
    let (t, seat) = play_computer(
        &mut ws,
        json!({"game": "xiangqi", "level": "fairy_ucci", "colour": "red", "time": {"kind": "none"}}),
    )
    .await;
    let st = play_first_legal(&mut ws, &t, seat, |st| moves_by(st, 1) >= 8).await;
    let black = moves_by(&st, 1);
    assert!(black >= 8 || st["status"] == "over", "{st}");
    assert_eq!(
        engines(&server).served("fairy_ucci") as usize,
        black,
        "every Black move was the UCCI engine's"
    );
}
